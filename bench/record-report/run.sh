#!/bin/bash
# SPDX-License-Identifier: MIT
# pmc report vs perf report --stdio on the same large files (plain, call chains by symbol and
# by source line, DWARF), CPU-time medians of R interleaved runs (R=5 by default); and pmc
# record vs perf record overhead at two frequencies, medians of N interleaved runs (N=7).
# Writes RESULTS.md beside this script. Usage: bench/record-report/run.sh [BUILD_DIR]
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
B=${1:-$SRC/build-bench}
HERE=$SRC/bench/record-report
T=$(mktemp -d)
# Only the script's own shell cleans up: a background job killed before its exec is a
# copy of this shell that would run the trap too (and delete the folder under the test).
trap '[ "$BASHPID" = "$$" ] && rm -rf "$T"' EXIT
cmake -S "$SRC" -B "$B" -DCMAKE_BUILD_TYPE=Release -DPMC_SANITIZE=OFF -DBUILD_TESTING=ON >/dev/null
cmake --build "$B" -j"$(nproc)" --target pmc_cli pmc_static sample-split sample-deep >/dev/null
PMC=$B/pmc PROG=$B/progs/sample-split
gcc -O2 -D_GNU_SOURCE -I"$SRC/include" -I"$SRC/lib" "$HERE/mkbig.c" "$B/lib/libpmc_static.a" \
	-ldw -lelf -lcapstone -ljansson -lpfm -lm -o "$T/mkbig"

now() { date +%s.%N; }
timeit() { local t0 t1; t0=$(now); "$@" >/dev/null 2>&1; t1=$(now); echo "$t1 - $t0" | bc -l; }
nsamples() { "$PMC" report -i "$1" -F json | awk -F'[:,]' '/"samples"/ { gsub(/ /, "", $2); print $2; exit }'; }

# Large files: a recording with and without call chains, its samples repeated.
"$PMC" record -q -F 10000 -g -o "$T/g1.data" -- "$PROG" 1500 >/dev/null
"$PMC" record -q -F 10000 -o "$T/p1.data" -- "$PROG" 1500 >/dev/null
ng=$(nsamples "$T/g1.data"); np=$(nsamples "$T/p1.data")
"$T/mkbig" "$T/g1.data" "$T/g.data" $(( 1000000 / ng + 1 ))
"$T/mkbig" "$T/p1.data" "$T/p.data" $(( 3000000 / np + 1 ))
NG=$(nsamples "$T/g.data"); NP=$(nsamples "$T/p.data")

