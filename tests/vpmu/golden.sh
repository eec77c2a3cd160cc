#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the t-work workload whole under vpmu in a fixed environment, once per programming of a
# group (every detector signal is read alone by some counter), and prints or checks the final
# counts against golden.txt, so that speed work on the models can be shown to change no count.
# Usage: golden.sh VGLIB T-WORK GROUP [--print | --compare] [VPMU-OPTION...]
#        GROUP: corei7 | pentium | misc; the options are added to every run.
#        --compare: no fixture; the group's counts with the options must equal those without
#        (e.g. --host-vector=no, the scalar lookups, against the host-vector ones), which
#        holds on any machine.
# t-work counts main's work only (not the dynamic loader's start-up, which walks the kernel's
# auxiliary vector and vDSO, nor the exit), so its counts depend on Valgrind, glibc and the
# guest's build, and not on the kernel (the fixture, made on one kernel, holds on others): the
# fixture is tied to those three in its first line, and elsewhere the check is skipped (77),
# which CI counts as a failure (scripts/test.sh).  The run's environment is fixed below, since
# the stack's place moves with its size.
# The guest's stdout goes to /dev/null: stdio takes another path (54 instructions apart,
# VPMU-NOTES 2.1) when stdout is a regular file, so /dev/null must be the device it is.
set -eu
vglib=$1 guest=$2 group=$3
shift 3
mode=check
if [ "${1:-}" = --print ] || [ "${1:-}" = --compare ]; then
	mode=$1
	shift
fi
extra="$*"
here=$(cd "$(dirname "$0")" && pwd)
fixture=$here/golden.txt

fingerprint() {
	printf 'fingerprint %s %s %s\n' "$(valgrind --version)" \
		"$(ldd --version 2>&1 | head -n 1 | tr ' ' _)" \
		"$(cksum <"$guest" | cut -d' ' -f1)"
}

configs() { # name and vpmu options, one programming per line
	case $1 in
	corei7) cat <<'C'
insn --fixed-ctrl=0x2
every --ctr0=0x430140 --ctr1=0x4300c5 --ctr2=0x430280 --ctr3=0x43010b --fixed-ctrl=0x222
static1 --ctr0=0x4302c0 --ctr1=0x4301c7 --ctr2=0x4302c7 --ctr3=0x4304c7 --fixed-ctrl=0x222
static2 --ctr0=0x4308c7 --ctr1=0x4310c7 --ctr2=0x430214 --ctr3=0x430114
memonly1 --ctr0=0x430161 --ctr1=0x431060 --ctr2=0x43010b --ctr3=0x43020b
memonly2 --ctr0=0x430162 --ctr1=0x430262 --ctr2=0x430462 --ctr3=0x430862
dcache1 --ctr0=0x4301cb --ctr1=0x430140 --ctr2=0x430f41 --ctr3=0x430141
dcache2 --ctr0=0x430f28 --ctr1=0x430151 --ctr2=0x430124 --ctr3=0x430224
dcache3 --ctr0=0x430424 --ctr1=0x430824 --ctr2=0x4307f1 --ctr3=0x4301f2
dcache4 --ctr0=0x4302f2 --ctr1=0x4304cb --ctr2=0x4310cb --ctr3=0x434f2e
dcache5 --ctr0=0x43412e --ctr1=0x430108 --ctr2=0x43010c --ctr3=0x43100b
icache --ctr0=0x430180 --ctr1=0x430280 --ctr2=0x431024 --ctr3=0x432024
stalls --ctr0=0x430185 --ctr1=0x430160 --ctr2=0x430260 --ctr3=0x430460
branch1 --ctr0=0x430163 --ctr1=0x430263 --ctr2=0x430463 --ctr3=0x430863
branch2 --ctr0=0x431063 --ctr1=0x432063 --ctr2=0x434063 --ctr3=0x438063
misp1 --ctr0=0x430189 --ctr1=0x434089 --ctr2=0x430489 --ctr3=0x432089
misp2 --ctr0=0x430889 --ctr1=0x430860 --ctr2=0x014301c2 --ctr3=0x01c301c2
cmask --ctr0=0x01c701c2 --ctr1=0x01470114 --ctr2=0x10c301c0 --ctr3=0x43003c --fixed-ctrl=0x220
C
	;;
	pentium) cat <<'C'
