#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc stat -M, --metrics-file and --topdown (docs/metrics.md, "In pmc stat"): values equal to
# the formula over the counts printed, one-off definitions, unknown names, n/a, unavailable
# inputs, the per-repetition interval and the delta method each where it belongs, with the
# Student-t and delta-method intervals recomputed here from the raw values; the JSON and CSV
# fields; metrics per region and thread.
. "$(dirname "$0")/lib.sh"

FIX="$SRC/tests/data/metrics/topdown-fixture.json"
# t(0.975) of 4 and 2 degrees of freedom (any Student-t table).
T4=2.7764451051977987
T2=4.302652729911275

# --- perf backend, software metrics: task-clock / duration_time, five repetitions ------------
"$PMC" stat -M cpus_utilized -r 5 --format json -o "$T/cu.json" true 2>"$T/cu.err"
expect_eq "cpus_utilized: runs" $? 0
# The value is the formula at the means; the interval the repetitions' metric values' t interval.
check_cu=$(json "$T/cu.json" "(lambda ev, m: (
	abs(m['value'] - sum(ev['task-clock'])/sum(ev['duration_time'])) < 1e-12 * m['value'],
	m['method'], m['n'],
	(lambda r: abs(m['ci'] - $T4 * (sum((x - sum(r)/5)**2 for x in r)/4)**0.5 / 5**0.5)
		< 1e-6 * m['ci'])([a/b for a, b in zip(ev['task-clock'], ev['duration_time'])])))(
	{e['name']: e['values'] for e in j['events']}, j['metrics'][0])")
expect_eq "cpus_utilized: value of the means, per-repetition t interval" "$check_cu" \
	"(True, 'per-repetition', 5, True)"
expect_eq "cpus_utilized: JSON fields" "$(json "$T/cu.json" 'sorted(j["metrics"][0])')" \
	"['ci', 'ci_pct', 'flagged', 'formula', 'inputs', 'method', 'n', 'name', 'status', 'threshold', 'threshold_shown', 'unit', 'value', 'values']"
expect_eq "cpus_utilized: each repetition's value, as the interval took them" \
	"$(json "$T/cu.json" '(lambda ev, m: [abs(v - a / b) <= 1e-12 * v for v, a, b in zip(m["values"], ev["task-clock"], ev["duration_time"])])({e["name"]: e["values"] for e in j["events"]}, j["metrics"][0])')" \
	"[True, True, True, True, True]"
expect_eq "cpus_utilized: formula, inputs, unit" \
	"$(json "$T/cu.json" '[j["metrics"][0][k] for k in ("formula", "inputs", "unit", "flagged")]')" \
	"['task\\\\-clock / duration_time', ['task-clock', 'duration_time'], 'CPUs', None]"
# The summary: task-clock's line has perf's comment, CPUs utilized, whose value the metric is
# (duration_time is the wall time): the metric takes its place, the value printed once.
"$PMC" stat -M cpus_utilized -r 3 true 2>"$T/cu.txt"
expect_grep "summary: in the comment column, with its interval and method" \
	"^ +[0-9.]+ msec task-clock(:W)? +# +[0-9.]+ CPUs  cpus_utilized  \( \+- [0-9.]+%, per-repetition \)" "$T/cu.txt"
expect_no_grep "summary: perf's comment of the same value not printed too" "CPUs utilized" "$T/cu.txt"
"$PMC" stat -M cpus_utilized true 2>"$T/cu1.txt"
expect_no_grep "one run: no interval" "cpus_utilized .*\+-" "$T/cu1.txt"

# --strict is for -e's events: a metric's input this machine lacks (no PMU) leaves it unavailable.
"$PMC" stat --strict -M insn_per_cycle,cpus_utilized true 2>"$T/strict"
expect_eq "--strict: the metrics' events are not -e's" $? 0
expect_grep "--strict: the metric printed" "#.*  insn_per_cycle( |$)" "$T/strict"

