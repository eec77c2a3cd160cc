#!/bin/bash
# SPDX-License-Identifier: MIT
# Names are bytes (docs/versioning.md, "Strings"): a program whose name is not UTF-8 keeps
# its name, escaped as \xHH, in pmc report's JSON, which stays valid; CSV quotes it.
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98

name=$'split\xff"q,'
cp "$PROGS/sample-split" "$T/$name"
"$PMC" record -q -e cpu-clock:u -o "$T/r.data" -- "$T/$name" 50 >/dev/null 2>"$T/err" ||
	{ fail "pmc record: $(cat "$T/err")"; finish; exit; }
"$PMC" report -i "$T/r.data" -s comm,symbol -F json >"$T/r.json" 2>"$T/err"
expect_eq "report JSON of a non-UTF-8 command exits 0" "$?" 0
expect_eq "the JSON parses and keeps the name, escaped" \
	"$(json "$T/r.json" 'sorted({e["keys"]["comm"] for ev in j["events"] for e in ev["entries"]})')" \
	"['split\\\\xff\"q,']"
"$PMC" report -i "$T/r.data" -s comm -F csv >"$T/r.csv"
expect_eq "CSV: the name is one quoted field" \
	"$(python3 -c 'import csv,sys; print(sorted({r[-1].encode("latin-1") for r in csv.reader(open(sys.argv[1], encoding="latin-1")) if r and r[0] != "event"}))' "$T/r.csv")" \
	"[b'split\\xff\"q,']"
finish
