#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regions in standalone mode (PMC_EVENTS, PMC_OUTPUT) and under pmc stat: exact counts per entry.
. "$(dirname "$0")/lib.sh"

[ -r /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id ] ||
	[ -r /sys/kernel/debug/tracing/events/syscalls/sys_enter_getppid/id ] ||
	skip "no syscalls tracepoints (tracefs not mounted or no CONFIG_FTRACE_SYSCALLS)"
TP=syscalls:sys_enter_getppid
R="$PROGS/region-cases"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

# ---- standalone ----
# No environment: the markers record nothing and print nothing.
env -u PMC_EVENTS -u PMC_REGION_FD "$R" loop 2>"$T/none"
expect_eq "no environment, no output" "$(wc -c <"$T/none")" 0

PMC_EVENTS=$TP "$R" loop 100 10 2>"$T/loop"
expect_grep "standalone header" "^  Region loop, entered 100 times and exited 100 times:" "$T/loop"
expect_grep "standalone value per entry" "^    $TP: 1000 \[10\.0\]" "$T/loop"
PMC_EVENTS=task-clock:u,$TP "$R" loop 100 10 2>"$T/loop-clk"
expect_grep "standalone: a clock's values with their unit" \
	"^    task-clock:u: [0-9]+ ns \[[0-9]+\.[0-9] ns\]$" "$T/loop-clk"

PMC_EVENTS=$TP PMC_OUTPUT="$T/loop.json" "$R" loop 2>"$T/loop-json.err"
expect_eq "JSON file, nothing on stderr" "$(wc -c <"$T/loop-json.err")" 0
expect_eq "JSON region" "$(json "$T/loop.json" '[(r["name"], r["entered"], r["exited"]) for r in j["regions"]]')" \
	"[('loop', 100, 100)]"
expect_eq "JSON per entry" "$(json "$T/loop.json" '[(e["name"], e["values"], e["per_entry"]) for e in j["regions"][0]["events"]]')" \
	"[('$TP', [1000.0], 10.0)]"

PMC_EVENTS=$TP "$R" nest 2>"$T/nest"
expect_grep "nested inner" "^  Region inner, entered 3 times" "$T/nest"
expect_eq "nested values" "$(grep -A1 '^  Region' "$T/nest" | grep -o "$TP: [0-9]*" | tr '\n' ' ')" \
	"$TP: 17 $TP: 15 "
PMC_EVENTS=$TP "$R" overlap 2>"$T/overlap"
expect_eq "overlapping values" "$(grep -o "$TP: [0-9]*" "$T/overlap" | tr '\n' ' ')" "$TP: 5 $TP: 7 "
PMC_EVENTS=$TP "$R" numbered 2>"$T/num"
expect_eq "numbered regions first" "$(grep -o '^  Region [^,]*' "$T/num" | tr '\n' ' ')" \
	"  Region 0   Region 1   Region named "

PMC_EVENTS=$TP "$R" missing 2>"$T/missing"
expect_grep "missing end: counts" "^  Region open, entered 3 times and exited 2 times" "$T/missing"
expect_grep "missing end: warning" "warning: entered 3 times but exited 2 times" "$T/missing"
expect_grep "missing end: open at exit" "1 entry still open at exit" "$T/missing"

PMC_EVENTS=$TP PMC_PER_THREAD=1 "$R" threads 4 50 2>"$T/threads"
expect_grep "threads: entered 200" "^  Region work, entered 200 times and exited 200 times" "$T/threads"
expect_grep "threads: total" "^    $TP: 400 \[2\.0\]" "$T/threads"
expect_eq "threads: per thread" "$(grep -c "^      $TP: 100 \[2\.0\]" "$T/threads")" 4

PMC_EVENTS=$TP "$R" fork 2>"$T/fork"
expect_grep "fork: the parent's region" "^  Region parent, entered 1 time and.*" "$T/fork"
expect_grep "fork: the child's own region" "^  Region child, entered 1 time and" "$T/fork"
expect_eq "fork: the child does not repeat the parent's" "$(grep -c 'Region parent' "$T/fork")" 1
PMC_EVENTS=$TP "$R" flush 2>"$T/flush"
expect_grep "flush before _exit" "^    $TP: 6 \[6\.0\]" "$T/flush"

