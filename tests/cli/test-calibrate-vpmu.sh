#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc calibrate --backend=vpmu measures empty regions in pmc-calibrate-regions under the
# runner: a process's first entry (lazy binding) apart from the next ones, both exact; and
# pmc stat --subtract-overhead takes each off exactly, an empty region's count left at 0.
. "$(dirname "$0")/lib.sh"

require_vpmu
HELPER="$BUILD/libexec/pmc-calibrate-regions"
EMPTY="$BUILD/examples/empty"
[ -x "$EMPTY" ] || EMPTY=true

"$PMC" calibrate --backend=vpmu -e instructions,branches -r 2 --empty="$EMPTY" -o "$T/cal.json" \
	>"$T/cal.txt" 2>"$T/cal.err"
expect_eq "calibrate --backend=vpmu exit status" $? 0
expect_eq "schema 2" "$(json "$T/cal.json" 'j["schema"]')" "pmc-calibrate/2"
expect_eq "both events, vpmu" "$(json "$T/cal.json" '[(e["event"], e["backend"]) for e in j["entries"]]')" \
	"[('instructions', 'vpmu'), ('branches', 'vpmu')]"
# Exact: every run gives the same count, so min = max, for both measurements.
expect_eq "exact under vpmu" "$(json "$T/cal.json" '[e[m]["counts"]["min"] == e[m]["counts"]["max"] for e in j["entries"] for m in ("first_entry", "region_pair")]')" \
	"[True, True, True, True]"
expect_eq "the first entry costs more (lazy binding)" \
	"$(json "$T/cal.json" '[e["first_entry"]["counts"]["median"] > e["region_pair"]["counts"]["median"] > 0 for e in j["entries"]]')" \
	"[True, True]"
expect_eq "no times under vpmu" "$(json "$T/cal.json" '[k for e in j["entries"] for k in ("read", "start_stop") if k in e] + [k for e in j["entries"] for k in e["region_pair"] if k != "counts"]')" "[]"
expect_grep "summary: first entry" "^  first region entry, counts: +median [1-9]" "$T/cal.txt"
expect_grep "summary: no times" "^  times: +not measured" "$T/cal.txt"
FIRST=$(json "$T/cal.json" 'int(j["entries"][0]["first_entry"]["counts"]["median"])')
NEXT=$(json "$T/cal.json" 'int(j["entries"][0]["region_pair"]["counts"]["median"])')

# The calibrated costs are those pmc stat counts in the same program, to the instruction.
"$PMC" stat --backend=vpmu -e instructions -o "$T/raw.json" --format json "$HELPER" 30 2>/dev/null
expect_eq "raw regions: first entry, 30 next ones" \
	"$(json "$T/raw.json" '[(r["name"], r["events"][0]["values"]) for r in j["regions"]]')" \
	"[('first', [$FIRST.0]), ('next', [$((30 * NEXT)).0])]"

# Subtracted, each region's count is exactly 0 (it was exactly its overhead, above). Each
# event is calibrated alone, and is subtracted exactly when counted alone (docs/accuracy.md).
for ev in branches instructions; do # instructions last: its file is read below
	"$PMC" stat --backend=vpmu -e $ev -r 2 --subtract-overhead --calibration "$T/cal.json" \
		-o "$T/sub.json" --format json "$HELPER" 30 2>"$T/sub.err"
	expect_eq "$ev: empty regions subtracted to 0" \
		"$(json "$T/sub.json" '[(r["name"], r["events"][0]["values"]) for r in j["regions"]]')" \
		"[('first', [0.0, 0.0]), ('next', [0.0, 0.0])]"
done
expect_eq "json: which region had the first entry" "$(json "$T/sub.json" 'j["overhead"]["first_entry_region"]')" "first"
expect_eq "json: the first-entry cost applied" \
	"$(json "$T/sub.json" '[e.get("overhead_first_entry") for r in j["regions"] for e in r["events"]][:1]')" "[$FIRST.0]"
"$PMC" stat --backend=vpmu -e instructions --subtract-overhead --calibration "$T/cal.json" "$HELPER" 5 2>"$T/sub.txt"
expect_grep "terminal says which was applied" "first region entry \(charged to 'first'" "$T/sub.txt"

# Each marker form is calibrated: the named markers (pmc_region_begin(name)), which the README
# teaches, cost otherwise than the markers by id; an empty named region is subtracted to 0 too,
# whatever its name's length (the name is looked up outside the counted part).
expect_eq "the named markers calibrated, exact" \
	"$(json "$T/cal.json" '[e["named"][m]["counts"]["min"] == e["named"][m]["counts"]["max"] > 0 for e in j["entries"] for m in ("first_entry", "region_pair")]')" \
	"[True, True, True, True]"