# perf report --sort srcline can take many minutes (addr2line); it is cut at LIMIT seconds.
# Each row runs both reports R times in turn (R=5 by default) and gives the medians of their
# CPU time (task-clock: user + system), which a shared VM's other jobs disturb far less than
# wall time.
LIMIT=${LIMIT:-300} R=${R:-5}
cpu() { # CMD...: CPU seconds of CMD
	perf stat -x, -e task-clock -o "$T/stat" -- "$@" >/dev/null 2>&1
	awk -F, '/task-clock/ { printf "%.4f\n", $1 / 1000 }' "$T/stat"
}
row() { # label file pmc-args perf-args
	local tp tf i
	: >"$T/rp"; : >"$T/rf"
	for i in $(seq "$R"); do
		cpu "$PMC" report -i "$2" $3 >>"$T/rp"
		cpu timeout "$LIMIT" perf report -i "$2" --stdio $4 >>"$T/rf"
	done
	tp=$(med "$T/rp"); tf=$(med "$T/rf")
	top_p=$("$PMC" report -i "$2" $3 --no-callers | grep -m1 '%' | awk '{print $NF}')
	top_f=$(timeout "$LIMIT" perf report -i "$2" --stdio $4 2>/dev/null | grep -v '^#' |
		grep -m1 '%' | awk '{print $NF}')
	local mark=""
	[ "$(echo "$tf >= $LIMIT - 1" | bc)" = 1 ] && mark=" (cut at ${LIMIT} s)"
	printf '| %s | %.3f s | %.3f s%s | %.1f× | %s / %s |\n' "$1" "$tp" "$tf" "$mark" \
		"$(echo "$tf / $tp" | bc -l)" "$top_p" "${top_f:-?}"
}
# med FILE [COLUMN]: the median of a column.
med() { sort -g -k"${2:-1},${2:-1}" "$1" | awk -v c="${2:-1}" '{ v[NR] = $c }
	END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

{
echo "# pmc record / pmc report vs perf ($(uname -r), $(nproc) CPUs, perf $(perf --version | awk '{print $3}'))"
echo
echo "Reports: CPU time (task-clock), medians of $R interleaved runs, by bench/record-report/run.sh."
echo "Files are a real recording of tests/progs/sample-split repeated to size (side-band once,"
echo "samples K times, each repeat later in time with its FINISHED_ROUNDs, so both reports sort"
echo "them as one long recording)."
echo
echo "| report | pmc CPU | perf --stdio CPU | perf/pmc | top entry pmc / perf |"
echo "|---|---|---|---|---|"
row "plain, $NP samples, by symbol" "$T/p.data" "-s symbol" "--no-children --sort sym"
row "call chains, $NG samples, by symbol" "$T/g.data" "-s symbol" "--no-children --sort sym"
# A tenth of the call-chain file for source lines, so that perf has a chance to finish.
"$T/mkbig" "$T/g1.data" "$T/g10.data" $(( 100000 / ng + 1 )); NG10=$(nsamples "$T/g10.data")
row "call chains, $NG10 samples, by srcline" "$T/g10.data" "-s srcline" "--no-children --sort srcline"
# DWARF call chains: a real recording (8 KiB stack copies), unwound by both reports.
"$PMC" record -q -F 10000 --call-graph dwarf -o "$T/d.data" -- "$B/progs/sample-deep" 3000 >/dev/null
ND=$(nsamples "$T/d.data")
row "DWARF unwinding, $ND samples, by symbol" "$T/d.data" "-s symbol" "--no-children --sort sym"
row "DWARF unwinding, $ND samples, children" "$T/d.data" "-s symbol --children" "--children --sort sym"
echo
# Record overhead, measured so that it rises above this VM's noise: N rounds, each running
# the workload alone and under both tools at two rates (and both tools on `true`) in turn, so
# that drift in the machine's load hits every configuration alike; medians over the rounds.
# The per-sample cost is the slope between the two rates: (t(F2) - t(F1)) / (n(F2) - n(F1)),
# which cancels the fixed cost and whatever the workload costs at any rate. It is given for
# wall time (what the workload loses) and for CPU time (user+sys of the whole record
# command: the kernel writing samples, charged to the workload, plus the tool draining them).
N=${N:-7} F1=${F1:-4000} F2=${F2:-20000} WL=${WL:-500}
# tcmd OUT-PREFIX CMD...: appends "wall cpu" of CMD to OUT-PREFIX.t
tcmd() {
	local out=$1
	shift
	/usr/bin/time -f "%e %U %S" -o "$T/time" "$@" >/dev/null 2>&1
	awk '{ print $1, $2 + $3 }' "$T/time" >> "$out.t"
}
for i in $(seq "$N"); do
	tcmd "$T/alone" "$PROG" "$WL"
	for F in "$F1" "$F2"; do
		tcmd "$T/pmc$F" "$PMC" record -q -F "$F" -g -o "$T/r.data" -- "$PROG" "$WL"
		nsamples "$T/r.data" >> "$T/pmc$F.n"
		tcmd "$T/perf$F" perf record -q -F "$F" -g -o "$T/f.data" -- "$PROG" "$WL"
		nsamples "$T/f.data" >> "$T/perf$F.n"
	done
	tcmd "$T/pmctrue" "$PMC" record -q -F "$F1" -g -o "$T/r.data" -- true
	tcmd "$T/perftrue" perf record -q -F "$F1" -g -o "$T/f.data" -- true
done
slope() { # tool column: µs per sample between F1 and F2
	echo "($(med "$T/$1$F2.t" "$2") - $(med "$T/$1$F1.t" "$2")) / ($(med "$T/$1$F2.n") - $(med "$T/$1$F1.n")) * 1000000" | bc -l
}
echo "Record overhead: medians of $N interleaved rounds, \`-g\`, workload \`sample-split $WL\`"
echo "alone: $(med "$T/alone.t" 1) s wall, $(med "$T/alone.t" 2) s CPU."
echo
echo "| record | pmc | perf |"
echo "|---|---|---|"
for F in "$F1" "$F2"; do
	printf '| -F %s: wall / CPU (samples) | %.3f s / %.3f s (%s) | %.3f s / %.3f s (%s) |\n' "$F" \
		"$(med "$T/pmc$F.t" 1)" "$(med "$T/pmc$F.t" 2)" "$(med "$T/pmc$F.n")" \
		"$(med "$T/perf$F.t" 1)" "$(med "$T/perf$F.t" 2)" "$(med "$T/perf$F.n")"
done
printf '| per-sample cost, wall (slope %s→%s) | %.1f µs | %.1f µs |\n' "$F1" "$F2" \
	"$(slope pmc 1)" "$(slope perf 1)"
printf '| per-sample cost, CPU (slope %s→%s) | %.1f µs | %.1f µs |\n' "$F1" "$F2" \
	"$(slope pmc 2)" "$(slope perf 2)"
printf '| fixed cost, wall / CPU (record -- true) | %.3f s / %.3f s | %.3f s / %.3f s |\n' \
	"$(med "$T/pmctrue.t" 1)" "$(med "$T/pmctrue.t" 2)" \
	"$(med "$T/perftrue.t" 1)" "$(med "$T/perftrue.t" 2)"
} > "$HERE/RESULTS.md"
cat "$HERE/RESULTS.md"
