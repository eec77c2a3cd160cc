#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The nightly fuzz run: every libFuzzer harness (fuzz/*/fuzz-*.c) for SECONDS each (default
# 300), one after another, over its seed corpus. A crash, leak or UBSan report is kept as a
# regression seed, fuzz/<area>/corpus/regress-<kind>-<sha1 prefix>, the harness's report is
# printed, and the run goes on to the next harness; the exit status is the number of harnesses
# that found something (0: all clean). CI runs each harness briefly instead (scripts/test.sh).
# Usage: scripts/fuzz-long.sh [SECONDS] [HARNESS...]   (e.g. scripts/fuzz-long.sh 60 region)
set -uo pipefail
cd "$(dirname "$0")/.."
secs=${1:-300}
shift || true
[[ "$secs" =~ ^[0-9]+$ ]] || { echo "fuzz-long.sh: SECONDS must be a number, not '$secs'" >&2; exit 2; }
command -v clang >/dev/null || { echo "fuzz-long.sh: clang is needed (scripts/setup.sh --test)" >&2; exit 2; }
B=${PMC_FUZZ_BUILD:-build-fuzz}
areas=("$@")
[ ${#areas[@]} -gt 0 ] || areas=($(for f in fuzz/*/fuzz-*.c; do basename "$(dirname "$f")"; done))
targets=$(for a in "${areas[@]}"; do basename fuzz/"$a"/fuzz-*.c .c; done)
CC=clang cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Debug -DPMC_FUZZ=ON -DPMC_SANITIZE=ON \
	-DBUILD_TESTING=ON >/dev/null || exit 2
cmake --build "$B" -j "$(nproc)" --target $targets >/dev/null || exit 2
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
found=0
for a in "${areas[@]}"; do
	h=$(basename fuzz/"$a"/fuzz-*.c .c)
	work=$(mktemp -d "/tmp/pmc-fuzz-$a.XXXXXX")
	echo "== $h: ${secs}s over fuzz/$a/corpus ($(ls fuzz/"$a"/corpus | wc -l) seeds)"
	"$B/fuzz/$h" -max_total_time="$secs" -timeout=25 -rss_limit_mb=4096 -print_final_stats=1 \
		-artifact_prefix="$work/" "$work" "fuzz/$a/corpus" >"$work/log" 2>&1
	rc=$?
	grep -E '^(stat::number_of_executed_units|stat::new_units_added)' "$work/log" | sed 's/^/   /'
	for art in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
		[ -f "$art" ] || continue
		kind=$(basename "$art" | cut -d- -f1)
		seed="fuzz/$a/corpus/regress-$kind-$(sha1sum "$art" | cut -c1-12)"
		cp "$art" "$seed"
		echo "   FOUND: $kind, kept as $seed (replay: $B/fuzz/$h $seed)"
	done
	if [ $rc -ne 0 ]; then
		found=$((found + 1))
		echo "   $h exited $rc; its report:"
		grep -A25 -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error' \
			"$work/log" | sed 's/^/   | /'
	else
		rm -rf "$work"
	fi
done
echo "$found of ${#areas[@]} harnesses found something"
exit "$found"
