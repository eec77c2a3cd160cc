#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# perf script and perf report read every kind of file pmc record writes, whole: counting
# events, tracepoints (their formats are the file's TRACING_DATA feature; without it perf script
# fails with "broken or missing trace data"), -g, --call-graph=dwarf, -b, and the vpmu backend.
# Each file's samples are all there: as many as pmc record wrote, N for N system calls.
# pmc record has no -z (compressed records are what pmc reads of perf's files,
# test-report-zstd.sh), so there is no compressed file of pmc's to check.
. "$(dirname "$0")/lib.sh"

command -v perf >/dev/null || { fail "perf is not installed: scripts/setup.sh --test installs it"; finish; exit; }
require_vpmu
G="$PROGS/getppid-loop"

# record NAME ARGS...: pmc record -o $T/NAME.data ARGS; its summary line in $T/NAME.log.
record() {
	local n=$1
	shift
	"$PMC" record -o "$T/$n.data" "$@" 2>"$T/$n.log"
	expect_eq "$n: pmc record exits 0" $? 0
}
# nr_samples NAME: the sample count of pmc record's summary line.
nr_samples() { sed -n 's/.*wrote \([0-9]*\) samples.*/\1/p' "$T/$1.log"; }
# perf_reads NAME EVENT N [SCRIPT-OPTIONS...]: perf script (into $T/NAME.script) and perf
# report read the file without a word on stderr, and both see its N samples of EVENT.
perf_reads() {
	local n=$1 ev=$2 nr=$3
	shift 3
	perf script -i "$T/$n.data" "$@" >"$T/$n.script" 2>"$T/$n.serr"
	expect_eq "$n: perf script exits 0" $? 0
	expect_eq "$n: perf script says nothing on stderr" "$(cat "$T/$n.serr")" ""
	perf report -i "$T/$n.data" --stdio >"$T/$n.report" 2>"$T/$n.rerr"
	expect_eq "$n: perf report exits 0" $? 0
	expect_grep "$n: perf report reads all $nr samples of $ev" "^# Samples: $nr +of event '$ev'$" \
		"$T/$n.report"
}
# count NAME PATTERN: the lines of perf script's output that match.
count() { grep -cE -- "$2" "$T/$1.script"; }

# Tracepoints: N calls, N samples, each decoded by the format pmc wrote.
TP=syscalls:sys_enter_getppid
record tp -e $TP -- "$G" 7
perf_reads tp $TP 7
expect_eq "tp: perf script prints the 7 calls" "$(count tp " $TP: *$")" 7
expect_grep "tp: perf report sorts by the trace fields" "Trace output" "$T/tp.report"

# Fields decoded from the raw data by the format: fd, buf and count of each write(2).
record wr -e syscalls:sys_enter_write -- "$PROGS/write-loop" 5
perf_reads wr syscalls:sys_enter_write 5
expect_eq "wr: perf script decodes the fields of the 5 writes" \
	"$(count wr "syscalls:sys_enter_write: fd: 0x[0-9a-f]+, buf: 0x[0-9a-f]+, count: 0x00000001$")" 5

# Two subsystems and an event recorded twice: one format each, every sample named.
record two -e $TP -e syscalls:sys_exit_getppid -e $TP -e sched:sched_process_exit -- "$G" 3
perf_reads two syscalls:sys_exit_getppid 3
expect_eq "two: perf script names both getppid tracepoints" \
	"$(count two " syscalls:sys_(enter|exit)_getppid: ")" 9
expect_eq "two: perf script decodes sched_process_exit" \
	"$(count two " sched:sched_process_exit: comm=getppid-loop pid=[0-9]+ prio=[0-9]+")" 1

# Call chains: by frame pointer (the kernel's, up from syscall) and by DWARF (perf unwinds
# the copied stack up to main).
record tpg -g -e $TP -- "$G" 7
perf_reads tpg $TP 7 -F ip,sym
expect_eq "tpg: 7 call chains from syscall" "$(count tpg "^[[:space:]]+[0-9a-f]+ syscall$")" 7
record tpd --call-graph=dwarf -e $TP -- "$G" 7
perf_reads tpd $TP 7 -F ip,sym
expect_eq "tpd: 7 unwound call chains through main" "$(count tpd "^[[:space:]]+[0-9a-f]+ main$")" 7

# A software event sampled in time: every sample pmc wrote, with and without call chains.
for kind in "tc" "tcg -g" "tcd --call-graph=dwarf"; do
	set -- $kind
	record "$@" -e task-clock -c 100000 -- "$G" 300000
	n=$(nr_samples "$1")
	expect_eq "$1: pmc record wrote samples" "$([ "${n:-0}" -gt 0 ] && echo yes)" yes
	perf_reads "$1" task-clock "$n" -F event
	expect_eq "$1: perf script prints all $n samples" "$(count "$1" "^task-clock:")" "$n"
done

# -b on the perf backend needs a PMU with a branch stack (a hardware event's).
if [ "$("$PMC" doctor --json | json /dev/stdin '[c["ok"] for c in j["checks"] if c["check"] == "hardware PMU"][0]')" = True ]; then
	record b -b -e cycles -- "$G" 300000
	perf_reads b cycles "$(nr_samples b)" -F brstack
	expect_grep "b: perf script prints branch stacks" "^ *0x[0-9a-f]+/0x[0-9a-f]+/" "$T/b.script"
else
	skip_part no-pmu "no hardware PMU: -b on the perf backend is not checked (vpmu's is, below)"
fi

# vpmu: exact samples, with call chains, branch stacks, data addresses, weights and registers.
V="$PROGS/vpmu-loop"
for kind in "v" "vg -g" "vd --call-graph=dwarf" "vb -b"; do
	set -- $kind
	record "$@" --backend=vpmu -e instructions -c 100000 -- "$V" loop 3000000
	n=$(nr_samples "$1")
	expect_eq "$1: about 12 M instructions / 100000 samples" \
		"$([ "${n:-0}" -ge 115 ] && [ "$n" -le 130 ] && echo yes)" yes
	perf_reads "$1" instructions "$n" -F event,ip,sym
	expect_eq "$1: perf script prints all $n samples" "$(count "$1" "^ *instructions:")" "$n"
done
expect_grep "vg: call chains" "^[[:space:]]+[0-9a-f]+ main$" "$T/vg.script"
expect_grep "vd: unwound call chains" "^[[:space:]]+[0-9a-f]+ main$" "$T/vd.script"
perf script -i "$T/vb.data" -F brstack >"$T/vb.br" 2>&1
expect_eq "vb: perf script prints a branch stack for each sample" \
	"$(grep -cE '^ *0x[0-9a-f]+/0x[0-9a-f]+/' "$T/vb.br")" "$(nr_samples vb)"
EV=MEM_INST_RETIRED.LATENCY_ABOVE_THRESHOLD
record vm --backend=vpmu -e $EV:pp -c 1009 -d -W --data-src --intr-regs=ax,di,ip -b -- \
	"$PROGS/vpmu-load" 1
n=$(nr_samples vm)
perf_reads vm "$EV:pp" "$n" -F ip,sym,addr,iregs
expect_eq "vm: perf script prints all $n samples with their registers" \
	"$(count vm " ABI:2 +AX:0x[0-9a-f]+ +DI:0x[0-9a-f]+ +IP:0x[0-9a-f]+")" "$n"

finish
