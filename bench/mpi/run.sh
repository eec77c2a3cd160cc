#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What libpmc-mpi adds to an 8-byte MPI_Allreduce on 4 local ranks: the same program without
# it, with it and no events (markers off: a load and a branch), and with it counting
# task-clock in every call (two counter reads per call). RUNS runs of each variant,
# interleaved; each run prints its median round's ns per call. Printed per variant: the median
# run and a distribution-free interval of the median (order statistics, binomial coverage
# of at least 95 % where RUNS allows), the load average before and after.
# Usage: bench/mpi/run.sh BUILD_DIR [RUNS ROUNDS CALLS]   (11 runs, 5 rounds of 5000 calls)
# RANKS=1 in the environment runs one rank instead of 4: the call is then a local copy, and
# what the wrapper adds is not lost in the scheduling of 4 ranks on fewer CPUs.
set -euo pipefail
B=${1:?usage: bench/mpi/run.sh BUILD_DIR [RUNS ROUNDS CALLS]}
RUNS=${2:-11}
ARGS="${3:-5} ${4:-5000}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
NP=${RANKS:-4}
run() { timeout 300 mpirun -n "$NP" --oversubscribe "$@"; }
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
declare -A t
for _ in $(seq "$RUNS"); do
	t[plain]+="$(run "$B/bench/bench-allreduce-plain" $ARGS) "
	t[off]+="$(run "$B/bench/bench-allreduce" $ARGS) "
	t[on]+="$(run -x PMC_EVENTS=task-clock -x PMC_OUTPUT="$D/ar.json" "$B/bench/bench-allreduce" $ARGS) "
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
# The median, and the k-th smallest and largest of n runs as the median's interval: the
# largest k whose binomial coverage 1 - 2 P(Bin(n, 1/2) < k) is at least 0.95 (k >= 1).
stats() {
	printf '%s\n' $1 | sort -n | python3 -c '
import math, sys
v = [float(x) for x in sys.stdin]
n = len(v)
med = (v[(n - 1) // 2] + v[n // 2]) / 2
k, cov = 1, 1 - 2 * 0.5 ** n
for j in range(1, n // 2 + 1):
    c = 1 - 2 * sum(math.comb(n, i) for i in range(j)) / 2 ** n
    if c >= 0.95:
        k, cov = j, c
print(f"{med:.0f} {v[k - 1]:.0f} {v[n - k]:.0f} {cov * 100:.1f}")'
}
read -r p _ _ _ <<<"$(stats "${t[plain]}")"
echo "| 8-byte MPI_Allreduce, $NP ranks | ns per call, median of $RUNS runs | interval of the median (coverage) | × without libpmc-mpi |"
echo "|---|---:|---|---:|"
for v in plain off on; do
	read -r m lo hi cov <<<"$(stats "${t[$v]}")"
	case $v in
	plain) what="without libpmc-mpi" ;;
	off) what="libpmc-mpi, no events (markers off)" ;;
	on) what="libpmc-mpi, task-clock counted per call" ;;
	esac
	echo "| $what | $m | $lo–$hi ($cov %) | $(echo "scale=2; $m / $p" | bc -l) |"
done
echo "runs (ns per call): plain ${t[plain]}/ off ${t[off]}/ on ${t[on]}"
