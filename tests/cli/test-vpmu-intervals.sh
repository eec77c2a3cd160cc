#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Sampling intervals (docs/accuracy.md, "Sampling intervals"): under vpmu with jittered periods
# and 50 fixed seeds, the 95 % interval pmc report gives each symbol covers that function's
# exact instruction count (known from vpmu-bare's construction, and its total checked by a
# counting run) in at least 90 % of the runs; equal seeds give equal samples; jitter ends the
# aliasing of a period that is a multiple of a loop's length; the perf backend refuses it.
. "$(dirname "$0")/lib.sh"

require_vpmu
B="$PROGS/vpmu-bare"
[ -x "$B" ] || skip "the vpmu workloads are not built"

# The construction's counts (tests/progs/vpmu-bare.c), and the total a counting run gives.
declare -A exact=([_start]=5006 [f_small]=42000 [f_mid]=202000 [f_big]=1002000)
"$PMC" stat --backend=vpmu -x, -e instructions "$B" 2>"$T/count.txt"
expect_eq "counting: the sum of the functions' counts" "$(grep -v '^#' "$T/count.txt" | cut -d, -f1)" \
	1251006

# rec SEED OUT ARGS...: one jittered recording at a mean period of 1000 instructions (f_small
# gets about 42 samples a run, _start about 5).
rec() {
	local seed=$1 out=$2
	shift 2
	"$PMC" record -q --backend=vpmu -e instructions -c 1000 --period-jitter --seed="$seed" \
		-o "$out" "$B" "$@"
}
export -f rec
export PMC B

# 50 seeds, two runs at a time; each run's per-symbol rows: symbol,samples,lo,hi.
seq 1 50 | xargs -P2 -I{} bash -c 'rec {} "$0/s{}.data" && "$PMC" report -i "$0/s{}.data" \
	-F csv --no-callers >"$0/s{}.csv"' "$T"
expect_eq "50 recordings and reports" "$(ls "$T"/s*.csv | wc -l)" 50
for s in $(seq 1 50); do
	awk -F, 'NR > 1 { gsub(/"|\[\.\] /, "", $6); print $6 "," $4 "," $7 "," $8 }' "$T/s$s.csv"
done >"$T/rows"
for f in f_small f_mid f_big _start; do
	read -r n cov <<<"$(awk -F, -v f="$f" -v c="${exact[$f]}" \
		'$1 == f { n++; if ($3 <= c && c <= $4) k++ } END { print n + 0, k + 0 }' "$T/rows")"
	echo "$f: exact ${exact[$f]}, in $n runs, covered in $cov"
	# _start has about 5 samples a run: it may miss one run (P = e^-5).
	[ "$f" = _start ] && min=45 || min=50
	expect_eq "$f: an entry of at least $min runs" "$([ "$n" -ge $min ] && echo yes)" yes
	expect_eq "$f: the interval covers ${exact[$f]} in at least 90 % of its runs" \
		"$([ $((cov * 10)) -ge $((n * 9)) ] && echo yes)" yes
done
expect_eq "no other symbol" "$(cut -d, -f1 "$T/rows" | sort -u | tr '\n' ' ')" "_start f_big f_mid f_small "
# The sum of the periods of all samples is the count at the last overflow: within one
# period (at most 1500 with 50 % jitter) of the exact total, in every run.
for s in $(seq 1 50); do
	"$PMC" report -i "$T/s$s.data" -F json | python3 -c '
import json, sys
e = json.load(sys.stdin)["events"][0]
print("ok" if 1251006 - 1500 <= e["estimated_count"] <= 1251006 else e["estimated_count"])'
done | sort | uniq -c >"$T/totals"
expect_grep "whole-run estimates within a period of the count" "^ +50 ok$" "$T/totals"

# Equal seeds, equal samples: two runs of seed 7 give the same report (pids differ).
rec 7 "$T/again.data" && "$PMC" report -i "$T/again.data" -F csv --no-callers >"$T/again.csv"
expect_eq "seed 7 again: the same samples" "$(md5sum <"$T/again.csv")" "$(md5sum <"$T/s7.csv")"
expect_eq "seed 8: other samples" "$(cmp -s "$T/s7.csv" "$T/s8.csv" && echo same)" ""
strings "$T/again.data" | grep -qx -- "--seed=7" && ok "the seed is in the file's command line" ||
	fail "the seed is in the file's command line"
"$PMC" record -q --backend=vpmu -e instructions -c 4000 --period-jitter -o "$T/d.data" "$B"
strings "$T/d.data" | grep -qx -- "--seed=1" && ok "the default seed is in the file's command line" ||
	fail "the default seed is in the file's command line"

# Aliasing: f_alias is a loop of two instructions; a period of 1000 samples only one of them,
# jitter samples both about equally.
"$PMC" record -q --backend=vpmu -e instructions -c 1000 -o "$T/fixed.data" "$B" alias
"$PMC" report -i "$T/fixed.data" --sort ip -F csv --no-callers >"$T/fixed.csv"
expect_eq "a fixed period: every sample on one instruction" "$(tail -n +2 "$T/fixed.csv" | wc -l)" 1
rec 1 "$T/jit.data" alias
"$PMC" report -i "$T/jit.data" --sort ip -F csv --no-callers >"$T/jit.csv"
expect_eq "jittered periods: both instructions of the loop" \
	"$(awk -F, 'NR > 1 && $6 ~ /f_alias\+0x[57] / && $2 > 40 && $2 < 60' "$T/jit.csv" | wc -l)" 2

# The perf backend cannot vary periods: refused with the reason, nothing written.
"$PMC" record -e cpu-clock --period-jitter=10 -o "$T/perf.data" true 2>"$T/perf.err"
expect_eq "perf backend: --period-jitter refused" $? 1
expect_grep "perf backend: the reason" "no period randomisation for most PMUs" "$T/perf.err"
expect_eq "perf backend: no file" "$([ -e "$T/perf.data" ] && echo written)" ""
"$PMC" record --dry-run -e cpu-clock --period-jitter true >/dev/null 2>"$T/dry.err"
expect_eq "perf backend, --dry-run: --period-jitter refused" $? 1
expect_grep "perf backend, --dry-run: the reason" "no period randomisation" "$T/dry.err"
expect_no_grep "perf backend, --dry-run: no other reason" "cannot describe its calls" "$T/dry.err"
# Usage errors.
"$PMC" record --backend=vpmu --period-jitter=91 true 2>"$T/u.err"
expect_eq "--period-jitter=91: usage error" $? 2
"$PMC" record --backend=vpmu --seed=3 true 2>"$T/u.err"
expect_eq "--seed without --period-jitter: usage error" $? 2

finish
