#!/bin/bash
# SPDX-License-Identifier: MIT
# docs/versioning.md: every file pmc writes carries the schema version the doc lists; every
# version of every file pmc reads is read from a checked-in fixture (tests/data/formats/);
# a newer version, or an overhead that is no count, is refused with the file and field named.
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98
: "${SRC:?}"
F=$SRC/tests/data/formats
TP=syscalls:sys_enter_getppid
[ -r /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id ] ||
	skip "no syscalls tracepoints (tracefs not mounted)"

# (a) Readers: calibration version 1, a fixture whose empty program counts 3 getppid calls.
"$PMC" stat -e $TP --subtract-overhead --calibration="$F/calibrate-1.json" --format json \
	-o "$T/sub.json" "$PROGS/getppid-loop" 10 2>"$T/err"
expect_eq "calibrate-1.json: read, 3 subtracted from 10" \
	"$(json "$T/sub.json" 'j["events"][0]["values"]')" "[7.0]"

# (b) Writers: the schema each one writes is the one docs/versioning.md lists.
doc_version() { grep -o "| \`$1/[0-9]*\`" "$SRC/docs/versioning.md" | head -1 | tr -d '|` '; }
"$PMC" stat -e $TP --format json -o "$T/s.json" "$PROGS/getppid-loop" 2 2>/dev/null
expect_eq "pmc stat JSON" "$(json "$T/s.json" 'j["schema"]')" "$(doc_version pmc-stat)"
"$PMC" record -q -e cpu-clock:u -o "$T/r.data" -- "$PROGS/getppid-loop" 2 2>/dev/null
"$PMC" report -i "$T/r.data" -F json >"$T/r.json"
expect_eq "pmc report JSON" "$(json "$T/r.json" 'j["schema"]')" "$(doc_version pmc-report)"
expect_eq "pmc report JSON: no version-1 keys" "$(json "$T/r.json" '"format" in j or "version" in j')" False
"$PMC" calibrate -e $TP -o "$T/c.json" >/dev/null 2>&1
expect_eq "pmc calibrate" "$(json "$T/c.json" 'j["schema"]')" "$(doc_version pmc-calibrate)"
"$PMC" doctor --json >"$T/d.json" 2>/dev/null
expect_eq "pmc doctor --json" "$(json "$T/d.json" 'j["schema"]')" "$(doc_version pmc-doctor)"
"$PMC" list --json >"$T/l.json" 2>/dev/null
expect_eq "pmc list --json" "$(json "$T/l.json" 'j["schema"]')" "$(doc_version pmc-list)"
PMC_EVENTS=$TP PMC_OUTPUT="$T/reg.json" "$PROGS/region-cases" loop 2 1 2>/dev/null
expect_eq "region results JSON" "$(json "$T/reg.json" 'j["schema"]')" "$(doc_version pmc-regions)"
expect_eq "every written schema key comes first" \
	"$(for f in s r c d l reg; do python3 -c 'import json,sys; print(next(iter(json.load(open(sys.argv[1])))))' "$T/$f.json"; done | sort -u)" schema

# (c) A newer version, and an overhead that is no count, are refused with the reason.
sed 's|"pmc-calibrate/1"|"pmc-calibrate/9"|' "$F/calibrate-1.json" >"$T/cal9.json"
"$PMC" stat -e $TP --subtract-overhead --calibration="$T/cal9.json" "$PROGS/getppid-loop" 1 2>"$T/err"
expect_grep "calibration version 9 refused, versions named" \
	"cannot use the calibration file $T/cal9.json: its schema is pmc-calibrate/9; this pmc reads pmc-calibrate/1" "$T/err"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); j["entries"][0]["empty_program"]["median"]=-40; json.dump(j,open(sys.argv[2],"w"))' \
	"$F/calibrate-1.json" "$T/neg.json"
"$PMC" stat -e $TP --subtract-overhead --calibration="$T/neg.json" "$PROGS/getppid-loop" 1 2>"$T/err"
expect_grep "a negative overhead refused, entry and field named" \
	"entries\\[0\\] \\($TP, backend perf\\): empty_program.median is out of range" "$T/err"
finish
