#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc annotate interleaves source lines with the disassembly: each line's file:line, its
# share of the function's samples (the sum over every instruction it produced) and its text.
# Under vpmu the counts are exact: tests/progs/annotate-lines runs a 4-instruction loop 3N
# times on one line and N times on the next, so those lines hold 75 % and 25 %. The source
# file is read under docs/security.md's rules: a missing file, a FIFO, a device or a file over
# 8 MiB leaves file:line with a note; a symbolic link to a regular file is followed; control
# characters in the text are shown as \xHH.
. "$(dirname "$0")/lib.sh"

require_vpmu
P=$PROGS/annotate-lines
[ -x "$P" ] || fail "tests/progs/annotate-lines is not built"
command -v cc >/dev/null || fail "no C compiler (scripts/setup.sh installs build-essential)"

# 10^6 x 4 x (3 + 1) instructions, one sample every 10007: 1199 and 400 samples, +/- 1.
"$PMC" record --backend=vpmu -e instructions -c 10007 -o "$T/l.data" "$P" 1000000 2>"$T/rec.err"
expect_eq "pmc record --backend=vpmu exits 0" $? 0
"$PMC" annotate -i "$T/l.data" work >"$T/ann" 2>"$T/ann.err"
expect_eq "pmc annotate exits 0" $? 0
# line PATTERN: "percent samples" of the source line whose text matches PATTERN.
line() { awk -v p="$1" '/annotate-lines\.c:[0-9]+  \| / && $0 ~ p { sub(/%/, "", $1); print $1, $2 }' "$T/ann"; }
read -r hot_pct hot_n < <(line 'HOT')
read -r cold_pct cold_n < <(line 'COLD')
expect_eq "the hot line holds 3/4 of work's samples (1199 +/- 1)" \
	"$(awk -v n="${hot_n:-0}" -v p="${hot_pct:-0}" 'BEGIN { print (n >= 1198 && n <= 1200 && p >= 74.9 && p <= 75.1) ? "yes" : n " " p }')" yes
expect_eq "the cold line holds 1/4 (400 +/- 1)" \
	"$(awk -v n="${cold_n:-0}" -v p="${cold_pct:-0}" 'BEGIN { print (n >= 399 && n <= 401 && p >= 24.9 && p <= 25.1) ? "yes" : n " " p }')" yes
expect_grep "the line's text follows its file:line" \
	'^ +7[45]\.[0-9]+% +[0-9]+  annotate-lines\.c:[0-9]+  \| +LOOP4\(hot\); +/\* HOT \*/$' "$T/ann"
# The line's share is the sum of its instructions' samples.
sum=$(awk '/annotate-lines\.c:.*HOT/ { on = 1; next } /annotate-lines\.c:/ { on = 0 } on { s += $2 } END { print s }' "$T/ann")
expect_eq "the hot line's samples are its instructions' sum" "$sum" "$hot_n"
expect_grep "each instruction keeps its own samples" '^ +18\.[0-9]+% +[0-9]+ +[0-9a-f]+:  nop' "$T/ann"

"$PMC" annotate -i "$T/l.data" --no-source work >"$T/plain" 2>&1
expect_eq "--no-source exits 0" $? 0
expect_no_grep "--no-source: no source lines" 'annotate-lines\.c' "$T/plain"
expect_eq "--no-source: the same instructions" "$(grep -c '^ .*[0-9a-f]:  ' "$T/plain")" \
	"$(grep -c '^ .*[0-9a-f]:  [a-z]' "$T/ann")"

# A line whose code the compiler split in two runs (the loop's header, inlined into outer:
# its test before the body and its increment and compare after) shows its share and text
# once; its second run is headed by file:line alone. Before, each run repeated the line's
# share, so that the shares of the lines summed to more than 100 %.
if [ -x "$PROGS/sample-inline" ]; then
	"$PMC" record --backend=vpmu -e instructions -c 10007 -o "$T/in.data" \
		"$PROGS/sample-inline" 30 2>>"$T/rec.err"
	"$PMC" annotate -i "$T/in.data" outer >"$T/in.ann" 2>&1
	expect_eq "a split line's share is shown once" \
		"$(grep -cE '^ +[0-9.]+% +[0-9]+  sample-inline\.c:14 ' "$T/in.ann")" 1
	expect_grep "its second run: file:line alone" '^ {18}sample-inline\.c:14  \(continued\)$' "$T/in.ann"
	expect_eq "the source lines' shares sum to 100 %" \
		"$(awk '/^ +[0-9.]+% +[0-9]+  [^ ]+:[0-9]+/ { sub(/%/, "", $1); s += $1 } END { print (s > 99.9 && s < 100.1) ? "yes" : s }' "$T/in.ann")" yes
else
	fail "tests/progs/sample-inline is not built"
fi

# A copy of the workload built here, so that its source file can be taken away or replaced.
# The hot line's comment carries an escape character, which must not reach the terminal.
mkdir "$T/src"
sed 's|/\* HOT \*/|/* HOT \x1b[31m */|' "$SRC/tests/progs/annotate-lines.c" >"$T/src/al.c"
cc -O1 -g -o "$T/al" "$T/src/al.c" || fail "cannot build the copy of annotate-lines"
"$PMC" record --backend=vpmu -e instructions -c 10007 -o "$T/c.data" "$T/al" 100000 2>>"$T/rec.err"
ann() { timeout 60 "$PMC" annotate -i "$T/c.data" work >"$T/c.ann" 2>"$T/c.err"; echo $?; }
expect_eq "the copy: pmc annotate exits 0" "$(ann)" 0
expect_grep "a control character in the text is shown as \\x1b" 'HOT \\x1b\[31m \*/$' "$T/c.ann"
L=$(grep -n 'HOT \*/$' "$SRC/tests/progs/annotate-lines.c" | cut -d: -f1) # the hot line
mv "$T/src/al.c" "$T/al.c"
expect_eq "source file gone: pmc annotate exits 0" "$(ann)" 0
expect_grep "source file gone: a note names it" "^# note: $T/src/al\.c: the source file is not there; its lines are shown as file:line only$" "$T/c.ann"
expect_grep "source file gone: file:line alone" "^ +7[45]\.[0-9]+% +[0-9]+  al\.c:$L\$" "$T/c.ann"
mkfifo "$T/src/al.c"
expect_eq "a FIFO as the source file: pmc annotate does not hang and exits 0" "$(ann)" 0
expect_grep "a FIFO: refused with a note" 'al\.c: the source file is not a regular file' "$T/c.ann"
rm "$T/src/al.c"
ln -s /dev/zero "$T/src/al.c"
expect_eq "a link to a device: exits 0" "$(ann)" 0
expect_grep "a link to a device: refused with a note" 'al\.c: the source file is not a regular file' "$T/c.ann"
ln -sf "$T/al.c" "$T/src/al.c"
expect_eq "a link to a regular file: exits 0" "$(ann)" 0
expect_grep "a link to a regular file is followed: the text is shown" "^ +7[45]\.[0-9]+% +[0-9]+  al\.c:$L  \| .*HOT" "$T/c.ann"
rm "$T/src/al.c"
cp "$T/al.c" "$T/src/al.c"
truncate -s 9M "$T/src/al.c"
expect_eq "a source file over 8 MiB: exits 0" "$(ann)" 0
expect_grep "a source file over 8 MiB: not read, with a note" 'al\.c: the source file is larger than 8 MiB: not read' "$T/c.ann"
finish