# Unknown names: a usage error with the closest names; a definition that does not parse too.
"$PMC" stat -M insn_per_cycl true 2>"$T/unk"
expect_eq "unknown metric: exit 2" $? 2
expect_grep "unknown metric: the closest name" "did you mean 'insn_per_cycle'" "$T/unk"
"$PMC" stat -M 'x = instructions +' true 2>"$T/bad"
expect_eq "bad definition: exit 2" $? 2
expect_grep "bad definition: a caret" "^ +\^$" "$T/bad"
"$PMC" stat --td-level 2 true 2>"$T/td"
expect_eq "--td-level without --topdown: exit 2" $? 2

# pmc list metrics: groups and metrics with their descriptions; a word filters.
"$PMC" list metrics >"$T/list"
expect_grep "list: a group and its metrics" "^  Software: cpus_utilized page_faults_per_second$" "$T/list"
expect_grep "list: a metric with its groups" "^  branch_miss_rate  \[Summary;Branches\]$" "$T/list"
expect_grep "list: its formula, unit and threshold" \
	"^      = branch\\\\-misses / branches  \(unit: 100%\)  \(threshold: branch_miss_rate > 0.05\)$" "$T/list"
expect_eq "list: a word filters (names, groups, descriptions)" \
	"$("$PMC" list metrics tlb --json | json /dev/stdin '[m["name"] for m in j["metrics"]]')" \
	"['dtlb_load_miss_rate', 'itlb_load_miss_rate']"
expect_eq "list --json: the groups" \
	"$("$PMC" list metrics --json | json /dev/stdin '[g["metrics"] for g in j["groups"] if g["name"] == "Software"]')" \
	"[['cpus_utilized', 'page_faults_per_second']]"

require_vpmu
L="$PROGS/vpmu-loop"

# --- vpmu: exact counts ---------------------------------------------------------------------
# The value by hand from the counts the summary prints; instructions' line has perf's comment,
# insn per cycle, whose value the metric is: the metric takes its place (printed once, not
# twice). branch_miss_rate replaces 'of all branches' the same way.
"$PMC" stat --backend=vpmu -M insn_per_cycle,branch_miss_rate "$L" loop 1000 2>"$T/ipc.txt"
ins=$(awk '$2 == "instructions:W" { print $1 }' "$T/ipc.txt")
cyc=$(awk '$2 == "cycles:W" { print $1 }' "$T/ipc.txt")
expect_eq "insn_per_cycle in instructions' comment column, value by hand" \
	"$(grep " instructions:W " "$T/ipc.txt" | sed 's/^ *[0-9]* *instructions:W *//; s/ *$//')" \
	"# $(awk -v a="$ins" -v b="$cyc" 'BEGIN { printf "%9.3f", a / b }') insn per cycle  insn_per_cycle"
expect_eq "insn per cycle printed once" "$(grep -c "insn per cycle" "$T/ipc.txt")" 1
expect_eq "the miss rate printed once, as the metric" \
	"$(grep -c "of all branches" "$T/ipc.txt") $(grep -cE "^ +[0-9]+ +branch-misses:W +# +[0-9.]+ %  branch_miss_rate" "$T/ipc.txt")" "0 1"
# Where the first input's line has no comment, the metric is in its comment column.
"$PMC" stat --backend=vpmu -M 'cpb = cycles / branches' "$L" loop 1000 2>"$T/cpb.txt"
cyc=$(awk '$2 == "cycles:W" { print $1 }' "$T/cpb.txt")
br=$(awk '$2 == "branches:W" { print $1 }' "$T/cpb.txt")
expect_grep "cpb in cycles' comment column, value by hand" \
	"^ +$cyc +cycles:W +# +$(awk -v a="$cyc" -v b="$br" 'BEGIN { printf "%.2f", a / b }')  cpb$" "$T/cpb.txt"
# One-off definitions: K iterations of the loop add 4K instructions and K branches.
for k in 100000 200000; do
	"$PMC" stat --backend=vpmu -M 'ipb = instructions / branches' -e instructions,branches \
		--format json -o "$T/k$k.json" "$L" loop $k 2>>"$T/err"
