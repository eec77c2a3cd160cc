#!/bin/bash
# SPDX-License-Identifier: MIT
# pmc report -s dsym names globals from the objects' symbol tables, .bss included (mapped
# anonymously after the object's data, or in its last file page): sample-dmaps first touches
# every page of dm_global (64 KiB in .bss: 16 pages, the first shared with .data and so
# perhaps touched already) and of a 1 MiB anonymous mapping (256 pages); page-fault samples
# (-d: the faulting address) fall on them.
source "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98

out=$("$PMC" record -q -e page-faults -c 1 -d -o "$T/dm.data" -- "$PROGS/sample-dmaps" 2>&1)
rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q "cannot sample\|cannot start sampling"; then
	skip "sampling unavailable: $out"
fi
expect_eq "pmc record -d exit status" "$rc" 0
"$PMC" report -i "$T/dm.data" -s dsym -F csv > "$T/dsym.csv" 2> "$T/err"
expect_eq "pmc report -s dsym exit status" "$?" 0
expect_no_grep "no sanitizer report" "AddressSanitizer|LeakSanitizer|runtime error" "$T/err"
n=$(awk -F, '$6 == "\"dm_global (sample-dmaps)\"" { print $4 }' "$T/dsym.csv")
if [ "${n:-0}" -ge 15 ] && [ "${n:-0}" -le 16 ]; then ok "dm_global is named: $n samples"
else fail "dm_global: '${n:-}' samples (want 15 or 16):"; head -8 "$T/dsym.csv"; fi
n=$(awk -F, '$6 == "\"[anon]\"" { print $4 }' "$T/dsym.csv")
if [ "${n:-0}" -ge 256 ]; then ok "anonymous memory is [anon]: $n samples"
else fail "[anon]: '${n:-}' samples (want >= 256)"; head -8 "$T/dsym.csv"; fi
expect_no_grep "no doubled brackets ([[stack]])" '\[\[' "$T/dsym.csv"
finish
