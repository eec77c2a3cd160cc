#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What perf's scheduling and precision modifiers mean under pmc's pass planner, and the terms
# pmc record honours per event (docs/events.md, "Modifiers", "Terms"): a weak group (W) that
# does not fit is split into passes and counts exactly, a group without W is refused; an
# exclusive group (e) has its pass's counters to itself; D and e on a member are <not
# supported> with the kernel's rule; P finds the highest precise level; named groups in the
# plan; per-event period, freq, call-graph and time in pmc record's file.
. "$(dirname "$0")/lib.sh"

require_vpmu

value() { awk -F, -v e="\"$1\"" '$1 == e { split($13, v, ";"); print v[1] }' "$2"; }
passes() { sed -n 's/^# pass plan: \([0-9]*\) pass.*/\1/p' "$1"; }

# Five events on the Core i7 model's four general counters: {...}:W is planned one by one
# (two passes) and each count is exact; without W the group cannot be counted at all.
G='BR_INST_EXEC.ANY,BR_INST_EXEC.COND,INST_RETIRED.ANY_P,ARITH.MUL,BR_INST_RETIRED.ALL_BRANCHES'
"$PMC" stat --backend=vpmu --plan -e "{$G}:W" -- true >"$T/weak" 2>&1
expect_eq "a weak group that does not fit: planned" $? 0
expect_eq "... in two passes" "$(passes "$T/weak")" 2
"$PMC" stat --backend=vpmu --plan -e "{$G}" -- true >"$T/strong" 2>&1
expect_eq "the same group without W: refused" $? 1
expect_grep "... saying why" "needs more counters than exist" "$T/strong"
for k in 100000 200000; do
	"$PMC" stat --backend=vpmu --format csv -o "$T/w$k.csv" -e "{$G}:W" \
		"$PROGS/vpmu-loop" loop $k 2>>"$T/err"
done
d() { echo $(($(value "$1" "$T/w200000.csv") - $(value "$1" "$T/w100000.csv"))); }
expect_eq "split weak group: conditional branches of K iterations" "$(d 'BR_INST_EXEC.COND:W')" 100000
expect_eq "split weak group: instructions of K iterations" "$(d 'INST_RETIRED.ANY_P:W')" 400000

# A weak group that fits stays a group, in one pass.
"$PMC" stat --backend=vpmu --plan -e '{BR_INST_EXEC.ANY,ARITH.MUL}:W' -- true >"$T/fits" 2>&1
expect_grep "a weak group that fits stays grouped" "ARITH.MUL:W +general counter, grouped" "$T/fits"

# An exclusive group takes its pass's counters alone; others share theirs.
"$PMC" stat --backend=vpmu --plan -e 'ARITH.MUL,{BR_INST_EXEC.ANY,BR_INST_EXEC.COND}:e,ARITH.DIV' \
	-- true >"$T/excl" 2>&1
expect_eq "an exclusive group: a pass of its own" "$(passes "$T/excl")" 2
expect_eq "... alone in it" "$(awk '/^pass/ {p = $2} /BR_INST_EXEC/ {print p}' "$T/excl" | sort -u)" "1:"
expect_eq "... the others together" "$(awk '/^pass/ {p = $2} /ARITH/ {print p}' "$T/excl" | sort -u)" "0:"
"$PMC" stat --backend=vpmu --plan --multiplex -e 'ARITH.MUL,{BR_INST_EXEC.ANY}:e' -- true \
	>"$T/excl-mux" 2>&1
expect_grep "vpmu cannot multiplex: still its own pass" "^# pass plan: 2 passes" "$T/excl-mux"

# Named groups are shown in the plan.
"$PMC" stat --plan -e 'g1{task-clock,page-faults},{cs,faults}' -- true >"$T/named" 2>&1
expect_grep "a named group" "^  page-faults +software \(unlimited\), group g1$" "$T/named"
expect_grep "an unnamed one" "^  faults +software \(unlimited\), grouped$" "$T/named"

# D and e are a group's, on its leader: on a member the kernel refuses them; pmc says which
# rule, and the run goes on.
"$PMC" stat -e '{task-clock,page-faults:D},cs' -- "$PROGS/getppid-loop" 10 >"$T/member" 2>&1
expect_eq "D on a member: the run goes on" $? 0
expect_grep "D on a member: <not supported> with the rule" \
	"<not supported> +page-faults:D +\(D \(pinned\) on a member of a group" "$T/member"
"$PMC" stat --format json -o "$T/pin.json" -e '{task-clock,page-faults}:D,cs:e' \
	-- "$PROGS/getppid-loop" 10 2>>"$T/err"
expect_eq "group D pins the leader only" \
	"$(json "$T/pin.json" '[("pinned=1" in e["encoding"]) for e in j["events"]]')" "[True, False, False]"
expect_eq "e on an event: exclusive" \
	"$(json "$T/pin.json" '"exclusive=1" in j["events"][2]["encoding"]')" "True"

# P: the highest precise level that opens here (a software event takes any), as perf finds it.
"$PMC" stat --format json -o "$T/p.json" -e 'task-clock:P' -- true 2>>"$T/err"
expect_grep "P: the highest level that opens" "precise_ip=3" "$T/p.json"

# pmc record: the terms of each event (period, freq, call-graph, time), in its attr.
"$PMC" record -o "$T/r.data" -e 'cpu-clock/period=100000,time=0/,task-clock/freq=500,call-graph=fp/' \
	-- "$PROGS/getppid-loop" 200000 >"$T/rec" 2>&1
expect_eq "record with per-event terms" $? 0
perf evlist -v -i "$T/r.data" >"$T/evlist" 2>&1
expect_grep "period= on its event" "^cpu-clock/period=100000,time=0/: .*sample_freq \}: 100000, sample_type: IP\|TID\|PERIOD\|IDENTIFIER," "$T/evlist"
expect_grep "freq= and call-graph=fp on theirs" "^task-clock/freq=500,call-graph=fp/: .*sample_freq \}: 500, sample_type: IP\|TID\|TIME\|CALLCHAIN\|PERIOD\|IDENTIFIER,.* freq: 1" "$T/evlist"
"$PMC" report -i "$T/r.data" >"$T/report" 2>&1
expect_eq "pmc report reads events of different sample types" $? 0
"$PMC" record -o "$T/s.data" -e '{cpu-clock,task-clock}:S' -- true >"$T/sread" 2>&1
expect_eq "S: pmc record refuses it" $? 2
expect_grep "... saying why" "does not write sample reads" "$T/sread"
"$PMC" record -o "$T/n.data" -e 'cpu-clock/nr=3/' -- true >"$T/nr" 2>&1
expect_eq "a term pmc record does not honour: refused" $? 2
expect_grep "... with its caret" '^ +\^$' "$T/nr"
finish
