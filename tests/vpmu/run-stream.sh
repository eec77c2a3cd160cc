#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs a guest under vpmu with --out-fd and checks the stream; "determinism" mode runs it
# twice and requires byte-identical streams.
# Usage: run-stream.sh VGLIB STREAM_CHECK WORKDIR MODE -- VPMU_ARGS... PROG ARGS...
set -eu
vglib=$1 check=$2 work=$3 mode=$4
shift 5
freq=${STREAM_FREQ:-0}
mkdir -p "$work"
run() {
	VALGRIND_LIB=$vglib valgrind -q --tool=vpmu --out-fd=3 "$@" 3>"$out"
}
case $mode in
threads)
	out=$work/threads.bin run "$@"
	"$check" "$work/threads.bin" 5 0 t-threads ;;
stream)
	out=$work/stream.bin run "$@"
	"$check" "$work/stream.bin" 1 100 t-sample ;;
freq)
	# Frequency mode, twice: exact period sums per thread and counter, F samples a modelled
	# second, and the same samples in both runs.
	out=$work/freq1.bin run "$@" >"$work/freq1.txt"
	out=$work/freq2.bin run "$@" >"$work/freq2.txt"
	STREAM_FREQ=$freq STREAM_CANON=$work/freq1.canon "$check" "$work/freq1.bin" 1 100
	STREAM_FREQ=$freq STREAM_CANON=$work/freq2.canon "$check" "$work/freq2.bin" 1 100
	cmp "$work/freq1.canon" "$work/freq2.canon"
	echo "two runs gave identical samples" ;;
freq-threads)
	# Each thread adapts its own periods (the scheduling of threads varies between runs).
	out=$work/freqt.bin run "$@"
	STREAM_FREQ=$freq "$check" "$work/freqt.bin" 5 100 ;;
determinism)
	out=$work/det1.bin run "$@" >"$work/det1.txt"
	out=$work/det2.bin run "$@" >"$work/det2.txt"
	STREAM_CANON=$work/det1.canon "$check" "$work/det1.bin" 1 100
	STREAM_CANON=$work/det2.canon "$check" "$work/det2.bin" 1 100
	cmp "$work/det1.canon" "$work/det2.canon"
	cmp "$work/det1.txt" "$work/det2.txt"
	echo "two runs gave identical streams" ;;
*)
	echo "unknown mode $mode" >&2; exit 2 ;;
esac
