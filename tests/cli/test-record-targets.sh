#!/bin/bash
# SPDX-License-Identifier: MIT
# pmc record's other targets: -p PID (a running process, its side-band synthesised from
# /proc), -a (every CPU) and -C (some CPUs), with and without a command that ends the
# recording: the workload's functions are named.
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98
EV=cpu-clock:u

"$PMC" record -q -e $EV -o "$T/probe.data" -- true 2>"$T/err" ||
	skip "sampling unavailable: $(cat "$T/err")"

# hot_share FILE PID: the self overhead of hot() in process PID named sample-split, or empty.
# (CPU targets also sample other processes, which may well be other sample-splits.)
hot_share() {
	"$PMC" report -i "$1" -s pid,dso,symbol --no-callers -F csv |
		awk -F, -v p="\"$2:sample-split\"" '$6 == p && $7 == "\"sample-split\"" &&
			$8 == "\"[.] hot\"" { print $2 }'
}

# A workload that outlives the recording; its pid is $wl.
start_workload() {
	$1 "$PROGS/sample-split" 1000000 >/dev/null & wl=$!
	sleep 0.3
	[ "$(cat /proc/$wl/comm 2>/dev/null)" = sample-split ] ||
		fail "workload pid $wl is '$(cat /proc/$wl/comm 2>/dev/null)', not sample-split"
}
stop_workload() { kill "$wl" 2>/dev/null; wait "$wl" 2>/dev/null; }
# Only the script's own shell cleans up (a background job killed before its exec runs traps).
trap '[ "$BASHPID" = "$$" ] && { stop_workload; rm -rf "$T"; }' EXIT

# Runs stopped by SIGINT do without LeakSanitizer's exit check: twice its stop-the-world
# tracer hung forever here beside a just-interrupted recorder. timeout -k ends any hang.
NOLEAK="${ASAN_OPTIONS}:detect_leaks=0"

# record_for SECONDS ARGS...: pmc record stopped by SIGINT, as Ctrl-C would; its status in rc.
record_for() {
	local s=$1
	shift
	ASAN_OPTIONS=$NOLEAK timeout -k 30 --preserve-status -s INT "$s" \
		"$PMC" record -q -e $EV -F 2000 "$@" 2>"$T/err"
	rc=$?
}

# -p: attach to a process that started before pmc; its COMM and maps come from /proc.
start_workload ""
record_for 1.5 -p "$wl" -o "$T/p.data"
stop_workload
if [ $rc -ne 0 ] && grep -q "cannot start sampling" "$T/err"; then
	echo "note: -p not tested: $(cat "$T/err")"
else
	expect_eq "record -p exits 0 on SIGINT" "$rc" 0
	h=$(hot_share "$T/p.data" $wl)
	if [ -n "$h" ] && awk -v h="$h" 'BEGIN { exit !(h >= 65 && h <= 85) }'; then
		ok "record -p: hot() named, $h% (75 expected)"
	else
		fail "record -p: hot() share '$h': $("$PMC" report -i "$T/p.data" -s comm,dso,symbol --no-callers | head -8)"
	fi
	"$PMC" report -i "$T/p.data" -s comm --no-callers -F csv >"$T/p.csv"
	expect_no_grep "record -p: no nameless threads" '":[0-9]+"' "$T/p.csv"
fi

# -a: every CPU, started before the workload; exec, COMM and maps come from the kernel. The
# workload starts once pmc says sampling started (-v) and the recording ends after it exits,
# however slowly a loaded machine starts pmc (a fixed sleep lost the workload under load).
ASAN_OPTIONS=$NOLEAK timeout -k 30 --preserve-status -s INT 120 \
	"$PMC" record -v -q -e $EV -F 2000 -a -o "$T/a.data" 2>"$T/err" & rec=$!
for _ in $(seq 600); do
	grep -q "sampling started" "$T/err" || ! kill -0 $rec 2>/dev/null && break
	sleep 0.1
done
"$PROGS/sample-split" 300 >/dev/null & w=$!
wait $w
kill -INT $rec 2>/dev/null
wait $rec; rc=$?
if [ $rc -ne 0 ] && grep -q "cannot start sampling" "$T/err"; then
	skip "system-wide sampling refused here (-a, -C): $(cat "$T/err")"
fi
expect_eq "record -a exits 0 on SIGINT" "$rc" 0
h=$(hot_share "$T/a.data" $w)
[ -n "$h" ] && ok "record -a: hot() named ($h% of every CPU's samples)" ||
	fail "record -a: no hot() under sample-split: $("$PMC" report -i "$T/a.data" -s comm,dso,symbol --no-callers | head -8)"

# -a -- COMMAND: every CPU while the command runs; the recording ends when it exits, with
# its exit status (perf record -a -- cmd). The shell execs the workload, so its pid is $$.
record_cmd() { # ARGS...: pmc record ARGS -- sh (exec sample-split 300); status in rc, pid in cpid
	timeout 60 "$PMC" record -q -e $EV -F 2000 "$@" -- \
		sh -c 'echo $$ >"$0"; exec "$1" 300' "$T/cpid" "$PROGS/sample-split" \
		>/dev/null 2>"$T/err"
	rc=$?
	cpid=$(cat "$T/cpid" 2>/dev/null)
}
record_cmd -a -o "$T/ac.data"
expect_eq "record -a -- sample-split stops by itself, with the command's status" "$rc" 0
h=$(hot_share "$T/ac.data" "$cpid")
[ -n "$h" ] && ok "record -a -- sample-split: hot() named ($h% of every CPU's samples)" ||
	fail "record -a -- sample-split: no hot() under pid $cpid: $("$PMC" report -i "$T/ac.data" -s pid,dso,symbol --no-callers | head -8)"
timeout 60 "$PMC" record -q -e $EV -a -o "$T/ax.data" -- sh -c 'exit 7' 2>"$T/err"
expect_eq "record -a -- COMMAND exits with the command's status" "$?" 7
record_cmd -C 0 -o "$T/cc.data"
expect_eq "record -C 0 -- sample-split stops by itself" "$rc" 0
[ -f "$T/cc.data" ] && ok "record -C 0 -- sample-split wrote its file" ||
	fail "record -C 0 -- sample-split: no file: $(cat "$T/err")"

# -C 0 with the workload pinned to CPU 0: its functions appear; on CPU 1 they must not.
start_workload "taskset -c 0"
record_for 1.5 -C 0 -o "$T/c0.data"
expect_eq "record -C 0 exits 0" "$rc" 0
h=$(hot_share "$T/c0.data" $wl)
# Other processes share CPU 0 here, so only presence is asserted, not a share.
[ -n "$h" ] && ok "record -C 0: hot() named, $h% of CPU 0's samples" ||
	fail "record -C 0: hot() share '$h': $("$PMC" report -i "$T/c0.data" -s comm,dso,symbol --no-callers | head -8)"
if [ "$(nproc)" -ge 2 ]; then
	record_for 1 -C 1 -o "$T/c1.data"
	expect_eq "record -C 1: no samples of a workload pinned to CPU 0" "$(hot_share "$T/c1.data" $wl)" ""
fi
stop_workload
finish
