#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc stat's outputs as perf stat's (docs/stat-output.md) on exact-count workloads: the
# summary's columns, one run without an interval, -x and -j field for field, nothing of them
# on stdout, --log-fd, --append, -B and --no-big-num under a locale with separators, the tool
# events against the footer, and the comment column on vpmu's exact counts.
. "$(dirname "$0")/lib.sh"

TP=syscalls:sys_enter_getppid
L="$PROGS/getppid-loop"

# ---- the summary: one run has no interval; the footer is that run's time ----
"$PMC" stat -e $TP,task-clock,duration_time,user_time,system_time "$L" 20000 >"$T/out1" 2>"$T/s1"
expect_eq "one run: exit 0" $? 0
expect_grep "the count, unit column empty" "^ {13}20000      $TP  " "$T/s1"
expect_grep "task-clock in msec, CPUs utilized" "^ +[0-9]+\.[0-9]{2} msec task-clock +# +[0-9]+\.[0-9]{3} CPUs utilized" "$T/s1"
expect_grep "a rate per second of the clock" "$TP +# +[0-9]+\.[0-9]{3} [KMG]?/sec" "$T/s1"
expect_no_grep "one run: no interval" "\+-" "$T/s1"
expect_no_grep "one run: no details block" "confidence interval:" "$T/s1"
expect_eq "the measured program's stdout is its own" "$(wc -c <"$T/out1")" 0
# duration_time, user_time and system_time are the footer's three times, to the ns.
ns() { sed -n "s/^ *\([0-9]*\) ns *$1 .*/\1/p" "$T/s1"; }
secs() { sed -n "s/^ *\([0-9.]*\) seconds $1\$/\1/p" "$T/s1" | tr -d .; }
expect_eq "duration_time is positive" "$([ "$(ns duration_time)" -gt 0 ] && echo yes)" yes
expect_eq "duration_time is the time elapsed" "$((10#$(secs 'time elapsed')))" "$(ns duration_time)"
expect_eq "user_time is the seconds user" "$((10#$(secs user)))" "$(ns user_time)"
expect_eq "system_time is the seconds sys" "$((10#$(secs sys)))" "$(ns system_time)"
expect_eq "20000 system calls take CPU time" \
	"$([ $(($(ns user_time) + $(ns system_time))) -gt 0 ] && echo yes)" yes
expect_eq "CPU time within the wall time" \
	"$([ $(($(ns user_time) + $(ns system_time))) -le $(($(ns duration_time) + 4000000)) ] && echo yes)" yes

# ---- repetitions: mean +- interval and its percentage; details in a second block ----
"$PMC" stat -r 3 -e $TP,duration_time "$L" 1000 2>"$T/s3"
expect_grep "exact count: the mean" "^ {14}1000      $TP  " "$T/s3"
expect_no_grep "an exact count has no interval" "$TP .*\( \+-" "$T/s3"
expect_grep "elapsed: mean +- interval" "^ +[0-9.]+ \+- [0-9.]+ seconds time elapsed" "$T/s3"
expect_grep "details: 3 runs at 95%" "^ 3 runs of each event, 95% confidence interval:" "$T/s3"
# (an exact count's median has no decimal it does not have: 1000, not 1000.0)
expect_grep "details: mean, interval, median, min, max, stddev" \
	"^ +1000 \+- 0\.0 +1000 +1000 +1000 +0\.0  $TP$" "$T/s3"

# ---- -x: perf's field order; pmc's pass and reason after perf's fields ----
"$PMC" stat -x, -e $TP,task-clock "$L" 1000 >"$T/xo" 2>"$T/x1"
expect_eq "-x: nothing on stdout" "$(wc -c <"$T/xo")" 0
expect_grep "-x: the header is a comment" "^# pmc stat: Performance counter stats for '.*getppid-loop 1000' \(1 repetition" "$T/x1"
expect_grep "-x, one run: value,unit,event,run,pcnt,metric,unit,pass,reason" \
	"^1000,,$TP,[0-9]+,100\.00,[0-9.]+,[KMG]?/sec,0,$" "$T/x1"
expect_grep "-x: task-clock in msec with CPUs utilized" "^[0-9]+\.[0-9]{2},msec,task-clock,[0-9]+,100\.00,[0-9]+\.[0-9]{3},CPUs utilized,0,$" "$T/x1"
expect_eq "-x, one run: perf's 7 fields and pmc's 2" "$(grep -v '^#' "$T/x1" | awk -F, '{print NF}' | sort -u)" 9
"$PMC" stat -x';' -r 3 -e $TP "$L" 1000 2>"$T/x3"
expect_grep "-x with -r: the interval's percentage after the event" "^1000;;$TP;0\.00%;[0-9]+;100\.00;" "$T/x3"
expect_eq "-x with -r: perf's 8 fields and pmc's 2" "$(grep -v '^#' "$T/x3" | awk -F';' '{print NF}')" 10

# ---- -j: perf's JSON lines and keys ----
"$PMC" stat -j -r 2 -e $TP,duration_time "$L" 1000 >"$T/jo" 2>"$T/j"
expect_eq "-j: nothing on stdout" "$(wc -c <"$T/jo")" 0
expect_eq "-j: every line is JSON with perf's keys" "$(python3 -c '
import json, sys
keys = ["counter-value", "unit", "event", "variance", "event-runtime", "pcnt-running",
        "metric-value", "metric-unit"]
rows = [json.loads(l) for l in open(sys.argv[1])]
print(len(rows), all(list(r)[:8] == keys for r in rows), rows[0]["counter-value"],
      rows[0]["event"], rows[0]["runs"], rows[1]["unit"])' "$T/j")" \
	"2 True 1000.000000 $TP 2 ns"

