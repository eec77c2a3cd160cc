#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds pmc with -fsanitize=address,undefined and -Werror, runs every test, then builds
# the libFuzzer harnesses with clang and runs each briefly over its corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=Debug -DPMC_SANITIZE=ON -DPMC_WERROR=ON \
	-DPMC_REQUIRE_TESTS=ON >/dev/null
cmake --build build-test -j "$jobs"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# A skip passes only for a capability the machine lacks (scripts/check-skips.py); the
# formatting of every C file, a fuzz harness for every reader of untrusted bytes
# (docs/security.md), the layers of docs/architecture.md (no include or call back up, no
# circle of calls in a folder) and its size limits (no file over 500 lines, no function over
# 60) are checked after the tests.
ctest --test-dir build-test --output-on-failure -j "$jobs" 2>&1 | tee build-test/ctest.out
rc=${PIPESTATUS[0]}
scripts/check-skips.py build-test build-test/ctest.out || rc=1
scripts/check-format.sh || rc=1
scripts/check-fuzz-list.py || rc=1
scripts/check-layers.py --summary || rc=1
scripts/check-size.py --summary || rc=1
[ "$rc" -eq 0 ] || exit "$rc"
if command -v clang >/dev/null && [ -d fuzz ]; then
	CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DPMC_FUZZ=ON -DPMC_SANITIZE=ON \
		-DBUILD_TESTING=ON >/dev/null
	# Only the harnesses: everything else was built and tested above.
	targets=$(for f in fuzz/*/fuzz-*.c; do basename "$f" .c; done)
	cmake --build build-fuzz -j "$jobs" --target $targets
	ctest --test-dir build-fuzz --output-on-failure -R '^fuzz\.'
fi
