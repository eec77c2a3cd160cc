#!/bin/bash
# SPDX-License-Identifier: MIT
# Uncore events on the perf backend, proven by the exact perf_event_open calls on the recorded
# two-socket Skylake-SP tree (tests/data/sysfs/pmu-intel-skx-2s: 32 CPUs, uncore_imc_0..5 and
# uncore_cha_0..7 with cpumask 0,8): one counter per socket on the cpumask CPU, pid -1, also
# for a command (counted system-wide, with a note); a PMU wildcard or an alias opens every
# unit; sampling and groups with a core event are refused with the reason. Nothing is opened.
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98
export PMC_SYSFS_ROOT="$SRC/tests/data/sysfs/pmu-intel-skx-2s"

# calls FILE: the sys_perf_event_open lines, one "pid P cpu C group_fd G flags F = FD" each.
calls() { sed -n 's/^sys_perf_event_open: //p' "$1" | tr -s ' '; }
# field FILE NAME: the values of attr field NAME, one per block.
field() { awk -v n="$2" 'substr($0, 1, 35) == sprintf("  %-32s ", n) { print substr($0, 36) }' "$1"; }
# where FILE: "pid@cpu" of each call, on one line.
where() { calls "$1" | awk '{ printf "%s@%s ", $2, $4 }'; }

# -a: the IMC unit on CPU 0 and CPU 8 only (not on each of the 32 CPUs).
"$PMC" stat --dry-run -vv -a -e uncore_imc_0/cas_count_read/ >"$T/a" 2>"$T/err"
expect_eq "-a: exits 0" "$?" 0
expect_eq "-a: one call per socket, on the cpumask CPU" "$(calls "$T/a")" \
	"pid -1 cpu 0 group_fd -1 flags 0x8 = 3
pid -1 cpu 8 group_fd -1 flags 0x8 = 4"
expect_eq "-a: the unit's type" "$(field "$T/a" type | sort -u)" 30
expect_eq "-a: cas_count_read's config (event=0x04,umask=0x03)" "$(field "$T/a" config | sort -u)" \
	0x304
expect_eq "-a: no note" "$(grep -c 'uncore event' "$T/err")" 0

# A command: the uncore event system-wide (pid -1 on 0 and 8), a core event on the command.
"$PMC" stat --dry-run -vv -e task-clock,uncore_imc_0/cas_count_write/ -- touch "$T/ran" \
	>"$T/cmd" 2>"$T/err"
expect_eq "command: exits 0" "$?" 0
expect_eq "command: the command did not run" "$(test -e "$T/ran" && echo ran)" ""
expect_eq "command: task-clock on the command, the IMC unit per socket" "$(where "$T/cmd")" \
	"<command>@-1 -1@0 -1@8 "
expect_eq "command: cas_count_write's config" "$(field "$T/cmd" config | tail -1)" 0xc04
expect_eq "command: enable_on_exec on the command's event only" \
	"$(field "$T/cmd" enable_on_exec | tr '\n' ' ')" "1 "
expect_eq "command: inherit on the command's event only" \
	"$(field "$T/cmd" inherit | tr '\n' ' ')" "1 "
expect_eq "command: the note, once" "$(grep -c "is an uncore event.*system-wide" "$T/err")" 1

# -p: the same rule for a process.
"$PMC" stat --dry-run -e uncore_cha_3/event=0x0/ -p $$ >"$T/pid" 2>"$T/err"
expect_eq "-p: the CHA unit per socket, pid -1" "$(where "$T/pid")" "-1@0 -1@8 "

# uncore_imc/.../, imc/.../ and the alias alone: every unit (types 30-35), each per socket.
for ev in uncore_imc/cas_count_read/ imc/cas_count_read/ cas_count_read; do
	"$PMC" stat --dry-run -vv -a -e "$ev" >"$T/w" 2>"$T/err"
	expect_eq "$ev: 12 calls" "$(calls "$T/w" | wc -l)" 12
	expect_eq "$ev: on CPUs 0 and 8" "$(calls "$T/w" | awk '{ print $4 }' | sort -u | tr '\n' ' ')" \
		"0 8 "
	expect_eq "$ev: the six units" "$(field "$T/w" type | sort -u | tr '\n' ' ')" \
		"30 31 32 33 34 35 "
done

