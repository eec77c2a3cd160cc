# SPDX-License-Identifier: MIT
# Shared helpers for the CLI tests: assertions that say what differed, and a scratch dir.
set -u
: "${PMC:?PMC must point at the pmc binary}" "${PROGS:?PROGS must point at build/progs}"
# pmc stat's summary writes numbers as LC_NUMERIC says (thousands separators), as perf stat's:
# the tests read it in the C locale unless they set another.
export LC_ALL=C
T=$(mktemp -d)
# Only the script's own shell cleans up: a background job killed before its exec is a
# copy of this shell that would run the trap too (and delete the folder under the test).
# A check that failed fails the script however it ends, even one that forgot to call finish.
on_exit() {
	local rc=$?

	[ "$BASHPID" = "$$" ] || return
	# PMC_TEST_KEEP=DIR: a script with a failed check leaves its scratch folder in DIR
	if [ -n "${PMC_TEST_KEEP:-}" ] && { [ "$rc" -ne 0 ] || [ "${FAILS:-0}" -ne 0 ]; }; then
		mkdir -p "$PMC_TEST_KEEP" && cp -a "$T" "$PMC_TEST_KEEP/" &&
			echo "kept $T in $PMC_TEST_KEEP/$(basename "$T")"
	fi
	rm -rf "$T"
	if [ "$rc" -eq 0 ] && [ "${FAILS:-0}" -ne 0 ]; then
		echo "$FAILS check(s) failed"
		exit 1
	fi
}
trap on_exit EXIT
# Every test runs as a stranger: a fresh home of its own (no ~/.local, no ~/.cache, no
# config) and no XDG folders from the account that runs the suite.
export HOME="$T/home"
mkdir -p "$HOME"
unset XDG_DATA_HOME XDG_CACHE_HOME XDG_CONFIG_HOME XDG_RUNTIME_DIR
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

# dry_calls FILE: the perf_event_open calls of a --dry-run -vv output, one a line: "PASS TYPE
# CONFIG CONFIG1 PID CPU", with the attr of the block printed last before the call (a block is
# printed when the attr changes) and the pass ("-" when the plan has one).
dry_calls() {
	awk '/^# pass / { pass = $3 }
		/^perf_event_attr:/ { type = "-"; config = "0"; config1 = "0" }
		/^  type / { type = $2 } /^  config / { config = $2 } /config1 }/ { config1 = $NF }
		/^sys_perf_event_open:/ { print (pass ? pass : "-"), type, config, config1, $3, $5 }' "$1"
}

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

# require_vpmu: the vpmu tool is part of the build, so a test that needs it fails (never skips)
# when pmc doctor does not find it usable, saying what doctor said.
require_vpmu() {
	"$PMC" doctor >"$T/doctor" 2>&1
	grep -qE '^ *\[ok\] vpmu' "$T/doctor" && return 0
	fail "the vpmu tool is not available (it is part of the build): $(grep vpmu "$T/doctor")"
	finish
	exit 1
}

# use_unprivileged [FILE...]: defines as_user CMD... (CMD as an unprivileged user, from /, with
# nobody's ids when we are root). When that user cannot run the build tree's pmc (a private
# checkout), pmc, libpmc and each FILE are copied to $T/bin, which UBIN then names (else it is
# empty), and PMC points there. Skips the test when no user without CAP_PERFMON can be had.
use_unprivileged() {
	UBIN=
	if [ "$(id -u)" != 0 ]; then
		as_user() { (cd / && "$@"); }
	elif command -v setpriv >/dev/null; then
		as_user() { (cd / && setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"); }
	elif command -v runuser >/dev/null; then
		as_user() { (cd / && runuser -u nobody -- "$@"); }
	else
		skip_cap no-unprivileged-user "root, and neither setpriv nor runuser is installed to run as nobody"
	fi
	if ! as_user "$PMC" --version >/dev/null 2>&1; then
		mkdir -p "$T/bin"
		cp "$PMC" "${BUILD:?}/lib/libpmc.so.0" "$@" "$T/bin/"
		chmod 711 "$T"
		chmod 755 "$T/bin"
		export LD_LIBRARY_PATH=$T/bin
		PMC=$T/bin/pmc UBIN=$T/bin
		as_user "$PMC" --version >/dev/null 2>&1 || fail "$PMC cannot be run as an unprivileged user"
	fi
	[ "$(as_user "$PMC" doctor --json | json /dev/stdin '[c["ok"] for c in j["checks"] if c["key"] == "privileges" or c["check"] == "privileges"][0]')" = False ] ||
		skip_cap no-unprivileged-user "the user $(as_user id -un) has CAP_PERFMON or CAP_SYS_ADMIN: nothing is refused"
}

finish() {
	echo "$PASSES passed, $FAILS failed"
	[ "$FAILS" -eq 0 ]
}
