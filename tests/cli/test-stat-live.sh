#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc stat while the command runs: intervals (-I), a delayed start (-D), perf's control FIFO
# (--control), --pre and --post; and --null, -d, --filter.
. "$(dirname "$0")/lib.sh"

TP=syscalls:sys_enter_getppid
[ -r /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id ] ||
	fail "no syscalls tracepoints: scripts/setup.sh mounts tracefs"
mkfifo "$T/ctl" "$T/ack" "$T/go"
C="$T/ctl $T/ack"

# -I: a program that counts 300, waits (several intervals pass), then counts 200. The
# intervals are in order and sum to the total, which is exact.
interval_sum() { # FILE: the sum of the getppid intervals of the last run printed
	awk -v tp="$TP" '/^# pass/ {s = 0} $1 ~ /^[0-9]+\.[0-9]+$/ && $3 == tp {s += $2} END {print s}' "$1"
}
"$PMC" stat -I 20 --no-warmup -e $TP,task-clock -- "$PROGS/phases" getppid 300 mark "$T/m" \
	wait "$T/go" getppid 200 2>"$T/iv" &
S=$!
for i in $(seq 300); do [ -e "$T/m" ] && break; sleep 0.02; done
sleep 0.1
echo >"$T/go"
wait $S
expect_eq "-I: exit status" $? 0
expect_grep "-I: the header" "^# every 20 ms" "$T/iv"
expect_eq "-I: the intervals sum to the total" "$(interval_sum "$T/iv")" 500
expect_grep "-I: the total" "^ +500 +$TP" "$T/iv"
expect_eq "-I: several intervals, times increasing" \
	"$(awk -v tp="$TP" '$1 ~ /^[0-9]+\.[0-9]+$/ && $3 == tp {n++; if ($1 <= last) bad = 1; last = $1} END {print (n >= 3 && !bad)}' "$T/iv")" 1
expect_eq "-I: an interval in the wait counted nothing" \
	"$(awk -v tp="$TP" '$1 ~ /^[0-9]+\.[0-9]+$/ && $3 == tp && $2 == "0" {z++} END {print (z > 0)}' "$T/iv")" 1

# -I with -r 2: each repetition's intervals under a header of their own, each summing to its
# value; the warm-up's are not printed.
"$PMC" stat -I 1000 -r 2 -e $TP "$PROGS/getppid-loop" 400 2>"$T/iv2"
expect_eq "-I -r 2: a header per repetition" "$(grep -c '^# pass 1/1, repetition [12]/2' "$T/iv2")" 2
expect_eq "-I -r 2: each run's last interval holds its calls" \
	"$(awk -v tp="$TP" '$1 ~ /^[0-9]+\.[0-9]+$/ && $3 == tp {print $2}' "$T/iv2" | tr '\n' ' ')" "400 400 "

# -I -a -A: each interval has a row per CPU, and its CPU rows sum to its total.
"$PMC" stat -I 1000 -a -A -e $TP --no-warmup "$PROGS/getppid-loop" 700 2>"$T/iva"
expect_eq "-I -A: per CPU rows sum to the interval's total" \
	"$(awk -v tp="$TP" '$2 ~ /^CPU/ && $4 == tp {c[$1] += $3} $1 ~ /^[0-9]+\.[0-9]+$/ && $3 == tp {t[$1] = $2} END {for (k in t) if (c[k] != t[k]) bad = 1; print (length(t) > 0 && !bad)}' "$T/iva")" 1

# -I with -x and -j: perf's lines, each led by the interval's time; to --log-fd when given.
"$PMC" stat -I 1000 -x, --no-warmup -e $TP "$PROGS/getppid-loop" 400 2>"$T/ivx"
expect_eq "-I -x,: the interval's line, then the total's" \
	"$(grep -v '^#' "$T/ivx" | sed 's/^[0-9]*\.[0-9]\{9\},/T /' | cut -d, -f1-3 | tr '\n' ' ')" \
	"T 400,,$TP 400,,$TP "
"$PMC" stat -I 1000 -j -a -A --no-warmup --log-fd 3 -e $TP "$PROGS/getppid-loop" 300 \
	3>"$T/ivj" 2>"$T/ivj.err"
