#!/bin/bash
# SPDX-License-Identifier: MIT
# Pipe mode (docs/sample-file.md, "Pipe mode"): pmc record -o - and -o FIFO write perf's
# pipe-mode stream (header and attrs as records), which pmc report -i - and perf report/script
# -i - read; pmc report -i - reads perf record -o -'s. Exact counts: N getppid calls give N
# samples of syscalls:sys_enter_getppid at period 1. A FIFO never hangs: no reader within 10 s
# fails before the command runs, and a reader that goes away ends the recording and the command.
. "$(dirname "$0")/lib.sh"

G="$PROGS/getppid-loop"
rec() { "$PMC" record -q -c 1 -e syscalls:sys_enter_getppid -o "$1" -- "$G" "$2"; }
samples() { "$PMC" report -i "$1" --format json | json /dev/stdin 'j["samples"]'; }

# pmc to pmc through a pipe, and the stream's header is the pipe header {PERFILE2, 16}.
got=$(rec - 1234 2>"$T/err" | samples -)
expect_eq "pmc record -o - | pmc report -i -: every getppid" "$got" 1234
[ -s "$T/err" ] && { fail "pmc record -o - said something"; cat "$T/err"; }
rec - 300 >"$T/p.data" 2>/dev/null
expect_eq "the stream starts with the pipe header" "$(od -An -tx8 -N16 "$T/p.data" | tr -s ' ')" \
	" 32454c4946524550 0000000000000010"
expect_eq "a pipe-mode file is read as a file too" "$(samples "$T/p.data")" 300
expect_eq "and from standard input that is a file" "$(samples - <"$T/p.data")" 300

# The command's standard output is pmc's standard error (as perf's), not in the stream.
got=$("$PMC" record -q -c 1 -e syscalls:sys_enter_getppid -o - -- sh -c "echo hello; exec $G 42" \
	2>"$T/err" | samples -)
# (42 of the program's, and the shell may ask getppid once for $PPID)
[ "${got:-0}" -ge 42 ] && [ "$got" -le 43 ] && ok "a command that prints: the stream still reads" ||
	fail "a command that prints: got '$got' samples, expected 42 or 43"
expect_grep "its output went to standard error" "^hello$" "$T/err"

if command -v perf >/dev/null; then
	# pmc's stream read by perf: one perf script line per sample, perf report's sample count.
	got=$(rec - 1234 2>/dev/null | perf script -i - 2>/dev/null | grep -c ' syscalls:sys_enter_getppid: ')
	expect_eq "pmc record -o - | perf script -i -: every getppid, named (TRACING_DATA, EVENT_UPDATE)" "$got" 1234
	"$PMC" record -q -e task-clock -o - -- "$G" 200000 >"$T/t.data" 2>/dev/null
	want=$(samples "$T/t.data")
	got=$(perf report -i - --stdio <"$T/t.data" 2>/dev/null | awk '/^# Samples:/ { print $3; exit }')
	expect_eq "perf report -i - reads pmc's task-clock stream" "$got" "$want"
	expect_grep "the stream's last records are build ids (HEADER_BUILD_ID) perf lists" \
		"^[0-9a-f]{40} $G\$" <(perf buildid-list -i - <"$T/t.data" 2>/dev/null)
	# perf's stream read by pmc, tracepoint (with its TRACING_DATA record) and task-clock.
	got=$(perf record -q -c 1 -e syscalls:sys_enter_getppid -o - -- "$G" 1234 2>/dev/null | samples -)
	expect_eq "perf record -o - | pmc report -i -: every getppid" "$got" 1234
	perf record -q -e task-clock -o - -- "$G" 200000 >"$T/perf.data" 2>/dev/null
	want=$(perf report -i - --stdio <"$T/perf.data" 2>/dev/null | awk '/^# Samples:/ { print $3; exit }')
	expect_eq "pmc reads perf's task-clock stream, as many samples" "$(samples - <"$T/perf.data")" "$want"
	expect_grep "perf's event name, from its EVENT_DESC record" "event 'task-clock'" \
		<("$PMC" report -i - <"$T/perf.data")
else
	fail "perf is not installed: scripts/setup.sh --test installs it (the pmc/perf pipe checks)"
fi

# -o FIFO with a reader: written in place (no temporary file, no FIFO.old).
mkfifo "$T/fifo"
samples - <"$T/fifo" >"$T/got" &
timeout 30 "$PMC" record -q -c 1 -e syscalls:sys_enter_getppid -o "$T/fifo" -- "$G" 777 ||
	fail "recording to a FIFO with a reader failed"
wait
expect_eq "-o FIFO read by pmc report -i - < FIFO" "$(cat "$T/got")" 777
[ -p "$T/fifo" ] && ok "the FIFO is still a FIFO" || fail "the FIFO was replaced"
[ -e "$T/fifo.old" ] && fail "a FIFO was kept as .old" || ok "no FIFO.old"
if command -v perf >/dev/null; then
	perf script -i - <"$T/fifo" 2>/dev/null | wc -l >"$T/got" &
	timeout 30 "$PMC" record -q -c 1 -e syscalls:sys_enter_getppid -o "$T/fifo" -- "$G" 555
	wait
	expect_eq "-o FIFO read by perf script -i - < FIFO" "$(tr -d ' ' <"$T/got")" 555
fi

# -o FIFO that nobody reads: a clear error after 10 s, before the command runs (timeout: a
# hang fails the test).
timeout 30 "$PMC" record -e task-clock -o "$T/fifo" -- touch "$T/ran" >"$T/out" 2>&1
rc=$?
expect_eq "no reader: exit status 1 (not a hang, 124)" "$rc" 1
expect_grep "no reader: said so" "no process opened the FIFO for reading" "$T/out"
[ -e "$T/ran" ] && fail "the command ran although nobody read the FIFO" || ok "the command did not run"

# A reader that quits early: the recording stops, the command is ended and said to be.
timeout 30 "$PMC" record -e task-clock -o - -- sleep 60 2>"$T/out" | head -c 16 >/dev/null
rc=${PIPESTATUS[0]}
expect_eq "reader gone: exit status 1 (not a hang, 124)" "$rc" 1
expect_grep "reader gone: said so" "cannot write -: its reader closed it" "$T/out"
expect_grep "reader gone: the command was ended" "'sleep' was killed by SIGTERM" "$T/out"
mkfifo "$T/fifo2"
head -c 16 <"$T/fifo2" >/dev/null &
timeout 30 "$PMC" record -e task-clock -o "$T/fifo2" -- sleep 60 >"$T/out" 2>&1
expect_eq "FIFO reader gone: exit status 1" "$?" 1
expect_grep "FIFO reader gone: said so" "cannot write .*fifo2: its reader closed it" "$T/out"
wait

# A FIFO given to pmc report -i is refused with the way to read it.
"$PMC" report -i "$T/fifo" >"$T/out" 2>&1 && fail "pmc report -i FIFO succeeded"
expect_grep "report -i FIFO: says to use -i - <" "\-i - <" "$T/out"

# The vpmu backend, which starts the command itself, sends its output to stderr as well.
require_vpmu
"$PMC" record -q --backend=vpmu -e instructions -c 10000 -o - -- sh -c "echo hello; exec $G 10" \
	2>"$T/err" | "$PMC" report -i - >"$T/out" 2>&1
expect_grep "vpmu: pmc report -i - reads the stream" "^# pmc report of -: [1-9][0-9]* samples" "$T/out"
expect_grep "vpmu: the command's output went to standard error" "^hello$" "$T/err"

echo "$PASSES passed, $FAILS failed"