PMC_EVENTS="bogus-event" "$R" loop 2>"$T/bogus"
expect_eq "a bad PMC_EVENTS does not break the program" $? 0
expect_grep "a bad PMC_EVENTS is reported" "cannot (parse|count)" "$T/bogus"

# The examples: the thesis's three techniques, with predictable counts.
EX="$BUILD/examples"
PMC_EVENTS=$TP "$EX/region-whole" 2>"$T/ex-whole"
expect_grep "example: one region around the program" "^    $TP: 100 \[100\.0\]" "$T/ex-whole"
PMC_EVENTS=$TP "$EX/region-loop" >/dev/null 2>"$T/ex-loop"
expect_grep "example: region around a loop, two exits" "^  Region loop, entered 7 times and exited 7 times" "$T/ex-loop"
PMC_EVENTS=$TP "$EX/region-split" 2>"$T/ex-split"
expect_eq "example: non-overlapping regions" "$(grep -o "$TP: [0-9]*" "$T/ex-split" | tr '\n' ' ')" \
	"$TP: 2 $TP: 15 $TP: 4 "
PMC_EVENTS=syscalls:sys_enter_write "$EX/region-hello" >/dev/null 2>"$T/ex-hello"
expect_grep "example: hello, region 1 around one printf" "^  Region 1, entered 1 time and" "$T/ex-hello"
expect_eq "example: hello, one write in each region" "$(grep -c 'sys_enter_write: 1 \[1\.0\]' "$T/ex-hello")" 2

# ---- under pmc stat ----
"$PMC" stat -e $TP -r 5 "$R" loop 100 10 2>"$T/stat"
expect_eq "pmc stat exit status" $? 0
expect_grep "stat: region results header" "^Results \(for 1 region, 5 repetitions, 95% confidence level\):" "$T/stat"
expect_grep "stat: entered/exited" "^  Region loop, entered 100 times and exited 100 times:" "$T/stat"
expect_grep "stat: mean, ci and per entry" "^    $TP: 1000 \+/- 0\.0 \(0\.000%\) \[10\.0 per entry\]" "$T/stat"
expect_grep "stat: whole-program counts still there" "^ +10[0-9][0-9] +$TP " "$T/stat"
# A region's clock in the summary's unit (msec), each number with its unit (was bare ns).
"$PMC" stat -e task-clock,$TP --all-results "$R" loop 100 10 2>"$T/stat-clk"
expect_grep "stat: the summary's task-clock in msec" "^ +[0-9]+\.[0-9]{2} msec task-clock " "$T/stat-clk"
expect_grep "stat: a region's task-clock in msec, each number with its unit" \
	"^    task-clock: [0-9]+\.[0-9]{2} msec \+/- [0-9]+\.[0-9]{3} msec \([0-9.]+%\) \[[0-9]+\.[0-9]{5} msec per entry\]$" "$T/stat-clk"
expect_grep "stat: a region's repetition in msec" "^        rep 1: [0-9]+\.[0-9]{2} msec$" "$T/stat-clk"
expect_grep "stat: a region's count with no decimals it does not have" "^    $TP: 1000 \+/- " "$T/stat-clk"

"$PMC" stat -e $TP -r 5 -o "$T/stat.json" --format json "$R" loop 100 10 2>/dev/null
expect_eq "stat json: region" "$(json "$T/stat.json" '[(r["name"], r["entered"], r["exited"]) for r in j["regions"]]')" \
	"[('loop', 100, 100)]"
expect_eq "stat json: keys" "$(json "$T/stat.json" 'sorted(k for k in ["name","values","mean","ci","per_entry"] if k not in j["regions"][0]["events"][0])')" "[]"
expect_eq "stat json: values" "$(json "$T/stat.json" '[(e["name"], [int(v) for v in e["values"]], e["per_entry"]) for e in j["regions"][0]["events"]]')" \
	"[('$TP', [1000, 1000, 1000, 1000, 1000], 10.0)]"
expect_eq "stat json: no overhead subtracted" "$(json "$T/stat.json" 'j["overhead"]["subtracted"]')" "False"

