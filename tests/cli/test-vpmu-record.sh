#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc record --backend=vpmu: a command sampled under the vpmu tool gives a perf.data file
# that pmc report and perf both read; precise samples name the exact load, imprecise ones
# land --skid instructions later; data addresses, weights, data sources, registers and the
# last-branch record reach the file.
. "$(dirname "$0")/lib.sh"

require_vpmu
L="$PROGS/vpmu-load"
[ -x "$L" ] && [ -x "$PROGS/vpmu-loop" ] || skip "the vpmu workloads are not built"

# record OUT ARGS...: pmc record --backend=vpmu, its summary line kept in OUT.log.
record() { local out=$1; shift; "$PMC" record --backend=vpmu -o "$out" "$@" 2>"$out.log"; }
# nr_samples OUT: the sample count of pmc record's summary line.
nr_samples() { sed -n 's/.*wrote \([0-9]*\) samples.*/\1/p' "$1.log"; }

if ! record "$T/probe.data" -e instructions -c 100000 "$PROGS/vpmu-loop" loop 10; then
	grep -q "cannot hand the command to the backend" "$T/probe.data.log" &&
		skip "this build's recorder cannot hand the command to the vpmu backend"
	fail "pmc record --backend=vpmu: $(cat "$T/probe.data.log")"
fi

# Instructions over a loop of 4 instructions: the hot function, the same count in perf.
record "$T/loop.data" -e instructions -c 100000 "$PROGS/vpmu-loop" loop 3000000
expect_eq "record exits 0" $? 0
n=$(nr_samples "$T/loop.data")
expect_eq "about 12 M instructions / 100000 samples" "$([ "${n:-0}" -ge 115 ] && [ "$n" -le 130 ] && echo yes)" yes
"$PMC" report -i "$T/loop.data" >"$T/loop.rep" 2>&1
expect_grep "pmc report: the hot function" "^ +9[0-9]\.[0-9]+% +[0-9]+ +[0-9]+ +\[[0-9]+, [0-9]+\] +\[\.\] loop$" "$T/loop.rep"
if command -v perf >/dev/null; then
	perf script -i "$T/loop.data" >"$T/loop.script" 2>"$T/perf.err"
	expect_eq "perf script reads the file" $? 0
	expect_eq "perf script: same number of samples" "$(grep -c ' instructions: ' "$T/loop.script")" "$n"
	perf report -i "$T/loop.data" --stdio >"$T/loop.perf" 2>>"$T/perf.err"
	expect_grep "perf report: the hot function" "vpmu-loop +\[\.\] loop" "$T/loop.perf"
	expect_grep "perf report: all samples" "^# Samples: $n " "$T/loop.perf"
fi

# Precise load samples with data address, latency, data source, registers and LBR.
EV=MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD
record "$T/p.data" -e $EV:pp -c 1009 -d -W --data-src --intr-regs=ax,di,ip -b "$L" 1
"$PMC" report -i "$T/p.data" --sort ip >"$T/p.ip" 2>&1
expect_grep "precise: the load's ip" "^ +[0-9.]+% +[0-9]+ +[0-9]+ +\[[0-9]+, [0-9]+\] +vpmu_walk\+0x0 \(vpmu-load\)" "$T/p.ip"
expect_no_grep "precise: no other ip in vpmu_walk" "vpmu_walk\+0x[1-9a-f]" "$T/p.ip"
"$PMC" report -i "$T/p.data" --sort dsrc,weight >"$T/p.mem" 2>&1
expect_grep "data source and weight: loads from memory" "^ +[5-9][0-9]\.[0-9]+% .* Local RAM hit +200$" "$T/p.mem"
"$PMC" report -i "$T/p.data" --sort daddr >"$T/p.daddr" 2>&1
expect_grep "data addresses in the report" "^ +[0-9.]+% +[0-9]+ +[0-9]+ +\[[0-9]+, [0-9]+\] +0x[0-9a-f]{16}$" "$T/p.daddr"
if command -v perf >/dev/null && command -v nm >/dev/null; then
	perf script -i "$T/p.data" -F ip,sym,addr,iregs >"$T/p.script" 2>>"$T/perf.err"
	expect_eq "perf script: same number of samples" "$(wc -l <"$T/p.script")" "$(nr_samples "$T/p.data")"
	# The runtime address of vpmu_array: its file address moved as vpmu_walk's was.
	walk=$(nm "$L" | awk '$3 == "vpmu_walk" { print $1 }')
	arr=$(nm "$L" | awk '$3 == "vpmu_array" { print $1 }')
	python3 - "$T/p.script" "$walk" "$arr" >"$T/p.check" <<'PY'
import sys
walk, arr = int(sys.argv[2], 16), int(sys.argv[3], 16)
rows = [l.split() for l in open(sys.argv[1]) if " vpmu_walk " in l]
base = int(rows[0][1], 16) - walk
bad = [r for r in rows if int(r[1], 16) != base + walk or r[0] != r[5].split(":")[1][2:]
       or not base + arr <= int(r[0], 16) < base + arr + (16 << 20)]
print(len(rows) > 200, len(bad))
PY
	expect_eq "every vpmu_walk sample: ip, addr = DI inside vpmu_array" "$(cat "$T/p.check")" "True 0"
	perf script -i "$T/p.data" -F brstacksym >"$T/p.br" 2>>"$T/perf.err"
	expect_grep "LBR: the loop's branch on top" "^ *vpmu_walk\+0xa/vpmu_walk\+0x0/P/" "$T/p.br"
	expect_eq "LBR: 16 entries" \
		"$(grep -m1 '^ *vpmu_walk+0xa/' "$T/p.br" | grep -o '/[PM]/' | wc -l)" 16
fi

# Imprecise samples land --skid instructions after the load (mov, add, dec: +0x7).
PMC_VPMU_ARGS=--skid=2 record "$T/i.data" -e $EV -c 1009 "$L" 1
"$PMC" report -i "$T/i.data" --sort ip >"$T/i.ip" 2>&1
expect_grep "imprecise: two instructions later" "^ +[0-9.]+% +[0-9]+ +[0-9]+ +\[[0-9]+, [0-9]+\] +vpmu_walk\+0x7 \(vpmu-load\)" "$T/i.ip"
expect_no_grep "imprecise: not at the load" "vpmu_walk\+0x0 " "$T/i.ip"

finish
