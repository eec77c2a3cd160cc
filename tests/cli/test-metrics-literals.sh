#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The '#' literals of the machine that counted (docs/metrics.md, "Literals"): pmc stat records
# them in the JSON file's provenance, and pmc metrics computes with those, not with its own
# machine's; a file that lacks them takes this machine's, with a note.
. "$(dirname "$0")/lib.sh"
require_vpmu

# Counted on a recorded topology (2 sockets x 2 cores x 2 threads, tests/data/sysfs): the file
# records that machine's literals, and the metrics use them.
PMC_SYSFS_ROOT="$SRC/tests/data/sysfs/topo-2s2c2t" "$PMC" stat --backend=vpmu \
	-M 'nc = #num_cores * cycles / cycles' -M 'sc = #slots * cycles' -M 'smt = #smt_on + 0 * cycles' \
	--format json -o "$T/c.json" "$PROGS/vpmu-loop" loop 100 2>"$T/c.err"
expect_eq "pmc stat: exit status" $? 0
expect_eq "pmc stat: the counting machine's literals in the provenance" \
	"$(json "$T/c.json" '[j["provenance"]["literals"][k] for k in ("#num_cpus", "#num_cores", "#num_dies", "#num_packages", "#smt_on", "#slots")]')" \
	"[8.0, 4.0, 2.0, 2.0, 1.0, 1.0]"
expect_eq "pmc stat: the metrics of those" \
	"$(json "$T/c.json" '[m["value"] for m in j["metrics"]][::2]')" "[4.0, 1.0]"
cyc=$(json "$T/c.json" '[e["mean"] for e in j["events"] if e["name"] == "cycles"][0]')

# pmc metrics on this machine (whatever its topology): the file's values, no note.
"$PMC" metrics --format json "$T/c.json" >"$T/m.json" 2>"$T/m.err"
expect_eq "pmc metrics: the file's literals" \
	"$(json "$T/m.json" '[m["value"] for m in j["metrics"]]')" "[4.0, $cyc, 1.0]"
expect_eq "pmc metrics: no note" "$(cat "$T/m.err")" ""
# A file whose machine had 4 slots per cycle and 64 cores: the metrics follow it exactly.
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); l=j['provenance']['literals']
l['#slots']=4; l['#num_cores']=64; del l['#smt_on']; json.dump(j, open(sys.argv[2], 'w'))" \
	"$T/c.json" "$T/w.json"
"$PMC" metrics --format json "$T/w.json" >"$T/w.out"
expect_eq "pmc metrics: another machine's #slots and #num_cores" \
	"$(json "$T/w.out" '[m["value"] for m in j["metrics"][:2]]')" \
	"[64.0, $(python3 -c "print(4 * $cyc)")]"
expect_eq "pmc metrics: a literal that machine did not give is n/a, not this machine's" \
	"$(json "$T/w.out" '(j["metrics"][2]["status"], "#smt_on" in j["metrics"][2]["reason"])')" \
	"('n/a', True)"
# An older file without literals: this machine's, and a note says so.
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); del j['provenance']['literals']
json.dump(j, open(sys.argv[2], 'w'))" "$T/c.json" "$T/old.json"
"$PMC" metrics --format json "$T/old.json" >"$T/old.out" 2>"$T/old.err"
expect_eq "pmc metrics: an older file computes" $? 0
expect_eq "pmc metrics: this machine's #slots (vpmu's issue width 1)" \
	"$(json "$T/old.out" 'j["metrics"][1]["value"]')" "$cyc"
expect_grep "pmc metrics: the note" "does not record the '#' literals .* this machine's are used" \
	"$T/old.err"
finish