done
expect_eq "one-off: the formula over the counts" \
	"$(json "$T/k100000.json" 'j["metrics"][0]["value"] == j["events"][0]["mean"] / j["events"][1]["mean"]')" True
expect_eq "one-off: inputs counted by -e are not added again" \
	"$(json "$T/k100000.json" '[e["name"] for e in j["events"]]')" "['instructions', 'branches']"
expect_eq "one-off: 4 instructions per branch in the limit" \
	"$(python3 -c "import json; a, b = (json.load(open('$T/k%d.json' % k))['events'] for k in (100000, 200000)); print((b[0]['mean'] - a[0]['mean']) / (b[1]['mean'] - a[1]['mean']))")" 4.0
# Division by zero: n/a with the reason, the rest counted.
"$PMC" stat --backend=vpmu -M 'z = instructions / (branches - branches)' -M insn_per_cycle \
	--format json -o "$T/z.json" "$L" loop 100 2>"$T/z.txt"
expect_grep "division by zero: n/a with the reason" "# +n/a  z  \(division by zero" "$T/z.txt"
expect_eq "division by zero: JSON" "$(json "$T/z.json" '[(m["status"], m["value"]) for m in j["metrics"]][0]')" \
	"('n/a', None)"
expect_eq "the other metric has its value" "$(json "$T/z.json" 'j["metrics"][1]["status"]')" ok
# Inputs this backend lacks: unavailable with the reason; the other metrics counted. A file's
# metric may name an event this machine does not know (the files serve many machines).
printf '[{"MetricName": "u", "MetricExpr": "NO_SUCH_EVENT_Q / instructions"}]\n' >"$T/u-file.json"
"$PMC" stat --backend=vpmu --metrics-file "$T/u-file.json" -M cpus_utilized,insn_per_cycle,u \
	--format json -o "$T/u.json" "$L" loop 100 2>"$T/u.txt"
expect_eq "unavailable inputs: runs" $? 0
expect_eq "unavailable: status of each" "$(json "$T/u.json" '[m["status"] for m in j["metrics"]]')" \
	"['unavailable', 'ok', 'unavailable']"
expect_grep "unavailable: a software event's reason" "<unavailable>  cpus_utilized  \(.*software events" "$T/u.txt"
expect_grep "unavailable: an unknown event's reason" "<unavailable>  u  \(.*NO_SUCH_EVENT_Q" "$T/u.txt"

# A one-off definition's names are the user's: one that is no event here is a usage error
# (exit 2) with a caret under it, before anything is counted, and adds nothing. '-' is minus
# (perf's grammar): a name it cuts in two is shown with the escape that keeps it whole.
"$PMC" stat -M 'pf = page-faults / task-clock' "$PROGS/getppid-loop" 10 >"$T/pf.txt" 2>&1
expect_eq "one-off, page-faults unescaped: a usage error" $? 2
expect_grep "one-off, page-faults unescaped: the escape to write" \
	"'page-faults' is a subtraction in a formula \('-' is minus\), and 'page' is not an event here; for the event, write page\\\\-faults$" "$T/pf.txt"
expect_eq "one-off, page-faults unescaped: the caret under it" \
	"$(grep -A2 "is a subtraction" "$T/pf.txt" | tail -2 | tr -s ' ')" "$(printf ' page-faults / task-clock\n ^')"
expect_no_grep "one-off, page-faults unescaped: nothing counted" "Performance counter stats|faults" \
	<(grep -v "page.faults" "$T/pf.txt")
