#!/bin/bash
# SPDX-License-Identifier: MIT
# pmc report names C++ symbols as people read them (libiberty's demangler), as perf report
# does; --no-demangle keeps the names the object spells. sample-cxx spends its time in
# shapes::Square::area() const (_ZNK6shapes6Square4areaEv), called from
# shapes::total<shapes::Square>() (_ZN6shapes5totalINS_6SquareEEEmm).
source "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98

out=$("$PMC" record -q -F 2000 -g -o "$T/cxx.data" -- "$PROGS/sample-cxx" 300 2>&1)
rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q "cannot sample\|cannot start sampling"; then
	skip "sampling unavailable: $out"
fi
expect_eq "pmc record of the C++ workload: exit status" "$rc" 0

"$PMC" report -i "$T/cxx.data" -n 1 > "$T/rep" 2> "$T/err"
expect_eq "pmc report exit status" "$?" 0
expect_no_grep "no sanitizer report" "AddressSanitizer|LeakSanitizer|runtime error" "$T/err"
expect_grep "the hot method, demangled" '\[\.\] shapes::Square::area$' "$T/rep"
expect_grep "its caller, a template instance, demangled" \
	'<- shapes::total<shapes::Square> \(' "$T/rep"
expect_no_grep "no mangled name left" "_Z" "$T/rep"

"$PMC" report -i "$T/cxx.data" -n 1 --no-demangle > "$T/raw"
expect_grep "--no-demangle: the method's own name" '\[\.\] _ZNK6shapes6Square4areaEv$' "$T/raw"
expect_grep "--no-demangle: the caller's own name" '<- _ZN6shapes5totalINS_6SquareEEEmm \(' \
	"$T/raw"

"$PMC" report -i "$T/cxx.data" -F folded > "$T/folded"
expect_grep "folded stacks carry demangled frames" \
	';main;shapes::total<shapes::Square>;shapes::Square::area [0-9]+$' "$T/folded"

# perf report names the same top symbol (perf demangles with the same rules by default).
if perf report -i "$T/cxx.data" --stdio --no-children > "$T/perf" 2> /dev/null; then
	want=$(awk '!/^#/ && /\[\.\]/ { sub(/.*\[\.\] /, ""); sub(/ +$/, ""); print; exit }' "$T/perf")
	expect_eq "the top symbol is perf report's" "$want" "shapes::Square::area"
else
	# perf is a test dependency (scripts/setup.sh --test): a file it cannot read is a fault
	fail "perf report cannot read the file pmc recorded"
fi

# pmc annotate takes the name the report shows, or the one the object spells.
for name in 'shapes::Square::area' _ZNK6shapes6Square4areaEv; do
	"$PMC" annotate -i "$T/cxx.data" "$name" > "$T/ann" 2> "$T/ann.err"
	expect_eq "pmc annotate $name: exit status" "$?" 0
	expect_grep "pmc annotate $name: the header names it" '^# shapes::Square::area \(' "$T/ann"
done
# Jump and call targets as <sym+off>, with demangled names (objdump's and perf annotate's
# form): area()'s loop branches back into itself, and it calls shapes::done().
"$PMC" annotate -i "$T/cxx.data" 'shapes::Square::area' > "$T/ann"
expect_grep "the call's target is named" 'call +0x[0-9a-f]+ <shapes::done\+0x0>$' "$T/ann"
expect_grep "the loop's branch target is named" \
	'j[a-z]+ +0x[0-9a-f]+ <shapes::Square::area\+0x[0-9a-f]+>$' "$T/ann"
finish
