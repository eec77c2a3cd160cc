#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Times native, --tool=none, cachegrind (cache + branch simulation), vpmu counting only
# instructions and vpmu with every model on, on the same workloads; prints a Markdown table
# with the minimum of N runs and the ratios to native and to --tool=none.
# Usage: tools/vpmu/bench.sh VGLIB [RUNS]     (VGLIB: the build's vglib folder)
set -eu
VGLIB=${1:?usage: bench.sh VGLIB [RUNS]}
RUNS=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
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

best() { # best-of-RUNS wall time in seconds of "$@"
	b=
	for i in $(seq "$RUNS"); do
		s=$(date +%s.%N)
		"$@" >/dev/null 2>&1
		e=$(date +%s.%N)
		t=$(echo "$e - $s" | bc -l)
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc -l)" = 1 ]; then b=$t; fi
	done
	echo "$b"
}

vg() { VALGRIND_LIB=$VGLIB valgrind "$@"; }

row() { # name, native, none, time
	printf '| %s | %.2f s | %.1f | %.2f |\n' "$1" "$4" "$(echo "$4 / $2" | bc -l)" \
		"$(echo "$4 / $3" | bc -l)"
}

for w in bench gzip; do
	if [ $w = bench ]; then set -- "$work/bench" 8; else set -- gzip -6 -c "$work/text"; fi
	nat=$(best "$@")
	none=$(best vg --tool=none "$@")
	cg=$(best vg --tool=cachegrind --cache-sim=yes --branch-sim=yes \
		--cachegrind-out-file=/dev/null "$@")
	vins=$(best vg --tool=vpmu --fixed-ctrl=0x2 "$@")
	vall=$(best vg --tool=vpmu $EVERYTHING "$@")
	echo
	echo "Workload: $w ($*), best of $RUNS"
	echo
	echo "| configuration | time | x native | x --tool=none |"
	echo "|---|---|---|---|"
	row native "$nat" "$none" "$nat"
	row "--tool=none" "$nat" "$none" "$none"
	row "cachegrind --cache-sim=yes --branch-sim=yes" "$nat" "$none" "$cg"
	row "vpmu, instructions only" "$nat" "$none" "$vins"
	row "vpmu, every model (caches, TLBs, predictor, timing)" "$nat" "$none" "$vall"
done