"$PMC" stat -M 'x = task\-clock / L1-dcache-load-misses' "$PROGS/getppid-loop" 10 >"$T/l1.txt" 2>&1
expect_eq "one-off, a name of four parts: a usage error" $? 2
expect_grep "one-off, a name of four parts: its escape" "write L1\\\\-dcache\\\\-load\\\\-misses$" "$T/l1.txt"
"$PMC" stat -M 'x = paeg\-faults + 1' "$PROGS/getppid-loop" 10 >"$T/typo.txt" 2>&1
expect_eq "one-off, an unknown event: a usage error" $? 2
expect_grep "one-off, an unknown event: the closest name" "did you mean 'page-faults'\?" "$T/typo.txt"
"$PMC" stat -M 'pf = page\-faults / task\-clock' -x, "$PROGS/getppid-loop" 10 >"$T/pfok.txt" 2>&1
expect_eq "one-off, page\\-faults escaped: counted" \
	"$(grep -c '^[0-9.]*,[a-z]*,\(page-faults\|task-clock\):W,' "$T/pfok.txt")" 2

# An input the backend refuses is not in the metric's group (a group counts whole or not):
# cycles is counted, task-clock says why, the metric is unavailable.
"$PMC" stat --backend=vpmu -M cycles_frequency --format json -o "$T/cf.json" "$L" loop 100 2>>"$T/err"
expect_eq "refused input: alone, the other counted" \
	"$(json "$T/cf.json" '[(e["name"], e["supported"], len(e["values"])) for e in j["events"]]')" \
	"[('cycles', True, 1), ('task-clock', False, 0)]"
expect_eq "refused input: the metric unavailable" "$(json "$T/cf.json" 'j["metrics"][0]["status"]')" unavailable

# One pass (four general counters): per repetition; two passes (the Pentium model's two
# counters split the weak group): the delta method, its interval recomputed here.
DM='dm = duration_time / (instructions + branches + cycles)'
"$PMC" stat --backend=vpmu -M "$DM" -r 3 --plan "$L" loop 100 >"$T/plan1" 2>&1
expect_grep "one pass: the metric's events grouped" "^# pass plan: 1 pass$" "$T/plan1"
"$PMC" stat --backend=vpmu -M "$DM" -r 3 --format json -o "$T/p1.json" "$L" loop 100 2>>"$T/err"
expect_eq "one pass: per-repetition" "$(json "$T/p1.json" 'j["metrics"][0]["method"]')" per-repetition
PMC_VPMU_MODEL=pentium "$PMC" stat --backend=vpmu -M "$DM" -r 3 --format json -o "$T/p2.json" \
	"$L" loop 100 2>>"$T/err"
expect_eq "two passes" "$(json "$T/p2.json" 'len(set(e["pass"] for e in j["events"]))')" 2
check_dm=$(json "$T/p2.json" "(lambda ev, m: (m['method'], m['n'],
	(lambda d, s: abs(m['ci'] - $T2 * (sum((x - sum(d)/3)**2 for x in d)/2)**0.5 / 3**0.5 / s)
		< 1e-6 * m['ci'])(ev['duration_time'],
		sum(sum(ev[k])/3 for k in ('instructions:W', 'branches:W', 'cycles:W')))))(
	{e['name']: e['values'] for e in j['events']}, j['metrics'][0])")
expect_eq "two passes: the delta method's interval" "$check_dm" "('delta method', 3, True)"
PMC_VPMU_MODEL=pentium "$PMC" stat --backend=vpmu -M "$DM" -r 3 "$L" loop 100 2>"$T/p2.txt"
expect_grep "two passes: the summary says so" "dm  \( \+- [0-9.]+%, delta method \)" "$T/p2.txt"

# --topdown: a fixture file's TopdownL1 (with toplev's marker) and TopdownL2 groups.
"$PMC" stat --backend=vpmu --metrics-file "$FIX" --topdown -x, "$L" loop 1000 2>"$T/td1"
expect_eq "--topdown: level 1's metrics" "$(grep -c '^fx_' "$T/td1")" 2
expect_eq "--topdown: threshold verdicts" "$(awk -F, '/^fx_/ { print $1 "=" $10 }' "$T/td1" | tr '\n' ' ')" \
	"fx_retiring=yes fx_rest=no "