p-read-write --preset=pentium --cesr=0x00810080
p-misses --preset=pentium --cesr=0x00840083
p-hit-wb --preset=pentium --cesr=0x00860085
p-misalign-code --preset=pentium --cesr=0x008c008b
p-codemiss-dtlb --preset=pentium --cesr=0x0082008e
p-itlb-branches --preset=pentium --cesr=0x0092008d
p-btb --preset=pentium --cesr=0x00940093
p-flush-insn --preset=pentium --cesr=0x00960095
p-stalls --preset=pentium --cesr=0x009a0099
p-flops-clocks --preset=pentium --cesr=0x018000a2
p-errata --preset=pentium --p5-errata=yes --cesr=0x00810080
C
	;;
	misc) cat <<'C'
p4-every --preset=pentium4 --ctr0=0x430140 --ctr1=0x4300c5 --ctr2=0x430280 --ctr3=0x43010b --fixed-ctrl=0x222
p4-branch --preset=pentium4 --ctr0=0x430189 --ctr1=0x43ff63 --ctr2=0x430860 --ctr3=0x430160
no-wa --write-allocate=no --llc=0,0,64 --ctr0=0x430141 --ctr1=0x430f28 --ctr2=0x4302f2 --ctr3=0x430460
fully-assoc --l1d=4096,0,64 --dtlb=16,0,4096 --itlb=8,0,4096 --l1i=2048,0,32 --ctr0=0x430140 --ctr1=0x430108 --ctr2=0x430280 --ctr3=0x430185
sampled --ctr0=0x53003c --period=5003 --ctr1=0x4301cb --ctr2=0x4300c5 --ctr3=0x4301c4 --fixed-ctrl=0x222 --lbr=yes
sampled-insn --ctr0=0x5301c0 --period=100003 --ctr1=0x530140 --ctr2=0x530163 --precise=no --skid=2
C
	;;
	*) echo "golden.sh: unknown group $1" >&2; exit 2 ;;
	esac
}

# A fixed environment and a temporary folder whose name has a fixed length: the client's
# stack holds argv, the environment and LD_PRELOAD's path, and its layout changes counts.
# The dynamic loader runs before main and leaves the modelled caches and branch predictor
# in the state main starts from; looking libc up in /etc/ld.so.cache made that state, and
# so main's counts, depend on every library installed on the machine (installing a package
# changed 9 of the misc group's counts). LD_LIBRARY_PATH names libc's folder, which the
# loader searches before the cache, so it never reads the cache.
libdir=$(ldd "$guest" | awk '$1 == "libc.so.6" {print $3}')
libdir=${libdir%/*}
[ -n "$libdir" ] || { echo "golden.sh: ldd does not say where libc.so.6 is" >&2; exit 2; }
work=$(mktemp -d /tmp/vpmu-golden.XXXXXX)
trap 'rm -rf "$work"' EXIT
ln -s "$(cd "$vglib" && pwd)" "$work/vglib"
cp "$guest" "$work/t-work"

run_group() {
	configs "$group" | while read -r name opts; do
		# shellcheck disable=SC2086 # extra and opts are lists of options
		(cd "$work" && env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH="$libdir" VALGRIND_LIB="$work/vglib" \
			valgrind --tool=vpmu $extra $opts ./t-work 2>&1 >/dev/null) |
			sed -n "s/^==[0-9]*== vpmu: /$group $name /p"
	done
}

if [ "$mode" = --compare ]; then
	run_group >"$work/got"
	want=$extra extra=
	run_group >"$work/want"
	if ! diff -u "$work/want" "$work/got"; then
		echo "golden.sh: counts of group $group with $want differ from those without"
		exit 1
	fi
	echo "golden.sh: $(wc -l <"$work/got") counter values of group $group identical" \
		"with and without $want"
	grep -qw avx2 /proc/cpuinfo ||
		echo "golden.sh: (the host has no AVX2: both runs used the scalar lookups)"
	exit 0
fi
if [ "$mode" = --print ]; then
	fingerprint
	run_group
	exit 0
fi
if [ "$(head -n 1 "$fixture")" != "$(fingerprint)" ]; then
	echo "SKIP: golden.sh: fixture made with another valgrind, glibc or guest build"
	echo "  fixture: $(head -n 1 "$fixture")"
	echo "  here:    $(fingerprint)"
	exit 77
fi
run_group >"$work/got"
grep "^$group " "$fixture" >"$work/want"
if [ ! -c /dev/null ]; then
	echo "SKIP: golden.sh: /dev/null is not a character device here; counts would differ"
	exit 77
fi
if ! diff -u "$work/want" "$work/got"; then
	echo "golden.sh: counts of group $group differ from tests/vpmu/golden.txt"
	exit 1
fi
echo "golden.sh: $(wc -l <"$work/got") counter values of group $group identical${extra:+ with $extra}"
