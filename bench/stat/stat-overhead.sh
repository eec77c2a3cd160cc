#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What a counting runner adds to a short program, side by side in one hyperfine run:
# the bare program, a minimal fork/exec runner, perf stat and pmc stat on the same events.
# Usage: bench/stat/stat-overhead.sh BUILD_DIR   (a Release build with bench/ built)
set -euo pipefail
B=${1:?usage: $0 BUILD_DIR}
PROG="$B/progs/getppid-loop 100"
EV=task-clock,page-faults,context-switches,cpu-migrations
out=$(mktemp -d)
# Only the script's own shell cleans up: a background job killed before its exec is a
# copy of this shell that would run the trap too (and delete the folder under the test).
trap '[ "$BASHPID" = "$$" ] && rm -rf "$out"' EXIT
hyperfine -N --warmup 20 --runs 300 --export-json "$out/h.json" \
	-n bare "$PROG" \
	-n runner "$B/bench/bench-runner $PROG" \
	-n "perf stat" "perf stat -x, -e $EV -o /dev/null $PROG" \
	-n "pmc stat" "$B/pmc stat --no-warmup -e $EV -o /dev/null --format csv $PROG" >/dev/null
python3 - "$out/h.json" <<'P'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
bare = r["bare"]["median"]
perf_add = r["perf stat"]["median"] - bare
print("| command | median ms | added ms | added / perf stat's |")
print("|---|---:|---:|---:|")
for name in ["bare", "runner", "perf stat", "pmc stat"]:
    m = r[name]["median"]
    add = m - bare
    print(f"| {name} | {m*1e3:.3f} | {add*1e3:.3f} | {add/perf_add:.3f} |")
P
