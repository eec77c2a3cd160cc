#!/bin/bash
# SPDX-License-Identifier: MIT
# Hybrid core PMUs (docs/pmus.md, "Hybrid") on recorded sysfs trees: an Alder Lake
# (cpu_core type 4 on CPUs 0-15, cpu_atom type 8 on 16-23) and an RK3399 big.LITTLE
# (armv8_cortex_a53 type 8 on 0-3, armv8_cortex_a72 type 9 on 4-5). The exact
# perf_event_open calls of --dry-run -vv: type, config, pid and cpu. Needs no PMU.
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98
ADL="$SRC/tests/data/sysfs/pmu-intel-alderlake"
RK="$SRC/tests/data/sysfs/pmu-arm-rk3399"
unset PMC_KERNEL_RELEASE

# calls FILE: "type/config@pid:cpu" per call (type and config 0 when the block omits them).
calls() {
	awk '/^perf_event_attr:/ { t = 0; c = "0" }
	     substr($0, 1, 35) == sprintf("  %-32s ", "type") { t = substr($0, 36) }
	     substr($0, 1, 35) == sprintf("  %-32s ", "config") { c = substr($0, 36) }
	     /^sys_perf_event_open:/ { printf "%s/%s@%s:%s\n", t, c, $3, $5 }' "$1"
}
# squash: the calls of one event, "type/config@pid:first-last" per run of CPUs.
squash() {
	awk -F'[@:]' '{ k = $1 "@" $2
		if (k == pk && $3 == last + 1) { last = $3; next }
		if (NR > 1) print pk ":" (first == last ? first : first "-" last)
		pk = k; first = $3; last = $3 }
	END { if (NR) print pk ":" (first == last ? first : first "-" last) }'
}
dry() { # ROOT ARGS...: pmc stat --dry-run -vv on the tree
	local root=$1
	shift
	PMC_SYSFS_ROOT="$root" "$PMC" stat --dry-run -vv "$@" >"$T/out" 2>"$T/err"
	echo "$?" >"$T/rc"
	calls "$T/out"
}

# Alder Lake: a generic event with a command, one event per core PMU, cpu -1, the PMU's
# type in config[63:32] of PERF_TYPE_HARDWARE (perf's intel-hybrid.txt shows the same).
expect_eq "ADL cycles with a command" "$(dry "$ADL" -e cycles -- true)" \
	"0/0x400000000@<command>:-1
0/0x800000000@<command>:-1"
expect_eq "ADL cycles: exits 0" "$(cat "$T/rc")" 0
expect_eq "ADL cache event with a command: PERF_TYPE_HW_CACHE, extended" \
	"$(dry "$ADL" -e LLC-load-misses -- true)" "3/0x400010002@<command>:-1
3/0x800010002@<command>:-1"
# -a: each PMU's event on its own CPUs only.
expect_eq "ADL -a cycles: core on 0-15, atom on 16-23" \
	"$(dry "$ADL" -a -e cycles | squash)" "0/0x400000000@-1:0-15
0/0x800000000@-1:16-23"
expect_eq "ADL -a cache event" "$(dry "$ADL" -a -e LLC-load-misses | squash)" \
	"3/0x400010002@-1:0-15
3/0x800010002@-1:16-23"
expect_eq "ADL -a cpu_atom/instructions/: the atom CPUs only, generic id extended" \
	"$(dry "$ADL" -a -e cpu_atom/instructions/ | squash)" "0/0x800000001@-1:16-23"
expect_eq "ADL -a cpu_core/cycles/" "$(dry "$ADL" -a -e cpu_core/cycles/ | squash)" \
	"0/0x400000000@-1:0-15"
expect_eq "ADL -a cpu_atom/event=0xc0/: the PMU's own type, its CPUs" \
	"$(dry "$ADL" -a -e cpu_atom/event=0xc0/ | squash)" "8/0xc0@-1:16-23"
