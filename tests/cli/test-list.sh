#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc list as a reference (docs/events.md, "pmc list"): descriptions, search by word, glob and
# kind, sorting within kinds, aliases on one line, breakpoint forms and PAPI presets listed,
# a kind the backend cannot count on one line (vpmu: no thousands of tracepoint lines), JSON.
. "$(dirname "$0")/lib.sh"

# The JSON list of ARGS into FILE.
list_json() { local out=$1; shift; "$PMC" list --json "$@" >"$out" 2>>"$T/err"; }
# py FILE EXPR: json() with fnmatch available.
py() { python3 -c "import json,sys,fnmatch; j=json.load(open(sys.argv[1])); print($2)" "$1"; }

list_json "$T/all.json"
list_json "$T/vall.json" --backend=vpmu
expect_eq "schema" "$(json "$T/all.json" 'j["schema"]')" "pmc-list/1"

# Text lines: ARGS ~ a regular expression a line must match ~ one no line may match.
while IFS='~' read -r args want unwanted; do
	[ -z "$args" ] && continue
	# shellcheck disable=SC2086 # ARGS are words
	"$PMC" list $args >"$T/out" 2>>"$T/err" || fail "pmc list $args exited $?"
	expect_grep "list $args: /$want/" "$want" "$T/out"
	[ -n "$unwanted" ] && expect_no_grep "list $args: no /$unwanted/" "$unwanted" "$T/out"
