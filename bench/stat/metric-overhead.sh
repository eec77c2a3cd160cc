#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What computing metrics adds to pmc stat, with its 95 % interval: `true`, pmc stat and
# pmc stat -M (the same events, so that the difference is the metric set: the shipped file
# read and split, the selection parsed, each repetition's value, the interval, the rows
# published and printed) run interleaved ROUNDS times by bench/stat/alternate.c; each
# round's differences are paired samples. Prints what pmc stat adds to `true` and what -M
# adds to pmc stat (mean, 95 % interval, median), their ratio with its interval (delta
# method), for wall-clock time, CPU time of pmc and its children (wait4) and CPU time of
# pmc's own process (its run time, read while it is a zombie: -M's work is all in it, and it
# is free of the 20 children's noise), with pmc's own minor faults; then the exact
# instruction counts of pmc itself under callgrind for both commands. A peer that is missing
# (a C compiler, python3, valgrind) is reported and its table left out.
# Usage: bench/stat/metric-overhead.sh BUILD_DIR [BEFORE_BUILD_DIR]   (Release builds)
#   With BEFORE_BUILD_DIR, its pmc's two commands run in the same rounds, for a before/after
#   table from one run. Environment: ROUNDS (default 1000), R (pmc stat -r, default 20),
#   METRIC (default cpus_utilized, whose events task-clock,duration_time both commands count).
set -euo pipefail
B=${1:?usage: $0 BUILD_DIR [BEFORE_BUILD_DIR]}
B0=${2:-}
ROUNDS=${ROUNDS:-1000}
R=${R:-20}
METRIC=${METRIC:-cpus_utilized}
EV=task-clock,duration_time
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp -d)
# Only the script's own shell cleans up: a background job killed before its exec is a
# copy of this shell that would run the trap too (and delete the folder under the test).
trap '[ "$BASHPID" = "$$" ] && rm -rf "$out"' EXIT

builds=("$B")
if [ -n "$B0" ]; then
	builds=("$B0" "$B")
	names=(before after)
else
	names=(pmc)
fi
for b in "${builds[@]}"; do
	[ -x "$b/pmc" ] || { echo "$0: no $b/pmc (a Release build folder?)" >&2; exit 2; }
done

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)," \
	"$(nproc) CPUs; pmc stat -r $R -e $EV -o /dev/null true, with and without -M $METRIC"

# Timing: the commands interleaved, each round in a rotated order.
cmds=(true)
for b in "${builds[@]}"; do
	cmds+=(-- "$b/pmc" stat -r "$R" -e "$EV" -o /dev/null true)
	cmds+=(-- "$b/pmc" stat -r "$R" -e "$EV" -M "$METRIC" -o /dev/null true)
done
CC=${CC:-cc}
if ! command -v "$CC" >/dev/null; then
	echo "timing: not measured: no C compiler ($CC) to build bench/stat/alternate.c"
elif ! command -v python3 >/dev/null; then
	echo "timing: not measured: no python3 for the statistics"
elif "$CC" -O2 -o "$out/alternate" "$here/alternate.c" &&
	"$out/alternate" 5 "${cmds[@]}" >/dev/null && # warm-up: caches, page cache
	"$out/alternate" "$ROUNDS" "${cmds[@]}" >"$out/runs"; then
	echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
	python3 - "$out/runs" "${names[@]}" <<'P'
import math, statistics as st, sys
names = sys.argv[2:]
nr = 1 + 2 * len(names)
t = {}  # round -> command -> (wall, cpu, self, minflt); times in ms
for line in open(sys.argv[1]):
    r, c, *x = map(int, line.split())
    t.setdefault(r, [None] * nr)[c] = [v / 1e6 for v in x[:3]] + [x[3]]
v = list(t.values())
Z = 1.96  # normal quantile: ROUNDS >= 100 (t's would differ in the third digit)

def ci(x):
    return st.fmean(x), Z * st.stdev(x) / math.sqrt(len(x))

def ratio(d, a):
    # mean(d) / mean(a) of paired samples, with the delta method's interval
    r = st.fmean(d) / st.fmean(a)
    return r, Z * st.stdev([di - r * ai for di, ai in zip(d, a)]) / math.sqrt(len(d)) / st.fmean(a)

def col(i, k):
    return [x[i][k] for x in v]

print(f"\n{len(v)} rounds; ms, mean ± 95 % interval (median). pmc stat's added time is wall-clock")
print("above `true`; -M's is measured three ways: wall-clock, CPU of pmc and its children, and")
print("CPU of pmc's own process (its run time: -M's work is all in it, without the 20 children's noise).")
print("| pmc | measure | pmc stat adds | -M adds | -M / pmc stat's | minor faults of pmc, without → with -M |")
print("|---|---|---:|---:|---:|---:|")
for i, n in enumerate(names):
    s, m = 1 + 2 * i, 2 + 2 * i
    a = [y - x for x, y in zip(col(0, 0), col(s, 0))]
    ma, ea = ci(a)
    fs, fm = st.fmean(col(s, 3)), st.fmean(col(m, 3))
    for k, what in ((0, "wall-clock"), (1, "CPU, with children"), (2, "CPU, pmc's own")):
        d = [y - x for x, y in zip(col(s, k), col(m, k))]
        md, ed = ci(d)
        r, er = ratio(d, a)
        print(f"| {n} | {what} | {ma:.3f} ± {ea:.3f} ({st.median(a):.3f}) | {md:.3f} ± {ed:.3f} "
              f"({st.median(d):.3f}) | {100*r:.2f} % ± {100*er:.2f} % (upper {100*(r+er):.2f} %) "
              f"| {fs:.1f} → {fm:.1f} |")
P
else
	echo "timing: not measured: bench/stat/alternate.c failed (see above)"
fi

# Instructions of pmc itself (not of its children), exact under callgrind.
if ! command -v valgrind >/dev/null; then
	echo "instructions: not measured: no valgrind"
	exit 0
fi
echo
echo "pmc's own instructions (callgrind, children not traced)"
echo "| pmc | pmc stat | pmc stat -M | added by -M | added / pmc stat's own |"
echo "|---|---:|---:|---:|---:|"
for i in "${!builds[@]}"; do
	b=${builds[$i]}
	n=()
	for m in "" "-M $METRIC"; do
		# shellcheck disable=SC2086 # $m is two words or none
		valgrind --tool=callgrind --callgrind-out-file="$out/cg" \
			"$b/pmc" stat -r "$R" -e "$EV" $m -o /dev/null true >"$out/vg" 2>&1 ||
			{ echo "callgrind failed:" >&2; cat "$out/vg" >&2; exit 1; }
		n+=("$(sed -n 's/^summary: //p' "$out/cg")")
	done
	awk -v name="${names[$i]}" -v s="${n[0]}" -v m="${n[1]}" 'BEGIN {
		printf "| %s | %d | %d | %d | %.3f |\n", name, s, m, m - s, (m - s) / s }'
done