expect_eq "ADL -C 14-17: the CPUs of each PMU among them" \
	"$(dry "$ADL" -C 14-17 -e cycles | squash)" "0/0x400000000@-1:14-15
0/0x800000000@-1:16-17"
expect_eq "ADL --cputype atom: cpu_atom only" "$(dry "$ADL" --cputype atom -e cycles -- true)" \
	"0/0x800000000@<command>:-1"
expect_eq "ADL --cputype core -a" "$(dry "$ADL" --cputype core -a -e instructions | squash)" \
	"0/0x400000001@-1:0-15"
# A group of generic events is one group per core PMU (the kernel refuses a group across
# core PMUs): cpu_core's pair, then cpu_atom's, each member in its own leader's group.
dry "$ADL" -e '{cycles,instructions}' -- true >"$T/grp"
expect_eq "ADL {cycles,instructions}: one group per core PMU" \
	"$(paste -d' ' "$T/grp" <(sed -n 's/^sys_perf_event_open: .*group_fd \(-*[0-9]*\) .*= \([0-9]*\)$/\1>\2/p' "$T/out"))" \
	"0/0x400000000@<command>:-1 -1>3
0/0x400000001@<command>:-1 3>4
0/0x800000000@<command>:-1 -1>5
0/0x800000001@<command>:-1 5>6"
# The planner counts each core PMU's counters apart: three general-counter events per core
# type fit one pass (six would not fit the four, or three, of one core).
dry "$ADL" -e branches,branch-misses,cache-misses -- true >"$T/plan"
expect_eq "ADL: 3 events x 2 core PMUs, one pass" "$(grep -c '^# pass' "$T/out")" 0
expect_eq "ADL: 3 events x 2 core PMUs, six calls" "$(wc -l <"$T/plan")" 6
# pmc stat's default set: its hardware events per core PMU, as perf 6.1's (intel-hybrid.txt:
# cpu_core/cycles/, cpu_atom/cycles/, cpu_core/instructions/, ... branch-misses).
expect_eq "ADL default events: the hardware ones per core PMU" \
	"$(dry "$ADL" -- true | grep -v '^1/' | awk -F@ '{ printf "%s ", $1 }')" \
	"0/0x400000000 0/0x800000000 0/0x400000001 0/0x800000001 0/0x400000004 0/0x800000004 0/0x400000005 0/0x800000005 "
# A raw event: one per core PMU, of each PMU's own type (perf 6.1's add_raw_hybrid()).
expect_eq "ADL r1a: one per core PMU, each of its type" "$(dry "$ADL" -e r1a -- true)" \
	"4/0x1a@<command>:-1
8/0x1a@<command>:-1"
# Software events stay one event.
expect_eq "ADL task-clock: one event" "$(dry "$ADL" -e task-clock -- true)" \
	"1/0x1@<command>:-1"
# The rule is said with -v.
PMC_SYSFS_ROOT="$ADL" "$PMC" stat --dry-run -v -e cycles -- true >/dev/null 2>"$T/v"
expect_grep "ADL -v: the rule" "cpu_atom is an x86 hybrid PMU: .*extended type" "$T/v"

# Output shapes as perf 6.1's: one line per core type, one with --hybrid-merge, the
# chosen type's with --cputype; in the summary, -x and -j. Nothing counts cycles here (no
# PMU): the lines are "<not supported>", but named and shaped as they would count
# (unit.test-run-hybrid sums known values).
names() { # OPTIONS: the event names of pmc stat's -x lines, then of its -j lines
	PMC_SYSFS_ROOT="$ADL" "$PMC" stat -x, "$@" -e cycles,task-clock true 2>&1 |
		awk -F, '!/^#/ { printf "%s ", $3 }'
	PMC_SYSFS_ROOT="$ADL" "$PMC" stat -j "$@" -e cycles,task-clock true 2>&1 |
		sed -n 's/.*"event" : "\([^"]*\)".*/\1/p' | tr '\n' ' '
}
expect_eq "ADL output: one line per core type" "$(names)" \
	"cpu_core/cycles/ cpu_atom/cycles/ task-clock cpu_core/cycles/ cpu_atom/cycles/ task-clock "
