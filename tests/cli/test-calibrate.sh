#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc calibrate writes a calibration file; pmc stat --subtract-overhead uses it and says so.
. "$(dirname "$0")/lib.sh"

[ -r /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id ] ||
	[ -r /sys/kernel/debug/tracing/events/syscalls/sys_enter_getppid/id ] ||
	skip "no syscalls tracepoints (tracefs not mounted or no CONFIG_FTRACE_SYSCALLS)"
TP=syscalls:sys_enter_getppid
R="$PROGS/region-cases"
EMPTY="$BUILD/examples/empty"
[ -x "$EMPTY" ] || EMPTY=true

# ---- pmc calibrate ----
"$PMC" calibrate -e $TP,task-clock -n 300 -r 5 --empty="$EMPTY" -o "$T/cal.json" >"$T/cal.txt" 2>"$T/cal.err"
expect_eq "calibrate exit status" $? 0
expect_eq "schema" "$(json "$T/cal.json" 'j["schema"]')" "pmc-calibrate/2"
expect_eq "one entry per event" "$(json "$T/cal.json" '[e["event"] for e in j["entries"]]')" "['$TP', 'task-clock']"
expect_eq "distributions" "$(json "$T/cal.json" 'sorted(k for k in ["median","p90","p99","max","histogram"] if k not in j["entries"][0]["region_pair"]["ns"])')" "[]"
expect_eq "read and start/stop measured" "$(json "$T/cal.json" '[e["read"]["ns"]["n"] for e in j["entries"]] + [e["start_stop"]["ns"]["n"] for e in j["entries"]]')" \
	"[300, 300, 300, 300]"
# An empty region contains no getppid, and an empty program makes none: both exactly 0.
expect_eq "empty region adds no getppid" "$(json "$T/cal.json" 'j["entries"][0]["region_pair"]["counts"]["max"]')" "0.0"
expect_eq "empty program adds no getppid" "$(json "$T/cal.json" 'j["entries"][0]["empty_program"]["values"]')" \
	"[0.0, 0.0, 0.0, 0.0, 0.0]"
expect_eq "first entry adds no getppid" "$(json "$T/cal.json" 'j["entries"][0]["first_entry"]["counts"]["max"]')" "0.0"
expect_grep "task-clock pair costs time" "\"median\": [1-9]" "$T/cal.json"
expect_grep "terminal summary" "^  empty region, ns per pair: +median [0-9]+" "$T/cal.txt"

# A second run for another event keeps the earlier entries.
"$PMC" calibrate -e page-faults -n 50 -r 2 --empty="$EMPTY" -o "$T/cal.json" >/dev/null 2>&1
expect_eq "entries merged" "$(json "$T/cal.json" 'sorted(e["event"] for e in j["entries"])')" \
	"['page-faults', '$TP', 'task-clock']"

# ---- pmc stat --subtract-overhead, with a calibration of known values ----
cat >"$T/known.json" <<EOF
{ "schema": "pmc-calibrate/1", "machine": { "date": "test" },
  "entries": [ { "backend": "perf", "event": "$TP", "priv": 1,
                 "region_pair": { "counts": { "median": 3 } }, "empty_program": { "median": 2 } },
               { "backend": "perf", "event": "page-faults", "priv": 1,
                 "region_pair": { "counts": { "median": 1e9 } }, "empty_program": { "median": 1e12 } } ] }
EOF
"$PMC" stat -e $TP -r 3 --subtract-overhead --calibration "$T/known.json" "$R" loop 100 10 2>"$T/sub"
expect_grep "says so on the terminal" "^overhead subtracted \(calibration $T/known.json" "$T/sub"
expect_grep "per entry: 1000 - 100 x 3" "^    $TP: 700 \+/- 0\.0 \(0\.000%\) \[7\.0 per entry\]" "$T/sub"
"$PMC" stat -e $TP -r 2 --subtract-overhead --calibration "$T/known.json" "$PROGS/getppid-loop" 50 2>"$T/sub-run"
expect_grep "per run: 50 - 2" "^ +48 +$TP " "$T/sub-run"

