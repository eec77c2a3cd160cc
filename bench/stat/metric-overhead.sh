#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What computing metrics adds to pmc stat: the same events counted with and without -M, side
# by side in one hyperfine run, so that the difference is the metric set (the shipped files
# loaded and parsed, the selection, the intervals, the printing).
# Usage: bench/stat/metric-overhead.sh BUILD_DIR [REPEAT]   (a Release build)
set -euo pipefail
B=${1:?usage: $0 BUILD_DIR [REPEAT]}
R=${2:-20}
out=$(mktemp -d)
# Only the script's own shell cleans up: a background job killed before its exec is a
# copy of this shell that would run the trap too (and delete the folder under the test).
trap '[ "$BASHPID" = "$$" ] && rm -rf "$out"' EXIT
# cpus_utilized reads task-clock and duration_time: the events of the run without -M.
hyperfine -N --warmup 5 --runs 60 --export-json "$out/h.json" \
	-n bare "true" \
	-n "pmc stat" "$B/pmc stat -r $R -e task-clock,duration_time -o /dev/null true" \
	-n "pmc stat -M" "$B/pmc stat -r $R -e task-clock,duration_time -M cpus_utilized -o /dev/null true" \
	>/dev/null
python3 - "$out/h.json" <<'P'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
bare = r["bare"]["median"]
base = r["pmc stat"]["median"] - bare
print("| command | median ms | added ms | added / pmc stat's |")
print("|---|---:|---:|---:|")
for name in ["bare", "pmc stat", "pmc stat -M"]:
    m = r[name]["median"]
    add = m - bare
    print(f"| {name} | {m*1e3:.3f} | {add*1e3:.3f} | {add/base:.4f} |")
P
