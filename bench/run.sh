#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs every benchmark on this machine, side by side with perf, PAPI and valgrind tools,
# and prints their tables (paste them into bench/RESULTS.md with the date and machine).
# Usage: bench/run.sh [BUILD_DIR]   (a Release build is configured there; default build-bench)
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=${1:-$SRC/build-bench}
cmake -S "$SRC" -B "$B" -DCMAKE_BUILD_TYPE=Release -DPMC_SANITIZE=OFF >/dev/null
cmake --build "$B" -j"$(nproc)" >/dev/null
# step TITLE CMD...: one table; a step that fails (a peer missing, a tool that cannot run
# here) is reported under its title with its exit status, and the other steps still run.
failed=0
step() {
	local title=$1 rc=0
	shift
	echo; echo "### $title"; echo
	"$@" || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "(not measured on this machine: '$*' exited $rc; its messages are above)"
		failed=$((failed + 1))
	fi
}
echo "## $(date -u +%F) on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) CPUs, Linux $(uname -r)"
step "Reading a 4-event group" "$B/bench/bench-read"
step "What pmc stat adds to a short program" "$SRC/bench/stat/stat-overhead.sh" "$B"
step "What computing metrics adds to pmc stat" "$SRC/bench/stat/metric-overhead.sh" "$B"
step "An empty region (begin/end pair)" "$B/bench/bench-regions"
step "pmc record / pmc report against perf" \
	sh -c '"$1/bench/record-report/run.sh" "$2" && cat "$1/bench/record-report/RESULTS.md"' \
	sh "$SRC" "$B"
step "vpmu against native, --tool=none and cachegrind" "$SRC/tools/vpmu/bench.sh" "$B/vglib" 2
[ "$failed" -eq 0 ] || echo; [ "$failed" -eq 0 ] || echo "$failed table(s) not measured here (above)."
