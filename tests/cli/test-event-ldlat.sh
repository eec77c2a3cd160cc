#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The load-latency threshold is a property of the event (perf's ldlat= term, config1 on
# Intel's cpu PMU; libpfm4's and vpmu's :ldlat=N), and a core has one threshold register: the
# planner puts events of different thresholds in different passes, on both backends, and
# each pass is counted with its own threshold (docs/events.md, "Load latency").
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98

LAT=MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD

# ---- vpmu: the Core i7 profiles' rows at 32 and 128 cycles ----
require_vpmu
"$PMC" stat --backend=vpmu -M count_mem_inst_retired_latency_above_threshold_32,count_mem_inst_retired_latency_above_threshold_128 \
	--plan true >"$T/plan" 2>&1
expect_eq "the two profile rows: two passes" "$(sed -n 's/^# pass plan: //p' "$T/plan")" "2 passes"
expect_eq "each pass with its own threshold" "$(grep -o 'ldlat=[0-9]*' "$T/plan" | tr '\n' ' ')" \
	"ldlat=32 ldlat=128 "
# Ground truth: vpmu-load walks 16 MiB (beyond the caches) a line at a time, so its loads
# come from memory at the model's --mem-latency (100 here): above 32 cycles every one, above
# 128 only those that also miss the DTLB (one per 4 KiB page at least: 4096).
PMC_VPMU_ARGS=--mem-latency=100 "$PMC" stat --backend=vpmu --no-warmup -x, \
	-e MEM_INST_RETIRED.LOADS,MEM_LOAD_RETIRED.LLC_MISS,$LAT:ldlat=32,$LAT:ldlat=128 \
	"$PROGS/vpmu-load" 1 2>"$T/lat"
expect_eq "vpmu: exit 0" $? 0
v() { awk -F, -v e="$1" '$3 == e { print $1 }' "$T/lat"; }
loads=$(v MEM_INST_RETIRED.LOADS) miss=$(v MEM_LOAD_RETIRED.LLC_MISS)
l32=$(v $LAT:ldlat=32) l128=$(v $LAT:ldlat=128)
echo "loads $loads llc-miss $miss above-32 $l32 above-128 $l128"
expect_eq "above 32 <= all loads" "$((l32 <= loads))" 1
expect_eq "above 32: every load from memory (>= LLC misses)" "$((l32 >= miss && miss > 200000))" 1
expect_eq "above 128 < above 32: the rows differ" "$((l128 < l32))" 1
expect_eq "above 128: the loads that also miss the DTLB (4096 pages and more, few)" \
	"$((l128 >= 4096 && l128 < miss / 10))" 1
expect_eq "the passes say their thresholds" "$(awk -F, '/ldlat=/ { print $3 "@" $8 }' "$T/lat" | tr '\n' ' ')" \
	"$LAT:ldlat=32@0 $LAT:ldlat=128@1 "
# The same threshold shares a pass; ldlat= elsewhere than the latency event is refused.
"$PMC" stat --backend=vpmu -e "$LAT:ldlat=32,vpmu/event=0x0b,umask=0x10,ldlat=32/" --plan true \
	>"$T/same" 2>&1
expect_eq "one threshold: one pass" "$(sed -n 's/^# pass plan: //p' "$T/same")" "1 pass"
"$PMC" stat --backend=vpmu -e MEM_INST_RETIRED.LOADS:ldlat=32 --plan true >/dev/null 2>"$T/bad"
expect_eq "ldlat= on another event: usage error" $? 2
expect_grep "ldlat= on another event: says where it applies" \
	"a load-latency threshold applies to MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD only" "$T/bad"

# pmc record: the sampled event's threshold is the model's too (one per recording).
for l in 32 128; do
	PMC_VPMU_ARGS=--mem-latency=100 "$PMC" record --backend=vpmu -e "$LAT:ldlat=$l" -c 1000 \
		-o "$T/r$l.data" "$PROGS/vpmu-load" 1 2>"$T/r$l.err"
done
n32=$(sed -n 's/.*wrote \([0-9]*\) samples.*/\1/p' "$T/r32.err")
n128=$(sed -n 's/.*wrote \([0-9]*\) samples.*/\1/p' "$T/r128.err")
expect_eq "record: one sample per 1000 loads above the event's threshold ($n32, $n128)" \
	"$((n32 >= 260 && n32 <= l32 / 1000 && n128 <= l128 / 1000 && n128 >= 4))" 1
PMC_VPMU_ARGS=--mem-latency=100 "$PMC" record --backend=vpmu -e "$LAT:ldlat=32,$LAT:ldlat=128" \
	-c 1000 -o "$T/r2.data" "$PROGS/vpmu-load" 1 >/dev/null 2>"$T/r2.err"
expect_eq "record: two thresholds in one recording are refused" "$(test $? -ne 0 && echo refused)" refused
expect_grep "record: says why" "the model has one load-latency threshold" "$T/r2.err"

# ---- perf: config1 per event, one threshold per pass (a recorded sysfs tree, --dry-run) ----
export PMC_SYSFS_ROOT="$SRC/tests/data/sysfs/fake-2s2c2t"
EVS='fakepmu/fake-mem-loads,ldlat=32/,fakepmu/fake-mem-loads,ldlat=128/,fakepmu/fake-loads/'
"$PMC" stat --dry-run -vv -e "$EVS" -- true >"$T/dry" 2>"$T/err"
expect_eq "perf --dry-run: exit 0" $? 0
expect_eq "perf: two passes" "$(grep -c '^# pass [12]/2$' "$T/dry")" 2
expect_eq "perf: config1 holds each event's threshold, pass by pass" \
	"$(awk '/^# pass/ { p = $3 } /config1/ { print p ":" $NF }' "$T/dry" | tr '\n' ' ')" \
	"1/2:0x20 2/2:0x80 "
"$PMC" stat --dry-run -vv --multiplex -e "$EVS" -- true >"$T/mux" 2>"$T/err"
expect_eq "perf --multiplex: the kernel time-shares the register, one pass" \
	"$(grep -c '^# pass' "$T/mux")" 0
unset PMC_SYSFS_ROOT

finish
