#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Validation from a C program that uses only include/pmc (tests/progs/api-validate.c): an
# exact tracepoint validated through libpmc, its verdict merged into a trust file and read
# back with pmc_trust__lookup(), as pmc stat reads it; and pmc stat agrees with that file.
. "$(dirname "$0")/lib.sh"

P="$PROGS/api-validate"
[ -x "$P" ] || fail "tests/progs/api-validate is not built"
grep -q '#include "' "$SRC/tests/progs/api-validate.c" &&
	fail "api-validate includes a header outside include/pmc"

"$P" "$T/trust.json" >"$T/out" 2>"$T/err"
expect_eq "api-validate exits 0" "$?" 0
expect_grep "the row: exact, 3 sizes counted" '^row: exact \(3 points\)$' "$T/out"
expect_grep "its verdict read back: exact" '^verdict: exact \(exact, 0\)$' "$T/out"
expect_eq "the file holds the one entry" \
	"$(json "$T/trust.json" '[(e["backend"], e["kernel"], e["event"], e["class"]) for e in j["entries"]]')" \
	"[('perf', 'syscall', 'syscalls:sys_enter_getppid', 'exact')]"
expect_eq "its schema" "$(json "$T/trust.json" 'j["schema"]')" "pmc-trust/1"

# pmc stat reads the same file and marks the count as the program read it
PMC_TRUST=$T/trust.json "$PMC" stat -e syscalls:sys_enter_getppid "$PROGS/getppid-loop" 10 \
	>/dev/null 2>"$T/stat"
expect_grep "pmc stat marks the count exact" 'syscalls:sys_enter_getppid +\[exact\]$' "$T/stat"

# a second run merges: the entry is replaced, not doubled
"$P" "$T/trust.json" >/dev/null 2>&1
expect_eq "merged, not doubled" "$(json "$T/trust.json" 'len(j["entries"])')" 1

finish