expect_grep "summary: the named markers" "^  named markers, counts: +per entry [1-9]" "$T/cal.txt"
"$PMC" stat --backend=vpmu -e instructions -r 2 --subtract-overhead --calibration "$T/cal.json" \
	-o "$T/named.json" --format json "$HELPER" 30 named 2>/dev/null
expect_eq "the calibration program's named regions subtracted to 0" \
	"$(json "$T/named.json" '[(r["name"], r["events"][0]["values"]) for r in j["regions"]]')" \
	"[('first', [0.0, 0.0]), ('next', [0.0, 0.0])]"
# vpmu-named links libpmc.so lazily, as a usual program: its regions "empty" and
# "a_region_whose_name_is_long" after its first entry (region "first").
for ev in instructions branches; do
	NAMED=$(json "$T/cal.json" "[int(e['named']['region_pair']['counts']['median']) for e in j['entries'] if e['event'] == '$ev'][0]")
	"$PMC" stat --backend=vpmu -e $ev -o "$T/raw.json" --format json "$PROGS/vpmu-named" 10 0 2>/dev/null
	expect_eq "$ev: an empty named region costs the calibrated named markers, to the count" \
		"$(json "$T/raw.json" '[r["events"][0]["values"] for r in j["regions"]][1]')" \
		"[$((10 * NAMED)).0]"
	"$PMC" stat --backend=vpmu -e $ev -r 2 --subtract-overhead --calibration "$T/cal.json" \
		-o "$T/named.json" --format json "$PROGS/vpmu-named" 10 0 2>"$T/named.err"
	expect_eq "$ev: an empty named region subtracted to 0" \
		"$(json "$T/named.json" '[(r["name"], r["entered"], r["events"][0]["values"]) for r in j["regions"]][1]')" \
		"('empty', 10, [0.0, 0.0])"
done
"$PMC" stat --backend=vpmu -e instructions --subtract-overhead --calibration "$T/cal.json" \
	-o "$T/named.json" --format json "$PROGS/vpmu-named" 10 100 2>/dev/null
expect_eq "a named region of 100 iterations: 4 x 100 + 5 an entry (the loop's argument, call, test, branch, return), exactly" \
	"$(json "$T/named.json" '[(r["name"], r["events"][0]["values"]) for r in j["regions"]][1:]')" \
	"[('empty', [0.0]), ('a_region_whose_name_is_long', [4050.0])]"
"$PMC" stat --backend=vpmu -e instructions -o "$T/raw.json" --format json "$PROGS/vpmu-named" 10 100 2>/dev/null
NAMED=$(json "$T/cal.json" "[int(e['named']['region_pair']['counts']['median']) for e in j['entries'] if e['event'] == 'instructions'][0]")
expect_eq "the long name costs what the calibration's short one did" \
	"$(json "$T/raw.json" '[r["events"][0]["values"] for r in j["regions"]][2]')" "[$((10 * NAMED + 4050)).0]"
# a file without the named form (an older pmc's): the id form's cost, said
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); [e.pop('named') for e in j['entries']]; json.dump(j, open(sys.argv[2], 'w'))" "$T/cal.json" "$T/noname.json"
"$PMC" stat --backend=vpmu -e instructions --subtract-overhead --calibration "$T/noname.json" "$PROGS/vpmu-region" 10 0 >/dev/null 2>"$T/noname.err"
expect_grep "no named calibration: said" "'instructions' has no calibration of the named markers" "$T/noname.err"

# A pmc-calibrate/1 file has no first entry: the per-entry cost is taken from it too, said.
python3 - "$T/cal.json" "$T/v1.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["schema"] = "pmc-calibrate/1"
for e in j["entries"]:
    del e["first_entry"]
json.dump(j, open(sys.argv[2], "w"))
PY
"$PMC" stat --backend=vpmu -e instructions --subtract-overhead --calibration "$T/v1.json" \
	-o "$T/v1-sub.json" --format json "$HELPER" 30 2>"$T/v1.err"
expect_eq "old file read: first entry less the per-entry cost" \
	"$(json "$T/v1-sub.json" '[r["events"][0]["values"] for r in j["regions"]]')" "[[$((FIRST - NEXT)).0], [0.0]]"
expect_grep "old file: says the first entry is not calibrated" "'instructions' has no first-entry calibration" "$T/v1.err"

