#!/bin/bash
# SPDX-License-Identifier: MIT
# pmc stat/record --dry-run against a recorded sysfs tree (PMC_SYSFS_ROOT): the exact
# perf_event_open calls (attr type/config, pid, cpu, group_fd, flags, sampling fields) are
# printed, and nothing is opened or run. Needs no PMU: nothing reaches the kernel.
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98
export PMC_SYSFS_ROOT="$SRC/tests/data/sysfs/fake-2s2c2t"
RAW='fakepmu/event=0x3c,umask=1,cmask=2,inv/'

# calls FILE: the sys_perf_event_open lines, one "pid P cpu C group_fd G flags F = FD" each.
calls() { sed -n 's/^sys_perf_event_open: //p' "$1" | tr -s ' '; }
# field FILE NAME: the values of attr field NAME, one per block.
field() { awk -v n="$2" 'substr($0, 1, 35) == sprintf("  %-32s ", n) { print substr($0, 36) }' "$1"; }

# One raw PMU event on a command: the attr block, and the command is not run.
"$PMC" stat --dry-run -vv -e "$RAW" -- touch "$T/ran" >"$T/one" 2>"$T/err"
expect_eq "stat --dry-run exits 0" "$?" 0
expect_eq "the command did not run" "$(test -e "$T/ran" && echo ran)" ""
expect_eq "attr type" "$(field "$T/one" type)" 42
expect_eq "attr config (event|umask<<8|inv<<23|cmask<<24)" "$(field "$T/one" config)" 0x280013c
expect_eq "attr size" "$(field "$T/one" size)" 128
expect_eq "read_format" "$(field "$T/one" read_format)" "TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING"
expect_eq "enable_on_exec on a command" "$(field "$T/one" enable_on_exec)" 1
expect_eq "one call, on the command" "$(calls "$T/one")" \
	"pid <command> cpu -1 group_fd -1 flags 0x8 = 3"
expect_grep "perf's block layout" '^perf_event_attr:$' "$T/one"
expect_grep "perf's rule" '^-{60}$' "$T/one"

# A group {a,b}: the member names its leader's placeholder fd; GROUP read on the leader.
"$PMC" stat --dry-run -vv -e '{fakepmu/fake-loads/,fakepmu/fake-stalls/}' -- touch "$T/ran" \
	>"$T/group" 2>"$T/err"
expect_eq "group: two calls" "$(calls "$T/group")" \
	"pid <command> cpu -1 group_fd -1 flags 0x8 = 3
pid <command> cpu -1 group_fd 3 flags 0x8 = 4"
expect_eq "group: configs from the events/ aliases" "$(field "$T/group" config | tr '\n' ' ')" \
	"0x81d0 0x40004a3 "
expect_eq "group: the leader reads the group" "$(field "$T/group" read_format | head -1)" \
	"TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|GROUP"
expect_eq "group: only the leader starts disabled" "$(field "$T/group" disabled)" 1

# -a: one call per online CPU of the recorded tree (0-7), pid -1; nothing waits for Ctrl-C.
"$PMC" stat --dry-run -e "$RAW" -a >"$T/all" 2>"$T/err"
expect_eq "-a: exits 0" "$?" 0
expect_eq "-a: one call per CPU" "$(calls "$T/all" | awk '{ print $4 }' | tr '\n' ' ')" \
	"0 1 2 3 4 5 6 7 "
expect_eq "-a: pid -1" "$(calls "$T/all" | awk '{ print $2 }' | sort -u)" -1
expect_no_grep "--dry-run without -vv: no attr blocks" 'perf_event_attr' "$T/all"

# -C 1 with a group: pid -1, cpu 1, the member in its leader's group (of the same PMU: an
# uncore member would be refused, tests/cli/test-pmu-uncore.sh).
"$PMC" stat --dry-run -e "{$RAW,fakepmu/fake-loads/}" -C 1 -- touch "$T/ran" >"$T/cpu1" 2>"$T/err"
expect_eq "-C 1: two calls on cpu 1" "$(calls "$T/cpu1")" \
	"pid -1 cpu 1 group_fd -1 flags 0x8 = 3
pid -1 cpu 1 group_fd 3 flags 0x8 = 4"
expect_eq "-C 1: the command did not run" "$(test -e "$T/ran" && echo ran)" ""

# pmc record: -c sets the period, -F the frequency; no file is written, no command run.
(cd "$T" && "$PMC" record --dry-run -vv -c 1000 -e "$RAW" -- touch "$T/ran") >"$T/rc" 2>"$T/err"
expect_eq "record --dry-run exits 0" "$?" 0
expect_eq "record: no perf.data" "$(ls "$T" | grep -c perf.data)" 0
expect_eq "record: the command did not run" "$(test -e "$T/ran" && echo ran)" ""
expect_eq "record -c: sample_period" "$(field "$T/rc" '{ sample_period, sample_freq }')" 1000
expect_eq "record -c: no freq" "$(field "$T/rc" freq)" ""
expect_eq "record -c: sample_type" "$(field "$T/rc" sample_type)" "IP|TID|TIME|PERIOD|IDENTIFIER"
expect_eq "record: one attr block for the CPUs of one event" "$(grep -c perf_event_attr "$T/rc")" 1
expect_eq "record: one call per online CPU, on the command" \
	"$(calls "$T/rc" | awk '{ print $2 "@" $4 }' | tr '\n' ' ')" \
	"<command>@0 <command>@1 <command>@2 <command>@3 <command>@4 <command>@5 <command>@6 <command>@7 "
"$PMC" record --dry-run -vv -F 99 -e "$RAW" -- touch "$T/ran" >"$T/rf" 2>"$T/err"
expect_eq "record -F: sample_freq" "$(field "$T/rf" '{ sample_period, sample_freq }')" 99
expect_eq "record -F: freq" "$(field "$T/rf" freq)" 1
expect_eq "record -F: sample_type" "$(field "$T/rf" sample_type)" "IP|TID|TIME|PERIOD|IDENTIFIER"

# vpmu cannot describe its calls: a clear refusal, not a run (in a build without the vpmu
# tool, the event check refuses first, and says so).
"$PMC" stat --dry-run --backend=vpmu -e instructions -- touch "$T/ran" >"$T/vp" 2>"$T/err"
expect_eq "vpmu --dry-run: exit 1" "$?" 1
expect_grep "vpmu --dry-run: says why" \
	'--dry-run: backend vpmu cannot describe its calls|vpmu tool is not built' "$T/err"
expect_eq "vpmu --dry-run: the command did not run" "$(test -e "$T/ran" && echo ran)" ""
finish