"$PMC" stat -e $TP,page-faults -r 2 --subtract-overhead --calibration "$T/known.json" \
	-o "$T/sub.json" --format json "$R" loop 100 10 2>/dev/null
expect_eq "json says so" "$(json "$T/sub.json" 'j["overhead"]["subtracted"]')" "True"
expect_eq "never negative, whole program" "$(json "$T/sub.json" '[e["mean"] for e in j["events"] if e["name"] == "page-faults"]')" "[0.0]"
expect_eq "never negative, regions" "$(json "$T/sub.json" '[e["mean"] for e in j["regions"][0]["events"]]')" "[700.0, 0.0]"
expect_eq "json per-entry overhead" "$(json "$T/sub.json" 'j["regions"][0]["events"][0]["overhead_per_entry"]')" "3.0"
# a region's count below the overhead of its entries: said and marked in every format
expect_eq "never negative, regions: JSON's overhead_clamped" "$(json "$T/sub.json" '[e.get("overhead_clamped") for e in j["regions"][0]["events"]]')" "[None, 2]"
"$PMC" stat -e $TP,page-faults -r 2 --subtract-overhead --calibration "$T/known.json" \
	-o "$T/subr.csv" --format csv "$R" loop 100 10 2>"$T/subr.err"
expect_grep "never negative, regions: said" "in region 'loop', the calibrated overhead of the entries is larger than the count of 'page-faults' in 2 of 2 runs" "$T/subr.err"
expect_grep "never negative, regions: marked in the summary" "^    page-faults: 0 .*per entry\]   \[overhead larger than the count: 0\]" "$T/subr.err"
expect_eq "never negative, regions: CSV's overhead_clamped column" \
	"$(python3 -c 'import csv,sys; t=open(sys.argv[1]).read().split("\n\n"); r=[x for x in t if x.startswith("region,")][0]; print([(x["event"], x["overhead_clamped"]) for x in csv.DictReader(r.splitlines())])' "$T/subr.csv")" \
	"[('$TP', '0'), ('page-faults', '2')]"
"$PMC" stat -e $TP,page-faults -r 2 --subtract-overhead --calibration "$T/known.json" \
	-o "$T/subr.txt" "$R" loop 100 10 2>/dev/null
expect_grep "never negative, regions: the text file's comment" "^# loop page-faults: overhead larger than the count in 2 of 2 runs: counted as 0\$" "$T/subr.txt"

"$PMC" stat -e $TP --subtract-overhead --calibration "$T/known.json" -o "$T/sub.txt" "$R" loop 10 1 2>/dev/null
expect_grep "results file says so" "^# overhead subtracted" "$T/sub.txt"
"$PMC" stat -e $TP --subtract-overhead --calibration "$T/known.json" -o "$T/sub.csv" --format csv "$R" loop 10 1 2>/dev/null
expect_grep "csv says so" "overhead_subtracted" "$T/sub.csv"
"$PMC" stat -e $TP --subtract-overhead --calibration "$T/missing.json" "$PROGS/getppid-loop" 5 2>"$T/nocal"
expect_grep "no calibration: explained" "no calibration .*pmc calibrate" "$T/nocal"

# A first entry that is no count is refused, naming the entry and the field.
sed 's|"pmc-calibrate/1"|"pmc-calibrate/2"|; s|"region_pair": { "counts": { "median": 3 } }|&, "first_entry": { "counts": { "median": -1 } }|' \
	"$T/known.json" >"$T/bad-first.json"
"$PMC" stat -e $TP --subtract-overhead --calibration "$T/bad-first.json" "$PROGS/getppid-loop" 1 2>"$T/bad-first"
expect_grep "bad first entry refused" "entries\[0\] \($TP, backend perf\): first_entry.counts.median is out of range" "$T/bad-first"

# -o in a folder that does not exist: refused before measuring, and no folder is made.
"$PMC" calibrate -o "$T/no/such/dir/c.json" 2>"$T/nodir"
expect_eq "calibrate -o in a missing folder fails" $? 1
expect_grep "names the path and why" "cannot write $T/no/such/dir/c.json: No such file" "$T/nodir"
expect_eq "no folder made on the way" "$(ls -d "$T/no" 2>/dev/null)" ""

finish
