#!/bin/bash
# SPDX-License-Identifier: MIT
# pmc report vs perf report --stdio on files of 10^3 to 10^7 samples (issue 18 item 5): frame-
# pointer call chains of tests/progs/sample-split without and with kernel samples, and DWARF
# call chains (perf's --call-graph=dwarf: 8 KiB of stack a sample) of tests/progs/sample-deep;
# each recorded at ~1000 samples and repeated to size by mkbig.c. Both tools sort by symbol
# without children (pmc report's default; perf report --stdio --no-children --sort sym), in
# the same run, interleaved. CPU time (user + system) and peak memory (maximum resident set)
# of each report from wait4(2) (rusage.c); medians of R runs (R=3). pmc's kernel symbol cache
# (docs/report.md) is made by a first, untimed run; "cold" is one run of pmc without it.
# SIZES and DSIZES (the DWARF rows, whose files are 8 KiB a sample) choose the sizes, KINDS
# the rows (u: fp, k: fp with kernel samples, d: DWARF). BASE=DIR (a build of an earlier commit,
# whose DIR/pmc is run as it is) adds its pmc to each run, interleaved: before/after columns.
# Prints a Markdown table. Usage: sizes.sh [BUILD_DIR]
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
B=${1:-$SRC/build-bench}
HERE=$SRC/bench/record-report
T=$(mktemp -d)
trap '[ "$BASHPID" = "$$" ] && rm -rf "$T"' EXIT
cmake -S "$SRC" -B "$B" -DCMAKE_BUILD_TYPE=Release -DPMC_SANITIZE=OFF -DBUILD_TESTING=ON >/dev/null
cmake --build "$B" -j"$(nproc)" --target pmc_cli pmc_static sample-split sample-deep >/dev/null
PMC=$B/pmc R=${R:-3}
SIZES=${SIZES:-1000 10000 100000 1000000 10000000}
DSIZES=${DSIZES:-1000 10000 100000 1000000}
gcc -O2 -D_GNU_SOURCE -I"$SRC/include" -I"$SRC/lib" "$HERE/mkbig.c" "$B/lib/libpmc_static.a" \
	-ljansson -lm -ldl -lpthread -o "$T/mkbig"
gcc -O2 -o "$T/rusage" "$HERE/rusage.c"
export XDG_CACHE_HOME="$T/cache"

nsamples() { "$PMC" report -i "$1" -F json | awk -F'[:,]' '/"samples"/ { gsub(/ /, "", $2); print $2; exit }'; }
# usage CMD...: "CPU-seconds peak-MiB" of CMD (user + system time, maximum resident set).
usage() { "$T/rusage" "$@"; }
med() { sort -g -k"$2,$2" "$1" | awk -v c="$2" '{ v[NR] = $c }
	END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
PERF_ARGS="--stdio --no-children --sort sym"
top_pmc() { "$PMC" report -i "$1" --no-callers | awk '/%/ && !/^#/ { print $NF; exit }'; }
top_perf() { perf report -i "$1" $PERF_ARGS 2>/dev/null | awk '/%/ && !/^#/ { print $NF; exit }'; }

"$PMC" record -q -F 10000 -g -o "$T/u1.data" -- "$B/progs/sample-split" 100 >/dev/null 2>&1
"$PMC" record -q -e cpu-clock:uk -F 10000 -g -o "$T/k1.data" -- "$B/progs/sample-split" 100 >/dev/null 2>&1
"$PMC" record -q -F 10000 --call-graph dwarf -o "$T/d1.data" -- "$B/progs/sample-deep" 100 >/dev/null 2>&1
BASE=${BASE:-}
if [ -n "$BASE" ]; then
	echo "| call chains | samples | kernel samples | file | pmc CPU (cold) | pmc before (BASE) | before/after | perf --stdio CPU | perf/pmc CPU | pmc peak memory | perf peak memory | perf/pmc memory | top entry pmc / perf |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
else
	echo "| call chains | samples | kernel samples | file | pmc CPU (cold) | perf --stdio CPU | perf/pmc CPU | pmc peak memory | perf peak memory | perf/pmc memory | top entry pmc / perf |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
fi
for kind in ${KINDS:-u k d}; do
	n1=$(nsamples "$T/${kind}1.data")
	case $kind in u) what="fp" sizes=$SIZES ;; k) what="fp, :uk" sizes=$SIZES ;; d) what="DWARF" sizes=$DSIZES ;; esac
	for size in $sizes; do
		f=$T/$kind$size.data
		"$T/mkbig" "$T/${kind}1.data" "$f" $(( (size + n1 - 1) / n1 )) >/dev/null
		n=$(nsamples "$f")
		nk=$("$PMC" report -i "$f" --no-callers | awk '/ \[k\] / { s += $2 } END { print s + 0 }')
		rm -rf "$XDG_CACHE_HOME"
		cold=$(usage "$PMC" report -i "$f" | cut -d' ' -f1)
		: >"$T/rp"; : >"$T/rf"; : >"$T/rb"
		for i in $(seq "$R"); do
			[ -z "$BASE" ] || usage "$BASE/pmc" report -i "$f" >>"$T/rb"
			usage "$PMC" report -i "$f" >>"$T/rp"
			usage perf report -i "$f" $PERF_ARGS >>"$T/rf"
		done
		tp=$(med "$T/rp" 1) tf=$(med "$T/rf" 1) mp=$(med "$T/rp" 2) mf=$(med "$T/rf" 2)
		before=
		if [ -n "$BASE" ]; then
			tb=$(med "$T/rb" 1)
			before=$(printf ' %.3f s | %.1f× |' "$tb" "$(echo "$tb / $tp" | bc -l)")
		fi
		printf '| %s | %s | %s | %s | %.3f s (%.3f s) |%s %.3f s | %.1f× | %.0f MiB | %.0f MiB | %.1f× | %s / %s |\n' \
			"$what" "$n" "$nk" "$(du -h "$f" | cut -f1)" "$tp" "$cold" "$before" "$tf" \
			"$(echo "$tf / $tp" | bc -l)" "$mp" "$mf" "$(echo "$mf / $mp" | bc -l)" \
			"$(top_pmc "$f")" "$(top_perf "$f")"
		rm -f "$f"
	done
done
