#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Times native, --tool=none, cachegrind (cache + branch simulation), vpmu counting only
# instructions and vpmu with every model on, on the same workloads; prints a Markdown table
# with the minimum of N interleaved runs (wall and CPU time) and the CPU-time ratios to
# native and to --tool=none, then the median of the rounds' ratios of vpmu (every model) to
# cachegrind.  Needs /usr/bin/time (Debian package "time").
# Usage: tools/vpmu/bench.sh VGLIB [RUNS]     (VGLIB: the build's vglib folder)
# With BASELINE=VGLIB2 in the environment, the two vpmu rows are also timed with the tool in
# VGLIB2 (e.g. a build of an older commit), in the same run, for a before/after comparison.
set -eu
VGLIB=${1:?usage: bench.sh VGLIB [RUNS]}
RUNS=${2:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat >"$work/bench.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
static int cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? -1 : x > y;
}
int main(int argc, char **argv)
{
	int scale = argc > 1 ? atoi(argv[1]) : 8, n = 160;
	static double a[160][160], b[160][160], c[160][160];
	unsigned long steps = 0, seed = 1;
	unsigned *v = malloc(sizeof(*v) * 100000 * scale);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			a[i][j] = i + j, b[i][j] = i - j;
	for (int r = 0; r < scale; r++)
		for (int i = 0; i < n; i++)
			for (int k = 0; k < n; k++)
				for (int j = 0; j < n; j++)
					c[i][j] += a[i][k] * b[k][j];
	for (unsigned long x = 1; x < 60000UL * scale; x++)
		for (unsigned long y = x; y != 1; y = y & 1 ? 3 * y + 1 : y / 2)
			steps++;
	for (int i = 0; i < 100000 * scale; i++)
		v[i] = (unsigned)(seed = seed * 6364136223846793005UL + 1) >> 3;
	qsort(v, 100000 * scale, sizeof(*v), cmp);
	printf("%f %lu %u\n", c[7][9], steps, v[77]);
	return 0;
}
C
cc -O2 -o "$work/bench" "$work/bench.c"
awk 'BEGIN { srand(1); for (i = 0; i < 60000; i++) { for (j = 0; j < 12; j++)
	printf "%s ", substr("lorem ipsum dolor sit amet consectetur adipiscing elit", 1 + int(rand() * 40), 1 + int(rand() * 9)); print "" } }' >"$work/text"

EVERYTHING="--ctr0=0x430140 --ctr1=0x4300c5 --ctr2=0x430280 --ctr3=0x43010b --fixed-ctrl=0x222"

# One timed run of "$@": prints wall and CPU (user + system) seconds.  On a shared machine
# the CPU time is the steadier measure: waiting for a core adds to wall time only.
timed() {
	/usr/bin/time -f '%e %U %S' -o "$work/t" "$@" >/dev/null 2>&1 || true
	awk '{ printf "%s %.2f\n", $1, $2 + $3 }' "$work/t"
}

# The configurations, as "key command..." (split on blanks: the vglib paths must have none):
# each round runs every one once (interleaved, so
# that a change in the machine's load hits them all alike), and the best round is kept.
configs() {
	vg="env VALGRIND_LIB=$VGLIB valgrind" vgb="env VALGRIND_LIB=${BASELINE:-} valgrind"
	echo "nat"
	echo "none $vg --tool=none"
	echo "cg $vg --tool=cachegrind --cache-sim=yes --branch-sim=yes --cachegrind-out-file=/dev/null"
	echo "vins $vg --tool=vpmu --fixed-ctrl=0x2"
	echo "vall $vg --tool=vpmu $EVERYTHING"
	if [ -n "${BASELINE:-}" ]; then
		echo "bins $vgb --tool=vpmu --fixed-ctrl=0x2"
		echo "ball $vgb --tool=vpmu $EVERYTHING"
	fi
}

measure() { # "$@": the workload; leaves best wall and CPU times in $work/best.KEY, and
	# each round's CPU time in $work/runs.KEY (a line per round)
	rm -f "$work"/best.* "$work"/runs.*
	for _ in $(seq "$RUNS"); do
		configs | while read -r key cmd; do
			# shellcheck disable=SC2086 # cmd is a word list
			t=$(timed $cmd "$@")
			echo "$t" | cut -d' ' -f2 >>"$work/runs.$key"
			if [ ! -f "$work/best.$key" ]; then
				echo "$t" >"$work/best.$key"
			else
				awk -v n="$t" '{ split(n, x, " "); w = x[1] < $1 ? x[1] : $1;
					c = x[2] < $2 ? x[2] : $2; print w, c }' "$work/best.$key" >"$work/b"
				mv "$work/b" "$work/best.$key"
			fi
		done
	done
}

row() { # name, key: wall, CPU, and CPU ratios to native and to --tool=none
	awk -v name="$1" 'FNR == 1 { v[FILENAME] = $0 } END {
		split(v[ARGV[1]], n, " "); split(v[ARGV[2]], z, " "); split(v[ARGV[3]], r, " ");
		printf "| %s | %.2f s | %.2f s | %.1f | %.2f |\n", name, r[1], r[2], r[2] / n[2],
			r[2] / z[2] }' "$work/best.nat" "$work/best.none" "$work/best.$2"
}

# The ratio of KEY's CPU time to cachegrind's within each round (the two ran seconds apart,
# so a change in the machine's load hits both): median, and lowest to highest.  Then the
# ratio of the two best rounds: the machine's load only ever adds time, and cachegrind's runs
# vary more than vpmu's, so the two measures can differ by a tenth.
round_ratio() {
	paste "$work/runs.$1" "$work/runs.cg" | awk '{ print $1 / $2 }' | sort -n | awk '
		{ r[NR] = $1 } END { m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2;
			printf "%.2f (%.2f-%.2f)", m, r[1], r[NR] }'
	awk 'FNR == 1 { v[FILENAME] = $2 } END { printf ", best rounds %.2f", v[ARGV[1]] / v[ARGV[2]] }' \
		"$work/best.$1" "$work/best.cg"
}

for w in bench gzip; do
	if [ $w = bench ]; then set -- "$work/bench" 8; else set -- gzip -6 -c "$work/text"; fi
	measure "$@"
	echo
	echo "Workload: $w ($*), best of $RUNS interleaved rounds"
	echo
	echo "| configuration | wall | CPU | x native (CPU) | x --tool=none (CPU) |"
	echo "|---|---|---|---|---|"
	row native nat
	row "--tool=none" none
	row "cachegrind --cache-sim=yes --branch-sim=yes" cg
	row "vpmu, instructions only" vins
	row "vpmu, every model (caches, TLBs, predictor, timing)" vall
	if [ -n "${BASELINE:-}" ]; then
		row "baseline vpmu, instructions only" bins
		row "baseline vpmu, every model" ball
	fi
	echo
	printf 'Every model / cachegrind, per round: median %s' "$(round_ratio vall)"
	if [ -n "${BASELINE:-}" ]; then
		printf '; baseline %s' "$(round_ratio ball)"
	fi
	echo
done
