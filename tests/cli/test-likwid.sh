#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc stat --likwid-group (docs/metrics.md, "LIKWID groups"): every group file of Debian
# likwid's perfgroups/nehalem loads under the vpmu Core i7 model and names exactly the events
# the model lacks; BRANCH's values equal its formulas computed here from the printed counts;
# a group NAME is looked up in the CPU family's folder; faults in a file name its line.
. "$(dirname "$0")/lib.sh"

NEHALEM=/usr/share/likwid/perfgroups/nehalem
[ -d "$NEHALEM" ] || skip "no $NEHALEM: install Debian's likwid (scripts/setup.sh --test)"

# --- every nehalem group: what each lacks under the model (besides inverseClock: no clock) ---
declare -A lacks=(
	[L2]="L1D_M_EVICT"
	[L3CACHE]="UNC_L3_HITS_ANY UNC_L3_MISS_ANY"
	[MEM]="UNC_QHL_REQUESTS_REMOTE_READS UNC_QHL_REQUESTS_REMOTE_WRITES UNC_QMC_NORMAL_READS_ANY UNC_QMC_WRITES_FULL_ANY"
	[SCHEDULER]="UOPS_EXECUTED_PORT1 UOPS_EXECUTED_PORT5"
)
nr=0
for f in "$NEHALEM"/*.txt; do
	g=$(basename "$f" .txt)
	nr=$((nr + 1))
	"$PMC" stat --backend=vpmu --likwid-group "$f" --format json -o "$T/$g.json" true \
		2>"$T/$g.err"
	expect_eq "$g: loads and counts" $? 0
	# the events named unavailable, other than inverseClock
	got=$(json "$T/$g.json" "' '.join(sorted({r.split(\"'\")[1] for r in
		(m.get('reason', '') for m in j['metrics'] if m['status'] == 'unavailable')} -
		{'inverseClock'}))")
	expect_eq "$g: the events the model lacks" "$got" "${lacks[$g]:-}"
	nm=$(grep -c . <(sed -n '/^METRICS/,/^LONG/p' "$f" | grep -v '^METRICS\|^LONG'))
	expect_eq "$g: one metric per METRICS line" "$(json "$T/$g.json" 'len(j["metrics"])')" "$nm"
done
expect_eq "the nehalem groups (Debian likwid 5.2)" "$nr" 15
expect_grep "a metric needing the clock names inverseClock" \
	"<unavailable>  Clock \[MHz\]  \(needs 'inverseClock'" "$T/BRANCH.err"

# --- BRANCH on a workload of unpredictable branches: each value is its formula over the counts
"$PMC" stat --backend=vpmu --likwid-group BRANCH --format json -o "$T/br.json" \
	"$PROGS/metric-work" branches 20000 2>"$T/br.err"
expect_eq "BRANCH by name: runs" $? 0
check=$(json "$T/br.json" "(lambda c, m: [
	abs(m[k] - v) <= 1e-12 * abs(v) for k, v in [
	('Runtime (RDTSC) [s]', c['duration_time'] / 1e9),
	('CPI', c['CPU_CLK_UNHALTED.THREAD'] / c['INST_RETIRED.ANY']),
	('Branch rate', c['BR_INST_RETIRED.ALL_BRANCHES'] / c['INST_RETIRED.ANY']),
	('Branch misprediction rate', c['BR_MISP_RETIRED.ALL_BRANCHES'] / c['INST_RETIRED.ANY']),
	('Branch misprediction ratio',
		c['BR_MISP_RETIRED.ALL_BRANCHES'] / c['BR_INST_RETIRED.ALL_BRANCHES']),
	('Instructions per branch', c['INST_RETIRED.ANY'] / c['BR_INST_RETIRED.ALL_BRANCHES'])]]
	+ [c['BR_INST_RETIRED.ALL_BRANCHES'] > 20000])(
	{e['name'].split(':')[0]: e['mean'] for e in j['events']},
	{m['name']: m['value'] for m in j['metrics']})")
expect_eq "BRANCH: every value is its formula over the counts" "$check" \
	"[True, True, True, True, True, True, True]"
expect_eq "BRANCH: the group and its file in the formula's inputs" \
	"$(json "$T/br.json" '[m["formula"] for m in j["metrics"] if m["name"] == "CPI"]')" \
	"['CPU_CLK_UNHALTED.THREAD/INST_RETIRED.ANY']"
# half the 20,000 random branches mispredict: the rate times the instructions is above 9,000
expect_eq "BRANCH: mispredictions of random branches" \
	"$(json "$T/br.json" '[m["value"] * [e["mean"] for e in j["events"] if e["name"].startswith("INST_RETIRED.ANY")][0] > 9000 for m in j["metrics"] if m["name"] == "Branch misprediction rate"]')" \
	"[True]"

# pmc metrics computes them again from the saved counts, given the group
"$PMC" metrics --likwid-group BRANCH --format json "$T/br.json" >"$T/br-again.json"
expect_eq "pmc metrics --likwid-group: the same values" \
	"$(json "$T/br-again.json" '[m["value"] for m in j["metrics"]]')" \
	"$(json "$T/br.json" '[m["value"] for m in j["metrics"]]')"
"$PMC" metrics "$T/br.json" >/dev/null 2>"$T/again.err"
expect_eq "pmc metrics without the group: usage error" $? 2
expect_grep "pmc metrics without the group: says to give it" "give its group with --likwid-group" \
	"$T/again.err"

# --- NAME in $PMC_LIKWID_GROUPS_DIR/<family>/; a name not there is an error naming the file ---
mkdir -p "$T/groups/nehalem"
printf 'SHORT mine\n\nEVENTSET\nFIXC0 INSTR_RETIRED_ANY\nPMC0 L1D_REPL\n\nMETRICS\nRepl per insn [1]  2*PMC0/FIXC0\n' \
	>"$T/groups/nehalem/MINE.txt"
PMC_LIKWID_GROUPS_DIR="$T/groups" "$PMC" stat --backend=vpmu --likwid-group MINE \
	--format json -o "$T/mine.json" true 2>"$T/mine.err"
expect_eq "NAME: found in the family's folder" $? 0
expect_eq "NAME: L1D_REPL is L1D.REPL; 2*PMC0/FIXC0" "$(json "$T/mine.json" "(lambda c, m:
	abs(m['value'] - 2 * c['L1D.REPL'] / c['INST_RETIRED.ANY']) <= 1e-12 * m['value'])(
	{e['name'].split(':')[0]: e['mean'] for e in j['events']}, j['metrics'][0])")" True
PMC_LIKWID_GROUPS_DIR="$T/groups" "$PMC" stat --backend=vpmu --likwid-group NOPE true \
	2>"$T/nope.err"
expect_eq "unknown NAME: usage error" $? 2
expect_grep "unknown NAME: the file looked for" "$T/groups/nehalem/NOPE.txt: cannot open" \
	"$T/nope.err"

# a second EVENTSET after METRICS: its counters are mapped too
printf 'EVENTSET\nPMC0 L1D_REPL\nMETRICS\nx PMC0\nEVENTSET\nPMC1 INSTR_RETIRED_ANY\nMETRICS\ny PMC1*2\n' \
	>"$T/two.txt"
"$PMC" stat --backend=vpmu --likwid-group "$T/two.txt" --format json -o "$T/two.json" true \
	2>/dev/null
expect_eq "two EVENTSETs: each counter's event" \
	"$(json "$T/two.json" '[m["formula"] for m in j["metrics"]]')" \
	"['L1D.REPL', 'INST_RETIRED.ANY*2']"

# --- faults in a file: the line and what is wrong, exit 2 ---
bad() { # name, file text, expected message
	printf "$2" >"$T/bad.txt"
	"$PMC" stat --backend=vpmu --likwid-group "$T/bad.txt" true 2>"$T/bad.err"
	expect_eq "$1: usage error" $? 2
	expect_grep "$1: says where and what" "$3" "$T/bad.err"
}
bad "unknown counter" 'EVENTSET\nPMC0 L1D_REPL\nMETRICS\nx PMC1/PMC0\n' \
	"bad.txt: line 4: the formula names 'PMC1', which is no counter of the EVENTSET"
bad "EVENTSET line" 'EVENTSET\nPMC0\n' "bad.txt: line 2: an EVENTSET line is 'COUNTER EVENT'"
bad "event options" 'EVENTSET\nPMC0 L1D_REPL:EDGEDETECT\n' \
	"bad.txt: line 2: event options \\(':EDGEDETECT'\\) are not supported"
bad "stray line" 'SHORT x\nhello\n' \
	"bad.txt: line 2: expected SHORT, EVENTSET, METRICS or LONG"
bad "formula syntax" 'EVENTSET\nPMC0 L1D_REPL\nMETRICS\nx PMC0/*2\n' \
	"bad.txt: line 4: metric 'x': "
bad "no metrics" 'SHORT x\nEVENTSET\nPMC0 L1D_REPL\n' "the group has no METRICS line"
bad "twice" 'EVENTSET\nPMC0 L1D_REPL\nMETRICS\nx PMC0\nx PMC0\n' "metric 'x' is given twice"

finish
