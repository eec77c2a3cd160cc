#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# scripts/check-layers.py, the check of docs/architecture.md's layers, on a small tree of its
# own: it finds a folder without a layer, an include and a call that run back up, and a circle
# of calls between the files of one folder, and passes once they are gone; what is not a call
# (a static function, a name two files define, a struct tag, a member, a comment or a string)
# ties no file to another.
. "$(dirname "$0")/lib.sh"
: "${SRC:?SRC must point at the source tree}"
CHECK=$SRC/scripts/check-layers.py
R=$T/tree

mkdir -p "$R/docs" "$R/lib/low" "$R/lib/high" "$R/lib/other" "$R/tools/cli" "$R/scripts"
cat >"$R/docs/architecture.md" <<'EOF'
# Architecture

## Layers

| layer | folders | what lives there |
|---|---|---|
| 3 | `tools/cli/` | the CLI |
| 2 | `lib/high/` | what uses low |
| 1 | `lib/low/` | the bottom |

## Next section

| 9 | `lib/other/` | not a layer row: another section's table |
EOF
cat >"$R/lib/high/high.h" <<'EOF'
int high_fn(void);
EOF
cat >"$R/lib/high/high.c" <<'EOF'
#include "high/high.h"

int high_fn(void)
{
	return 1;
}
EOF
# low/a.c includes a header of a higher layer; low/b.c calls a function of one.
cat >"$R/lib/low/a.c" <<'EOF'
#include "high/high.h"
#include <stdio.h>
EOF
cat >"$R/lib/low/b.c" <<'EOF'
int b_fn(void)
{
	return high_fn();
}
EOF
# p.c and q.c call each other: a circle.
cat >"$R/lib/low/p.c" <<'EOF'
int q_fn(void);

int p_fn(int n)
{
	return n ? q_fn() : 0;
}
EOF
cat >"$R/lib/low/q.c" <<'EOF'
int p_fn(int n);

int q_fn(void)
{
	return p_fn(0);
}
EOF
# r.c names p_fn and q_fn only where no call is: a comment, a string, a member, a struct tag;
# s.c calls its own static function; dup_fn is defined twice, so naming it ties no file.
cat >"$R/lib/low/r.c" <<'EOF'
struct p_fn {
	int q_fn;
};

/* p_fn() and q_fn() */
int r_fn(struct p_fn *x)
{
	const char *s = "q_fn(p_fn())";

	return x->q_fn + (s != 0) + dup_fn();
}

int dup_fn(void)
{
	return 0;
}
EOF
cat >"$R/lib/low/s.c" <<'EOF'
static int r_fn(void)
{
	return 0;
}

int dup_fn(void)
{
	return r_fn();
}
EOF
cat >"$R/lib/other/o.c" <<'EOF'
int o_fn(void)
{
	return 0;
}
EOF
# The CLI calls down: allowed.
cat >"$R/tools/cli/main.c" <<'EOF'
#include "../../lib/high/high.h"

int main(void)
{
	return high_fn() + b_fn();
}
EOF

run() {
	"$CHECK" --root "$R" "$@" >"$T/out" 2>&1
	echo $?
}

expect_eq "a tree that breaks the rule fails" "$(run --allow '')" 1
expect_grep "the layers read from the table" "^ +3 +tools/cli/$" "$T/out"
expect_grep "the folder without a layer" "^  folder without a layer: lib/other/$" "$T/out"
expect_no_grep "another section's table is no layer" "9 +lib/other" "$T/out"
expect_grep "the include back up, with its line" \
	'^  lib/low/a.c \(layer 1\) -> lib/high/high.h \(layer 2\): line 1: #include "high/high.h' \
	"$T/out"
expect_grep "the call back up, with the name" \
	"^  lib/low/b.c \(layer 1\) -> lib/high/high.c \(layer 2\): calls high_fn$" "$T/out"
expect_grep "two edges back up, no more (the CLI calls down)" "^edges back up: 2$" "$T/out"
expect_grep "the circle, its files" "^  lib/low/: p.c q.c$" "$T/out"
expect_grep "the circle, the name that ties p.c to q.c" "^    p.c -> q.c: q_fn$" "$T/out"
expect_grep "the circle, the name that ties q.c to p.c" "^    q.c -> p.c: p_fn$" "$T/out"
expect_grep "one circle: r.c and s.c are in none" "^circles: 1$" "$T/out"
expect_no_grep "a comment, a string, a tag, a member, a name defined twice tie nothing" \
	"r.c ->|s.c ->|-> r.c|-> s.c" "$T/out"

run --allow '' --summary >/dev/null
expect_eq "--summary: the counts" "$(grep -c . "$T/out")" 3
expect_grep "--summary: the counts" \
	"^check-layers: 3 layers of 3 folders, 1 folders without a layer, 2 edges back up, 1 circles" \
	"$T/out"

# The allow-list lets the circle and one edge pass; the rest still fails.
cat >"$R/scripts/layers-allow.txt" <<'EOF'
# a comment
circle lib/low
edge lib/low/b.c -> lib/high/high.c
edge lib/low/x.c -> lib/high/high.c
EOF
expect_eq "allowed, but a folder and an edge remain" "$(run)" 1
expect_grep "what was allowed is marked" "^  lib/low/: p.c q.c \(allowed\)$" "$T/out"
expect_grep "an entry the tree does not need is said" \
	"has 'edge lib/low/x.c -> lib/high/high.c', which the tree no longer needs" "$T/out"
echo "nonsense here" >>"$R/scripts/layers-allow.txt"
expect_eq "a malformed allow-list is refused" "$(run)" 1
expect_grep "a malformed allow-list is refused" "layers-allow.txt:5: expected" "$T/out"

# Fixed: the folder in the table, the shared function moved down, the include gone.
sed -i 's/^| 1 | `lib\/low\/` |/| 1 | `lib\/low\/`, `lib\/other\/` |/' "$R/docs/architecture.md"
sed -i 's/return high_fn();/return 2;/' "$R/lib/low/b.c"
: >"$R/lib/low/a.c"
printf 'int q_fn(void)\n{\n\treturn 1;\n}\n' >"$R/lib/low/q.c"
expect_eq "the tree that keeps the rule passes" "$(run --allow '' --summary)" 0
expect_grep "nothing left" "0 folders without a layer, 0 edges back up, 0 circles" "$T/out"

# The project's own tree, with its allow-list: what scripts/test.sh checks.
expect_eq "the project's tree keeps its layers" "$("$CHECK" --summary >"$T/own" 2>&1; echo $?)" 0
expect_grep "the project's tree: no edge back up" " 0 edges back up" "$T/own"
echo "$PASSES passed, $FAILS failed"
