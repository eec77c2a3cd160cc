#!/bin/bash
# SPDX-License-Identifier: MIT
# pmc record's output file as perf writes perf.data: mode 0600 whatever the umask (it holds
# the program's stacks and registers), the file it replaces kept as NAME.old, a failed run
# leaving both untouched, a link planted at NAME.old replaced and never followed, and a
# folder at NAME.old refused before the command runs.
. "$(dirname "$0")/lib.sh"

rec() { "$PMC" record -c 1 -e syscalls:sys_enter_getppid -o "$T/perf.data" -- "$PROGS/getppid-loop" "$1" >"$T/out" 2>&1; }
samples() { "$PMC" report -i "$1" --format json | json /dev/stdin 'j["samples"]'; }

umask 022
rec 10 || { cat "$T/out"; fail "first recording failed"; }
expect_eq "a recording is 0600 under umask 022" "$(stat -c %a "$T/perf.data")" 600
[ -e "$T/perf.data.old" ] && fail "a first recording made a .old"
rec 20 || fail "second recording failed"
expect_eq "the second recording has its own samples" "$(samples "$T/perf.data")" 20
expect_eq "the first kept as perf.data.old" "$(samples "$T/perf.data.old")" 10
expect_eq "perf.data.old keeps its mode" "$(stat -c %a "$T/perf.data.old")" 600

# A recording that fails (an event that does not exist) changes neither file.
cp "$T/perf.data" "$T/keep.data"; cp "$T/perf.data.old" "$T/keep.old"
"$PMC" record -e no_such_event -o "$T/perf.data" -- "$PROGS/getppid-loop" 5 >/dev/null 2>&1 &&
	fail "a recording of an unknown event succeeded"
cmp -s "$T/perf.data" "$T/keep.data" && ok "a failed recording leaves perf.data" || fail "perf.data changed by a failed recording"
cmp -s "$T/perf.data.old" "$T/keep.old" && ok "a failed recording leaves perf.data.old" || fail "perf.data.old changed by a failed recording"

# An empty perf.data is not worth keeping (perf's rule): no .old made from it.
rm -f "$T/perf.data" "$T/perf.data.old"; : >"$T/perf.data"
rec 5 || fail "recording over an empty file failed"
[ -e "$T/perf.data.old" ] && fail "an empty perf.data was kept as .old" || ok "an empty perf.data is not kept"

# A link planted at perf.data.old is replaced by the old recording, its target untouched.
echo precious >"$T/victim"
ln -s "$T/victim" "$T/perf.data.old"
rec 7 || fail "recording with a link at .old failed"
expect_eq "the link's target is untouched" "$(cat "$T/victim")" precious
[ -L "$T/perf.data.old" ] && fail "perf.data.old is still the planted link" || ok "the planted link was replaced"
expect_eq "perf.data.old is the previous recording" "$(samples "$T/perf.data.old")" 5

# A folder at perf.data.old: refused before the command runs (nothing measured, nothing lost).
rm -f "$T/perf.data.old"; mkdir "$T/perf.data.old"
cp "$T/perf.data" "$T/keep.data"
"$PMC" record -c 1 -e syscalls:sys_enter_getppid -o "$T/perf.data" -- touch "$T/ran" >"$T/out" 2>&1 &&
	fail "recording beside a folder named perf.data.old succeeded"
[ -e "$T/ran" ] && fail "the command ran although the output could not be written" || ok "the command did not run"
expect_grep "the error says NAME.old is a folder" "NAME.old. is a folder" "$T/out"
cmp -s "$T/perf.data" "$T/keep.data" && ok "perf.data untouched" || fail "perf.data changed"

echo "$PASSES passed, $FAILS failed"
