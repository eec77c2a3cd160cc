#!/bin/bash
# SPDX-License-Identifier: MIT
# [vdso] frames named: pmc record saves the vDSO image under $XDG_CACHE_HOME/pmc/vdso/ID/[vdso]
# and names its build id in the file (the BUILD_ID feature, which perf reads too); pmc report
# reads the image. sample-vdso spends nearly all its time in clock_gettime(), in the vDSO.
source "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98
export XDG_CACHE_HOME="$T/cache"

out=$("$PMC" record -q -F 2000 -o "$T/v.data" -- "$PROGS/sample-vdso" 20000000 2>&1)
rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -q "cannot sample\|cannot start sampling"; then
	skip "sampling unavailable: $out"
fi
expect_eq "pmc record exit status" "$rc" 0
imgs=("$T"/cache/pmc/vdso/*/\[vdso\])
expect_eq "one vDSO image saved" "${#imgs[@]}" 1
img=${imgs[0]}
id=$(basename "$(dirname "$img")")
# The saved image is this kernel's vDSO: an ELF whose GNU build id is its folder's name.
got=$(readelf -n "$img" 2> /dev/null | awk '/Build ID/ { print $NF }')
expect_eq "the image's build id names its folder" "$got" "$id"
if perf buildid-list -i "$T/v.data" > "$T/ids" 2> /dev/null; then
	expect_grep "perf reads the file's [vdso] build id" "^$id \[vdso\]$" "$T/ids"
else
	echo "note: perf unavailable; its reading of the BUILD_ID feature not checked"
fi

"$PMC" report -i "$T/v.data" -s dso,symbol -F csv > "$T/rep.csv" 2> "$T/err"
expect_eq "pmc report exit status" "$?" 0
expect_no_grep "no sanitizer report" "AddressSanitizer|LeakSanitizer|runtime error" "$T/err"
top=$(awk -F, 'NR == 2 { gsub(/"/, ""); print int($2), $6, $7 }' "$T/rep.csv")
if [ "${top#* }" = "[vdso] [.] __vdso_clock_gettime" ] && [ "${top%% *}" -ge 50 ]; then
	ok "the vDSO's code is named: ${top#* } has ${top%% *}%"
else
	fail "top entry '$top' (want [vdso] __vdso_clock_gettime, >= 50 %):"; head -4 "$T/rep.csv"
fi

# The image gone (another machine, a cleaned cache): the samples keep their addresses.
rm -rf "$T/cache"
"$PMC" report -i "$T/v.data" -s dso,symbol -F csv > "$T/gone.csv" 2> "$T/gone.err"
expect_eq "without the image: exit status" "$?" 0
expect_grep "without the image: [vdso] addresses" '"\[vdso\]","\[\.\] 0x[0-9a-f]{16}"(,|$)' \
	"$T/gone.csv"
finish
