#!/bin/bash
# SPDX-License-Identifier: MIT
# pmc report on truncated and corrupted seed files: each one read or rejected cleanly (exit
# 0 or 1 with "at offset"), never a crash or a sanitizer report.
set -u
: "${PMC:?}" "${SRC:?}"
T=$(mktemp -d)
# Only the script's own shell cleans up: a background job killed before its exec is a
# copy of this shell that would run the trap too (and delete the folder under the test).
trap '[ "$BASHPID" = "$$" ] && rm -rf "$T"' EXIT
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98
n=0
for seed in "$SRC"/fuzz/perfdata/corpus/*.data; do
	size=$(stat -c %s "$seed")
	for cut in 0 4 8 50 103 104 150 200 400 $((size / 3)) $((size / 2)) $((size - 100)) $((size - 9)) $((size - 1)); do
		[ $cut -ge 0 ] && [ $cut -lt $size ] || continue
		head -c $cut "$seed" > "$T/f"
		"$PMC" report -i "$T/f" >/dev/null 2>"$T/err"; rc=$?
		if [ $rc -ne 0 ] && { [ $rc -ne 1 ] || ! grep -q "at offset" "$T/err"; }; then
			echo "FAIL: $(basename "$seed") cut at $cut: rc $rc: $(head -3 "$T/err")"; exit 1
		fi
		n=$((n + 1))
	done
	for off in 0 7 8 16 24 40 48 72 $((size / 2)) $((size - 20)); do
		cp "$seed" "$T/f"
		printf '\xff\xff\xff\x7f' | dd of="$T/f" bs=1 seek=$off conv=notrunc 2>/dev/null
		"$PMC" report -i "$T/f" >/dev/null 2>"$T/err"; rc=$?
		if [ $rc -gt 1 ]; then
			echo "FAIL: $(basename "$seed") corrupted at $off: rc $rc: $(head -3 "$T/err")"; exit 1
		fi
		n=$((n + 1))
	done
done
"$PMC" report -i "$SRC/fuzz/perfdata/corpus/pmc-full.data" >/dev/null 2>&1 || { echo "FAIL: seed unreadable"; exit 1; }
head -c 60 "$SRC/fuzz/perfdata/corpus/pmc-full.data" > "$T/t"
"$PMC" report -i "$T/t" 2>&1 | grep -q "at offset 60: file ends inside the 104-byte header" ||
	{ echo "FAIL: truncation message: $("$PMC" report -i "$T/t" 2>&1)"; exit 1; }
echo "ok: $n damaged files rejected or read cleanly"
