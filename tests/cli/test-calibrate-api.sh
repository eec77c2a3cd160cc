#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Calibration from a C program that uses only include/pmc (tests/progs/api-calibrate.c):
# page-faults on the perf backend (measured in a child of the program too, with times) and
# instructions under vpmu (exact), each entry's distributions read from the results and the
# written calibration file read back; under vpmu the library's entry is the one pmc
# calibrate writes for the same inputs, byte for byte.
. "$(dirname "$0")/lib.sh"

P="$PROGS/api-calibrate"
HELPER="$BUILD/libexec/pmc-calibrate-regions"
EMPTY="$BUILD/examples/empty"
[ -x "$P" ] || fail "tests/progs/api-calibrate is not built"
[ -x "$EMPTY" ] || EMPTY=true
grep -q '#include "' "$SRC/tests/progs/api-calibrate.c" &&
	fail "api-calibrate includes a header outside include/pmc"

# what the program printed for distribution $2 of file $1, field $3
printed() { sed -n "s/^$2 .*\b$3=\([^ ]*\).*/\1/p" "$1"; }
# the file's entry field, the same number printed as %.17g
filed() { json "$1" "'%.17g' % j['entries'][0]$2"; }

"$P" perf page-faults "$HELPER" "$EMPTY" "$T/perf.json" >"$T/perf" 2>"$T/perf.err"
expect_eq "api-calibrate on perf exits 0" "$?" 0
expect_grep "the entry: page-faults, perf, user level, timed, 2 runs, 50 samples" \
	'^entry: page-faults perf priv=1 timed=1 runs=2 samples=50$' "$T/perf"
expect_grep "50 samples of an empty pair, all in the histogram" '^region_pair n=50 .* hist=50$' \
	"$T/perf"
expect_grep "its times, 50 samples" '^region_pair_ns n=50 .* hist=50$' "$T/perf"
expect_grep "2 runs of the first entry" '^first_entry n=2 .* hist=2$' "$T/perf"
expect_eq "the file holds the one entry" \
	"$(json "$T/perf.json" '[(e["backend"], e["event"], e["priv"]) for e in j["entries"]]')" \
	"[('perf', 'page-faults', 1)]"
expect_eq "its schema" "$(json "$T/perf.json" 'j["schema"]')" "pmc-calibrate/2"
expect_eq "its keys, in pmc calibrate's order" "$(json "$T/perf.json" 'list(j["entries"][0])')" \
	"['read', 'start_stop', 'region_pair', 'first_entry', 'named', 'backend', 'event', 'priv', 'empty_program']"
for f in median p90 max; do
	expect_eq "the file's pair ns $f is the one read" \
		"$(filed "$T/perf.json" "['region_pair']['ns']['$f']")" \
		"$(printed "$T/perf" region_pair_ns $f)"
done
expect_eq "the file's empty-program median is the one read" \
	"$(filed "$T/perf.json" "['empty_program']['median']")" \
	"$(sed -n 's/^empty_program median=\([^ ]*\).*/\1/p' "$T/perf")"
expect_eq "the histogram's counts add up to n" \
	"$(json "$T/perf.json" 'sum(j["entries"][0]["region_pair"]["ns"]["histogram"]["counts"])')" 50

require_vpmu
# under vpmu every count is exact: the library's entry is pmc calibrate's, byte for byte
# (both with the same environment, which the empty program's count depends on)
run_clean() { env -i PATH=/usr/bin:/bin HOME="$HOME" ASAN_OPTIONS="$ASAN_OPTIONS" "$@"; }
run_clean "$P" vpmu instructions "$HELPER" "$EMPTY" "$T/vpmu.json" >"$T/vpmu" 2>"$T/vpmu.err"
expect_eq "api-calibrate under vpmu exits 0" "$?" 0
expect_grep "the entry: instructions, vpmu, not timed" \
	'^entry: instructions vpmu priv=1 timed=0 runs=2 samples=50$' "$T/vpmu"
expect_eq "the pair's median in the file is the one read" \
	"$(filed "$T/vpmu.json" "['region_pair']['counts']['median']")" \
	"$(printed "$T/vpmu" region_pair median)"
expect_eq "an empty pair costs instructions" "$(json "$T/vpmu.json" \
	'j["entries"][0]["region_pair"]["counts"]["median"] > 0')" True
run_clean "$PMC" calibrate --backend=vpmu -e instructions -r 2 -n 50 --empty="$EMPTY" \
	-o "$T/cli.json" >/dev/null 2>&1
expect_eq "pmc calibrate writes the same entry" \
	"$(json "$T/cli.json" 'json.dumps(j["entries"])')" \
	"$(json "$T/vpmu.json" 'json.dumps(j["entries"])')"

finish
