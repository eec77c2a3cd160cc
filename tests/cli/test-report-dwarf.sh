#!/bin/bash
# SPDX-License-Identifier: MIT
# pmc report --call-graph dwarf: a workload without frame pointers unwound to its full chain
# (main;deep_a;deep_b;deep_hot) in folded stacks and children, the same chain as perf's.
source "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98
CHAIN="main;deep_a;deep_b;deep_hot"

out=$("$PMC" record -F 2000 --call-graph dwarf -o "$T/d.data" -- "$PROGS/sample-deep" 600 2>&1)
rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q "cannot sample\|cannot start sampling"; then
	skip "sampling unavailable: $out"
fi
expect_eq "pmc record --call-graph dwarf exit status" "$rc" 0

# share FOLDED-FILE PATTERN: percent of the samples whose stack matches PATTERN.
share() { awk -v p="$2" '{ n = $NF; t += n; if ($0 ~ p) m += n }
	END { printf "%d\n", t ? 100 * m / t : 0 }' "$1"; }

"$PMC" report -i "$T/d.data" -F folded > "$T/folded" 2> "$T/err"
expect_eq "pmc report -F folded exit status" "$?" 0
expect_no_grep "no sanitizer report" "AddressSanitizer|LeakSanitizer|runtime error" "$T/err"
pct=$(share "$T/folded" "^sample-deep;.*$CHAIN [0-9]+$")
if [ "$pct" -ge 80 ]; then ok "$pct% of stacks are ...;$CHAIN"
else fail "$pct% of stacks are ...;$CHAIN (want >= 80%):"; sort -t' ' -k2 -nr "$T/folded" | head; fi

# Children: every caller on the chain carries nearly all of the period.
"$PMC" report -i "$T/d.data" --children -F csv > "$T/children.csv"
for f in deep_hot deep_b deep_a main; do
	c=$(awk -F, -v s="\"[.] $f\"" '$6 == s { gsub(/"/, "", $3); print int($3) }' \
		"$T/children.csv")
	if [ "${c:-0}" -ge 80 ]; then ok "children of $f: $c%"
	else fail "children of $f: '${c:-}'% (want >= 80%)"; head -8 "$T/children.csv"; fi
done
"$PMC" report -i "$T/d.data" -s symbol > "$T/callers"
expect_grep "deep_hot's caller is deep_b" "<- deep_b" "$T/callers"

# The control: without frame pointers, a frame-pointer chain cannot name deep_hot's callers,
# so the chain above came from the DWARF unwinder.
"$PMC" record -q -F 2000 -g -o "$T/fp.data" -- "$PROGS/sample-deep" 200 > /dev/null 2>&1
"$PMC" report -i "$T/fp.data" -F folded > "$T/fp-folded"
pct=$(share "$T/fp-folded" "$CHAIN [0-9]+$")
if [ "$pct" -lt 50 ]; then ok "frame pointers alone give $CHAIN for $pct% (workload has none)"
else fail "frame pointers gave $CHAIN for $pct%: is sample-deep built with frame pointers?"; fi

# The fast path (lib/symbol/unwind.c: CFI rows cached per pc, the stack stepped through
# without libdwfl's unwinder) gives libdwfl's chain for every sample: PMC_UNWIND=check unwinds
# each sample both ways and counts those that differ. A second recording of system programs
# (ls, sort, gzip: libc, the loader, PLT stubs) adds frames that sample-deep lacks.
"$PMC" record -q -F 4000 --call-graph dwarf -o "$T/sys.data" -- sh -c \
	'ls -lR /usr/lib >/dev/null; seq 200000 | sort -R | gzip -c >/dev/null' > /dev/null 2>&1
for f in d sys; do
	PMC_UNWIND=check "$PMC" report -i "$T/$f.data" -F folded > "$T/$f.check" 2> "$T/$f.err"
	line=$(grep "unwind check: [0-9]* samples" "$T/$f.err")
	read -r nr nr_fast nr_differ <<< "$(echo "$line" |
		sed -n 's/.*check: \([0-9]*\) samples, \([0-9]*\) on the fast path, \([0-9]*\) differ.*/\1 \2 \3/p')"
	expect_eq "$f.data: fast path chains that differ from libdwfl's ($line)" "${nr_differ:-none}" 0
	if [ "${nr:-0}" -gt 500 ] && [ $((100 * ${nr_fast:-0} / nr)) -ge 90 ]; then
		ok "$f.data: $nr_fast of $nr samples on the fast path"
	else fail "$f.data: ${nr_fast:-?} of ${nr:-?} samples on the fast path (want >= 90% of > 500)"; fi
	PMC_UNWIND=libdwfl "$PMC" report -i "$T/$f.data" -F folded > "$T/$f.slow"
	"$PMC" report -i "$T/$f.data" -F folded > "$T/$f.fast"
	if cmp -s "$T/$f.slow" "$T/$f.fast" && [ -s "$T/$f.fast" ]; then
		ok "$f.data: the same folded stacks as with libdwfl alone"
	else fail "$f.data: folded stacks differ from libdwfl's:"; diff "$T/$f.slow" "$T/$f.fast" | head; fi
done

# Without libdw (loaded on first use, lib/symbol/dw-api.c): the report still runs, says once
# which library is missing, and leaves its entries as addresses; counting never needs it.
# The library is hidden in a private mount namespace (an empty file bound over it).
dw=$(ldconfig -p | awk '$1 == "libdw.so.1" && /x86-64/ { print $NF; exit }')
if [ "$(id -u)" != 0 ] || [ -z "$dw" ]; then
	skip_part no-unprivileged-user "not root (or no libdw in ld.so.cache): cannot hide libdw here"
else
	dw=$(readlink -f "$dw")
	nodw() { unshare --mount --propagation private sh -c \
		'mount --bind /dev/null "$1" && shift && exec "$@"' _ "$dw" "$@"; }
	nodw "$PMC" report -i "$T/d.data" >"$T/nodw" 2>"$T/nodw.err"
	expect_eq "no libdw: pmc report exit status" $? 0
	expect_eq "no libdw: said once" "$(grep -c "cannot load libdw.so.1" "$T/nodw.err")" 1
	expect_grep "no libdw: entries stay addresses" "0x[0-9a-f]+" "$T/nodw"
	expect_no_grep "no libdw: no symbol resolved" "deep_hot" "$T/nodw"
	nodw "$PMC" stat -e task-clock true 2>"$T/nodw-stat"
	expect_eq "no libdw: pmc stat counts" $? 0
	expect_no_grep "no libdw: pmc stat never asks for it" "libdw" "$T/nodw-stat"
fi

# perf unwinds the same file to the same chain for the top entry (inlined frames aside).
if command -v perf > /dev/null &&
	perf report -i "$T/d.data" --stdio --no-children -G > "$T/perf" 2> /dev/null; then
	perf_chain=$(awk '/---/ { on = 1 } on && /^ *$/ { exit }
		on { sub(/.*---/, ""); gsub(/^ +| +$/, ""); if ($0 !~ /\(inlined\)/) print }' \
		"$T/perf" | sed -n '/^main$/,$p' | paste -sd';')
	top=$(sort -t' ' -k2 -nr "$T/folded" | head -1 | sed 's/ [0-9]*$//; s/.*;main;/main;/')
	expect_eq "perf report's chain for the top entry ($top)" "$perf_chain" "$top"
else
	echo "note: perf unavailable or cannot read the file; chain comparison skipped"
fi
finish