"$PMC" stat -e $TP -r 3 --all-results -o "$T/stat.txt" "$R" nest 2>/dev/null
expect_grep "results file: regions header" "^# Results \(for 2 regions, 3 repetitions, 95% confidence level\):" "$T/stat.txt"
expect_grep "results file: region comment" "^# Region inner: entered 3 exited 3$" "$T/stat.txt"
expect_eq "results file: raw values" "$(grep -c "^inner $TP [0-2] 15$" "$T/stat.txt")" 3
expect_grep "results file: summary with per entry" "^inner $TP -1 15\.0 0\.0 0\.000 5\.0$" "$T/stat.txt"
expect_grep "results file: outer adds up" "^outer $TP -1 17\.0 0\.0 0\.000 17\.0$" "$T/stat.txt"

"$PMC" stat -e $TP -o "$T/stat.csv" --format csv "$R" overlap 2>/dev/null
expect_grep "csv: overlapping x" '^"x",all,"'$TP'",1,1,1,5\.000,' "$T/stat.csv"
expect_grep "csv: overlapping y" '^"y",all,"'$TP'",1,1,1,7\.000,' "$T/stat.csv"

"$PMC" stat -e $TP -r 2 "$R" missing 2>"$T/stat-missing"
expect_grep "stat: missing end reported" "^  Region open, entered 3 times and exited 2 times" "$T/stat-missing"
expect_grep "stat: missing end warning" "warning: entered 3 times but exited 2 times" "$T/stat-missing"

"$PMC" stat -e $TP -r 3 --region-per-thread -o "$T/thr.json" --format json "$R" threads 4 50 2>"$T/thr"
expect_grep "stat threads: entered 200" "^  Region work, entered 200 times and exited 200 times:" "$T/thr"
expect_eq "stat threads: per-thread values" "$(json "$T/thr.json" '[[int(v) for v in t["events"][0]["values"]] for t in j["regions"][0]["threads"]]')" \
	"[[100, 100, 100], [100, 100, 100], [100, 100, 100], [100, 100, 100]]"
expect_eq "stat threads: total" "$(json "$T/thr.json" 'j["regions"][0]["events"][0]["mean"]')" "400.0"

"$PMC" stat -e $TP -r 2 "$R" fork 2>"$T/stat-fork"
expect_grep "stat fork: parent" "^  Region parent, entered 1 time and" "$T/stat-fork"
expect_grep "stat fork: child" "^  Region child, entered 1 time and" "$T/stat-fork"
expect_grep "stat fork: child value" "^    $TP: 5 \+/- 0\.0" "$T/stat-fork"

# A child that leaves with _exit() runs no atexit handler and writes no record: its loss is
# counted (it said it started), never taken for a region that was not entered.
# A child that leaves with _exit() or is killed writes no record: its tables, in the memory it
# shares with pmc (docs/regions.md, "The arena"), are read after it died. Nothing is lost.
"$PMC" stat -e $TP --no-warmup --format json -o "$T/fx.json" "$R" fork-exit 2>"$T/stat-fx"
expect_eq "fork-exit: the child's regions are read from the arena" \
	"$(json "$T/fx.json" '[j["region_problems"]["lost_records"], j["region_problems"]["recovered_records"], sorted((r["name"], r["entered"], r["events"][0]["values"]) for r in j["regions"])]')" \
	"[0, 1, [('child', 1, [5.0]), ('parent', 1, [3.0])]]"
expect_grep "fork-exit: the recovery is said" "note: 1 process record of the command was read from the memory it shared with pmc: its process left without writing it" "$T/stat-fx"
expect_no_grep "fork-exit: nothing lost" "could not be read" "$T/stat-fx"
"$PMC" stat -e $TP --no-warmup --format json -o "$T/fk.json" "$R" fork-kill 2>"$T/stat-fk"
expect_eq "fork-kill: a child killed inside a region: its closed regions counted, the open one said open" \
	"$(json "$T/fk.json" '[j["region_problems"]["lost_records"], j["region_problems"]["recovered_records"], sorted((r["name"], r["entered"], r["exited"], r["open_at_exit"], r["events"][0]["values"]) for r in j["regions"])]')" \
	"[0, 1, [('child', 1, 1, 0, [5.0]), ('held', 1, 0, 1, [0.0]), ('parent', 1, 1, 0, [3.0])]]"
