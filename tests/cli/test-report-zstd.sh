#!/bin/bash
# SPDX-License-Identifier: MIT
# pmc report reads perf record -z files (PERF_RECORD_COMPRESSED, zstd), recorded here with
# perf itself on a software event: the same samples, event count and top entry as perf
# report of the same file, and the file does hold compressed records.
source "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98

command -v perf > /dev/null || skip_cap perf "perf is not installed (scripts/setup.sh --test)"
out=$(perf record -z -e cpu-clock -F 2000 -g -o "$T/z.data" -- "$PROGS/sample-cxx" 300 2>&1)
rc=$?
if [ $rc -ne 0 ] && echo "$out" | grep -qi "permission\|not supported\|no such"; then
	skip "perf record -z cannot sample here: $out"
fi
expect_eq "perf record -z exit status" "$rc" 0
expect_grep "perf compressed the file" "compressed \(original" <(echo "$out")

# The data section holds type-81 records (PERF_RECORD_COMPRESSED), which pmc once refused.
nr_z=$(python3 - "$T/z.data" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
off, size = struct.unpack_from("<QQ", b, 40)
p, n = off, 0
while p + 8 <= off + size:
    t, _, s = struct.unpack_from("<IHH", b, p)
    if s < 8:
        break
    n += t == 81
    p += s
print(n)
PY
)
if [ "${nr_z:-0}" -ge 1 ]; then ok "the file has $nr_z compressed records"
else fail "no compressed record in the file: nothing is tested"; fi

"$PMC" report -i "$T/z.data" -F csv > "$T/pmc.csv" 2> "$T/err"
expect_eq "pmc report of a -z file: exit status" "$?" 0
expect_no_grep "no sanitizer report" "AddressSanitizer|LeakSanitizer|runtime error" "$T/err"
"$PMC" report -i "$T/z.data" > "$T/pmc.txt"
perf report -i "$T/z.data" --stdio --no-children -n --sort sym > "$T/perf.txt" 2> /dev/null
want=$(awk '/^# Samples:/ { print $3; exit }' "$T/perf.txt")
got=$(awk '/^# pmc report of/ { print $(NF - 3); exit }' "$T/pmc.txt")
# perf prints 1,000 samples and more in thousands, rounded down ("# Samples: 1K" for 1057).
case $want in
*K) got=$((got / 1000))K ;;
*M) got=$((got / 1000000))M ;;
esac
expect_eq "samples: perf report's" "$got" "$want"
want=$(awk '/^# Event count/ { print $NF; exit }' "$T/perf.txt")
got=$(awk '/^# event/ { for (i = 1; i < NF; i++) if ($i == "count") print $(i + 1); exit }' \
	"$T/pmc.txt")
expect_eq "estimated count: perf report's" "$got" "$want"
want=$(awk '!/^#/ && /\[\.\]/ { print $2; sub(/.*\[\.\] /, ""); sub(/ +$/, ""); print; exit }' \
	"$T/perf.txt" | paste -sd' ')
got=$(awk -F, 'NR == 2 { gsub(/"/, ""); sub(/^\[\.\] /, "", $6); print $4, $6 }' "$T/pmc.csv")
expect_eq "top entry (samples, symbol): perf report's" "$got" "$want"
expect_eq "the top entry is the workload's" "${got#* }" "shapes::Square::area"
finish