# ---- where the machine formats go: stderr, --log-fd, never stdout ----
for f in csv json; do
	"$PMC" stat -e $TP --format $f "$L" 10 >"$T/f.out" 2>"$T/f.err"
	expect_eq "--format $f without -o: nothing on stdout" "$(wc -c <"$T/f.out")" 0
	expect_grep "--format $f without -o: on stderr" "sys_enter_getppid" "$T/f.err"
done
"$PMC" stat -x, --log-fd 3 -e $TP "$L" 1000 3>"$T/log" >"$T/lo" 2>"$T/le"
expect_grep "--log-fd: the lines on the descriptor" "^1000,,$TP," "$T/log"
expect_no_grep "--log-fd: not on stderr" "$TP" "$T/le"
expect_eq "--log-fd: not on stdout" "$(wc -c <"$T/lo")" 0
"$PMC" stat --log-fd 3 -e $TP "$L" 1000 3>"$T/log2" 2>"$T/le2"
expect_grep "--log-fd: the summary too" "^ +1000      $TP" "$T/log2"

# ---- --append keeps what the file had ----
echo "earlier line" >"$T/a.csv"
"$PMC" stat -x, -o "$T/a.csv" --append -e $TP "$L" 1000 2>/dev/null
"$PMC" stat -x, -o "$T/a.csv" --append -e $TP "$L" 2000 2>/dev/null
expect_eq "--append: the earlier content first" "$(head -1 "$T/a.csv")" "earlier line"
expect_eq "--append: both runs follow" "$(grep -c "^[12]000,,$TP," "$T/a.csv")" 2
"$PMC" stat -x, -o "$T/a.csv" -e $TP "$L" 3000 2>/dev/null
expect_eq "without --append: replaced" "$(grep -vc '^#' "$T/a.csv")" 1
"$PMC" stat --format text -o "$T/a.txt" -e $TP "$L" 10 2>/dev/null
"$PMC" stat --format text -o "$T/a.txt" --append -e $TP "$L" 20 2>/dev/null
expect_eq "--append to a results file: refused (one document per file)" "$?,$(grep -c "^$TP -1 " "$T/a.txt")" "2,1"

# ---- thousands separators: LC_NUMERIC's, in the summary only ----
mkdir -p "$T/loc"
localedef -i en_US -f UTF-8 "$T/loc/en_US.UTF-8" 2>/dev/null ||
	fail "localedef cannot make en_US.UTF-8 (scripts/setup.sh --test installs locales)"
export LOCPATH=$T/loc
LC_ALL=en_US.UTF-8 "$PMC" stat -e $TP "$L" 12345 2>"$T/b1"
expect_grep "-B is the default: en_US groups by 3" "^ +12,345      $TP" "$T/b1"
LC_ALL=en_US.UTF-8 "$PMC" stat -B -e $TP "$L" 12345 2>"$T/b2"
expect_grep "-B: separators" "^ +12,345      $TP" "$T/b2"
LC_ALL=en_US.UTF-8 "$PMC" stat --no-big-num -e $TP "$L" 12345 2>"$T/b3"
expect_grep "--no-big-num: none" "^ +12345      $TP" "$T/b3"
LC_ALL=en_US.UTF-8 "$PMC" stat -x, -e $TP "$L" 12345 2>"$T/b4"
expect_grep "-x: never separators" "^12345,,$TP," "$T/b4"
LC_ALL=en_US.UTF-8 "$PMC" stat --format csv -o "$T/b.csv" -e $TP "$L" 12345 2>/dev/null
expect_grep "results files stay in the C locale" "^\"$TP\",yes,0,1,12345\.000," "$T/b.csv"
unset LOCPATH

# ---- usage errors ----
for bad in "-x, -j" "-B -x," "--append" "-o - --append" "--log-fd 99" "-x, --format csv" \
	"--log-fd 2 -o $T/z"; do
	"$PMC" stat $bad -e $TP "$L" 1 >/dev/null 2>"$T/u"
	expect_eq "pmc stat $bad: a usage error" $? 2
done
expect_grep "the usage error says what to do" "choose one" "$T/u"

# ---- a tool event in a group: not counted, said why ----
"$PMC" stat -e "{duration_time,task-clock}" "$L" 1 2>"$T/g"
expect_grep "tool event in a group" "<not supported> +ns +duration_time +\(a tool event is a time pmc measures itself" "$T/g"

# ---- the comment column on vpmu's exact counts ----
"$PMC" doctor >"$T/doctor" 2>&1
if grep -qE '^ *\[ok\] vpmu' "$T/doctor"; then
	"$PMC" stat --backend=vpmu -x, -e instructions,cycles "$PROGS/vpmu-loop" loop 100000 2>"$T/v"
	expect_eq "insn per cycle is instructions / cycles, as printed" "$(python3 -c '
import sys
rows = {l.split(",")[2]: l.split(",") for l in open(sys.argv[1]) if not l.startswith("#")}
i, c = float(rows["instructions"][0]), float(rows["cycles"][0])
print(rows["instructions"][5] == "%.2f" % (i / c), rows["instructions"][6])' "$T/v")" \
		"True insn per cycle"
	"$PMC" stat --backend=vpmu -e instructions,cycles "$PROGS/vpmu-loop" loop 100000 2>"$T/v2"
	expect_grep "the summary's comment too" "instructions +# +[0-9]+\.[0-9]{2}  insn per cycle" "$T/v2"
else
	fail "the vpmu tool is not available: $(grep vpmu "$T/doctor")"
fi
finish