expect_eq "ADL output: --hybrid-merge, one line" "$(names --hybrid-merge)" \
	"cycles task-clock cycles task-clock "
expect_eq "ADL output: --cputype atom" "$(names --cputype atom)" \
	"cpu_atom/cycles/ task-clock cpu_atom/cycles/ task-clock "
PMC_SYSFS_ROOT="$ADL" "$PMC" stat --hybrid-merge -e cycles true >"$T/sum" 2>&1
expect_grep "ADL summary --hybrid-merge: the merged line" "<not supported> +cycles " "$T/sum"
expect_no_grep "ADL summary --hybrid-merge: no core type's line" "cpu_(core|atom)/" "$T/sum"
# a group's modifiers go inside each core type's slashes, as perf 6.1 names them
grp() { PMC_SYSFS_ROOT="$ADL" "$PMC" stat -x, "$@" -e '{cycles,instructions}:u' true 2>&1 |
	awk -F, '!/^#/ { printf "%s ", $3 }'; }
expect_eq "ADL group modifiers: inside the slashes" "$(grp)" \
	"cpu_core/cycles:u/ cpu_core/instructions:u/ cpu_atom/cycles:u/ cpu_atom/instructions:u/ "
expect_eq "ADL group modifiers: --hybrid-merge keeps them" "$(grp --hybrid-merge)" \
	"cycles:u instructions:u "

# pmc record: one sampling event per core PMU, each on its CPUs.
(cd "$T" && PMC_SYSFS_ROOT="$ADL" "$PMC" record --dry-run -vv -c 1000 -e cycles -- true) \
	>"$T/rec" 2>"$T/err"
expect_eq "ADL record cycles: one sampling event per core PMU" "$(calls "$T/rec" | squash)" \
	"0/0x400000000@<command>:0-15
0/0x800000000@<command>:16-23"

# RK3399 as Linux 6.1 (no recorded release: older than 6.6): Arm's PMUs take no extended
# type, so perf 6.1 opens cycles once, on every CPU with -a.
expect_eq "RK3399 (< 6.6) cycles: one event" "$(dry "$RK" -e cycles -- true)" \
	"0/0@<command>:-1"
expect_eq "RK3399 (< 6.6) cache event: one event" "$(dry "$RK" -e LLC-load-misses -- true)" \
	"3/0x10002@<command>:-1"
expect_eq "RK3399 (< 6.6) -a cycles: every CPU" "$(dry "$RK" -a -e cycles | squash)" "0/0@-1:0-5"
expect_eq "RK3399 -a armv8_cortex_a72/cpu_cycles/: the A72's CPUs" \
	"$(dry "$RK" -a -e armv8_cortex_a72/cpu_cycles/ | squash)" "9/0x11@-1:4-5"
PMC_SYSFS_ROOT="$RK" "$PMC" stat --dry-run -v -e cycles -- true >/dev/null 2>"$T/v"
expect_grep "RK3399 -v: the rule" "armv8_cortex_a53 takes the extended type from Linux 6.6" "$T/v"

# RK3399 recorded on Linux 6.6: one event per core PMU, as on x86.
export PMC_KERNEL_RELEASE=6.6.0
expect_eq "RK3399 (6.6) cycles: per core PMU" "$(dry "$RK" -e cycles -- true)" \
	"0/0x800000000@<command>:-1
0/0x900000000@<command>:-1"
expect_eq "RK3399 (6.6) -a cache event" "$(dry "$RK" -a -e LLC-load-misses | squash)" \
	"3/0x800010002@-1:0-3
3/0x900010002@-1:4-5"
expect_eq "RK3399 (6.6) -a cycles" "$(dry "$RK" -a -e cycles | squash)" "0/0x800000000@-1:0-3
0/0x900000000@-1:4-5"
unset PMC_KERNEL_RELEASE
finish
