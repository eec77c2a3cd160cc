#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc stat and pmc list on the vpmu backend: exact counts from differences of two runs,
# determinism, passes, Pentium model, unsupported events with their reasons.
. "$(dirname "$0")/lib.sh"

require_vpmu

# value EVENT CSV: the first repetition's value of EVENT in a --format csv results file.
value() { awk -F, -v e="\"$1\"" '$1 == e { split($13, v, ";"); print v[1] }' "$2"; }
# stat_csv OUT ARGS...: pmc stat --backend=vpmu into a CSV file.
stat_csv() { local out=$1; shift; "$PMC" stat --backend=vpmu --format csv -o "$out" "$@" 2>>"$T/err"; }

# K and 2K iterations of {nop; add; dec; jnz}: the differences are exactly K x (4, 1, 1).
EV=instructions,branches,BR_INST_RETIRED.CONDITIONAL,INST_RETIRED.ANY_P
stat_csv "$T/k1.csv" -e $EV "$PROGS/vpmu-loop" loop 100000
stat_csv "$T/k2.csv" -e $EV "$PROGS/vpmu-loop" loop 200000
d() { echo $(($(value "$1" "$T/k2.csv") - $(value "$1" "$T/k1.csv"))); }
expect_eq "instructions of K iterations" "$(d instructions)" 400000
expect_eq "INST_RETIRED.ANY_P of K iterations" "$(d INST_RETIRED.ANY_P)" 400000
expect_eq "branches of K iterations" "$(d branches)" 100000
expect_eq "conditional branches of K iterations" "$(d BR_INST_RETIRED.CONDITIONAL)" 100000

# N iterations of a data-dependent jz and a jnz: 2N conditional branches, 5.5N instructions.
stat_csv "$T/b1.csv" -e instructions,BR_INST_RETIRED.CONDITIONAL "$PROGS/vpmu-loop" branches 100000
stat_csv "$T/b2.csv" -e instructions,BR_INST_RETIRED.CONDITIONAL "$PROGS/vpmu-loop" branches 200000
expect_eq "conditional branches of N iterations" \
	$(($(value BR_INST_RETIRED.CONDITIONAL "$T/b2.csv") - $(value BR_INST_RETIRED.CONDITIONAL "$T/b1.csv"))) 200000
expect_eq "instructions of N branch iterations" \
	$(($(value instructions "$T/b2.csv") - $(value instructions "$T/b1.csv"))) 550000

# Counts are deterministic: three repetitions give one value, a confidence interval of 0.
"$PMC" stat --backend=vpmu -e instructions,branches,INST_RETIRED.ANY -r 3 -o "$T/det.json" \
	--format json "$PROGS/vpmu-loop" loop 1000 2>>"$T/err"
expect_eq "identical repetitions" \
	"$(json "$T/det.json" '[len(set(e["values"])) for e in j["events"]]')" "[1, 1, 1]"
expect_eq "ci 0" "$(json "$T/det.json" '[e["ci"] for e in j["events"]]')" "[0.0, 0.0, 0.0]"
expect_eq "fixed and generic instructions agree" \
	"$(json "$T/det.json" 'j["events"][0]["values"] == j["events"][2]["values"]')" True
expect_eq "backend in provenance" "$(json "$T/det.json" 'j["provenance"]["backend"]')" vpmu

# Six general events on four counters: two passes, every event counted.
SIX=branches,branch-misses,cache-references,cache-misses,L1-dcache-loads,L1-dcache-load-misses
"$PMC" stat --backend=vpmu -e $SIX --plan "$PROGS/vpmu-loop" loop 10 >"$T/plan" 2>&1
expect_grep "six events plan into two passes" "^# pass plan: 2 passes" "$T/plan"
stat_csv "$T/six.csv" -e $SIX "$PROGS/vpmu-loop" loop 1000
expect_eq "six events counted" "$(tail -n +2 "$T/six.csv" | awk -F, '$2 == "yes" && $13 > 0' | wc -l)" 6
# Three fixed and four general counters hold seven events in one pass.
"$PMC" stat --backend=vpmu -e instructions,cycles,ref-cycles,branches,branch-misses,r01c4,r00c5 \
	--plan "$PROGS/vpmu-loop" loop 10 >"$T/plan7" 2>&1
expect_grep "seven events in one pass" "^# pass plan: 1 pass" "$T/plan7"

# Qualifiers and the other event syntaxes reach the model.
"$PMC" stat --backend=vpmu -e 'r01c4,vpmu/event=0xc4,umask=0x1/,BR_INST_RETIRED.CONDITIONAL:u:c=1' \
	-o "$T/q.json" --format json "$PROGS/vpmu-loop" loop 1000 2>>"$T/err"
expect_eq "raw, PMU and named forms agree" \
	"$(json "$T/q.json" 'len(set(e["values"][0] for e in j["events"]))')" 1
expect_eq "qualified events are counted" "$(json "$T/q.json" 'j["events"][0]["values"][0] > 1000')" True

# The default set (no -e) holds only events vpmu counts: no software events, none unsupported.
"$PMC" stat --backend=vpmu "$PROGS/vpmu-loop" loop 1 >"$T/def" 2>&1
expect_eq "default set: runs" $? 0
expect_no_grep "default set: nothing unsupported" "not supported" "$T/def"
expect_no_grep "default set: no software events" "^(task-clock|context-switches|page-faults)" "$T/def"
expect_grep "default set: instructions counted" "^ +[0-9][0-9.]* +(msec +)?instructions " "$T/def"

