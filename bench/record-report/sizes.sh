#!/bin/bash
# SPDX-License-Identifier: MIT
# pmc report vs perf report --stdio on files of 10^3 to 10^6 samples (issue 18 item 5), with
# and without kernel samples: frame-pointer call chains of tests/progs/sample-split, recorded
# at ~1000 samples and repeated to size by mkbig.c; both sorted by symbol without children.
# CPU time (task-clock) medians of R interleaved runs (R=3). pmc's kernel symbol cache
# (docs/report.md) is made by a first, untimed run, then present; the "cold" column is one
# run of pmc without it. Prints a Markdown table. Usage: sizes.sh [BUILD_DIR]
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
B=${1:-$SRC/build-bench}
HERE=$SRC/bench/record-report
T=$(mktemp -d)
trap '[ "$BASHPID" = "$$" ] && rm -rf "$T"' EXIT
cmake -S "$SRC" -B "$B" -DCMAKE_BUILD_TYPE=Release -DPMC_SANITIZE=OFF -DBUILD_TESTING=ON >/dev/null
cmake --build "$B" -j"$(nproc)" --target pmc_cli pmc_static sample-split >/dev/null
PMC=$B/pmc PROG=$B/progs/sample-split R=${R:-3}
gcc -O2 -D_GNU_SOURCE -I"$SRC/include" -I"$SRC/lib" "$HERE/mkbig.c" "$B/lib/libpmc_static.a" \
	-ljansson -lm -ldl -lpthread -o "$T/mkbig"
export XDG_CACHE_HOME="$T/cache"

nsamples() { "$PMC" report -i "$1" -F json | awk -F'[:,]' '/"samples"/ { gsub(/ /, "", $2); print $2; exit }'; }
cpu() { # CMD...: CPU seconds of CMD
	perf stat -x, -e task-clock -o "$T/stat" -- "$@" >/dev/null 2>&1
	awk -F, '/task-clock/ { printf "%.4f\n", $1 / 1000 }' "$T/stat"
}
med() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
top_pmc() { "$PMC" report -i "$1" --no-callers | awk '/%/ && !/^#/ { print $NF; exit }'; }
top_perf() { perf report -i "$1" --stdio --no-children --sort sym 2>/dev/null | awk '/%/ && !/^#/ { print $NF; exit }'; }

"$PMC" record -q -F 10000 -g -o "$T/u1.data" -- "$PROG" 100 >/dev/null 2>&1
"$PMC" record -q -e cpu-clock:uk -F 10000 -g -o "$T/k1.data" -- "$PROG" 100 >/dev/null 2>&1
echo "| samples | kernel samples | pmc CPU (cold: no kallsyms cache) | perf --stdio CPU | perf/pmc | top entry pmc / perf |"
echo "|---:|---:|---:|---:|---:|---|"
for kind in u k; do
	n1=$(nsamples "$T/${kind}1.data")
	for size in 1000 10000 100000 1000000; do
		f=$T/$kind$size.data
		"$T/mkbig" "$T/${kind}1.data" "$f" $(( (size + n1 - 1) / n1 )) >/dev/null
		n=$(nsamples "$f")
		nk=$("$PMC" report -i "$f" --no-callers | awk '$4 == "[k]" { s += $2 } END { print s + 0 }')
		rm -rf "$XDG_CACHE_HOME"
		cold=$(cpu "$PMC" report -i "$f")
		: >"$T/rp"; : >"$T/rf"
		for i in $(seq "$R"); do
			cpu "$PMC" report -i "$f" >>"$T/rp"
			cpu perf report -i "$f" --stdio --no-children --sort sym >>"$T/rf"
		done
		tp=$(med "$T/rp"); tf=$(med "$T/rf")
		printf '| %s | %s | %.4f s (%.4f s) | %.4f s | %.1f× | %s / %s |\n' "$n" "$nk" "$tp" "$cold" \
			"$tf" "$(echo "$tf / $tp" | bc -l)" "$(top_pmc "$f")" "$(top_perf "$f")"
	done
done