# -C: the CPUs asked for, as perf 6.1 opens them (the kernel moves each to its die's CPU).
"$PMC" stat --dry-run -e uncore_imc_0/cas_count_read/ -C 1 >"$T/c" 2>"$T/err"
expect_eq "-C 1: on CPU 1" "$(where "$T/c")" "-1@1 "

# A group with a software event: both per socket, the member in its leader's group.
"$PMC" stat --dry-run -a -e '{uncore_imc_0/clockticks/,cpu-clock}' >"$T/g" 2>"$T/err"
expect_eq "group with a software event: per socket" "$(calls "$T/g")" \
	"pid -1 cpu 0 group_fd -1 flags 0x8 = 3
pid -1 cpu 8 group_fd -1 flags 0x8 = 4
pid -1 cpu 0 group_fd 3 flags 0x8 = 5
pid -1 cpu 8 group_fd 4 flags 0x8 = 6"

# A group with a core event: refused, as the kernel refuses it, with the reason.
"$PMC" stat --dry-run -a -e '{uncore_imc_0/cas_count_read/,cycles}' >"$T/mix" 2>"$T/err"
expect_eq "uncore and core in a group: nothing opened" "$(calls "$T/mix")" ""
expect_grep "uncore and core in a group: the reason" \
	"the group mixes 'uncore_imc_0/cas_count_read/' \(uncore PMU uncore_imc_0\) with 'cycles'.*one PMU" \
	"$T/err"
"$PMC" stat --dry-run -a --strict -e '{uncore_imc_0/cas_count_read/,cycles}' >/dev/null 2>&1
expect_eq "uncore and core in a group: --strict fails" "$?" 1

# A group of uncore aliases: one group per unit, as perf 6.1 regroups them (each unit's
# read leads its write, on both sockets' cpumask CPU).
"$PMC" stat --dry-run -vv -a -e '{uncore_imc/cas_count_read/,uncore_imc/cas_count_write/}' \
	>"$T/ug" 2>"$T/err"
expect_eq "group of aliases: 24 calls, one group per unit" "$(calls "$T/ug" | wc -l)" 24
expect_eq "group of aliases: imc_0's write in imc_0's read's group" \
	"$(calls "$T/ug" | sed -n 1,4p)" "pid -1 cpu 0 group_fd -1 flags 0x8 = 3
pid -1 cpu 8 group_fd -1 flags 0x8 = 4
pid -1 cpu 0 group_fd 3 flags 0x8 = 5
pid -1 cpu 8 group_fd 4 flags 0x8 = 6"
expect_eq "group of aliases: the types, unit by unit" \
	"$(field "$T/ug" type | tr '\n' ' ')" "30 30 31 31 32 32 33 33 34 34 35 35 "
expect_grep "group of aliases: -vv says the split" "one group per unit" "$T/err"

# Sampling: refused with the reason.
"$PMC" record --dry-run -a -e uncore_imc_0/cas_count_read/ >"$T/rec" 2>"$T/err"
expect_eq "record: exits 1" "$?" 1
expect_eq "record: nothing opened" "$(calls "$T/rec")" ""
expect_grep "record: the reason" "uncore_imc_0 is an uncore PMU.*refuses to sample" "$T/err"

# pmc list: each sysfs PMU's events under a heading that says what the PMU is.
"$PMC" list pmu >"$T/list" 2>&1
expect_eq "list: the IMC unit's heading, then its events" \
	"$(grep -A1 '^ uncore_imc_3:' "$T/list" | sed 's/  */ /g')" \
	" uncore_imc_3: uncore PMU, type 33, counted on CPUs 0,8
 uncore_imc_3/cas_count_read/ no event=0x04,umask=0x03"
expect_eq "list: one heading per PMU with events" "$(grep -c '^ uncore_imc_[0-5]: ' "$T/list")" 6

# pmc doctor: the core PMU and the uncore units by type, on their sockets.
"$PMC" doctor >"$T/doc" 2>&1
expect_grep "doctor: core and uncore units" \
	'^  \[ok\] PMUs +core: cpu; uncore: 1 cstate_core unit, 1 cstate_pkg unit, 1 power unit, 8 cha units, 6 imc units on 2 sockets$' "$T/doc"
"$PMC" doctor --json >"$T/doc.json" 2>/dev/null
expect_eq "doctor --json: the PMUs found" \
	"$(json "$T/doc.json" "[c['value'] for c in j['checks'] if c['key'] == 'pmus']")" \
	"[22]" # with power, msr, cstate_core, cstate_pkg (test-pmu-rapl.sh)

finish