# Unsupported events say why on their line (an error with --strict); software events too.
"$PMC" stat --backend=vpmu -e UOPS_EXECUTED.PORT0 "$PROGS/vpmu-loop" loop 1 >"$T/u" 2>&1
expect_eq "unsupported event: the run goes on" $? 0
expect_grep "unsupported event: on its line" "^ +<not supported> +UOPS_EXECUTED.PORT0( |$)" "$T/u"
"$PMC" stat --strict --backend=vpmu -e UOPS_EXECUTED.PORT0 "$PROGS/vpmu-loop" loop 1 >"$T/u" 2>&1
expect_eq "unsupported event with --strict fails" $? 1
expect_grep "the model's reason" "UOPS_EXECUTED.PORT0.*not supported.*execution-port" "$T/u"
"$PMC" stat --backend=vpmu -e task-clock "$PROGS/vpmu-loop" loop 1 >"$T/sw" 2>&1
expect_grep "software events refused" "software events.*--backend=perf" "$T/sw"
"$PMC" stat --backend=vpmu -e instructions:k "$PROGS/vpmu-loop" loop 1 >"$T/k" 2>&1
expect_grep "kernel-only refused" "user-level code only" "$T/k"
"$PMC" stat --backend=vpmu -e instructions "$T/no-such-program" >"$T/x" 2>&1
expect_eq "a missing command is exit 127" $? 127

# The Pentium model: its Table 2.3 names, two counters.
export PMC_VPMU_MODEL=pentium
stat_csv "$T/p1.csv" -e instructions_executed,branches "$PROGS/vpmu-loop" loop 100000
stat_csv "$T/p2.csv" -e instructions_executed,branches "$PROGS/vpmu-loop" loop 200000
expect_eq "Pentium instructions of K iterations" \
	$(($(value instructions_executed "$T/p2.csv") - $(value instructions_executed "$T/p1.csv"))) 400000
expect_eq "Pentium branches of K iterations" \
	$(($(value branches "$T/p2.csv") - $(value branches "$T/p1.csv"))) 100000
"$PMC" stat --backend=vpmu -e data_read,data_write,FLOPs --plan "$PROGS/vpmu-loop" loop 1 >"$T/pplan" 2>&1
expect_grep "three events on two Pentium counters" "^# pass plan: 2 passes" "$T/pplan"
"$PMC" list --backend=vpmu >"$T/plist" 2>&1
expect_grep "Pentium names listed" "^  data_read +yes" "$T/plist"
expect_grep "Pentium unsupported with reason" "^  bank_conflicts +no +.*cache banks" "$T/plist"
unset PMC_VPMU_MODEL

# pmc list walks the Core i7 table: supported events and the reason for the others.
"$PMC" list --backend=vpmu >"$T/list" 2>&1
expect_grep "listed and countable" "^  INST_RETIRED.ANY +yes" "$T/list"
expect_grep "listed with the reason" "^  UOPS_EXECUTED.PORT0 +no +.*execution-port" "$T/list"
expect_grep "generic cache event with the reason" "^  L1-dcache-prefetches +no\\* " "$T/list"
expect_grep "the reason it shares" "^  no\\*: .*prefetcher" "$T/list"
"$PMC" list --backend=vpmu --json cpu >"$T/list.json" 2>/dev/null
expect_eq "json list marks unsupported events" \
	"$(json "$T/list.json" '[e["supported"] for e in j["events"] if e["name"] == "RESOURCE_STALLS.RS_FULL"]')" "[False]"

# No gdbserver FIFOs (/tmp/vgdb-pipe-*, predictable names) while a program runs under vpmu.
# (pmc's own child, waited for: a fixed delay raced valgrind's start on a loaded machine)
# A metric whose value is a whole number (a count, exact under vpmu) prints as counts do: no
# decimals it does not have ('602981.00  SLOTS' before).
"$PMC" stat --backend=vpmu -e instructions -M 'twice = 2 * instructions' --topdown \
	"$PROGS/vpmu-loop" loop 1000 >"$T/int" 2>&1
ins=$(awk '$2 == "instructions" { print $1 }' "$T/int")
clk=$(awk '$2 == "CPU_CLK_UNHALTED.THREAD" { print $1 }' "$T/int")
expect_grep "a count metric prints as an integer" "^ +$ins +instructions +# +$((2 * ins))  twice$" "$T/int"
expect_grep "SLOTS (#slots x cycles) prints as an integer" "# +$clk  SLOTS$" "$T/int"
expect_grep "a share keeps its decimals" "# +[0-9]+\.[0-9][0-9] %  tma_retiring" "$T/int"
# An estimate equal to the exact value up to the arithmetic's rounding: +0.00, never -0.00.
expect_grep "the exact value beside the estimate" "difference \+0\.00\]" "$T/int"
expect_no_grep "no difference of -0.00" "difference -0\.00" "$T/int"

"$PMC" stat --backend=vpmu --no-warmup -e instructions -- sleep 2 2>/dev/null & pid=$!
vg=
for _ in $(seq 150); do
	vg=$(pgrep -P $pid -f 'valgrind.*--tool=vpmu.*sleep 2' | head -1)
	[ -n "$vg" ] && break
	sleep 0.1
done
if [ -n "$vg" ]; then
	expect_eq "valgrind runs with --vgdb=no" "$(tr '\0' '\n' </proc/$vg/cmdline | grep -c '^--vgdb=no$')" 1
	expect_eq "no vgdb FIFO of its pid in /tmp" "$(ls /tmp | grep -c "vgdb-pipe.*-$vg-")" 0
else
	fail "no valgrind process of the run found: $(pgrep -af valgrind)"
fi
wait $pid
finish