done <<'EOF'
software~^  context-switches OR cs +yes +context switches$~^  cs 
software~^  page-faults OR faults +yes +page faults$~^  faults 
software~^  task-clock +yes +time the task ran, ns$~^hardware events
hardware~^  cpu-cycles OR cycles +(yes|no) +CPU cycles$~^  cycles 
hardware~^  branch-instructions OR branches +(yes|no) +retired branch instructions$~^software events
cache~^  L1-dcache-load-misses +(yes|no\*?) +L1 data cache load misses$~^  branch-misses
miss~^  branch-misses +(yes|no\*?) +mispredicted branches$~^  instructions 
miss~^  PAPI_BR_MSP -> branch-misses +(yes|no\*?) +Mispredicted branch instructions$~^  PAPI_TOT_INS
MISS~^  L1-dcache-load-misses ~^  task-clock
preset~^  PAPI_TOT_INS -> instructions +(yes|no\*?) +Instructions completed$~^cache events
preset~^  PAPI_FP_OPS +no +Floating-point operations$~^  PAPI_FP_OPS ->
preset~^ +\(derived, not one event \(PAPI 7.0 on Nehalem:~^  PAPI_FP_OPS ->
breakpoint~^  mem:ADDR\[/LEN\]:w +(yes|no) +hardware breakpoint: writes of the LEN bytes at ADDR$~^tracepoint events
--backend=vpmu preset~^  PAPI_TOT_INS -> INST_RETIRED.ANY +yes +Instructions completed$~
--backend=vpmu preset~^  PAPI_L1_ICM -> L1I.MISSES +yes ~^  PAPI_L1_ICM -> L1-icache
--backend=vpmu preset~^  PAPI_L1_STM -> L1-dcache-store-misses +yes ~
--backend=vpmu~^tracepoint events: none of [0-9]+ countable here: tracepoints are kernel events~^  sched:sched_switch 
--backend=vpmu~^software events: none of 12 countable here: software events are kept by the kernel~^  task-clock
--backend=vpmu~^breakpoint events: none of 4 countable here: vpmu models no debug registers~^  mem:
--backend=vpmu~^  INST_RETIRED.ANY +yes +Instructions retired~
--backend=vpmu tracepoint~^tracepoint events: none countable here: tracepoints are kernel events~^tracepoint events: none of
--backend=vpmu tracepoint~^  sched:sched_switch +no$~^cpu events
EOF

# The breakpoint forms' verdicts are those of their examples (x86 has no read-only breakpoints).
if have_breakpoints; then
	"$PMC" list breakpoint >"$T/bp" 2>&1
	expect_grep "write breakpoints countable" '^  mem:ADDR\[/LEN\]:w +yes ' "$T/bp"
	expect_grep "the form's example is judged" '^  mem:ADDR\[/LEN\]:r +no ' "$T/bp"
else
	skip_part no-hw-breakpoints "breakpoint verdicts: mem: events do not count on this machine"
fi

# A word lists exactly the events whose name, description or preset event contains it (any
# case), an alias with its canonical name; a glob matches names; a kind is a kind.
expect_search() { # WHAT ARG PYTHON-PREDICATE-ON-e (over the full list)
	list_json "$T/s.json" "$2"
	local got want
	got=$(py "$T/s.json" 'sorted(e["name"] for e in j["events"])')
	want=$(py "$T/all.json" "sorted(e['name'] for e in j['events'] if $3)")
	expect_eq "$1" "$got" "$want"
	expect_eq "$1: not empty" "$(py "$T/s.json" 'len(j["events"]) > 0')" True
}
has() { echo "'$1' in (e['name'] + ' ' + (e.get('description') or '') + ' ' + (e.get('maps_to') or '')).lower()"; }
expect_search "word miss" miss "$(has miss)"
expect_search "word in a description" "time the task" "$(has 'time the task')"
expect_search "word of an alias: cs with context-switches" "cs" \
	"$(has cs) or e['name'] == 'context-switches' or e.get('alias_of') == 'context-switches'"
expect_search "glob" 'sched:sched_s*' "fnmatch.fnmatch(e['name'].lower(), 'sched:sched_s*')"
expect_search "kind" cache "e['kind'] == 'cache'"
expect_search "kind preset" preset "e['kind'] == 'preset'"

# Sorted within each kind, kinds in a fixed order; the text's lines follow the same order.
expect_eq "json sorted within kinds" "$(py "$T/all.json" '[(e["kind"], e["name"].lower()) for e in j["events"]] == sorted(((e["kind"], e["name"].lower()) for e in j["events"]), key=lambda x: (["hardware","software","cache","raw","pmu","tracepoint","breakpoint","cpu","preset","tool"].index(x[0]), x[1]))')" True
"$PMC" list software >"$T/sw" 2>&1
expect_eq "text sorted" "$(grep '^  [a-z]' "$T/sw" | awk '{print $1}' | LC_ALL=C sort -f -c && echo sorted)" sorted
"$PMC" list tracepoint >"$T/tp" 2>&1
expect_eq "tracepoints sorted" "$(grep '^  [a-z]' "$T/tp" | awk '{print $1}' | LC_ALL=C sort -c && echo sorted)" sorted

# JSON keeps every name: aliases point at their canonical name, presets say what they stand for.
expect_eq "alias in json" "$(py "$T/all.json" '[e.get("alias_of") for e in j["events"] if e["name"] == "cs"]')" "['context-switches']"
expect_eq "preset in json (perf)" "$(py "$T/all.json" '[e.get("maps_to") for e in j["events"] if e["name"] == "PAPI_TOT_INS"]')" "['instructions']"
expect_eq "preset in json (vpmu)" "$(py "$T/vall.json" '[(e.get("maps_to"), e["supported"]) for e in j["events"] if e["name"] == "PAPI_TOT_INS"]')" "[('INST_RETIRED.ANY', True)]"
expect_eq "unmapped preset's reason" "$(py "$T/vall.json" '[e["reason"][:34] for e in j["events"] if e["name"] == "PAPI_L2_DCM"]')" "[\"'PAPI_L2_DCM': derived, not one ev\"]"
expect_eq "forms carry an example" "$(py "$T/all.json" 'sorted(e["example"] for e in j["events"] if e["kind"] == "breakpoint")')" "['mem:0x1000', 'mem:0x1000:r', 'mem:0x1000:w', 'mem:0x1000:x']"
expect_eq "vpmu json keeps every tracepoint" \
	"$(py "$T/vall.json" 'sum(e["kind"] == "tracepoint" for e in j["events"])')" \
	"$(py "$T/all.json" 'sum(e["kind"] == "tracepoint" for e in j["events"])')"

# vpmu: a kind it cannot count is one line, so the whole list stays short; the line's count is
# the number of such events.
"$PMC" list --backend=vpmu >"$T/v" 2>&1
ntp=$(py "$T/vall.json" 'sum(e["kind"] == "tracepoint" for e in j["events"])')
expect_grep "tracepoints counted in the summary" "^tracepoint events: none of $ntp countable here" "$T/v"
expect_eq "vpmu list is short" "$(($(wc -l <"$T/v") < ntp / 2))" 1
expect_eq "vpmu list names no tracepoint" "$(grep -c '^  [a-z_0-9]*:[a-z_0-9]* ' "$T/v")" 0

# A kind whose uncountable events mostly share a reason says it once ("no*"); vpmu has no
# prefetcher.
expect_grep "shared reason marked" '^  L1-dcache-prefetches +no\* ' "$T/v"
expect_grep "shared reason said once" '^  no\*: not available on vpmu: the model has no hardware prefetcher' "$T/v"
expect_eq "said once" "$(grep -c 'not available on vpmu: the model has no hardware prefetcher' "$T/v")" 1
finish
