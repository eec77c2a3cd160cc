#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc validate --dry-run on other machines' CPUs: the perf backend counts each quantity a
# kernel predicts (loads, stores, conditional and taken branches, scalar and packed double
# operations) with the event data/validate/events.tsv names for the CPU model, given by
# PMC_PERF_CPU_MODEL with the model's recorded core PMU (PMC_SYSFS_ROOT); perf's generic
# events (instructions, branches) everywhere. The exact perf_event_open calls are printed and
# nothing is counted, so no PMU is needed (docs/accuracy.md, "Events per CPU").
. "$(dirname "$0")/lib.sh"

TABLE=$SRC/data/validate/events.tsv
QUANTITIES="loads stores branches-cond branches-taken fp-scalar-double fp-packed-double"
# field FILE NAME: the values of attr field NAME, one per block.
field() { awk -v n="$2" 'substr($0, 1, 35) == sprintf("  %-32s ", n) { print substr($0, 36) }' "$1"; }
# plan MODEL: pmc validate --dry-run -vv on MODEL's recorded core PMU, into $T/MODEL.
# Zen 1 and 2 have Zen 3's core PMU (the same format fields).
plan() {
	local tree=pmu-$1
	case $1 in amd-zen[12]) tree=pmu-amd-zen3 ;; esac
	PMC_SYSFS_ROOT="$SRC/tests/data/sysfs/$tree" PMC_PERF_CPU_MODEL=$1 \
		"$PMC" validate --dry-run -vv --kernel loop,inline,rep,fp >"$T/$1" 2>"$T/$1.err"
}
# has_config MODEL VALUE WHAT: a call of MODEL's plan has attr config VALUE.
has_config() { expect_grep "$3 ($2)" "^  config +$2\$" "$T/$1"; }

# --- the table: three fields a row, a known model, every quantity a kernel predicts ---
expect_eq "events.tsv: three tab-separated fields a row" \
	"$(grep -v '^#' "$TABLE" | awk -F'\t' 'NF != 3' | head -3)" ""
expect_eq "events.tsv: models the perf backend names (or vpmu, '*')" \
	"$(grep -v '^#' "$TABLE" | cut -f2 | sort -u | grep -vxE 'vpmu|\*|intel-(nehalem|sandybridge|skylake|icelake|sapphirerapids)|amd-zen[1-5]')" ""
for q in $QUANTITIES; do
	expect_eq "events.tsv: $q for vpmu" "$(awk -F'\t' -v q=$q '$1 == q && $2 == "vpmu"' "$TABLE" | wc -l)" 1
done

# --- each model: every quantity planned with a real encoding, none unsupported ---
for m in amd-zen1 amd-zen2 amd-zen3 amd-zen4 amd-zen5 intel-skylake intel-icelake intel-sapphirerapids intel-nehalem intel-sandybridge; do
	plan $m
	expect_eq "$m: validate --dry-run exits 0" "$?" 0
	for q in $QUANTITIES; do
		if [[ $m =~ ^(intel-sandybridge|amd-zen[123])$ ]] && [ "${q#fp-}" != "$q" ]; then
			# Sandy Bridge to Broadwell share the model, and Haswell has no FP event; Zen 1 to 3
			# count FLOPs, not operations by width
			expect_grep "$m: $q has no event, said so" \
				"^# $q: unsupported: no event for $q on this CPU \\($m\\)$" "$T/$m"
			continue
		fi
		expect_grep "$m: $q counted with a cpu-PMU encoding" "^# $q: cpu/event=0x" "$T/$m"
	done
	expect_no_grep "$m: nothing refused while planning" 'is not opened|unsupported: [^n]' "$T/$m"
	expect_grep "$m: instructions, perf's generic event" '^# instructions$' "$T/$m"
	expect_grep "$m: a call per event, on the kernel" '^sys_perf_event_open: pid <command>' "$T/$m"
	expect_eq "$m: the cpu PMU's type on the raw events" \
		"$(field "$T/$m" type | sort -u | grep -c '^4$')" 1
done

# --- every perf row of the table was planned on its model, as written ---
expect_eq "events.tsv: every perf row planned" "$(grep -v '^#' "$TABLE" | awk -F'\t' '$2 != "vpmu"' |
	while IFS=$'\t' read -r q m ev; do
		grep -qxF "# $q: $ev" "$T/$m" || echo "$q $m $ev"
	done)" ""

# --- the encodings, each the vendor's event|umask<<8 on the model's format ---
has_config amd-zen3 0xd1 "zen3 conditional branches: ex_ret_cond 0xd1"
has_config amd-zen4 0x129 "zen4 loads: ls_dispatch.ld_dispatch 0x29/0x01"
has_config amd-zen4 0xd1 "zen4 conditional branches: ex_ret_cond 0xd1"
has_config amd-zen5 0x808 "zen5 packed double: fp_ops_retired_by_width 0x08/0x08"
has_config intel-skylake 0x81d0 "skylake loads: MEM_INST_RETIRED.ALL_LOADS 0xd0/0x81"
has_config intel-icelake 0x11c4 "icelake conditional branches: BR_INST_RETIRED.COND 0xc4/0x11"
has_config intel-sapphirerapids 0x1c7 "sapphirerapids scalar double: FP_ARITH_INST_RETIRED 0xc7/0x01"
has_config intel-nehalem 0x10b "nehalem loads: MEM_INST_RETIRED.LOADS 0x0b/0x01"
has_config intel-nehalem 0x8c7 "nehalem scalar double: SSEX_UOPS_RETIRED.SCALAR_DOUBLE 0xc7/0x08"
has_config intel-sandybridge 0x82d0 "sandybridge stores: MEM_UOPS_RETIRED.ALL_STORES 0xd0/0x82"

# --- a CPU pmc has no row for: the quantity's row says so, not a refusal of an event ---
PMC_SYSFS_ROOT="$SRC/tests/data/sysfs/pmu-intel-skylake" PMC_PERF_CPU_MODEL=none \
	"$PMC" validate --dry-run --kernel loop >"$T/unknown" 2>&1
expect_eq "unknown model: exits 0" "$?" 0
expect_grep "unknown model: loads said as no event" \
	'^# loads: unsupported: no event for loads on this CPU \(a model pmc does not know\)$' "$T/unknown"
expect_grep "unknown model: branches still planned" '^# branches$' "$T/unknown"

# --- -e takes the quantity, and the event it resolved to ---
PMC_SYSFS_ROOT="$SRC/tests/data/sysfs/pmu-amd-zen4" PMC_PERF_CPU_MODEL=amd-zen4 \
	"$PMC" validate --dry-run --kernel loop -e loads >"$T/one" 2>&1
expect_grep "-e loads: the loads row" '^# loads: cpu/event=0x29,umask=0x01,name=ls_dispatch.ld_dispatch/$' "$T/one"
expect_no_grep "-e loads: no other quantity" '^# (stores|branches)' "$T/one"
finish
