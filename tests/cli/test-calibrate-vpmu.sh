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

finish