expect_eq "-I -j -A --log-fd: nothing on stderr" "$(cat "$T/ivj.err")" ""
expect_eq "-I -j -A: an interval's CPU lines sum to at least the calls" \
	"$(python3 -c "import json,sys
ls=[json.loads(l) for l in open(sys.argv[1])]
iv=[l for l in ls if 'interval' in l]
print(all('cpu' in l for l in ls), sum(float(l['counter-value']) for l in iv) >= 300)" "$T/ivj")" "True True"

# -I times start where the counts do, when the command was released (as the run's wall time):
# a run shorter than its interval has one interval, the last, whose time covers the whole
# run (its runtime field at least the total's, which is the run's wall time); it was shorter
# by pmc's wake-up after the exec (4.4 CPUs utilized on a loaded 2-CPU machine). No interval
# of two spinning threads says more CPUs utilized than this process may use.
"$PMC" stat -I 5000 -x, --no-warmup -e task-clock "$PROGS/spin-threads" 2 300 2>"$T/ivw"
expect_eq "-I: the only interval spans the whole run (its time, then its runtime >= the total's)" \
	"$(grep -v '^#' "$T/ivw" | awk -F, 'NR == 1 {t = $1; r = $5} NR == 2 {print (t * 1e9 >= $4 && r >= $4)}')" 1
"$PMC" stat -I 100 -x, --no-warmup -e task-clock "$PROGS/spin-threads" 2 700 2>"$T/ivc"
expect_eq "-I 100, two spinning threads: no interval above $(nproc) CPUs utilized" \
	"$(awk -F, -v n="$(nproc)" '!/^#/ && $8 == "CPUs utilized" {k++; if ($7 > n * 1.01) bad = bad " " $7} END {print (k >= 2 ? "ok" bad : "no intervals")}' "$T/ivc")" ok

# -D: counting starts 1.5 s after the exec. The program makes 100 calls at once, then waits
# until pmc stat says the events are enabled (the test passes it on), then makes 50: only
# those count. The margin is the 1.5 s against the first 100 calls.
"$PMC" stat -D 1500 --no-warmup -e $TP -- "$PROGS/phases" getppid 100 mark "$T/d" \
	wait "$T/go" getppid 50 2>"$T/delay" &
S=$!
for i in $(seq 600); do grep -q "events enabled" "$T/delay" && break; sleep 0.05; done
[ -e "$T/d" ] || fail "-D: the first calls were not made before counting began"
echo >"$T/go"
wait $S
expect_eq "-D: exit status" $? 0
expect_grep "-D: says when counting begins" "^pmc stat: events disabled" "$T/delay"
expect_grep "-D: only the calls after the delay" "^ +50 +$TP" "$T/delay"

# --control: the program switches counting itself through the FIFOs, waiting for each
# acknowledgement; only the calls made while enabled count (5 + 11 + 13), in every run.
"$PMC" stat -D -1 -r 3 --control "fifo:$T/ctl,$T/ack" -e $TP -o "$T/c.json" --format json \
	"$PROGS/phases" getppid 3 ctl $C enable getppid 5 ctl $C disable getppid 7 \
	ctl $C enable getppid 11 ctl $C ping getppid 13 2>"$T/ctl.err"
expect_eq "--control: exit status" $? 0
expect_eq "--control: every repetition exact" \
	"$(json "$T/c.json" '[int(v) for v in j["events"][0]["values"]]')" "[29, 29, 29]"
expect_eq "--control: said each switch, warm-up included" \
	"$(grep -c '^pmc stat: events enabled' "$T/ctl.err")" 8
# One event named: the others go on.
"$PMC" stat --no-warmup --control "fifo:$T/ctl,$T/ack" -e $TP,task-clock -o "$T/c1.json" \
	--format json "$PROGS/phases" getppid 3 ctl $C "disable $TP" getppid 5 \
	ctl $C "enable $TP" getppid 7 ctl $C "enable no-such-event" 2>"$T/ctl1"
expect_eq "--control: disable NAME" "$(json "$T/c1.json" 'j["events"][0]["mean"]')" 10.0
expect_grep "--control: an unknown event is said, and acknowledged" \
	"control: no event 'no-such-event' to enable" "$T/ctl1"
