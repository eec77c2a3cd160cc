#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/check-size.py, the size limits of docs/architecture.md, on a small tree of its own:
# it finds a file over 500 lines and a function over 60 (a static one, a multi-line
# signature), lets 60 lines pass, takes the VEX switch's exemption only with its comment,
# takes an allow-list for tools/pmc/ only, and passes once the tree keeps the limits.
. "$(dirname "$0")/lib.sh"
: "${SRC:?SRC must point at the source tree}"
CHECK=$SRC/scripts/check-size.py
R=$T/tree

mkdir -p "$R/lib/mod" "$R/tools/vpmu" "$R/tools/pmc" "$R/mpi" "$R/scripts"
# fn NAME BODY_LINES [STATIC]: a function of BODY_LINES lines between its braces.
fn() {
	printf '%sint %s(int a,\n\t\tint b)\n{\n' "${3:-}" "$1"
	for ((i = 0; i < $2; i++)); do printf '\ta += b;\n'; done
	printf '}\n\n'
}
{
	fn ok_fn 60
	fn long_fn 61 'static '
} >"$R/lib/mod/a.c"
{
	echo "/* a long file */"
	for ((i = 0; i < 500; i++)); do echo "int v$i;"; done
} >"$R/mpi/big.c"
{
	echo "/* check-size: exempt: one case label per IR operation */"
	fn classify_op 80 'static '
} >"$R/tools/vpmu/vpmu-classify.c"
fn apply 70 'static ' >"$R/tools/pmc/cmd.c"

run() {
	"$CHECK" --root "$R" "$@" >"$T/out" 2>&1
	echo $?
}

expect_eq "a tree over the limits fails" "$(run --allow '')" 1
expect_grep "the function over 60 lines, where its signature starts" \
	"^  function over 60 lines: lib/mod/a.c:[0-9]+: long_fn: 61$" "$T/out"
expect_no_grep "60 lines pass" "ok_fn" "$T/out"
expect_grep "the file over 500 lines" "^  file over 500 lines: mpi/big.c: 501$" "$T/out"
expect_grep "the CLI's function" "^  function over 60 lines: tools/pmc/cmd.c:1: apply: 70$" \
	"$T/out"
expect_no_grep "the VEX switch is exempt" "classify_op" "$T/out"
expect_grep "the counts" "^check-size: 1 files over 500 lines, 2 functions over 60 .*, 1 exempt$" \
	"$T/out"

run --allow '' --summary >/dev/null
expect_eq "--summary: the counts only" "$(grep -c . "$T/out")" 1

# The exemption holds only with its comment.
sed -i 1d "$R/tools/vpmu/vpmu-classify.c"
expect_eq "an exemption without its comment fails" "$(run --allow '')" 1
expect_grep "an exemption without its comment is said" \
	"classify_op is exempt but the comment above it does not say 'check-size: exempt'" \
	"$T/out"
echo "/* check-size: exempt: one case label per IR operation */" >"$R/tools/vpmu/vpmu-classify.c"
fn classify_op 80 'static ' >>"$R/tools/vpmu/vpmu-classify.c"

# The allow-list may name the CLI only; it lets its function pass.
cat >"$R/scripts/size-allow.txt" <<'EOF'
# a comment
function tools/pmc/cmd.c apply
function tools/pmc/cmd.c gone
EOF
expect_eq "the CLI allowed, lib and mpi still over" "$(run)" 1
expect_grep "what was allowed is marked" "apply: 70 \(allowed\)$" "$T/out"
expect_grep "an entry the tree does not need is said" \
	"has 'function tools/pmc/cmd.c gone', which the tree no longer needs" "$T/out"
echo "function lib/mod/a.c long_fn" >>"$R/scripts/size-allow.txt"
expect_eq "an entry outside tools/pmc/ is refused" "$(run)" 1
expect_grep "an entry outside tools/pmc/ is said" \
	"scripts/size-allow.txt:4: lib/mod/a.c is not under tools/pmc/" "$T/out"
echo "nonsense here" >>"$R/scripts/size-allow.txt"
expect_eq "a malformed allow-list is refused" "$(run)" 1
expect_grep "a malformed allow-list is refused" "size-allow.txt:5: expected" "$T/out"

# Fixed: the function split, the file cut, the CLI's function shortened.
{
	fn ok_fn 60
	fn long_fn 30 'static '
	fn long_fn_rest 31 'static '
} >"$R/lib/mod/a.c"
sed -i '$d' "$R/mpi/big.c"
fn apply 50 'static ' >"$R/tools/pmc/cmd.c"
expect_eq "the tree that keeps the limits passes" "$(run --allow '' --summary)" 0
expect_grep "nothing left" "0 files over 500 lines, 0 functions over 60" "$T/out"

# The project's own tree, with its allow-list: what scripts/test.sh checks.
expect_eq "the project's tree keeps its limits" "$("$CHECK" --summary >"$T/own" 2>&1; echo $?)" 0
expect_grep "the project's tree: its VEX switch exempt" ", 1 exempt$" "$T/own"
echo "$PASSES passed, $FAILS failed"
