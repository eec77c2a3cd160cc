#!/bin/sh
# SPDX-License-Identifier: MIT
# The exact-count guest tests give their counts whatever the environment's size: the stack,
# which holds the environment, moves with it, and a test whose measured stretch shares a
# cache set with a dirty stack line counted a write-back more or less (vpmu.fastpath once
# failed that way on a fresh clone whose path was longer).  Runs each guest test with
# 0 to 440 extra bytes of environment, in steps of 40 (not a multiple of a cache line): the
# tests whose counts a cache set or the predictor's state decides.
# Usage: env-size.sh VGLIB GUEST-DIR
set -u
vglib=$1 dir=$2
fails=0 runs=0
for spec in "t-basic fastpath" "t-basic stride" "t-branch predictor"; do
	set -- $spec
	n=0
	while [ $n -le 440 ]; do
		pad=$(head -c $n /dev/zero | tr '\0' x)
		runs=$((runs + 1))
		if ! out=$(PMC_TEST_PAD=$pad VALGRIND_LIB=$vglib valgrind -q --tool=vpmu --start=no \
			"$dir/$1" "$2" 2>&1); then
			fails=$((fails + 1))
			echo "FAIL: $1 $2 with $n extra bytes of environment:"
			echo "$out" | sed 's/^/    /'
		fi
		n=$((n + 40))
	done
done
echo "$((runs - fails)) passed, $fails failed"
[ $fails -eq 0 ]