# fd:N,M: descriptors pmc stat inherits.
exec 7<>"$T/ctl" 8<>"$T/ack"
"$PMC" stat --no-warmup --control fd:7,8 -D -1 -e $TP "$PROGS/phases" getppid 2 \
	ctl $C enable getppid 9 2>"$T/fd"
exec 7>&- 8>&-
expect_grep "--control fd:7,8" "^ +9 +$TP" "$T/fd"
"$PMC" stat --control fifo:"$T/nofifo" -e $TP true 2>"$T/nf"
expect_eq "--control of a missing FIFO: exit 2" $? 2
expect_grep "--control: says to make it" "mkfifo" "$T/nf"

# --pre and --post run around each run, warm-up included, and are not counted.
"$PMC" stat -r 2 --pre "'$PROGS/getppid-loop' 1000; echo pre >>'$T/hooks'" \
	--post "'$PROGS/getppid-loop' 1000; echo post >>'$T/hooks'" \
	-e $TP "$PROGS/getppid-loop" 7 2>"$T/pp"
expect_grep "--pre/--post: not counted" "^ +7 +$TP" "$T/pp"
expect_eq "--pre/--post: around each of 3 runs" "$(tr '\n' ' ' <"$T/hooks")" \
	"pre post pre post pre post "
"$PMC" stat -r 5 --pre false -e $TP "$PROGS/getppid-loop" 7 2>"$T/pf"
expect_eq "--pre that fails: exit 1" $? 1
expect_grep "--pre that fails: said" "^pmc stat: --pre 'false' exited with 1: stopping" "$T/pf"

# --null: no event, the command runs each time.
"$PMC" stat --null -r 3 -o "$T/null.json" --format json -- sh -c "echo x >>'$T/null-runs'" 2>"$T/null"
expect_eq "--null: exit status" $? 0
expect_eq "--null: no events" "$(json "$T/null.json" 'len(j["events"])')" 0
expect_eq "--null: the command ran each time (warm-up and 3)" "$(wc -l <"$T/null-runs")" 4
expect_grep "--null: time elapsed" "seconds time elapsed" "$T/null"
"$PMC" stat --null -e $TP true 2>"$T/nulle"
expect_eq "--null with -e: exit 2" $? 2

# -d, -dd, -ddd: perf's detailed events, named (<not supported> without a PMU), the run goes on.
"$PMC" stat -ddd -e $TP -o "$T/d.json" --format json "$PROGS/getppid-loop" 10 2>/dev/null
expect_eq "-ddd: exit status" $? 0
expect_eq "-ddd: perf's detailed events after -e's" "$(json "$T/d.json" '[e["name"] for e in j["events"]]')" \
	"['$TP', 'L1-dcache-loads', 'L1-dcache-load-misses', 'LLC-loads', 'LLC-load-misses', 'L1-icache-loads', 'L1-icache-load-misses', 'dTLB-loads', 'dTLB-load-misses', 'iTLB-loads', 'iTLB-load-misses', 'L1-dcache-prefetches', 'L1-dcache-prefetch-misses']"
expect_eq "-ddd: the rest counted" "$(json "$T/d.json" 'j["events"][0]["mean"]')" 10.0

# --filter: of 5 writes to descriptor 1 and 3 to descriptor 2, exactly the 3.
"$PMC" stat -e syscalls:sys_enter_write --filter 'fd == 2' -e syscalls:sys_enter_write \
	-o "$T/f.json" --format json "$PROGS/phases" write 1 5 write 2 3 >/dev/null 2>/dev/null
expect_eq "--filter: the writes it keeps, and all of them" \
	"$(json "$T/f.json" '[int(e["mean"]) for e in j["events"]]')" "[3, 8]"
expect_eq "--filter: in the JSON" "$(json "$T/f.json" 'j["events"][0]["filter"]')" "fd == 2"
"$PMC" stat -e syscalls:sys_enter_write --filter 'nosuchfield == 2' true 2>"$T/fbad"
expect_eq "--filter the kernel rejects: exit 2" $? 2
expect_grep "--filter: says where the fields are" "sys_enter_write/format" "$T/fbad"
"$PMC" stat -e task-clock --filter 'fd == 2' true 2>"$T/fnt"
expect_grep "--filter on an event that is not a tracepoint" "is not a tracepoint" "$T/fnt"

# Under vpmu the counts come at the end: -I and -D are refused (tests/data/stat-options.tsv).
finish
