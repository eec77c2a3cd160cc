#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc merge of 1,024 rank files of 20 events and 50 regions (issue 19's aim: under 1 s).
# The files are pmc stat's JSON (schema pmc-stat/1) as a rank writes it, made by
# gen-ranks.py with values that differ per rank; the median of 5 merges per format.
# Usage: bench/merge/merge-bench.sh BUILD_DIR [RANKS]
set -euo pipefail
B=${1:?usage: merge-bench.sh BUILD_DIR [RANKS]}
N=${2:-1024}
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
python3 "$(dirname "$0")/gen-ranks.py" "$D" "$N" 20 50
echo "| format | ranks | events | regions | input MB | median s of 5 | max s |"
echo "|---|---:|---:|---:|---:|---:|---:|"
mb=$(du -sm "$D" | cut -f1)
for fmt in text csv json; do
	times=()
	for _ in 1 2 3 4 5; do
		s=$(date +%s.%N)
		"$B/pmc" merge --format $fmt "$D"/r.json.rank-* >/dev/null
		e=$(date +%s.%N)
		times+=("$(echo "$e - $s" | bc -l)")
	done
	sorted=$(printf '%s\n' "${times[@]}" | sort -g)
	echo "| $fmt | $N | 20 | 50 | $mb | $(echo "$sorted" | sed -n 3p | xargs printf '%.3f') | $(echo "$sorted" | tail -1 | xargs printf '%.3f') |"
done
