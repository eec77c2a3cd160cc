#!/bin/bash
# SPDX-License-Identifier: MIT
# JIT symbols: sample-jit runs a loop it copied into anonymous executable memory (about 75 %
# of its time) and, with "map", writes /tmp/perf-PID.map naming it jit_loop, as JIT compilers
# do for perf. pmc report names the loop from that file, as perf report does; without the
# file the loop stays an address (and --hide-unresolved leaves it out); a map file someone
# else could have planted (a symbolic link, a FIFO, another user's, a huge one) is refused
# with its reason, never followed, waited on or read.
source "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98

out=$("$PMC" record -q -F 2000 -g -o "$T/jit.data" -- "$PROGS/sample-jit" 300 map 2>&1)
rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q "cannot sample\|cannot start sampling"; then
	skip "sampling unavailable: $out"
fi
expect_eq "pmc record of the JIT workload: exit status" "$rc" 0
"$PMC" report -i "$T/jit.data" -s dso,symbol -F csv > "$T/rep.csv" 2> "$T/err"
expect_eq "pmc report exit status" "$?" 0
expect_no_grep "no sanitizer report" "AddressSanitizer|LeakSanitizer|runtime error" "$T/err"
map=$(awk -F, 'NR == 2 { gsub(/"/, ""); print $6 }' "$T/rep.csv")
pid=${map#perf-}
pid=${pid%.map}
[ -n "$pid" ] && trap '[ "$BASHPID" = "$$" ] && rm -rf "$T" "/tmp/perf-$pid.map"' EXIT
expect_eq "the top entry's object is the JIT's map of the program's pid" "$map" \
	"perf-$pid.map"
top=$(awk -F, 'NR == 2 { gsub(/"/, ""); print int($2), $7 }' "$T/rep.csv")
if [ "${top#* }" = "[.] jit_loop" ] && [ "${top%% *}" -ge 60 ]; then
	ok "the JIT loop is named from the map: ${top#* } has ${top%% *}%"
else
	fail "top entry '$top' (want jit_loop, >= 60 %):"; head -4 "$T/rep.csv"
fi
if perf report -i "$T/jit.data" --stdio --no-children > "$T/perf" 2> /dev/null; then
	want=$(awk '!/^#/ && /\[\.\]/ { sub(/.*\[\.\] /, ""); sub(/ +$/, ""); print; exit }' \
		"$T/perf")
	expect_eq "perf report's top symbol" "$want" "jit_loop"
else
	# perf is a test dependency (scripts/setup.sh --test): a file it cannot read is a fault
	fail "perf report cannot read the file pmc recorded"
fi

# Hostile map files: each refused with its reason; the loop stays an address.
hostile() { # WHAT REASON
	timeout 20 "$PMC" report -i "$T/jit.data" -s symbol > "$T/h.out" 2> "$T/h.err"
	expect_eq "$1: pmc report exit status" "$?" 0
	expect_grep "$1: refused, saying why" "perf-$pid.map not read: $2" "$T/h.err"
	expect_no_grep "$1: the loop is not named" "jit_loop" "$T/h.out"
	expect_grep "$1: the loop stays an address" '\[\.\] 0x[0-9a-f]{16}$' "$T/h.out"
}
cp "/tmp/perf-$pid.map" "$T/good.map"
rm -f "/tmp/perf-$pid.map"
ln -s "$T/good.map" "/tmp/perf-$pid.map"
hostile "a symbolic link" "it is a symbolic link"
rm -f "/tmp/perf-$pid.map"
mkfifo "/tmp/perf-$pid.map"
hostile "a FIFO" "not a regular file"
rm -f "/tmp/perf-$pid.map"
truncate -s 300M "/tmp/perf-$pid.map"
hostile "a 300 MiB file" "it is larger than 256 MiB"
rm -f "/tmp/perf-$pid.map"
if [ "$(id -u)" = 0 ]; then
	cp "$T/good.map" "/tmp/perf-$pid.map"
	chown 65534 "/tmp/perf-$pid.map"
	hostile "another user's file" "it is owned by neither this user nor root"
	rm -f "/tmp/perf-$pid.map"
else
	skip_part no-root "not root: cannot make another user's map file"
fi

# No map file: the loop is an address in the JIT's map; --hide-unresolved leaves it out
# (its samples are in no entry), so named_work is then nearly all of what is shown.
"$PMC" report -i "$T/jit.data" -s symbol -F csv > "$T/nomap.csv" 2> "$T/nomap.err"
expect_no_grep "a missing map file is no warning" "perf-$pid.map" "$T/nomap.err"
expect_grep "the loop is an address" '^"cpu-clock",[0-9.]+,[0-9.]+,[0-9]+,[0-9]+,"\[\.\] 0x' \
	"$T/nomap.csv"
"$PMC" report -i "$T/jit.data" -s symbol -F csv --hide-unresolved > "$T/hide.csv"
expect_no_grep "--hide-unresolved: no address left" '"\[\.\] 0x' "$T/hide.csv"
top=$(awk -F, 'NR == 2 { gsub(/"/, ""); print int($2), $6 }' "$T/hide.csv")
if [ "${top#* }" = "[.] named_work" ] && [ "${top%% *}" -ge 90 ]; then
	ok "--hide-unresolved: named_work has ${top%% *}% of what is shown"
else
	fail "--hide-unresolved: top entry '$top' (want named_work >= 90 %)"; head -4 "$T/hide.csv"
fi
finish