"$PMC" stat --backend=vpmu --metrics-file "$FIX" --topdown "$L" loop 1000 2>"$T/td1.txt"
expect_grep "--topdown: <== on the metric over its threshold" "# +[0-9.]+ %  fx_retiring  <==$" "$T/td1.txt"
"$PMC" stat --backend=vpmu --metrics-file "$FIX" --topdown --td-level 2 -x, "$L" loop 1000 2>"$T/td2"
expect_eq "--td-level 2: level 2's metric" "$(grep -o '^fx_[a-z]*' "$T/td2")" fx_branchy
# Only the levels that exist are offered: the shipped files hold level 1 alone for vpmu's model,
# and a level above it is refused with the levels there are (the help offered 1 to 6).
"$PMC" stat --backend=vpmu --topdown --td-level 2 "$L" loop 10 2>"$T/td2s"
expect_eq "--td-level 2 without a file of level 2: exit 2" $? 2
expect_grep "--td-level 2: says which levels exist" \
	"--td-level 2: no top-down level 2 exists for backend vpmu on this CPU; the levels here: 1$" "$T/td2s"
"$PMC" stat --help >"$T/help"
expect_no_grep "--help offers no level that does not exist" "1 to 6" "$T/help"
# A folder of shipped files with the generic file alone: no top-down group for vpmu.
mkdir "$T/md"
cp "$SRC/data/metrics/generic.json" "$T/md/"
grep -E '^#|^generic\.json' "$SRC/data/metrics/index.tsv" >"$T/md/index.tsv"
PMC_METRICS_DIR="$T/md" "$PMC" stat --backend=vpmu --topdown "$L" loop 10 2>"$T/tdn"
expect_eq "--topdown without a file for it: exit 2" $? 2
expect_grep "--topdown without a file: why" "no metric of group TopdownL1 .*backend vpmu" "$T/tdn"

# CSV: the metrics' table after the events'.
"$PMC" stat --backend=vpmu -M insn_per_cycle -r 2 --format csv -o "$T/m.csv" "$L" loop 100 2>>"$T/err"
expect_eq "CSV: the metrics' header" "$(grep '^metric,' "$T/m.csv")" \
	"metric,region,thread,n,value,ci,ci_pct,unit,method,flagged,threshold,formula,inputs,status,reason,exact,exact_difference"
expect_eq "CSV: the metric's row" "$(grep '^insn_per_cycle,' "$T/m.csv" | cut -d, -f1-4,6-9,12-14)" \
	"insn_per_cycle,,,2,0,0,insn per cycle,per-repetition,instructions / cycles,instructions;cycles,ok"

# Regions: a metric per region and per thread, each with its n.
R="$PROGS/vpmu-region"
"$PMC" stat --backend=vpmu -M 'ipb = instructions / branches' -r 2 --region-per-thread --format json \
	-o "$T/r.json" "$R" 10 1000 2>>"$T/err"
expect_eq "region metric: the formula over the region's counts, n" \
	"$(json "$T/r.json" '(lambda r, m: (m["value"] == r["events"][0]["mean"] / r["events"][1]["mean"], m["n"]))(j["regions"][0], j["regions"][0]["metrics"][0])')" \
	"(True, 2)"
expect_eq "thread metric, n" \
	"$(json "$T/r.json" '[(m["name"], m["n"]) for m in j["regions"][0]["threads"][0]["metrics"]]')" \
	"[('ipb', 2)]"

# pmc metrics: the saved file's metrics computed again, to the last digit: per repetition,
# by the delta method, per region and per thread; another metric of the saved counts.
same() { python3 -c "import json, sys; a, b = (json.load(open(f)) for f in sys.argv[1:3]); print(a['metrics'] == b['metrics'] and [(r['metrics'], [t['metrics'] for t in r['threads']]) for r in a['regions']] == [(r['metrics'], [t['metrics'] for t in r['threads']]) for r in b['regions']])" "$1" "$2"; }
for f in cu p1 p2 r z; do
	"$PMC" metrics --format json "$T/$f.json" >"$T/$f.again.json" 2>>"$T/err"
	expect_eq "pmc metrics reproduces $f.json" "$(same "$T/$f.json" "$T/$f.again.json")" True