# Events counted together: under vpmu each region entry reads every event, so an event's cost
# grows with the others (about 100 instructions per event more). The costs calibrated alone
# leave a remainder in a two-event count; --set calibrates the set, and subtracts it exactly.
"$PMC" stat --backend=vpmu -e instructions,branches --subtract-overhead --calibration "$T/cal.json" \
	-o "$T/alone.json" --format json "$HELPER" 30 2>/dev/null
expect_eq "two events, costs calibrated alone: instructions left over" \
	"$(json "$T/alone.json" '[r["events"][0]["values"][0] > 0 for r in j["regions"]]')" "[True, True]"
"$PMC" calibrate --backend=vpmu --set -e instructions,branches -r 2 --empty="$EMPTY" -o "$T/cal.json" \
	>"$T/set.txt" 2>"$T/set.err"
expect_eq "calibrate --set exit status" $? 0
expect_eq "a file with a set is version 3" "$(json "$T/cal.json" 'j["schema"]')" "pmc-calibrate/3"
expect_eq "the set's entries beside the ones alone" \
	"$(json "$T/cal.json" '[(e["event"], e.get("set")) for e in j["entries"]]')" \
	"[('instructions', None), ('branches', None), ('instructions', ['branches', 'instructions']), ('branches', ['branches', 'instructions'])]"
expect_eq "an event costs more beside another" \
	"$(json "$T/cal.json" '[e["region_pair"]["counts"]["median"] for e in j["entries"] if e["event"] == "instructions"]' | python3 -c 'import ast, sys; a, b = ast.literal_eval(sys.stdin.read()); print(b - a > 0)')" True
"$PMC" calibrate --backend=vpmu --set -e instructions,branches,MEM_INST_RETIRED.LOADS -r 2 --empty="$EMPTY" -o "$T/cal.json" \
	>/dev/null 2>&1
expect_eq "a 3-event set kept beside the 2-event one" \
	"$(json "$T/cal.json" 'sorted(set(len(e.get("set", [])) for e in j["entries"]))')" "[0, 2, 3]"
for evs in instructions,branches branches,instructions instructions,branches,MEM_INST_RETIRED.LOADS; do
	"$PMC" stat --backend=vpmu -e $evs -r 2 --subtract-overhead --calibration "$T/cal.json" \
		-o "$T/set.json" --format json "$HELPER" 30 2>"$T/set.err"
	expect_eq "$evs: every event's empty regions subtracted to 0" \
		"$(json "$T/set.json" 'sorted(set(v for r in j["regions"] for e in r["events"] for v in e["values"]))')" "[0.0]"
done
expect_no_grep "no warning for a calibrated set" "not calibrated|no first-entry" "$T/set.err"
# CSV: the first entry's cost on the region it was charged to (the regions' table ends at a
# blank line: the elapsed table follows)
"$PMC" stat --backend=vpmu -e instructions,branches --subtract-overhead --calibration "$T/cal.json" \
	--format csv -o "$T/set.csv" "$HELPER" 30 2>/dev/null
expect_eq "csv: overhead_first_entry column" \
	"$(python3 -c 'import csv, sys; rows = list(csv.reader(open(sys.argv[1]))); i = [k for k, r in enumerate(rows) if r and r[0] == "region"][0]; end = rows.index([], i) if [] in rows[i:] else len(rows); c = rows[i].index("overhead_first_entry"); print(" ".join(r[2] + "=" + r[c] for r in rows[i + 1:end]))' "$T/set.csv")" \
	"instructions=$(json "$T/cal.json" '[int(e["first_entry"]["counts"]["median"]) for e in j["entries"] if e["event"] == "instructions" and len(e.get("set", [])) == 2][0]').000 branches=$(json "$T/cal.json" '[int(e["first_entry"]["counts"]["median"]) for e in j["entries"] if e["event"] == "branches" and len(e.get("set", [])) == 2][0]').000 instructions= branches="
# a set of fewer than two countable events is refused
"$PMC" calibrate --backend=vpmu --set -e instructions -r 1 --empty="$EMPTY" -o "$T/one.json" >/dev/null 2>"$T/one.err"
expect_eq "--set with one event fails" $? 1
expect_grep "and says why" "--set wants two or more events" "$T/one.err"
# a "set" that is not a list of names makes the file unusable, said
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); j['entries'][2]['set']='x'; json.dump(j, open(sys.argv[2], 'w'))" "$T/cal.json" "$T/badset.json"
"$PMC" stat --backend=vpmu -e instructions --subtract-overhead --calibration "$T/badset.json" "$HELPER" 3 >/dev/null 2>"$T/bad.err"
expect_grep "a bad set is said" 'entries\[2\] \(instructions\): "set" is not an array of two or more event names' "$T/bad.err"

finish
