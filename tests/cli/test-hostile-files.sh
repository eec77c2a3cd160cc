#!/bin/bash
# SPDX-License-Identifier: MIT
# Files pmc did not make (docs/security.md): a results path through another user's link in
# a sticky folder is refused; a FIFO or device named as an input (-i, --config,
# --kallsyms, a mapped object inside a sample file) is refused at once, never waited on.
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98
TO="timeout -k 5 30" # a hang fails the check (124), it does not stall the suite

# -o through a link planted in a sticky, world-writable folder.
mkdir -m 1777 "$T/shared"
echo precious >"$T/victim"
ln -s "$T/victim" "$T/shared/out.json"
if [ "$(id -u)" = 0 ]; then
	chown -h 65534 "$T/shared/out.json" # nobody's link, in root's sticky folder
	$TO "$PMC" stat -e task-clock --format json -o "$T/shared/out.json" -- true 2>"$T/err"
	rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 124 ] && ok "-o through another user's link fails ($rc)" ||
		fail "-o through another user's link: exit $rc"
	expect_eq "the link's target is untouched" "$(cat "$T/victim")" precious
	expect_grep "the message names the link rule" "symbolic link in a shared sticky folder" "$T/err"
	chown -h 0 "$T/shared/out.json" # the folder owner's link is followed, as the kernel does
fi
$TO "$PMC" stat -e task-clock --format json -o "$T/shared/out.json" -- true 2>"$T/err"
expect_eq "-o through my own link in a sticky folder" "$?" 0
expect_eq "it replaced the link's target" "$(json "$T/victim" 'j["schema"]')" pmc-stat/1
[ -L "$T/shared/out.json" ] && ok "the link stays a link" || fail "the link was replaced"
$TO "$PMC" stat -e task-clock -o "$T/nonexistent/out.txt" -- true 2>"$T/err"
[ $? -ne 0 ] && [ ! -e "$T/nonexistent" ] && ok "-o in a missing folder fails and makes none" ||
	fail "-o in a missing folder: $(cat "$T/err")"

# Inputs that are FIFOs or devices.
mkfifo "$T/fifo"
$TO "$PMC" report -i "$T/fifo" >"$T/out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && ok "report -i FIFO fails at once ($rc)" || fail "report -i FIFO: exit $rc"
expect_grep "report -i FIFO says why" "not a regular file" "$T/out"
$TO "$PMC" stat --config "$T/fifo" -e task-clock -- true >"$T/out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && ok "stat --config FIFO fails at once ($rc)" || fail "stat --config FIFO: exit $rc"
expect_grep "stat --config FIFO says why" "not a regular file" "$T/out"
$TO "$PMC" stat --config /dev/zero -e task-clock -- true >"$T/out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && ok "stat --config /dev/zero fails at once ($rc)" || fail "stat --config /dev/zero: exit $rc"
for f in "$T/fifo" /dev/zero "$T"; do
	$TO "$PMC" metrics "$f" >"$T/out" 2>&1
	rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 124 ] && ok "metrics $f fails at once ($rc)" || fail "metrics $f: exit $rc"
	expect_grep "metrics $f says it is not a regular file" "not a regular file" "$T/out"
done
"$PMC" metrics "$T/missing.json" >"$T/out" 2>&1
expect_grep "metrics on a missing file says so, with no line number" \
	"cannot read .*missing.json: No such file or directory$" "$T/out"

# A recording whose program is then replaced by a FIFO (its mapped object, read by report).
# -N: no copy in the build-id cache, which report would read instead of the FIFO.
cp "$PROGS/sample-split" "$T/prog"
if ! "$PMC" record -N -q -e cpu-clock:u -o "$T/r.data" -- "$T/prog" 20 >/dev/null 2>"$T/err"; then
	fail "pmc record: $(cat "$T/err")"
else
	rm "$T/prog" && mkfifo "$T/prog"
	$TO "$PMC" report -i "$T/r.data" >"$T/out" 2>"$T/err"
	expect_eq "report with a FIFO as a mapped object ends" "$?" 0
	expect_grep "it says the mapped object is not a regular file" "prog, mapped in the recording, is not a regular file" "$T/err"
fi
# Kernel samples (a program that lives in system calls) with /dev/zero as the kernel symbols.
if ! "$PMC" record -q -e cpu-clock:k -o "$T/k.data" -- dd if=/dev/zero of=/dev/null bs=1 count=300000 \
	>/dev/null 2>"$T/err"; then
	fail "pmc record of kernel samples: $(cat "$T/err")"
else
	$TO "$PMC" report -i "$T/k.data" --kallsyms=/dev/zero >"$T/out" 2>"$T/err"
	expect_eq "report --kallsyms=/dev/zero ends" "$?" 0
	expect_grep "it says why the kernel symbols were not read" "cannot read kernel symbols from /dev/zero: .*not a regular file" "$T/err"
fi
finish