done
"$PMC" metrics -M 'bpi = branches / instructions' --format json "$T/k100000.json" >"$T/bpi.json"
expect_eq "pmc metrics -M: a one-off over saved counts" \
	"$(json "$T/bpi.json" 'j["metrics"][0]["value"]')" \
	"$(json "$T/k100000.json" 'j["events"][1]["mean"] / j["events"][0]["mean"]')"
"$PMC" metrics "$T/p2.json" >"$T/p2.txt"
expect_grep "pmc metrics: the summary's metric line" "^  # +[0-9.]+  dm  \( \+- [0-9.]+%, delta method \)$" "$T/p2.txt"
"$PMC" metrics "$T/list" 2>"$T/notjson"
expect_eq "pmc metrics: a file that is not JSON, exit 2" $? 2
echo '{"schema": "pmc-list/1", "events": []}' >"$T/other.json"
"$PMC" metrics "$T/other.json" 2>"$T/other"
expect_grep "pmc metrics: another schema refused" "is not a pmc stat results file" "$T/other"
# Hostile files: counts that are not numbers, names that are not strings: exit 2, no crash.
for bad in '{"schema":"pmc-stat/1","events":[{"name":"a","values":["x"]}],"metrics":[{"name":"m","formula":"a"}]}' \
	'{"schema":"pmc-stat/1","events":[{"name":"a","values":[1]}],"regions":[{"name":5}],"metrics":[{"name":"m","formula":"a"}]}' \
	'{"schema":"pmc-stat/1","events":[{"values":[1]}],"metrics":[{"name":"m","formula":"a"}]}' \
	'{"schema":"pmc-stat/1","events":[{"name":"a","values":[1]}],"metrics":[{"name":"m","formula":"a +"}]}'; do
	echo "$bad" >"$T/bad.json"
	"$PMC" metrics "$T/bad.json" 2>"$T/bad.err"
	rc=$?
	expect_eq "pmc metrics: a malformed file, exit 2 ($(head -c 60 "$T/bad.err"))" $rc 2
done
"$PMC" metrics -M insn_per_cycl "$T/p1.json" 2>"$T/unk2"
expect_eq "pmc metrics: an unknown metric, exit 2" $? 2

# Ground truth under vpmu: beside a formula the model can answer exactly (PmcExactExpr), its
# exact value and the difference, in the summary and the JSON; none beside the others.
"$PMC" stat --backend=vpmu -M cycle_accounting --format json -o "$T/ca.json" "$L" loop 100000 \
	2>"$T/ca.txt"
ca() { json "$T/ca.json" "(lambda m, e: $1)({m['name']: m for m in j['metrics']}, {x['name']: x['mean'] for x in j['events']})"; }
expect_eq "exact: the branch stalls' exact value is the model's own count" \
	"$(ca 'm["ca_stall_branch_misp"]["exact"] == e["VPMU_STALLS.BRANCH:W"]')" True
expect_eq "exact: difference = formula - exact, for every metric that has one" \
	"$(ca 'all(abs(x["value"] - x["exact"] - x["exact_difference"]) < 1e-6 for x in m.values() if x.get("exact") is not None and x["value"] is not None)')" True
expect_eq "exact: the unaccounted rest is exactly 0, its formula the whole rest" \
	"$(ca '(m["ca_unaccounted_stall_cycles"]["exact"], m["ca_unaccounted_stall_cycles"]["exact_difference"] == m["ca_unaccounted_stall_cycles"]["value"])')" \
	"(0.0, True)"
expect_eq "exact: a metric without one has no such field" "$(ca '"exact" in m["ca_cpi"]')" False
expect_grep "exact: printed beside the estimate" \
	"# +[0-9.]+  ca_stall_loads  \[exact [0-9.]+, difference [+-][0-9.]+\]" "$T/ca.txt"

[ "$FAILS" = 0 ] || exit 1
echo "all $PASSES passed"
