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
	"$(python3 -c 'import csv,sys; print(sorted({r[5].encode("latin-1") for r in csv.reader(open(sys.argv[1], encoding="latin-1")) if r and r[0] != "event"}))' "$T/r.csv")" \
	"[b'split\\xff\"q,']"

# pmc stat: the command's name and arguments are bytes too; the JSON keeps every one, the
# text results file and the CSV keep one row per entry.
arg=$'a\x01\xfe,"b'
cp "$PROGS/exit-with" "$T/$name-x"
"$PMC" stat -e task-clock --format json -o "$T/s.json" -- "$T/$name-x" exit 0 "$arg" 2>"$T/err"
expect_eq "stat JSON of a non-UTF-8 command exits 0" "$?" 0
expect_eq "stat JSON keeps the command and its arguments, escaped" \
	"$(json "$T/s.json" 'j["provenance"]["command"][0].endswith("/split\\xff\"q,-x") and j["provenance"]["command"][1:] == ["exit", "0", "a\x01\\xfe,\"b"]')" \
	True
"$PMC" stat -e task-clock --format csv -o "$T/s.csv" -- "$T/$name-x" exit 0 "$arg" 2>/dev/null
# The events' table (the first: the elapsed table follows after a blank line).
expect_eq "stat CSV: a header and one row" "$(python3 -c 'import csv,sys; r=list(csv.reader(open(sys.argv[1], encoding="latin-1"))); print(r.index([]) if [] in r else len(r))' "$T/s.csv")" 2

# Control characters never reach a terminal raw: an escape sequence in a command's name, an
# event string or an option value is shown as \xHH, and the caret stays under the fault.
esc=$'\e[2J'
"$PMC" stat -e task-clock -- "/nonexistent/x$esc" 2>"$T/esc-run"
expect_no_grep "stat: no raw ESC in the cannot-run message" $'\e' "$T/esc-run"
expect_grep "stat: the name shown escaped" 'x\\x1b\[2J' "$T/esc-run"
"$PMC" stat -e "task-clock$esc" true 2>"$T/esc-ev"
expect_no_grep "parse error: no raw ESC" $'\e' "$T/esc-ev"
expect_eq "parse error: the caret under the escaped byte" \
	"$(sed -n 3p "$T/esc-ev" | awk '{print index($0, "^")}')" \
	"$(sed -n 2p "$T/esc-ev" | awk '{print index($0, "\\x1b")}')"
"$PMC" report --format "x$esc" 2>"$T/esc-opt"
expect_no_grep "option value: no raw ESC" $'\e' "$T/esc-opt"
cp "$PROGS/exit-with" "$T/run$esc"
"$PMC" stat -e task-clock -- "$T/run$esc" exit 0 2>"$T/esc-hdr"
expect_no_grep "stat summary: no raw ESC in the command" $'\e' "$T/esc-hdr"
expect_grep "stat summary: the command escaped" 'run\\x1b\[2J exit 0' "$T/esc-hdr"
finish
