#!/bin/bash
# SPDX-License-Identifier: MIT
# pmc report of a perf record -z file holds a window of the inflated records, not all of them
# (a 5.9 MB file once took 1.2 GB): a file of 3,000,000 samples (114 MiB inflated, 1.3 MiB on
# disk) is read in under 80 MB, and reports exactly what its uncompressed twin reports. So do
# smaller files without times, without rounds (the time-order queue holds every record) and
# in pipe mode through a pipe. zstd-perfdata.py writes the twins.
source "$(dirname "$0")/lib.sh"

if ! command -v zstd >/dev/null; then
	fail "the zstd command is needed to write the -z files (scripts/setup.sh --test installs it)"
	finish
	exit 1
fi
GEN=$SRC/tests/cli/zstd-perfdata.py
ELF=$PROGS/sample-deep
addrs=$(nm --defined-only "$ELF" | awk '$3 ~ /^(deep_hot|deep_b|deep_a|main)$/ { print $1 }')
expect_eq "four symbols of $ELF" "$(echo $addrs | wc -w)" 4

# report FILE NAME: pmc report's CSV of FILE in $T/NAME.csv, its stderr in $T/NAME.err; prints
# its exit status and its peak resident memory in MB.
report() {
	python3 -c 'import resource, subprocess, sys
out, err = open(sys.argv[2], "w"), open(sys.argv[3], "w")
rc = subprocess.run(sys.argv[4:], stdout=out, stderr=err, timeout=600).returncode
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)' \
		"$1" "$T/$2.csv" "$T/$2.err" "$PMC" report -i "$1" -F csv
}

python3 "$GEN" "$T/big.data" "$T/big-z.data" "$ELF" 600 5000 $addrs
inflated=$(($(stat -c %s "$T/big.data") / 1048576))
packed=$(($(stat -c %s "$T/big-z.data") / 1024))
nr_z=$(python3 - "$T/big-z.data" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
off, size = struct.unpack_from("<QQ", b, 40)
p, n = off, 0
while p + 8 <= off + size:
    t, _, s = struct.unpack_from("<IHH", b, p)
    n += t == 81
    p += s
print(n)
PY
)
[ "$nr_z" -ge 20 ] && ok "the -z file holds $nr_z compressed records, $packed KiB for $inflated MiB" ||
	fail "the -z file holds $nr_z compressed records"

read -r rc mb < <(report "$T/big-z.data" big-z)
expect_eq "report of the -z file: exit status" "$rc" 0
[ "$mb" -lt 80 ] && ok "report of the -z file: $mb MB resident for $inflated MiB inflated (under 80)" ||
	fail "report of the -z file: $mb MB resident for $inflated MiB inflated (80 at most)"
expect_no_grep "report of the -z file: nothing on stderr" "." "$T/big-z.err"
read -r rc mb < <(report "$T/big.data" big)
expect_eq "report of the plain twin: exit status" "$rc" 0
expect_eq "report of the -z file: the plain twin's, exactly" "$(cmp "$T/big-z.csv" "$T/big.csv" && echo same)" same
expect_eq "750,000 samples in each symbol" \
	"$(awk -F, 'NR > 1 { print $4, $6 }' "$T/big-z.csv" | sort | paste -sd,)" \
	'750000 "[.] deep_a",750000 "[.] deep_b",750000 "[.] deep_hot",750000 "[.] main"'

# Smaller twins: no times (replayed as read), no FINISHED_ROUND (the queue holds all), pipe mode.
for v in no-time no-rounds pipe; do
	python3 "$GEN" "$T/$v.data" "$T/$v-z.data" "$ELF" 100 2000 $addrs --$v
	"$PMC" report -i "$T/$v.data" -F csv >"$T/$v.csv" 2>"$T/$v.err"
	expect_eq "$v: report of the plain twin: exit status" "$?" 0
	cat "$T/$v-z.data" | "$PMC" report -i - -F csv >"$T/$v-z.csv" 2>"$T/$v-z.err"
	expect_eq "$v: report of the -z file from a pipe: exit status" "$?" 0
	expect_eq "$v: the plain twin's report, exactly" "$(cmp "$T/$v-z.csv" "$T/$v.csv" && echo same)" same
	expect_eq "$v: 50,000 samples in each symbol" \
		"$(awk -F, 'NR > 1 { print $4 }' "$T/$v-z.csv" | sort -u | paste -sd,)" 50000
done
finish
