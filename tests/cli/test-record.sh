#!/bin/bash
# SPDX-License-Identifier: MIT
# pmc record: the 75/25 workload's split, as pmc's and perf's files give it, within 5 points
# of the split its own thread clock measured; perf report/script read pmc's file with the
# same sample count; callers; exit statuses.
set -u
: "${PMC:?}" "${PROGS:?}"
T=$(mktemp -d)
# Only the script's own shell cleans up: a background job killed before its exec is a
# copy of this shell that would run the trap too (and delete the folder under the test).
trap '[ "$BASHPID" = "$$" ] && rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98

# 1500 rounds (about 0.8 s, 1,600 samples): the binomial spread of hot's share is then about
# one point, so the 5-point window is four spreads wide.
out=$("$PMC" record -F 2000 -g -o "$T/pmc.data" -- "$PROGS/sample-split" 1500 2>&1)
rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q "cannot sample\|cannot start sampling"; then
	echo "SKIP: sampling unavailable: $out"; exit 77
fi
[ $rc -eq 0 ] || fail "pmc record exited $rc: $out"
echo "$out" | grep -q "wrote [0-9]* samples" || fail "no summary line: $out"

# share SYMBOL CSV-FILE: the self overhead of SYMBOL in a pmc report CSV.
share() { awk -F, -v s="\"[.] $1\"" '$6 == s { gsub(/"/, "", $2); print $2 }' "$2"; }
# check_split FILE WHAT SELF: hot's share of hot+cold in FILE's samples is within 5 points of
# SELF, the share the workload's own thread clock measured ("sample-split: hot 77.21%").
check_split() {
	local file=$1 what=$2 self=$3 hot cold
	[ -n "$self" ] || fail "$what: the workload did not report its split"
	"$PMC" report -i "$file" -F csv -s symbol > "$T/r.csv" || fail "$what: pmc report failed"
	hot=$(share hot "$T/r.csv"); cold=$(share cold "$T/r.csv")
	[ -n "$hot" ] && [ -n "$cold" ] || fail "$what: hot/cold missing: $(head -5 "$T/r.csv")"
	awk -v h="$hot" -v c="$cold" -v s="$self" \
		'BEGIN { d = 100 * h / (h + c) - s; exit !(d >= -5 && d <= 5 && c > 0) }' ||
		fail "$what: hot $hot% cold $cold%, expected hot/(hot+cold) within 5 points of $self%"
	echo "ok: $what: hot $hot% cold $cold% (the workload measured hot at $self%)"
}
self_split() { sed -n 's/^sample-split: hot \([0-9.]*\)%$/\1/p' "$@"; }
check_split "$T/pmc.data" "pmc record" "$(echo "$out" | self_split)"

# Callers come from the call chains: hot() is called by main().
"$PMC" report -i "$T/pmc.data" -s symbol | grep -A3 "\[\.\] hot$" | grep -q "<- main" ||
	fail "no caller 'main' under hot: $("$PMC" report -i "$T/pmc.data" | head -20)"
"$PMC" report -i "$T/pmc.data" -F folded | grep -q "sample-split;.*main;hot [0-9]" ||
	fail "folded stacks lack main;hot"

# perf reads pmc's file and sees the same samples.
if command -v perf >/dev/null; then
	n_pmc=$("$PMC" report -i "$T/pmc.data" -F json | awk -F'[:,]' '/"samples"/ { gsub(/ /, "", $2); print $2; exit }')
	n_script=$(perf script -i "$T/pmc.data" -F tid,period 2>/dev/null | wc -l)
	n_report=$(perf report -i "$T/pmc.data" --stdio 2>/dev/null | awk '/^# Samples:/ { print $3; exit }')
	[ "$n_pmc" = "$n_script" ] || fail "perf script saw $n_script samples, pmc $n_pmc"
	case "$n_report" in *K) n_report=$n_pmc ;; esac # perf rounds large counts ("1K")
	[ "$n_pmc" = "$n_report" ] || fail "perf report saw $n_report samples, pmc $n_pmc"
	echo "ok: perf script and perf report see $n_pmc samples"
	perf record -q -e cpu-clock:u -F 2000 -g -o "$T/perf.data" -- "$PROGS/sample-split" 1500 \
		>/dev/null 2>"$T/perf.err" &&
		check_split "$T/perf.data" "perf record" "$(self_split "$T/perf.err")"
fi

# Exit statuses as pmc stat: the program's, 128+signal, 127.
"$PMC" record -q -o "$T/x.data" -- sh -c 'exit 3'; [ $? -eq 3 ] || fail "exit status not passed on"
"$PMC" record -q -o "$T/x.data" -- sh -c 'kill -SEGV $$' 2>"$T/err"; rc=$?
[ $rc -eq 139 ] || fail "killed by SIGSEGV gave $rc"
grep -q "SIGSEGV" "$T/err" || fail "signal not reported: $(cat "$T/err")"
"$PMC" record -q -o "$T/y.data" -- /nonexistent/prog 2>/dev/null; rc=$?
[ $rc -eq 127 ] || fail "cannot-start gave $rc"
[ ! -e "$T/y.data" ] || fail "a failed start left a file"
# Ctrl-C (SIGINT to pmc) stops the program and keeps a readable file.
# (a background job starts with SIGINT ignored; perl restores the default as a terminal would)
perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV' "$PMC" record -q -o "$T/int.data" -- \
	"$PROGS/sample-split" 100000 & pid=$!
sleep 0.5; kill -INT $pid; wait $pid; rc=$?
[ $rc -eq 130 ] || fail "Ctrl-C gave $rc"
"$PMC" report -i "$T/int.data" >/dev/null || fail "interrupted recording unreadable"
# A hang-up (the terminal closed) or SIGTERM: the program gets the signal, the file is finished,
# no temporary file stays, nothing runs on re-parented, and the stop is said.
for sig in HUP TERM; do
	"$PMC" record -q -o "$T/$sig.data" -- "$PROGS/sample-split" 100000 2>"$T/$sig.err" & pid=$!
	sleep 0.5
	child=$(pgrep -P $pid -f sample-split)
	kill -$sig $pid; wait $pid; rc=$?
	[ $rc -eq $((128 + $(kill -l $sig))) ] || fail "SIG$sig gave $rc"
	grep -q "stopped early: SIG$sig" "$T/$sig.err" || fail "SIG$sig: not said: $(cat "$T/$sig.err")"
	"$PMC" report -i "$T/$sig.data" >/dev/null || fail "SIG$sig: the recording is unreadable"
	ls "$T" | grep -q "pmc-tmp" && fail "SIG$sig left a temporary file: $(ls "$T")"
	[ -n "$child" ] && kill -0 "$child" 2>/dev/null && fail "SIG$sig: the program $child still runs"
done
echo "ok: exit statuses"
