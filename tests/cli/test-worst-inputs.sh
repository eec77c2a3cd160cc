#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Small inputs built to be worst for their reader (docs/security.md, "Limits"): each is read in
# time linear in its size, so each command here ends within its bound, where before it ran for
# minutes (metrics evaluated by expanding the tree of references: 3^n; a metric file's names
# checked against every earlier one; pmc merge listing a claimed size's missing ranks one by one).
. "$(dirname "$0")/lib.sh"
require_vpmu

"$PMC" stat --backend=vpmu -M 'm0 = cycles' --format json -o "$T/c.json" \
	"$PROGS/vpmu-loop" loop 100 2>/dev/null
expect_eq "pmc stat: the base results file" $? 0
cyc=$(json "$T/c.json" '[e["mean"] for e in j["events"] if e["name"] == "cycles"][0]')

# A results file of 20 metrics (6 KB), each using the one before three times: m19 = 3^19 cycles.
python3 - "$T/c.json" "$T/r.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
base = j['metrics'][0]
j['metrics'] = [dict(base, name='m%d' % i, formula='cycles' if i == 0 else
                     ' + '.join(['m%d' % (i - 1)] * 3)) for i in range(20)]
json.dump(j, open(sys.argv[2], 'w'))
PY
timeout 20 "$PMC" metrics --format json "$T/r.json" >"$T/r.out" 2>"$T/r.err"
expect_eq "pmc metrics: 20 metrics, each the previous thrice, within 20 s" $? 0
expect_eq "pmc metrics: their values, exact" "$(json "$T/r.out" '[m["value"] for m in j["metrics"]][19]')" \
	"$(python3 -c "print(float(3 ** 19 * $cyc))")"

# A metric file of 30 levels, each metric the previous twice (2^29 paths), through -M.
python3 -c "import json, sys; json.dump([{'MetricName': 'd%d' % i, 'MetricExpr':
	'cycles' if i == 0 else 'd%d + d%d' % (i - 1, i - 1)} for i in range(30)], open(sys.argv[1], 'w'))" \
	"$T/d.json"
timeout 20 "$PMC" metrics --format json --metrics-file "$T/d.json" -M d29 "$T/c.json" >"$T/d.out"
expect_eq "--metrics-file: a diamond of 30 levels within 20 s" $? 0
expect_eq "--metrics-file: its value, exact" "$(json "$T/d.out" '[m["value"] for m in j["metrics"]]')" \
	"[$(python3 -c "print(float(2 ** 29 * $cyc))")]"
# Deeper than the bound: a clear error, not a long walk.
python3 -c "import json, sys; json.dump([{'MetricName': 'd%d' % i, 'MetricExpr':
	'cycles' if i == 0 else 'd%d + d%d' % (i - 1, i - 1)} for i in range(40)], open(sys.argv[1], 'w'))" \
	"$T/deep.json"
timeout 20 "$PMC" metrics --metrics-file "$T/deep.json" -M d39 "$T/c.json" >/dev/null 2>"$T/deep.err"
expect_eq "--metrics-file: a diamond of 40 levels: usage error within 20 s" $? 2
expect_grep "--metrics-file: deeper than the bound, said" "deeper than 32" "$T/deep.err"

# A metric file of 100,000 entries (3.5 MB): loaded in linear time (was quadratic: minutes).
python3 -c "import json, sys; json.dump([{'MetricName': 'x%d' % i, 'MetricExpr': '%d' % i}
	for i in range(100000)], open(sys.argv[1], 'w'))" "$T/n.json"
timeout 60 "$PMC" metrics --format json --metrics-file "$T/n.json" -M x99999 "$T/c.json" >"$T/n.out"
expect_eq "--metrics-file: 100,000 entries within 60 s" $? 0
expect_eq "--metrics-file: the last entry's value" "$(json "$T/n.out" '[m["value"] for m in j["metrics"]]')" \
	"[99999.0]"
# A name given twice is still refused, now found by hash.
python3 -c "import json, sys; json.dump([{'MetricName': 'x%d' % (i % 99999), 'MetricExpr': '1'}
	for i in range(100000)], open(sys.argv[1], 'w'))" "$T/dup.json"
timeout 60 "$PMC" metrics --metrics-file "$T/dup.json" -M x0 "$T/c.json" >/dev/null 2>"$T/dup.err"
expect_eq "--metrics-file: a name twice among 100,000: usage error" $? 2
expect_grep "--metrics-file: the second one named" "entry 99999.*'x0' is also the name of an earlier entry" \
	"$T/dup.err"

# A LIKWID group of 40,000 METRICS lines (each name checked against the earlier ones, each metric
# selected): linear (was quadratic: 200 s).
python3 -c "import sys; open(sys.argv[1], 'w').write('SHORT worst\\n\\nEVENTSET\\nPMC0 INSTR_RETIRED_ANY\\n\\nMETRICS\\n'
	+ ''.join('m%d PMC0*%d\\n' % (i, i) for i in range(40000)))" "$T/W.txt"
timeout 60 "$PMC" metrics --format json --likwid-group "$T/W.txt" "$T/c.json" >"$T/w.out"
expect_eq "--likwid-group: 40,000 metrics within 60 s" $? 0
expect_eq "--likwid-group: every one computed" "$(json "$T/w.out" 'len(j["metrics"])')" 40000

# pmc merge of files that claim a job of 10^9 ranks: the missing ones as runs, not one by one.
for r in 0 5; do
	env OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=1000000000 "$PMC" stat --backend=vpmu \
		-e instructions --format json -o "$T/b.json" -- "$PROGS/vpmu-loop" loop 10 2>/dev/null
done
timeout 20 "$PMC" merge "$T"/b.json.rank-* >"$T/b.txt"
expect_eq "pmc merge: size 10^9, text within 20 s" $? 0
expect_eq "pmc merge: the missing ranks as runs" "$(grep '^# missing' "$T/b.txt" | cut -c1-80)" \
	"# missing ranks: 1-4 6-999999999"
timeout 20 "$PMC" merge --format json "$T"/b.json.rank-* >"$T/b.json"
expect_eq "pmc merge: size 10^9, JSON within 20 s" $? 0
expect_eq "pmc merge: JSON lists the first 1,000 and counts them all" \
	"$(json "$T/b.json" 'len(j["missing_ranks"]), j["missing_ranks"][:5], j["nr_missing"]')" \
	"1000 [1, 2, 3, 4, 6] 999999998"
# pmc merge of a file of 60,000 events: names found by hash (was a linear search each: quadratic).
python3 - "$T/b.json.rank-000000000" "$T/e.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j['events'] = [dict(j['events'][0], name='ev%d' % i) for i in range(60000)]
json.dump(j, open(sys.argv[2], 'w'))
PY
timeout 30 "$PMC" merge --format csv "$T/e.json" >"$T/e.csv"
expect_eq "pmc merge: 60,000 events within 30 s" $? 0
expect_eq "pmc merge: a row each" "$(grep -c '^event,' "$T/e.csv")" 60000
finish
