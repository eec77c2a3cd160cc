#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc report of several files (docs/mpi.md, "pmc record in a rank"): 4 Open MPI ranks each
# record every getppid call of region-ranks, rank r making (r+1)*1000; -s rank gives the exact
# per-rank split, shared keys sum over the files, and a file of other events is refused.
. "$(dirname "$0")/lib.sh"

TP=syscalls:sys_enter_getppid
[ -r /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id ] ||
	[ -r /sys/kernel/debug/tracing/events/syscalls/sys_enter_getppid/id ] ||
	skip "no syscalls tracepoints (tracefs not mounted or no CONFIG_FTRACE_SYSCALLS)"
command -v mpirun >/dev/null || skip_cap no-openmpi "mpirun not found (scripts/setup.sh --test installs Open MPI)"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

# One sample per call (a tracepoint's default, period 1): each rank's file holds exactly its
# calls, all in libc's syscall() (a sanitizer's runtime makes getppid calls of its own, in its
# own function). With -F 4000 (the old default) the kernel adapts the period over a few
# samples: the rank view gave rank 0 about 9,079 and rank 1 about 8,076 for 1,000 and 2,000.
(cd "$T" && timeout -k 5 60 mpirun -n 4 --oversubscribe \
	"$PMC" record -q -e $TP -- "$PROGS/region-ranks" >/dev/null 2>"$T/rec.err")
expect_eq "4 ranks recorded, one file each" "$?:$(cd "$T" && ls perf.data.rank-* | tr '\n' ' ')" \
	"0:perf.data.rank-0 perf.data.rank-1 perf.data.rank-2 perf.data.rank-3 "
rows() { grep ' syscall$' | awk '{print $2, $3, $(NF-2)}'; }
(cd "$T" && "$PMC" report --no-callers -s rank,symbol perf.data.rank-*) >"$T/rank.txt"
expect_eq "-s rank,symbol: the exact per-rank split" "$(rows <"$T/rank.txt" | tr '\n' ' ')" \
	"4000 4000 3 3000 3000 2 2000 2000 1 1000 1000 0 "
expect_grep "the header names every file" \
	"^# pmc report of perf.data.rank-0, perf.data.rank-1, perf.data.rank-2, perf.data.rank-3: " "$T/rank.txt"
# -i repeated and operands mixed, in another order: the rank comes from the name.
(cd "$T" && "$PMC" report -F csv -s rank,symbol -i perf.data.rank-2 perf.data.rank-0 \
	-i perf.data.rank-3 perf.data.rank-1) >"$T/rank.csv"
expect_eq "-i and operands, files in any order: CSV rows" \
	"$(cut -d, -f4-7 "$T/rank.csv" | grep -v sanitizer | tr '\n' ' ')" \
	'samples,period,rank,symbol 4000,4000,"3","[.] syscall" 3000,3000,"2","[.] syscall" 2000,2000,"1","[.] syscall" 1000,1000,"0","[.] syscall" '
(cd "$T" && "$PMC" report --no-callers -s symbol perf.data.rank-*) >"$T/sym.txt"
expect_eq "shared keys: periods summed over the files" "$(grep ' syscall$' "$T/sym.txt" | awk '{print $2, $3}')" "10000 10000"
expect_grep "every call sampled: the exact count over the files" \
	"^# event '$TP': [0-9]+ samples, count [0-9]+ \(period 1: every event was sampled\)$" "$T/rank.txt"
# -F 4000: each rank's rows give an interval that holds its calls, or no estimate.
mkdir "$T/F" && (cd "$T/F" && timeout -k 5 60 mpirun -n 2 --oversubscribe \
	"$PMC" record -q -F 4000 -e $TP -- "$PROGS/region-ranks" >/dev/null 2>"$T/recF.err")
(cd "$T/F" && "$PMC" report --no-callers -s rank,symbol perf.data.rank-*) >"$T/F.txt"
awk '/ syscall$/ { r = $(NF - 2); n = (r + 1) * 1000
	if ($4 == "no") print r, "no estimate"
	else { gsub(/[][,]/, "", $4); gsub(/[][,]/, "", $5); print r, ($4 <= n && n <= $5) ? "holds" : "excludes " n }
}' "$T/F.txt" >"$T/F.rows"
expect_eq "-F 4000: no rank's interval excludes its calls" "$(grep -c excludes "$T/F.rows"):$(wc -l <"$T/F.rows")" "0:2"
expect_grep "-F 4000: the header says why there is no estimate, or gives one" \
	"^# event '$TP': [0-9]+ samples, (estimated count|sum of sample periods [0-9]+, no estimate: )" "$T/F.txt"
# Without rank-N in the name, a file's rank is its place on the command line.
cp "$T/perf.data.rank-3" "$T/a.data"
cp "$T/perf.data.rank-0" "$T/b.data"
"$PMC" report --no-callers -s rank,symbol "$T/a.data" "$T/b.data" >"$T/pos.txt"
expect_eq "no rank in the name: the place among the files" "$(rows <"$T/pos.txt" | tr '\n' ' ')" \
	"4000 4000 0 1000 1000 1 "
"$PMC" record -q -e task-clock -o "$T/other.data" -- true 2>/dev/null
"$PMC" report "$T/a.data" "$T/other.data" >/dev/null 2>"$T/other.err"
expect_eq "a file of other events: refused" $? 1
expect_grep "a file of other events: named, with the event" \
	"cannot add .*other\.data: its events differ from the first file's \(event 1 is 'task-clock', not '$TP'\)" "$T/other.err"
"$PMC" report -s rank,nosuch "$T/a.data" >/dev/null 2>"$T/key.err"
expect_eq "an unknown key: usage error" $? 2
expect_grep "the known keys list rank" "known: .* tid rank daddr" "$T/key.err"
finish
