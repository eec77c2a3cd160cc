#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Metrics in the text results file (docs/stat-output.md, "--format text"): a section of metric
# lines after the events and regions, one per metric and scope (the whole program, a region, a
# region's thread, a unit), with the JSON file's values to the last digit; a metric without a
# value as a comment with its reason.
. "$(dirname "$0")/lib.sh"
require_vpmu

R="$PROGS/vpmu-region"
M=(-M insn_per_cycle -M 'cpb = cycles / branches' -M 'z = instructions / (branches - branches)')
"$PMC" stat --backend=vpmu -r 3 "${M[@]}" -o "$T/r.txt" "$R" 10 1000 2>/dev/null
expect_eq "text: exit status" $? 0
"$PMC" stat --backend=vpmu -r 3 "${M[@]}" --format json -o "$T/r.json" "$R" 10 1000 2>/dev/null
expect_eq "text: the section's two comment lines" "$(grep -A1 '^# Metrics' "$T/r.txt")" \
	"# Metrics (6, 95% confidence level):
# Metric Scope Name Value [conf.int] [percentage] Runs Method [unit]"
# The lines as the JSON file's values would write them (%.17g, the unit's space as %20).
expect_eq "text: the whole program's and the region's lines, the JSON file's values" \
	"$(grep -E '^(insn_per_cycle|cpb) ' "$T/r.txt")" \
	"$(json "$T/r.json" '"\n".join("%s %s %s %.17g %.17g %.3f %d %s%s" % (m["name"], s, n, m["value"], m["ci"], m["ci_pct"], m["n"], m["method"].replace(" ", "%20"), " " + m["unit"].replace(" ", "%20") if m["unit"] else "") for s, n, ms in [("program", "-", j["metrics"]), ("region", "loop", j["regions"][0]["metrics"])] for m in ms if m["name"] != "z")')"
expect_grep "text: a metric without a value is a comment with its reason" \
	"^# z program -: n/a: division by zero" "$T/r.txt"
expect_grep "text: the events' section is as before" "^instructions:W -1 [0-9]+\.0 0\.0 0\.000$" "$T/r.txt"

# A unit's metrics (--per-thread, with tracepoints: vpmu has no threads' values).
E=syscalls:sys_enter_getppid
[ -r /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id ] ||
	fail "no syscalls tracepoints: scripts/setup.sh mounts tracefs"
"$PMC" stat --per-thread -e $E -M "twice = 2 * $E" -o "$T/u.txt" "$PROGS/threads-getppid" 2 250 \
	2>/dev/null
expect_eq "text: each thread's line" \
	"$(grep -cE '^twice unit threads-getppid-[0-9]+ 500 0 0\.000 1 one%20run$' "$T/u.txt")" 2
expect_eq "text: and the whole program's" "$(grep -c '^twice program - 1000 0 0.000 1 one%20run$' "$T/u.txt")" 1
finish
