#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regions and whole-program counts on limited counters: four breakpoints fill the four
# debug registers, so once the command shows it counts regions with counters of its own,
# pmc stat plans two passes of two, and both the whole-program and the region counts are
# exact.
. "$(dirname "$0")/lib.sh"

have_breakpoints || skip_cap no-hw-breakpoints "mem: events do not count on this machine ($PMC doctor)"
[ "$("$PMC" doctor --json | json /dev/stdin '[c["detail"] for c in j["checks"] if c["check"] == "hardware breakpoints"][0].split()[0]')" = 4 ] ||
	skip_cap no-hw-breakpoints "this machine does not have exactly four debug registers"
P=$PROGS/region-globals-nopie
EV=$(nm "$P" | awk '$3 ~ /^g[0-3]$/ {print $3, $1}' | sort | awk '{printf "mem:0x%s/8:w,", $2}')
EV=${EV%,}

"$PMC" stat -v -r 3 -e "$EV" -o "$T/r.json" --format json "$P" 2>"$T/err"
expect_eq "exit status" $? 0
expect_grep "re-planned for the command's own counters" "2 passes now, so that both fit" "$T/err"
expect_no_grep "no event refused inside the command" "regions could not count" "$T/err"
expect_eq "whole-program counts, two passes" \
	"$(json "$T/r.json" '[(int(e["mean"]), e["pass"]) for e in j["events"]]')" \
	"[(50, 0), (50, 0), (50, 1), (50, 1)]"
expect_eq "region w: entered, exited" \
	"$(json "$T/r.json" '[(r["name"], r["entered"], r["exited"]) for r in j["regions"]]')" \
	"[('w', 10, 10)]"
expect_eq "region w: 5 writes per entry to each global" \
	"$(json "$T/r.json" '[e["per_entry"] for e in j["regions"][0]["events"]]')" \
	"[5.0, 5.0, 5.0, 5.0]"

# Without regions in the command nothing is re-planned: one pass of four.
"$PMC" stat -v -e "$EV" "$PROGS/write-globals-nopie" 10 2>"$T/plain"
expect_no_grep "no re-plan without regions" "passes now" "$T/plain"

finish
