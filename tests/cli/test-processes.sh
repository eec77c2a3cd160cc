#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Processes: a measured program does not outlive a pmc killed by SIGKILL or SIGPIPE (stat,
# record, vpmu), nor do the helpers of calibrate and validate or a --pre hook; a signal during --pre/--post is pmc's status and the JSON's; pmc validate
# stopped by SIGTERM leaves no temporary file; vpmu names a clone(CLONE_VM) Valgrind refuses.
. "$(dirname "$0")/lib.sh"

# survivors MARK: the pids of processes whose command line has MARK, after waiting up to
# 10 s for them to go (the kernel kills them as pmc exits; the wait is only for the
# scheduler); the ones left are killed here, so that a failed check leaves nothing behind.
survivors() {
	local left i

	for i in $(seq 100); do
		left=$(pgrep -f -- "$1" | tr '\n' ' ')
		[ -z "$left" ] && return 0
		sleep 0.1
	done
	echo "$left"
	# shellcheck disable=SC2086
	kill -KILL $left 2>/dev/null
}
# started FILE: waits up to 60 s (valgrind starts slowly) for the command to create FILE.
started() {
	for _ in $(seq 600); do
		[ -e "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
# killed_pmc WHAT MARK PMC-ARGS...: runs pmc ARGS -- sh (which says it started, then
# execs a sleep with MARK in its command line), kills pmc with SIGKILL once the command
# runs, and checks that no process of the command is left.
killed_pmc() {
	local what=$1 mark=$2 pid left
	shift 2
	"$PMC" "$@" -- sh -c ': >"$1"; exec sleep "$2"' sh "$T/$mark" "1000.$mark" >"$T/$mark.out" 2>&1 &
	pid=$!
	if ! started "$T/$mark"; then
		fail "$what: the command did not start"
		sed 's/^/    /' "$T/$mark.out"
		kill -KILL "$pid"
	fi
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	left=$(survivors "1000\.$mark")
	expect_eq "$what: nothing left running after SIGKILL of pmc" "$left" ""
}

killed_pmc "pmc stat" "1$$" stat -e task-clock
killed_pmc "pmc stat -r 3" "2$$" stat -r 3 -e task-clock
killed_pmc "pmc record" "3$$" record -e task-clock -o "$T/k3.data"
sleep 1000 &
TARGET=$!
killed_pmc "pmc stat -p PID -- cmd" "7$$" stat -e task-clock -p "$TARGET"
kill "$TARGET"
"$PMC" doctor >"$T/doctor" 2>&1
if grep -qE '^ *\[ok\] vpmu' "$T/doctor"; then
	killed_pmc "pmc stat --backend=vpmu" "4$$" stat --backend=vpmu -e instructions
	killed_pmc "pmc record --backend=vpmu" "5$$" record --backend=vpmu -e instructions -o "$T/k5.data"
else
	fail "the vpmu tool is not available (it is part of the build): $(grep vpmu "$T/doctor")"
fi

# --- the helpers pmc forks itself (pmc_fork): calibrate's in-process measurements and
# validate's kernel list do not outlive a pmc killed by SIGKILL either ---
M=8$$
"$PMC" calibrate -e page-faults -n 5000000 -r 2 --empty=true -o "$T/cal.$M.json" >"$T/cal.out" 2>&1 &
pid=$!
helper=
for _ in $(seq 600); do # the measuring child is a fork: pmc's command line, the mark in it
	helper=$(pgrep -P "$pid" -f -- "cal\.$M" | tr '\n' ' ')
	[ -n "$helper" ] && break
	sleep 0.1
done
[ -n "$helper" ] && ok "pmc calibrate: its measuring child runs" ||
	{ fail "pmc calibrate: no measuring child seen"; sed 's/^/    /' "$T/cal.out"; }
kill -KILL "$pid"
wait "$pid" 2>/dev/null
expect_eq "pmc calibrate: nothing left running after SIGKILL of pmc" "$(survivors "cal\.$M")" ""
M=9$$
cat >"$T/listing" <<EOS
#!/bin/sh
[ "\$1" = --list ] && : >"$T/$M" && exec sleep 1000.$M
exit 1
EOS
chmod +x "$T/listing"
PMC_KERNELS=$T/listing "$PMC" validate --trust=none --quick --kernel syscall -e syscalls:sys_enter_getppid \
	>"$T/vl.out" 2>&1 &
pid=$!
started "$T/$M" || fail "pmc validate: its kernel list did not start"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
expect_eq "pmc validate: its kernel list not left running after SIGKILL of pmc" "$(survivors "1000\.$M")" ""

M=10$$
"$PMC" stat -e task-clock --pre ": >'$T/$M'; exec sleep 1000.$M" -- true >"$T/pre$M.out" 2>&1 &
pid=$!
started "$T/$M" || fail "pmc stat --pre: the hook did not start"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
expect_eq "pmc stat --pre: the hook not left running after SIGKILL of pmc" "$(survivors "1000\.$M")" ""

# --- SIGPIPE: pmc dies writing its first interval to a closed pipe; the command goes too ---
M=6$$
"$PMC" stat --no-warmup -I 50 -e task-clock -- sh -c ': >"$1"; exec sleep "$2"' sh "$T/$M" "1000.$M" 2>&1 | true
expect_eq "pmc stat -I into a closed pipe dies of SIGPIPE" "${PIPESTATUS[0]}" 141
expect_eq "nothing left running after pmc died of SIGPIPE" "$(survivors "1000\.$M")" ""

# --- SIGTERM during --pre or --post: pmc's status and the JSON say the signal ---
"$PMC" stat -e task-clock --format json -o "$T/pre.json" --pre 'kill -TERM $PPID' -- touch "$T/ran" 2>"$T/pre.err"
expect_eq "SIGTERM during --pre: pmc exits 128+15" "$?" 143
expect_eq "SIGTERM during --pre: the command is not started after it" "$([ -e "$T/ran" ] && echo ran)" ""
expect_eq "SIGTERM during --pre: no exit_code in the JSON" "$(json "$T/pre.json" 'j.get("exit_code")')" None
expect_eq "SIGTERM during --pre: stopped_by says it" "$(json "$T/pre.json" 'j["provenance"].get("stopped_by")')" SIGTERM
"$PMC" stat -e task-clock --format json -o "$T/post.json" --post 'kill -TERM $PPID' -- "$PROGS/exit-with" exit 0 2>"$T/post.err"
expect_eq "SIGTERM during --post: pmc exits 128+15" "$?" 143
expect_eq "SIGTERM during --post: no exit_code in the JSON" "$(json "$T/post.json" 'j.get("exit_code")')" None
expect_eq "SIGTERM during --post: stopped_by says it" "$(json "$T/post.json" 'j["provenance"].get("stopped_by")')" SIGTERM

# --- pmc validate stopped by SIGTERM in the middle of its runs: no temporary file left ---
KERNELS=$(dirname "$PMC")/libexec/pmc/pmc-kernels
cat >"$T/stopping" <<EOS
#!/bin/sh
[ "\$1" = --list ] || kill -TERM \$PPID
exec "$KERNELS" "\$@"
EOS
chmod +x "$T/stopping"
mkdir "$T/v"
PMC_KERNELS=$T/stopping "$PMC" validate --trust=none --quick --kernel syscall -e syscalls:sys_enter_getppid \
	--format json -o "$T/v/v.json" >"$T/v.out" 2>&1
expect_eq "pmc validate stopped by SIGTERM: killed by it" "$?" 143
expect_eq "pmc validate stopped by SIGTERM: no file left in the -o folder" "$(ls -A "$T/v")" ""

# --- vpmu: a clone(CLONE_VM) that is no thread, which Valgrind refuses, is named as such ---
if grep -qE '^ *\[ok\] vpmu' "$T/doctor"; then
	"$PMC" stat --backend=vpmu -e instructions -- "$PROGS/clone-vm" >"$T/cv.out" 2>"$T/cv.err"
	expect_eq "vpmu stat of clone-vm fails" "$?" 1
	expect_grep "vpmu stat names the refused clone" "Valgrind cannot run '.*clone-vm': it made a process that shares its memory without being a thread \(clone flags 0x111: CLONE_VM without CLONE_THREAD" "$T/cv.err"
	expect_no_grep "vpmu stat: no 'unexpected message'" "unexpected message" "$T/cv.err"
	"$PMC" record --backend=vpmu -e instructions -o "$T/cv.data" -- "$PROGS/clone-vm" >"$T/cvr.out" 2>"$T/cvr.err"
	expect_grep "vpmu record names the refused clone" "Valgrind cannot run '.*clone-vm': it made a process that shares its memory" "$T/cvr.err"
	"$PMC" stat --backend=vpmu -e instructions -- "$PROGS/threads-getppid" >"$T/th.out" 2>"$T/th.err"
	expect_no_grep "vpmu stat of threads: no refused clone" "Valgrind cannot run" "$T/th.err"
fi

finish
