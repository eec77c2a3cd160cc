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
echo "## $(date -u +%F) on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) CPUs, Linux $(uname -r)"
echo; echo "### Reading a 4-event group"; echo
"$B/bench/bench-read"
echo; echo "### What pmc stat adds to a short program"; echo
"$SRC/bench/stat/stat-overhead.sh" "$B"
echo; echo "### An empty region (begin/end pair)"; echo
"$B/bench/bench-regions"
echo; echo "### pmc record / pmc report against perf"; echo
"$SRC/bench/record-report/run.sh" "$B" && cat "$SRC/bench/record-report/RESULTS.md"
echo; echo "### vpmu against native, --tool=none and cachegrind"; echo
"$SRC/tools/vpmu/bench.sh" "$B/vglib" 2
