#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# RAPL, msr, cstate and AMD's uncore and IBS PMUs on recorded trees (PMC_SYSFS_ROOT): the exact
# perf_event_open calls (type, config, config1, pid, cpu) of pmc stat/record --dry-run -vv
# (docs/pmus.md, "RAPL, msr and cstate", "IBS"). A PMU with a cpumask (power, cstate_*, amd_l3,
# amd_df) is counted system-wide on its cpumask CPUs; msr counts per task too; IBS samples and
# never counts. Nothing is opened: no PMU is needed. The Joules shown are a unit test's
# (test-stat-format, stat_view::alias_scale_and_unit).
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98
SKX="$SRC/tests/data/sysfs/pmu-intel-skx-2s"
ZEN="$SRC/tests/data/sysfs/pmu-amd-zen3-2ccx"

# dry TREE EVENTS [ARGS]: pmc stat --dry-run -vv on TREE's command 'true', into $T/out and $T/err.
dry() {
	local tree=$1 evs=$2
	shift 2
	PMC_SYSFS_ROOT=$tree "$PMC" stat --dry-run -vv "$@" -e "$evs" -- true >"$T/out" 2>"$T/err"
}
# each TYPE CONFIG PID CPUS...: the expected calls, one per CPU.
each() {
	local type=$1 config=$2 pid=$3
	shift 3
	for c in "$@"; do echo "- $type $config 0 $pid $c"; done
}

# --- RAPL on the two-socket Skylake-SP: one call per socket, on the cpumask CPU (0,8) ---
dry "$SKX" power/energy-pkg/ -a
expect_eq "skx -a power/energy-pkg/: exit 0" "$?" 0
expect_eq "skx -a power/energy-pkg/: type 36, event 0x02, CPUs 0 and 8" "$(dry_calls "$T/out")" \
	"$(each 36 0x2 -1 0 8)"
dry "$SKX" power/energy-ram/
expect_eq "skx power/energy-ram/ with a command: system-wide all the same" "$(dry_calls "$T/out")" \
	"$(each 36 0x3 -1 0 8)"
expect_grep "skx: says it counts system-wide" "counted system-wide \(pid -1, on the PMU's cpumask CPUs\)" "$T/err"
dry "$SKX" power/energy-pkg/ -A -a
expect_eq "skx -A: still one call per socket" "$(dry_calls "$T/out")" "$(each 36 0x2 -1 0 8)"

# --- msr: no cpumask, a software-context PMU (per task, or per CPU with -a) ---
dry "$SKX" msr/tsc/,msr/aperf/
expect_eq "skx msr/tsc/, msr/aperf/ on the command" "$(dry_calls "$T/out")" \
	"- 11 0 0 <command> -1
- 11 0x1 0 <command> -1"
dry "$SKX" msr/mperf/ -a
expect_eq "skx -a msr/mperf/: every online CPU" "$(dry_calls "$T/out")" "$(each 11 0x2 -1 $(seq 0 31))"

# --- cstate: core residency on one thread per core, package residency on one CPU per socket ---
dry "$SKX" cstate_core/c6-residency/ -a
expect_eq "skx cstate_core/c6-residency/: CPUs 0-15 (one per core)" "$(dry_calls "$T/out")" \
	"$(each 37 0x2 -1 $(seq 0 15))"
dry "$SKX" cstate_pkg/c2-residency/ -a
expect_eq "skx cstate_pkg/c2-residency/: CPUs 0 and 8" "$(dry_calls "$T/out")" "$(each 38 0 -1 0 8)"

# --- AMD Zen 3, one socket, two CCX: RAPL and the data fabric once, the L3 once per CCX ---
dry "$ZEN" power/energy-pkg/ -a
expect_eq "zen3 power/energy-pkg/: CPU 0 only" "$(dry_calls "$T/out")" "$(each 12 0x2 -1 0)"
dry "$ZEN" amd_l3/event=0x04,umask=0xff/ -a
expect_eq "zen3 amd_l3: CPUs 0 and 8 (one per CCX)" "$(dry_calls "$T/out")" "$(each 11 0xff04 -1 0 8)"
dry "$ZEN" amd_df/event=0x07,umask=0x38/ -a
expect_eq "zen3 amd_df: CPU 0" "$(dry_calls "$T/out")" "$(each 10 0x3807 -1 0)"

# --- IBS: sampled per CPU by pmc record -a, refused by pmc stat with the reason ---
dry "$ZEN" ibs_op//
expect_eq "zen3 stat ibs_op//: nothing opened" "$(dry_calls "$T/out")" ""
expect_grep "zen3 stat ibs_op//: says why" \
	"'ibs_op//' is not opened: ibs_op is AMD IBS, a sampling PMU" "$T/err"
dry "$ZEN" ibs_fetch// -a
expect_grep "zen3 stat ibs_fetch//: says why" "ibs_fetch is AMD IBS, a sampling PMU" "$T/err"
PMC_SYSFS_ROOT=$ZEN "$PMC" record --dry-run -vv -a -e ibs_op/cnt_ctl=1/ -- true >"$T/rec" 2>"$T/err"
expect_eq "zen3 record -a ibs_op//: exit 0" "$?" 0
expect_eq "zen3 record -a ibs_op/cnt_ctl=1/: type 9, cnt_ctl (bit 19), every CPU" \
	"$(dry_calls "$T/rec")" "$(each 9 0x80000 -1 $(seq 0 31))"
expect_grep "zen3 record: sampled at perf's default frequency" '^  freq +1$' "$T/rec"

finish
