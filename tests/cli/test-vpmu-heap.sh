#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Heap blocks named by their allocation site under vpmu (pmc record --backend=vpmu -d):
# vpmu-heap reads a malloc'd array (site array_a) 3 N times, a calloc'd one (site array_b)
# N times and one of the brk heap (sbrk) N times in walk(). With N = 10^5 and a sample every
# 1009 loads, walk()'s 300000 loads of array_a hold 297 or 298 samples and its 100000 of
# each other array 99 or 100, wherever the period's phase falls; pmc report -s dsym and
# perf report --mem-mode name both sites and the brk heap so, and the stack is [stack].
. "$(dirname "$0")/lib.sh"

require_vpmu
P="$PROGS/vpmu-heap"
[ -x "$P" ] || skip "vpmu-heap is not built"

"$PMC" record --backend=vpmu -q -e MEM_INST_RETIRED.LOADS:pp -c 1009 -d --data-src \
	-o "$T/h.data" "$P" 100000 >"$T/out" 2>"$T/h.log"
expect_eq "record -d exits 0" $? 0
expect_eq "its result under the replaced allocator (calloc zeroes, malloc keeps writes)" "$(cat "$T/out")" 76742320
"$PMC" report -i "$T/h.data" -s dsym -F csv >"$T/h.csv" 2>"$T/h.err"
expect_eq "report -s dsym exits 0" $? 0
# samples SITE-PATTERN: the samples of the dsym row whose name matches.
samples() { awk -F, -v re="$1" '$6 ~ re { print $4 }' "$T/h.csv"; }
a=$(samples '^"\[heap\] alloc@array_a\+0x[0-9a-f]+ \(vpmu-heap\.c:[0-9]+\)"$')
b=$(samples '^"\[heap\] alloc@array_b\+0x[0-9a-f]+ \(vpmu-heap\.c:[0-9]+\)"$')
expect_eq "array_a's site: 297 or 298 samples (got $a)" "$(case "$a" in 297 | 298) echo yes ;; esac)" yes
expect_eq "array_b's site: 99 or 100 samples (got $b)" "$(case "$b" in 99 | 100) echo yes ;; esac)" yes
expect_eq "one row for each site" "$(grep -c '\[heap\] alloc@' "$T/h.csv")" 2
h=$(samples '^"\[heap\]"$')
expect_eq "the brk heap is [heap]: 99 or 100 samples (got $h)" "$(case "$h" in 99 | 100) echo yes ;; esac)" yes
expect_grep "globals are named from the objects' symbol tables" ',"[A-Za-z_][A-Za-z0-9_.]* \([^)]+\)",' "$T/h.csv"
expect_grep "the main thread's stack is [stack]" '^"[^"]*",[0-9.]+,[0-9.]+,[1-9][0-9]*,[0-9]+,"\[stack\]"' "$T/h.csv"

command -v perf >/dev/null || fail "perf is a test dependency (scripts/setup.sh --test)"
perf report -i "$T/h.data" --stdio --mem-mode --sort=dso_daddr >"$T/h.perf" 2>"$T/perf.err"
expect_eq "perf report reads the file" $? 0
for s in array_a array_b; do
	mine=$(awk -F, -v s="alloc@$s\\\\+" '$6 ~ s { printf "%.2f", $2 }' "$T/h.csv")
	expect_grep "perf report: $s's site with pmc's share" "^ +$mine% +\[heap\] alloc@$s\+" "$T/h.perf"
done
mine=$(awk -F, '$6 == "\"[heap]\"" { printf "%.2f", $2 }' "$T/h.csv")
expect_grep "perf report: the brk heap with pmc's share" "^ +$mine% +\[heap\] *$" "$T/h.perf"

# The same samples twice: the file's samples and mappings depend on nothing but the program
# and what it is given. Its standard output is part of that: printf takes other paths for a
# regular file than for /dev/null, which moves the last sample after walk() (from free() to
# the lazy binding of a later call), so both runs write to a regular file.
"$PMC" record --backend=vpmu -q -e MEM_INST_RETIRED.LOADS:pp -c 1009 -d --data-src \
	-o "$T/h2.data" "$P" 100000 >"$T/out2" 2>&1
"$PMC" report -i "$T/h2.data" -s dsym -F csv >"$T/h2.csv" 2>&1
if cmp -s "$T/h.csv" "$T/h2.csv"; then
	ok "deterministic: the same dsym report twice"
else
	fail "deterministic: the same dsym report twice:"
	diff "$T/h.csv" "$T/h2.csv" | sed 's/^/    /'
	# Which records differ: the samples (ip, data address, time) and the mappings.
	for f in h h2; do
		perf script -i "$T/$f.data" -F ip,sym,addr --show-mmap-events 2>&1 |
			sed 's/^PERF_RECORD_MMAP2 [0-9]*\/[0-9]*:/MMAP2/' >"$T/$f.script"
	done
	diff "$T/h.script" "$T/h2.script" | head -40 | sed 's/^/    /'
	if [ -n "${PMC_TEST_KEEP:-}" ]; then
		mkdir -p "$PMC_TEST_KEEP" && cp "$T"/h.data "$T"/h2.data "$T"/*.log "$PMC_TEST_KEEP"/
	fi
fi

# Without -d the tool is vpmu, the allocator the program's own: no site is named.
"$PMC" record --backend=vpmu -q -e MEM_INST_RETIRED.LOADS:pp -c 1009 -o "$T/n.data" "$P" 1000 \
	>/dev/null 2>"$T/n.log"
expect_eq "record without -d exits 0" $? 0
expect_no_grep "without -d: no block mappings" "alloc@" <(perf script -i "$T/n.data" --show-mmap-events 2>&1)
finish
