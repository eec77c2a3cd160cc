#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc annotate on stripped objects (docs/symbols.md): a stripped copy of annotate-lines
# (objcopy --strip-all) with its separate debug file, found by .gnu_debuglink beside it or by
# build id under /usr/lib/debug/.build-id (a private mount namespace puts a folder of ours
# there), is annotated as if it were not stripped; a debug file that is a FIFO or whose build
# id is another object's is passed over; with no debug file the report names addresses and
# pmc annotate takes one: the function around it, bounded by .eh_frame, as [unknown].
. "$(dirname "$0")/lib.sh"

require_vpmu
P=$PROGS/annotate-lines
[ -x "$P" ] || fail "tests/progs/annotate-lines is not built"
command -v objcopy >/dev/null && command -v nm >/dev/null || fail "binutils is missing (scripts/setup.sh)"

mkdir "$T/dl"
objcopy --only-keep-debug "$P" "$T/al.debug"
(cd "$T" && objcopy --strip-all --add-gnu-debuglink=al.debug "$P" dl/al) || fail "objcopy"
expect_eq "the copy has no symbol table" "$(nm "$T/dl/al" 2>&1 | grep -c ' work$')" 0
"$PMC" record --backend=vpmu -e instructions -c 10007 -o "$T/d.data" "$T/dl/al" 1000000 2>"$T/rec.err"
expect_eq "pmc record --backend=vpmu exits 0" $? 0
# work's extent, from the unstripped program: start and size.
read -r wstart wsize < <(nm -S "$P" | awk '$4 == "work" { print $1, $2 }')
wstart=$(printf '%x' $((16#$wstart))) wsize=$((16#$wsize))
hot='^ +7[45]\.[0-9]+% +(119[89]|1200)  annotate-lines\.c:[0-9]+  \| .*HOT'

ann() { # FILE ARGS...: pmc annotate -i $T/d.data ARGS into FILE (and FILE.err); exit status
	local out=$1
	shift
	timeout 60 "$PMC" annotate -i "$T/d.data" "$@" >"$out" 2>"$out.err"
	echo $?
}
cp "$T/al.debug" "$T/dl/al.debug"
expect_eq "debug link beside the object: exits 0" "$(ann "$T/link" work)" 0
expect_grep "debug link: work is named" "^# work \($T/dl/al\): [0-9]+ samples, $wsize bytes at 0x$wstart$" "$T/link"
expect_grep "debug link: source lines and text" "$hot" "$T/link"
rm "$T/dl/al.debug"
mkfifo "$T/dl/al.debug"
expect_eq "a FIFO as the debug file: no hang, work is not found (exit 1)" "$(ann "$T/fifo" work)" 1
rm "$T/dl/al.debug"
objcopy --only-keep-debug "$PROGS/vpmu-loop" "$T/dl/al.debug"
expect_eq "another object's debug file: not taken (exit 1)" "$(ann "$T/other" work)" 1
expect_grep "the message says how to name code without symbols" "name the code by address" "$T/other.err"
rm "$T/dl/al.debug"

# By build id: /usr/lib/debug/.build-id/ab/cdef....debug, in a mount namespace of our own.
id=$(readelf -n "$T/dl/al" | awk '/Build ID/ { print $3 }')
mkdir -p "$T/root/.build-id/${id:0:2}"
cp "$T/al.debug" "$T/root/.build-id/${id:0:2}/${id:2}.debug"
if unshare -m true 2>/dev/null; then
	unshare -m sh -c 'mount --bind "$1" /usr/lib/debug && exec "$2" annotate -i "$3" work' sh \
		"$T/root" "$PMC" "$T/d.data" >"$T/bid" 2>"$T/bid.err"
	expect_eq "debug file by build id: exits 0" $? 0
	expect_grep "by build id: work is named, with its source lines" "$hot" "$T/bid"
else
	skip_part no-mount-namespace "cannot mount a folder on /usr/lib/debug in a private namespace"
fi

# No debug file at all: the report names each address; annotate takes one.
"$PMC" report -i "$T/d.data" --no-callers >"$T/rep" 2>&1
top=$(awk '!/^#/ && /%/ { print $NF; exit }' "$T/rep")
expect_grep "the report names the stripped code by address" '^ +1[0-9]\.[0-9]+% .*\[\.\] 0x0000000000001[0-9a-f]{3}$' "$T/rep"
expect_eq "no debug file: annotate an address the report shows: exits 0" "$(ann "$T/addr" "$top")" 0
expect_grep "the function around it, bounded by .eh_frame: work's extent, as [unknown]" \
	"^# \[unknown\] \($T/dl/al\): [0-9]+ samples, $wsize bytes at 0x$wstart$" "$T/addr"
expect_no_grep "no source lines without debug information" 'annotate-lines\.c' "$T/addr"
expect_grep "the loop's instructions with their samples" '^ +18\.[0-9]+% +(299|300) +[0-9a-f]+:  nop' "$T/addr"
end=$(printf '0x%x' $((16#$wstart + 8)))
expect_eq "a range: exits 0" "$(ann "$T/range" "0x$wstart-$end")" 0
expect_grep "a range: its bytes" "^# \[unknown\] \($T/dl/al\): [0-9]+ samples, 8 bytes at 0x$wstart$" "$T/range"
expect_eq "a range over 1 MiB: exit 1" "$(ann "$T/big" 0x1000-0x200000)" 1
expect_grep "a range over 1 MiB: said" "over 1 MiB" "$T/big.err"
expect_eq "an address without samples: exit 1" "$(ann "$T/none" 0x10)" 1
expect_grep "an address without samples: said" "no sampled code at 0x10" "$T/none.err"
finish