"$PMC" stat -e $TP --no-warmup --format json -o "$T/f.json" "$R" fork 2>/dev/null
expect_eq "fork: both records read, nothing lost" \
	"$(json "$T/f.json" '[j["region_problems"]["lost_records"], sorted((r["name"], r["entered"]) for r in j["regions"])]')" \
	"[0, [('child', 1), ('parent', 1)]]"

# A command that makes its results file 16 GiB long costs what it wrote: the reader skips the
# hole (it read 16 GiB of zeros, or failed for memory), and the region after it is counted.
python3 -c 'import resource, subprocess, sys
rc = subprocess.run(sys.argv[1:], stderr=subprocess.DEVNULL, timeout=120).returncode
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)' \
	"$PMC" stat -e $TP --no-warmup --format json -o "$T/huge.json" "$R" huge-file >"$T/huge"
read -r huge_rc huge_mb <"$T/huge"
expect_eq "huge results file: pmc exits 0" "$huge_rc" 0
[ "$huge_mb" -lt 400 ] && ok "huge results file: at most 400 MB resident ($huge_mb MB)" ||
	fail "huge results file: $huge_mb MB resident"
expect_eq "huge results file: the region after the hole is counted" \
	"$(json "$T/huge.json" '[(r["name"], r["entered"], r["events"][0]["values"]) for r in j["regions"]]')" \
	"[('after', 1, [2.0])]"

# Past the limit of 412 named regions: said once, with the limit; those below it measured.
PMC_EVENTS=$TP "$R" names 420 2>"$T/names"
expect_eq "names: the limit is said once" \
	"$(grep -c "'n412' and every later new region name go uncounted: a process can name at most 412 regions" "$T/names")" 1
expect_eq "names: the 412 regions below it are measured" "$(grep -c "^  Region n[0-9]*, entered 1 time and" "$T/names")" 412

# 100 events: the markers' one group read holds them all (a 64-value buffer failed each read).
E100=$(printf "$TP,%.0s" $(seq 100)); E100=${E100%,}
"$PMC" stat -e "$E100" "$R" loop 3 1 2>"$T/e100"
expect_eq "100 events in regions: each read in every entry" \
	"$(grep -cE "^    $TP: 3 \+/- 0\.0 \(0\.000%\) \[1\.0 per entry\]" "$T/e100")" 100
expect_no_grep "100 events in regions: no failed reads" "reads in markers failed" "$T/e100"

# 64 processes that write their results at the same moment, 20 runs: no record is lost (a
# memfd's writes share one offset without its lock; the records now go in append-only).
"$PMC" stat -e $TP -r 20 "$R" forks 64 20 2>"$T/forks"
expect_eq "stat forks: 20 regions, each 64 calls in every run" \
	"$(grep -cE "^    $TP: 64 \+/- 0\.0" "$T/forks")" 20

# A record that cannot be read (here a malformed one the command writes itself) is counted
# and said, on stderr and in every results file; the records beside it are still counted.
bad='printf "PMC-REGIONS 1 4\nbad\n" >&$PMC_REGION_FD; exec "$0" 3'
"$PMC" stat -r 2 -e $TP --format json -o "$T/lost.json" -- sh -c "$bad" "$EX/region-loop" \
	>/dev/null 2>"$T/lost"
expect_grep "lost record said on stderr" "1 of the command's region record could not be read" "$T/lost"
expect_eq "lost records in JSON, the good ones counted" \
	"$(json "$T/lost.json" '[j["region_problems"]["lost_records"], [(r["name"], r["entered"]) for r in j["regions"]]]')" \
	"[2, [('loop', 7)]]"
"$PMC" stat -r 2 -e $TP -o "$T/lost.txt" -- sh -c "$bad" "$EX/region-loop" >/dev/null 2>&1
expect_grep "lost records in the text results file" "^# lost region records: 2," "$T/lost.txt"
"$PMC" stat -r 2 -e $TP -o "$T/none.txt" "$EX/region-loop" >/dev/null 2>&1
expect_grep "no loss: the count is there, 0" "^# lost region records: 0," "$T/none.txt"

"$PMC" stat -e $TP "$PROGS/getppid-loop" 10 2>"$T/plain"
expect_no_grep "no regions, no region section" "^Results \(for" "$T/plain"

finish
