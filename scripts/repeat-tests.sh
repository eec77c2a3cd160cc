#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the whole test suite N times with `ctest -j2` in a fresh clone of HEAD, to show that no
# test flakes: a test that passes on a rerun has failed.  The clone's path is longer than this
# checkout's by a few characters, so that the path's length (which moves the measured programs'
# stacks) differs from where the tests were written.  Not part of .ci/run: it takes N times
# the suite.  Usage: scripts/repeat-tests.sh [N] (default 10).  Prints each pass's time and
# result, and exits non-zero if any pass failed.
set -uo pipefail
n=${1:-10}
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/pmc-repeat-$(basename "$src")-XXXXXXXX")
# Only the script's own shell cleans up: a background job killed before its exec is a
# copy of this shell that would run the trap too (and delete the folder under the test).
trap '[ "$BASHPID" = "$$" ] && rm -rf "$work"' EXIT
git clone -q "$src" "$work/pmc" || exit 1
ln -s "$(cd "$src/../shared" 2>/dev/null && pwd || echo /nonexistent)" "$work/shared"
cd "$work/pmc" || exit 1
echo "repeat-tests: $n passes of the suite in $work/pmc (this checkout: $src)"
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Debug -DPMC_SANITIZE=ON -DPMC_WERROR=ON \
	-DPMC_REQUIRE_TESTS=ON >/dev/null && cmake --build build-test -j "$(nproc)" >/dev/null || {
	echo "repeat-tests: the build failed"
	exit 1
}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
failed=0
for i in $(seq 1 "$n"); do
	start=$(date +%s)
	ctest --test-dir build-test --output-on-failure -j2 >"$work/pass-$i.out" 2>&1
	rc=$?
	scripts/check-skips.py build-test "$work/pass-$i.out" >>"$work/pass-$i.out" || rc=1
	summary=$(grep -E 'tests passed|tests failed' "$work/pass-$i.out" | tail -n 1)
	echo "repeat-tests: pass $i: $((($(date +%s) - start))) s, ${summary:-no summary} (rc $rc)"
	if [ "$rc" -ne 0 ]; then
		failed=$((failed + 1))
		grep -E 'Failed|FAIL|NOT A CAPABILITY' "$work/pass-$i.out" | sed 's/^/    /'
	fi
done
echo "$((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
