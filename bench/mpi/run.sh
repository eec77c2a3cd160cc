#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What libpmc-mpi adds to an 8-byte MPI_Allreduce on 4 local ranks: the same program without
# it, with it and no events (markers off: a load and a branch), and with it counting
# task-clock in every call (two counter reads per call). Variants interleaved, 5 times each.
# Usage: bench/mpi/run.sh BUILD_DIR [ROUNDS CALLS]   (9 rounds of 20000 calls)
set -euo pipefail
B=${1:?usage: bench/mpi/run.sh BUILD_DIR [ROUNDS CALLS]}
ARGS="${2:-9} ${3:-20000}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
run() { timeout 300 mpirun -n 4 --oversubscribe "$@"; }
declare -A t
for _ in 1 2 3 4 5; do
	t[plain]+="$(run "$B/bench/bench-allreduce-plain" $ARGS) "
	t[off]+="$(run "$B/bench/bench-allreduce" $ARGS) "
	t[on]+="$(run -x PMC_EVENTS=task-clock -x PMC_OUTPUT="$D/ar.json" "$B/bench/bench-allreduce" $ARGS) "
done
med() { printf '%s\n' $1 | sort -n | sed -n 3p; }
p=$(med "${t[plain]}")
echo "| 8-byte MPI_Allreduce, 4 ranks | ns per call (median of 5 runs) | × without libpmc-mpi |"
echo "|---|---:|---:|"
for v in plain off on; do
	m=$(med "${t[$v]}")
	case $v in
	plain) what="without libpmc-mpi" ;;
	off) what="libpmc-mpi, no events (markers off)" ;;
	on) what="libpmc-mpi, task-clock counted per call" ;;
	esac
	echo "| $what | $m | $(echo "scale=3; $m / $p" | bc -l) |"
done
