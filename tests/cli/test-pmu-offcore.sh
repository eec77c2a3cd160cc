#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Intel's offcore response events on recorded core PMUs (PMC_SYSFS_ROOT, with the model named
# by PMC_PERF_CPU_MODEL): the request x response matrix goes to config1, from perf's
# offcore_rsp= term (format/offcore_rsp, "config1:0-63", arch/x86/events/intel/core.c) or from
# libpfm4's OFFCORE_RESPONSE_0:REQ:RSP; a core has one offcore register on Nehalem (MSR
# 0x1a6) and two from Westmere on, so events of more distinct values than registers are
# counted in different passes (docs/pmus.md, "Offcore response"). --dry-run -vv prints the
# exact perf_event_open calls: no PMU is needed.
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98

# dry MODEL FIXTURE EVENTS [ARGS]: pmc stat --dry-run -vv on MODEL's recorded tree, into $T/out.
dry() {
	local model=$1 tree=$2 evs=$3
	shift 3
	PMC_SYSFS_ROOT="$SRC/tests/data/sysfs/pmu-intel-$tree" PMC_PERF_CPU_MODEL=$model \
		"$PMC" stat --dry-run -vv "$@" -e "$evs" -- true >"$T/out" 2>"$T/err"
}

# --- the cpu PMU's format declares the term on each recorded Intel model (nhm_format_attr,
# hsw_format_attr: offcore_rsp and ldlat) ---
for t in nehalem sandybridge skylake icelake sapphirerapids; do
	expect_eq "$t: format/offcore_rsp" \
		"$(cat "$SRC/tests/data/sysfs/pmu-intel-$t/bus/event_source/devices/cpu/format/offcore_rsp")" \
		"config1:0-63"
done

# --- perf's term: config = event|umask, config1 = the matrix, on the command ---
dry intel-nehalem nehalem 'cpu/event=0xb7,umask=0x01,offcore_rsp=0x4001/'
expect_eq "nehalem: offcore_rsp= opens" "$?" 0
expect_eq "nehalem: offcore_rsp= goes to config1" "$(dry_calls "$T/out")" "- 4 0x1b7 0x4001 <command> -1"
dry intel-sapphirerapids sapphirerapids 'cpu/event=0x2a,umask=0x01,offcore_rsp=0x10003c0001/'
expect_eq "sapphirerapids: OCR (0x2a) with offcore_rsp=" "$(dry_calls "$T/out")" \
	"- 4 0x12a 0x10003c0001 <command> -1"

# --- libpfm4's names, where libpfm4 knows the CPU (here: the model the test names) ---
dry intel-nehalem nehalem OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM
expect_eq "nehalem: libpfm4's name opens" "$?" 0
expect_eq "nehalem: DMND_DATA_RD (bit 0) | LOCAL_DRAM (bit 14) in config1" "$(dry_calls "$T/out")" \
	"- 4 0x1b7 0x4001 <command> -1"
dry intel-skylake skylake OFFCORE_RESPONSE_1:DMND_DATA_RD:L3_MISS_LOCAL
expect_eq "skylake: OFFCORE_RESPONSE_1 is event 0x01bb" "$(dry_calls "$T/out")" \
	"- 4 0x1bb 0x3f84000001 <command> -1"
dry intel-nehalem nehalem OFFCORE_RESPONSE_1:DMND_DATA_RD:LOCAL_DRAM
expect_eq "nehalem: no OFFCORE_RESPONSE_1 (one register): usage error" "$?" 2
expect_grep "nehalem: no OFFCORE_RESPONSE_1: unknown" "unknown event 'OFFCORE_RESPONSE_1" "$T/err"

# --- Nehalem: one register, one matrix value per pass ---
dry intel-nehalem nehalem "OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM,cpu/event=0xb7,umask=0x01,offcore_rsp=0x2001/,cpu/event=0xb7,umask=0x01,offcore_rsp=0x4001/"
expect_eq "nehalem: two values, two passes; the same value shares one" "$(dry_calls "$T/out")" \
	"1/2 4 0x1b7 0x4001 <command> -1
1/2 4 0x1b7 0x4001 <command> -1
2/2 4 0x1b7 0x2001 <command> -1"
dry intel-nehalem nehalem "{OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM,OFFCORE_RESPONSE_0:DMND_DATA_RD:REMOTE_DRAM}"
expect_eq "nehalem: a group of two values is refused" "$?" 1
expect_grep "nehalem: says why" "needs more offcore response values at once than the 1 register a core has" "$T/err"
dry intel-nehalem nehalem "OFFCORE_RESPONSE_0:DMND_DATA_RD:LOCAL_DRAM,OFFCORE_RESPONSE_0:DMND_DATA_RD:REMOTE_DRAM" --multiplex
expect_eq "nehalem --multiplex: the kernel time-shares the register, one pass" \
	"$(grep -c '^# pass' "$T/out")" 0

# --- Sandy Bridge on: two registers (0x1a6, 0x1a7), any two values at once ---
SNB=OFFCORE_RESPONSE_0:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM,OFFCORE_RESPONSE_0:DMND_RFO:LLC_MISS_LOCAL_DRAM
dry intel-sandybridge sandybridge "$SNB"
expect_eq "sandybridge: two values of OFFCORE_RESPONSE_0 in one pass" "$(dry_calls "$T/out")" \
	"- 4 0x1b7 0x3f80400001 <command> -1
- 4 0x1b7 0x3f80400002 <command> -1"
dry intel-sandybridge sandybridge "$SNB,OFFCORE_RESPONSE_1:DMND_IFETCH:LLC_MISS_LOCAL_DRAM,OFFCORE_RESPONSE_1:DMND_DATA_RD:LLC_MISS_LOCAL_DRAM"
expect_eq "sandybridge: a third value, a second pass" "$(dry_calls "$T/out")" \
	"1/2 4 0x1b7 0x3f80400001 <command> -1
1/2 4 0x1b7 0x3f80400002 <command> -1
1/2 4 0x1bb 0x3f80400001 <command> -1
2/2 4 0x1bb 0x3f80400004 <command> -1"
dry intel-sandybridge sandybridge "{$SNB,OFFCORE_RESPONSE_1:DMND_IFETCH:LLC_MISS_LOCAL_DRAM}"
expect_eq "sandybridge: a group of three values is refused" "$?" 1
expect_grep "sandybridge: says why" "than the 2 registers a core has" "$T/err"
dry intel-sandybridge sandybridge "{$SNB}"
expect_eq "sandybridge: a group of two values opens" "$?" 0

# --- the same load-latency rule: a group of two thresholds can never be counted whole ---
dry intel-skylake skylake "{cpu/event=0xcd,umask=0x01,ldlat=32/,cpu/event=0xcd,umask=0x01,ldlat=128/}"
expect_eq "skylake: a group of two ldlat thresholds is refused" "$?" 1
expect_grep "skylake: says why" "needs more load-latency thresholds at once than the 1 register" "$T/err"

finish
