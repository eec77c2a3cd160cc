#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Call chains under vpmu (pmc record --backend=vpmu -g): vpmu-calls runs main -> a -> b ->
# leaf(3 N) and main -> c -> leaf(N), leaf being 4 instructions an iteration. With N = 10^6
# and one sample every 10^5 instructions, leaf's 12 M instructions under b give exactly 120
# samples and its 4 M under c exactly 40, whatever the loader before main costs. pmc report
# --children, the folded export and perf report --children agree; --call-graph=fp and
# =dwarf give the same chains; two recordings give the same samples.
. "$(dirname "$0")/lib.sh"

require_vpmu
P="$PROGS/vpmu-calls"
[ -x "$P" ] || skip "vpmu-calls is not built"

record() { local out=$1; shift; "$PMC" record --backend=vpmu -q -e instructions -c 100000 -o "$out" "$@" "$P" 1000000 2>"$out.log"; }

record "$T/g.data" -g
expect_eq "record -g exits 0" $? 0
"$PMC" report -i "$T/g.data" --children -F csv >"$T/g.csv" 2>"$T/g.err"
expect_eq "report --children exits 0" $? 0
total=$(awk -F, 'NR > 1 { n += $4 } END { print n }' "$T/g.csv")
# children NAME: the children column of symbol NAME, and the value it must have: its
# number of samples out of the total, in percent with pmc's four decimals.
children() { awk -F, -v s="\"[.] $1\"" '$6 == s { print $3 }' "$T/g.csv"; }
pct() { awk -v n="$1" -v t="$total" 'BEGIN { printf "%.4f", 100 * n / t }'; }
expect_eq "leaf: 160 samples of its own" "$(awk -F, '$6 == "\"[.] leaf\"" { print $4 }' "$T/g.csv")" 160
expect_eq "a: 120 samples with its callees" "$(children a)" "$(pct 120)"
expect_eq "b: 120 samples with its callees" "$(children b)" "$(pct 120)"
expect_eq "c: 40 samples with its callees" "$(children c)" "$(pct 40)"
expect_eq "main: 160 samples with its callees" "$(children main)" "$(pct 160)"
"$PMC" report -i "$T/g.data" --children >"$T/g.txt" 2>&1
expect_grep "leaf's callers: b 75 %" "^ +<- b \(75\.00%\)$" "$T/g.txt"
expect_grep "leaf's callers: c 25 %" "^ +<- c \(25\.00%\)$" "$T/g.txt"
"$PMC" report -i "$T/g.data" --format=folded >"$T/g.folded" 2>&1
expect_grep "folded: main;a;b;leaf 120" ";main;a;b;leaf 120$" "$T/g.folded"
expect_grep "folded: main;c;leaf 40" ";main;c;leaf 40$" "$T/g.folded"
"$PMC" report -i "$T/g.data" --format=html -o "$T/g.html" 2>&1
expect_grep "html: leaf's callers, b 12 M and c 4 M instructions" \
	'"callers":\[\["b",12000000\],\["c",4000000\]\]' "$T/g.html"

# The chain as the kernel writes it: PERF_CONTEXT_USER, then ip and the return addresses.
command -v perf >/dev/null || fail "perf is a test dependency (scripts/setup.sh --test)"
perf report -i "$T/g.data" --children --stdio --percent-limit=0 -g none >"$T/g.perf" 2>"$T/perf.err"
expect_eq "perf report reads the file" $? 0
for s in a b c main leaf; do
	p=$(awk -v s="$s" '$NF == s && $(NF-1) == "[.]" { sub("%", "", $1); print $1; exit }' "$T/g.perf")
	expect_eq "perf report --children agrees on $s" "$p" "$(awk -v v="$(children "$s")" 'BEGIN { printf "%.2f", v }')"
done
perf script -i "$T/g.data" -F ip,sym >"$T/g.script" 2>>"$T/perf.err"
expect_eq "perf script: leaf <- b <- a <- main, 120 times" \
	"$(awk '{ $1 = ""; print }' "$T/g.script" | paste -s -d' ' | grep -o ' leaf  b  a  main ' | wc -l)" 120
expect_no_grep "no frames past _start" "unknown" "$T/g.script"

# --call-graph=fp and =dwarf are the same exact unwind; a second run gives the same samples.
record "$T/fp.data" --call-graph=fp
record "$T/dw.data" --call-graph=dwarf
perf script -i "$T/fp.data" -F ip,sym,period >"$T/fp.script" 2>>"$T/perf.err"
perf script -i "$T/dw.data" -F ip,sym,period >"$T/dw.script" 2>>"$T/perf.err"
perf script -i "$T/g.data" -F ip,sym,period >"$T/g2.script" 2>>"$T/perf.err"
expect_eq "fp: the same chains as -g" "$(cmp -s "$T/fp.script" "$T/g2.script" && echo same)" same
expect_eq "dwarf: the same chains as -g" "$(cmp -s "$T/dw.script" "$T/g2.script" && echo same)" same
expect_no_grep "dwarf: no stack copies in the file" "STACK_USER" <(perf evlist -v -i "$T/dw.data" 2>&1)
"$PMC" report -i "$T/fp.data" --children -F csv >"$T/fp.csv" 2>&1
expect_eq "deterministic: the same report twice" "$(cmp -s "$T/fp.csv" "$T/g.csv" && echo same)" same

# --max-stack (sample_max_stack) bounds the chain: leaf and b only.
"$PMC" record --backend=vpmu -q -e instructions/max-stack=2/ -c 100000 -g -o "$T/m.data" "$P" 1000000 2>"$T/m.log"
expect_eq "max-stack=2 record exits 0" $? 0
"$PMC" report -i "$T/m.data" --format=folded >"$T/m.folded" 2>&1
expect_grep "max-stack=2: b;leaf 120" "^vpmu-calls;b;leaf 120$" "$T/m.folded"
finish
