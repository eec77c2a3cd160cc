#!/bin/bash
# SPDX-License-Identifier: MIT
# pmc report vs perf report --stdio on the same large files (plain, call chains by symbol and
# by source line), and pmc record vs perf record overhead at the same frequency; one run each.
# Writes RESULTS.md beside this script. Usage: bench/record-report/run.sh [BUILD_DIR]
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
B=${1:-$SRC/build-bench}
HERE=$SRC/bench/record-report
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
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
LIMIT=${LIMIT:-300}
row() { # label file pmc-args perf-args
	local tp tf
	tp=$(timeit "$PMC" report -i "$2" $3)
	tf=$(timeit timeout "$LIMIT" perf report -i "$2" --stdio $4)
	top_p=$("$PMC" report -i "$2" $3 --no-callers | grep -m1 '%' | awk '{print $NF}')
	top_f=$(timeout "$LIMIT" perf report -i "$2" --stdio $4 2>/dev/null | grep -v '^#' |
		grep -m1 '%' | awk '{print $NF}')
	local mark=""
	[ "$(echo "$tf >= $LIMIT - 1" | bc)" = 1 ] && mark=" (cut at ${LIMIT} s)"
	printf '| %s | %.2f s | %.2f s%s | %.1f× | %s / %s |\n' "$1" "$tp" "$tf" "$mark" \
		"$(echo "$tf / $tp" | bc -l)" "$top_p" "${top_f:-?}"
}

{
echo "# pmc record / pmc report vs perf ($(uname -r), $(nproc) CPUs, perf $(perf --version | awk '{print $3}'))"
echo
echo "One run each, by bench/record-report/run.sh. Files are a real recording of"
echo "tests/progs/sample-split repeated to size (side-band once, samples K times)."
echo
echo "| report | pmc | perf --stdio | perf/pmc | top entry pmc / perf |"
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
# Record: fixed cost (a command that does nothing) and per-sample cost to the target.
base=$(timeit "$PROG" 1500)
pf=$(timeit "$PMC" record -q -F 4000 -o "$T/r.data" -- true)
ff=$(timeit perf record -q -F 4000 -o "$T/f.data" -- true)
pr=$(timeit "$PMC" record -q -F 4000 -g -o "$T/r.data" -- "$PROG" 1500); prn=$(nsamples "$T/r.data")
fr=$(timeit perf record -q -F 4000 -g -o "$T/f.data" -- "$PROG" 1500)
frn=$(perf script -i "$T/f.data" -F tid,period 2>/dev/null | wc -l)
echo "| record (-F 4000 -g) | pmc | perf |"
echo "|---|---|---|"
printf '| fixed cost (record -- true) | %.3f s | %.3f s |\n' "$pf" "$ff"
printf '| workload alone %.2f s; under record | %.2f s (%s samples) | %.2f s (%s samples) |\n' \
	"$base" "$pr" "$prn" "$fr" "$frn"
printf '| cost per sample ((t - alone - fixed) / samples) | %.1f µs | %.1f µs |\n' \
	"$(echo "($pr - $base - $pf) / $prn * 1000000" | bc -l)" \
	"$(echo "($fr - $base - $ff) / $frn * 1000000" | bc -l)"
} > "$HERE/RESULTS.md"
cat "$HERE/RESULTS.md"
