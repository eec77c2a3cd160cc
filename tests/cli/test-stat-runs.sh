#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Which runs pmc stat counts and what it makes of them (issue 28, section 3): the elapsed time
# is never one interval over runs of different passes; a list with nothing countable still
# runs the command and passes on its exit status; -p and -t with a COMMAND count the target
# for as long as the command runs.
. "$(dirname "$0")/lib.sh"

TP=syscalls:sys_enter_getppid
FIVE=branches,branch-misses,L1-dcache-loads,L1-dcache-load-misses,cache-misses

# ---- elapsed time per pass: five general events take two passes of vpmu's four counters ----
require_vpmu
"$PMC" stat --backend=vpmu -e $FIVE --no-warmup -r 1 -o "$T/e1.csv" --format csv \
	"$PROGS/vpmu-loop" loop 100 2>"$T/e1"
expect_eq "two passes, one repetition: exit 0" $? 0
expect_eq "each pass's elapsed time on a line of its own" \
	"$(grep -c 'seconds time elapsed' "$T/e1")" 2
expect_grep "pass 1's line says so" "seconds time elapsed  \(pass 1 of 2\)$" "$T/e1"
expect_grep "pass 2's line says so" "seconds time elapsed  \(pass 2 of 2\)$" "$T/e1"
# One run of each pass: no interval (it was taken over the two passes' runs: +-1004.68%).
expect_no_grep "one repetition: no interval over the passes" "\+-.*time elapsed" "$T/e1"
expect_grep "user time: of the pass it is of" "seconds user  \(pass 1 of 2\)$" "$T/e1"
expect_eq "CSV: a table of elapsed time per pass, one run each" \
	"$(awk -F, '/^elapsed_pass,/ { t = 1; next } t && NF { print $1 ":" $2 }' "$T/e1.csv" | tr '\n' ' ')" \
	"0:1 1:1 "
"$PMC" stat --backend=vpmu -e $FIVE --no-warmup -r 2 -o "$T/e2.json" --format json \
	"$PROGS/vpmu-loop" loop 100 2>"$T/e2"
expect_eq "JSON: each pass summarised over its own 2 runs, the footer's named" \
	"$(json "$T/e2.json" '[(p["pass"], p["n"]) for p in j["elapsed"]["passes"]] + [j["elapsed"]["footer_pass"], j["elapsed"]["unit"]]')" \
	"[(0, 2), (1, 2), 0, 's']"
expect_eq "two repetitions: each pass's line has its interval" \
	"$(grep -cE '\+- .* seconds time elapsed  \( \+- *[0-9.]+% \)  \(pass [12] of 2\)$' "$T/e2")" 2

# ---- nothing countable: the command still runs, its status is pmc stat's ----
# Without a PMU every -e cycles is <not supported>, and a CI job 'pmc stat -e cycles -- make
# test' ran no test and passed. Here with events no machine counts: tool events in a group.
NONE='{duration_time,user_time}'
"$PMC" stat -e "$NONE" -- sh -c 'echo ran >"$1"; exit 3' sh "$T/ran" 2>"$T/u1"
expect_eq "all unsupported: the command's exit status" $? 3
expect_eq "all unsupported: the command ran" "$(cat "$T/ran" 2>/dev/null)" ran
expect_grep "all unsupported: each row with its reason" "<not supported> ns +user_time +\(a tool event" "$T/u1"
expect_grep "all unsupported: the footer times the run" "seconds time elapsed" "$T/u1"
rm -f "$T/ran"
"$PMC" stat -e "$NONE" -r 3 --no-warmup -- sh -c 'echo x >>"$1"; exit 5' sh "$T/ran" 2>"$T/u3"
expect_eq "all unsupported, -r 3: the exit status" $? 5
expect_eq "all unsupported, -r 3: the command ran 3 times" "$(wc -l <"$T/ran")" 3
expect_no_grep "all unsupported, -r 3: no empty table of repetitions" "runs of each event" "$T/u3"
"$PMC" stat -e "$NONE,$TP" -r 2 "$PROGS/exit-with" exit 4 2>"$T/u4"
expect_eq "some unsupported, -r 2: the exit status" $? 4
expect_grep "some unsupported: the others counted" "^ +100      $TP" "$T/u4"
"$PMC" stat -e "$NONE" --no-warmup --format json -o "$T/u5.json" "$PROGS/region-cases" loop 3 1 \
	2>"$T/u5"
expect_eq "all unsupported, regions: the command's status" $? 0
expect_no_grep "all unsupported, regions: the markers get no pass without events" "pass header" "$T/u5"
expect_eq "all unsupported, regions: the JSON has the run" \
	"$(json "$T/u5.json" '[j["exit_code"], j["events"][0]["supported"], j["elapsed"]["passes"][0]["n"]]')" \
	"[0, False, 1]"

# ---- -p PID COMMAND, -t TID COMMAND: the target counted for as long as COMMAND runs ----
sleep 60 &
victim=$!
timeout -k 5 20 "$PMC" stat -e $TP -p $victim -- sh -c 'echo ran >"$1"; exit 6' sh "$T/pran" 2>"$T/p1"
expect_eq "-p PID COMMAND: the command's exit status (not Ctrl-C)" $? 6
expect_eq "-p PID COMMAND: the command ran" "$(cat "$T/pran" 2>/dev/null)" ran
expect_grep "-p PID COMMAND: the header names the process and the command" \
	"counter stats for 'process $victim' while 'sh -c echo ran >\"\\\$1\"; exit 6 sh .*' ran" "$T/p1"
expect_grep "-p PID COMMAND: the process's count (it sleeps: 0)" "^ +0      $TP" "$T/p1"
timeout -k 5 20 "$PMC" stat -e $TP -t $victim -- "$PROGS/exit-with" exit 2 2>"$T/t1"
expect_eq "-t TID COMMAND: the command's exit status" $? 2
expect_grep "-t TID COMMAND: the thread's count, not the command's 100" "^ +0      $TP" "$T/t1"
kill $victim
wait $victim 2>/dev/null

finish
