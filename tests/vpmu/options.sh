#!/bin/sh
# SPDX-License-Identifier: MIT
# The tool's options are range-checked: each bad value exits 1 with a message that names
# the option or the limit (a zero cache line died with SIGFPE; --period=0, a huge --skid,
# an 80-bit counter value, an unknown --precise-regs, an --out-fd that is not open were taken
# or misread); the values at the edges of each range still run.
# Usage: options.sh VGLIB GUEST
set -u
vglib=$1 guest=$2
fails=0 runs=0
run() { VALGRIND_LIB=$vglib valgrind -q --tool=vpmu "$@" "$guest" >/tmp/vpmu-opt.$$ 2>&1; }
bad() { # OPTION PATTERN
	runs=$((runs + 1))
	run "$1"
	rc=$?
	if [ $rc -ne 1 ] || ! grep -q -- "$2" /tmp/vpmu-opt.$$; then
		fails=$((fails + 1))
		echo "FAIL: $1: exit $rc (expected 1 and /$2/):"
		sed 's/^/    /' /tmp/vpmu-opt.$$
	fi
}
good() { # OPTION...
	runs=$((runs + 1))
	if ! run "$@"; then
		fails=$((fails + 1))
		echo "FAIL: $* was refused:"
		sed 's/^/    /' /tmp/vpmu-opt.$$
	fi
}
bad --l1d=32768,8,0 "L1D: 0 is not a power of two"
bad --l2=262144,0,0 "L2: 0 is not a power of two"
bad --dtlb=64,4,0 "DTLB: 0 is not a power of two"
bad --l1d=8589934592,8,64 "expected size,assoc,line"
bad --period=0 "a period is at least 1"
bad --period3=0 "a period is at least 1"
bad --skid=100000000 "from 0 to 4096"
bad --ld-lat=0 "from 1 to 65535"
bad --period-jitter=91 "from 0 to 90"
bad --seed=18446744073709551616 "at most 64 bits"
bad --lbr-select=0x200 "from 0 to 511"
bad --sample-buffer=0 "from 1 to 1048576"
bad --callchain=128 "from 0 to 127"
bad --misp-penalty=99999999999 "from 0 to 1000000"
bad --ghist-bits=25 "from 1 to 24"
bad --ctr0=0x1ffffffffffffffffff "at most 64 bits"
bad --ctr1=18446744073709551616 "at most 64 bits"
bad --precise-regs=bogus "auto, none, mem or insn"
# The stream's descriptor must be open (it is moved above the client's limit at start-up).
bad --out-fd=2147483647 "file descriptor 2147483647 is not open"
bad --out-fd=2147483648 "from 0 to 2147483647"
bad --out-fd=-1 "at most 64 bits"
good --skid=4096 --ld-lat=65535 --lbr-select=0x1ff --sample-buffer=1 --ghist-bits=24
good --ctr0=0x5301c0 --period0=128 --ctr1=0x00000000000000000000000530140 --l1d=32768,0,64
good --out-fd=2
good --ctr0=0x5301c0 --period0=128 --callchain=127 --sample-buffer=1
good --ctr0=0x5301c0 --period0=128 --period-jitter=90 --seed=18446744073709551615
rm -f /tmp/vpmu-opt.$$
echo "$((runs - fails)) passed, $fails failed"
[ $fails -eq 0 ]
