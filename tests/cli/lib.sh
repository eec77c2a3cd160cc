# SPDX-License-Identifier: MIT
# Shared helpers for the CLI tests: assertions that say what differed, and a scratch dir.
set -u
: "${PMC:?PMC must point at the pmc binary}" "${PROGS:?PROGS must point at build/progs}"
T=$(mktemp -d)
# Only the script's own shell cleans up: a background job killed before its exec is a
# copy of this shell that would run the trap too (and delete the folder under the test).
trap '[ "$BASHPID" = "$$" ] && rm -rf "$T"' EXIT
FAILS=0
PASSES=0

ok() { PASSES=$((PASSES + 1)); echo "ok: $*"; }
fail() { FAILS=$((FAILS + 1)); echo "FAIL: $*"; }

# expect_eq WHAT ACTUAL EXPECTED
expect_eq() { if [ "$2" = "$3" ]; then ok "$1"; else fail "$1: got '$2', expected '$3'"; fi; }
# expect_grep WHAT PATTERN FILE
expect_grep() {
	if grep -qE -- "$2" "$3"; then ok "$1"; else fail "$1: /$2/ not in $3:"; sed 's/^/    /' "$3"; fi
}
expect_no_grep() {
	if ! grep -qE -- "$2" "$3"; then ok "$1"; else fail "$1: /$2/ unexpectedly in $3"; fi
}
# json FILE PYTHON-EXPR: evaluates EXPR with j = the parsed file, prints the result.
json() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"; }

skip() { echo "SKIP: $*"; exit 77; }
# A capability this machine lacks (scripts/check-skips.py lists the ones CI accepts):
# skip_cap CAP REASON skips the whole test, skip_part CAP REASON only the checks that need it.
skip_cap() { echo "SKIP [cap:$1]: $2"; exit 77; }
skip_part() { echo "SKIP [cap:$1]: $2"; }
# have_breakpoints: mem: events count here (the debug registers exist and their exceptions
# reach the kernel; some hypervisors accept breakpoints that never fire).
have_breakpoints() {
	[ "$("$PMC" doctor --json | json /dev/stdin '[c["ok"] for c in j["checks"] if c["check"] == "hardware breakpoints"][0]')" = True ]
}

finish() {
	echo "$PASSES passed, $FAILS failed"
	[ "$FAILS" -eq 0 ]
}
