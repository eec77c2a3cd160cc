#!/bin/bash
# SPDX-License-Identifier: MIT
# pmc report replays records in time order: threads and processes born during a recording on
# several CPUs get their names, maps and whole call chains, with the command or system wide.
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98
EV=cpu-clock:u

"$PMC" record -q -e $EV -o "$T/probe.data" -- true 2>"$T/err" ||
	skip "sampling unavailable: $(cat "$T/err")"
# On one CPU a file is in time order anyway; the checks still hold, they just cannot fail.
[ "$(nproc)" -ge 2 ] || echo "note: $(nproc) CPU: this machine cannot produce out-of-order files"

# check_mt FILE WHAT [NAMES]: every mt_burn sample is named for its thread, resolved, with its
# callers. NAMES: the comms taken as the workload's when looking for unresolved samples; by
# default placeholders (":TID") too, which system-wide files also hold for other processes
# (a parallel test, a CI job) whose names were never seen, so there they are left out.
check_mt() {
	local names=${3:-'mt-w[0-9]+|sample-mt|:[0-9]+'}
	"$PMC" report -i "$1" -s comm,dso,symbol --no-callers -F csv >"$T/mt.csv" ||
		{ fail "$2: pmc report failed"; return; }
	"$PMC" report -i "$1" -F folded >"$T/mt.folded" || { fail "$2: folded failed"; return; }
	expect_grep "$2: mt_burn sampled" '^"[^"]*",[^,]*,[^,]*,[0-9]+,[0-9]+,"mt-w[0-9]+","sample-mt","\[\.\] mt_burn",([0-9]+,[0-9]+,|,,"no estimate: [^"]*")$' "$T/mt.csv"
	# Placeholder names (":TID") and the parent's name mean a sample came before its COMM.
	awk -F, '$8 == "\"[.] mt_burn\"" && $6 !~ /^"mt-w[0-9]+"$/' "$T/mt.csv" >"$T/bad"
	expect_eq "$2: mt_burn only under its threads' names" "$(head -3 "$T/bad")" ""
	# A sample before its process's maps (forked child) has no DSO.
	awk -F, -v re="^\"($names)\"$" '$6 ~ re && $7 == "\"[unknown]\""' "$T/mt.csv" >"$T/bad"
	expect_eq "$2: no unresolved workload addresses" "$(head -3 "$T/bad")" ""
	# worker may be missing: a sample taken at mt_burn's first instructions, before its frame
	# is made, unwinds by frame pointer from worker's frame to worker's caller (perf shows it
	# so too). Seen once in hundreds of runs, in a forked child's thread: its first call may
	# fault mt_burn's code page in, and a tick during the fault is charged to that first
	# instruction. What the order could break is a chain cut short or unresolved, not that.
	grep ';mt_burn' "$T/mt.folded" | grep -Ev '^mt-w[0-9]+;start_thread;(worker;)?mt_burn' >"$T/bad"
	expect_eq "$2: whole chains start_thread;worker;mt_burn" "$(head -3 "$T/bad")" ""
	expect_eq "$2: most chains hold worker" \
		"$(awk '/;mt_burn/ { n += $NF; if ($0 ~ /;worker;mt_burn/) w += $NF } END { print (n > 0 && w >= 0.95 * n) }' "$T/mt.folded")" 1
}

# Threads (named with pthread_setname_np) and forked processes, several times: the order in
# which two CPUs' buffers are drained varies from run to run.
for i in 1 2 3; do
	"$PMC" record -q -g -e $EV -F 4000 -o "$T/mt$i.data" -- "$PROGS/sample-mt" 3 10 20 \
		>/dev/null 2>"$T/err" || fail "record $i: $(cat "$T/err")"
	check_mt "$T/mt$i.data" "command, run $i"
done

# System wide: the same workload while pmc samples every CPU.
# The workload starts once pmc says sampling began (-v): a fixed pause was too short for a
# start-up that reads every process's maps on a loaded machine.
"$PMC" record -v -g -a -e $EV -F 4000 -o "$T/mta.data" 2>"$T/err" & rec=$!
for i in $(seq 600); do grep -q "sampling started" "$T/err" && break; sleep 0.1; done
grep -q "sampling started" "$T/err" || fail "record -a: sampling did not start in 60 s"
"$PROGS/sample-mt" 3 10 20 >/dev/null
kill -INT $rec; wait $rec; rc=$?
expect_eq "record -a stops on SIGINT with 0" "$rc" 0
check_mt "$T/mta.data" "system wide" 'mt-w[0-9]+|sample-mt'

# exec in forked shells: the programs' samples carry their names, never the shell's.
"$PMC" record -q -e $EV -F 4000 -o "$T/sh.data" -- \
	sh -c "'$PROGS/sample-split' 60 & '$PROGS/sample-split' 60; wait" >/dev/null 2>"$T/err" ||
	fail "record sh: $(cat "$T/err")"
"$PMC" report -i "$T/sh.data" -s comm,symbol --no-callers -F csv >"$T/sh.csv"
expect_grep "exec'd programs: hot under sample-split" '"sample-split","\[\.\] hot",([0-9]+,[0-9]+,|,,"no estimate: [^"]*")$' "$T/sh.csv"
awk -F, '($7 == "\"[.] hot\"" || $7 == "\"[.] cold\"") && $6 != "\"sample-split\""' \
	"$T/sh.csv" >"$T/bad"
expect_eq "exec'd programs: hot/cold only under sample-split" "$(head -3 "$T/bad")" ""
awk -F, '$6 ~ /^":[0-9]+"$/' "$T/sh.csv" >"$T/bad"
expect_eq "exec'd programs: no nameless threads" "$(head -3 "$T/bad")" ""
finish
