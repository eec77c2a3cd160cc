#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Build ids (docs/sample-file.md, "Build ids and the build-id cache"): pmc record names the
# build id of each object with samples in the BUILD_ID feature, as perf does, and keeps a
# copy of each in perf's build-id cache (~/.debug). A program and a shared library rebuilt
# after the recording with two functions in front of the sampled one must never be read
# as the recorded objects: the report names spin and lib_spin from the cached copies (pmc
# report and perf report), or, without them, marks the rows [build id mismatch] and names
# the files in a warning. Before, pmc wrote only the vDSO's build id and put the samples
# in pad1 silently.
. "$(dirname "$0")/lib.sh"

command -v cc >/dev/null || fail "no C compiler (scripts/setup.sh installs build-essential)"
command -v perf >/dev/null || fail "perf is a test dependency (scripts/setup.sh --test)"
S=$T/src
mkdir -p "$S" "$T/w"
# src NAME PADS: a program (or, with LIB, a library) whose hot function comes after PADS
# pad functions, so that a rebuild with pads moves it.
cat >"$S/lib.c" <<'C'
volatile unsigned long lib_sink;
#ifdef PADS
__attribute__((noinline)) void lib_pad1(void) { for (int i = 0; i < 64; i++) lib_sink += i * 3; }
__attribute__((noinline)) void lib_pad2(void) { for (int i = 0; i < 64; i++) lib_sink += i * 5; }
#endif
__attribute__((noinline)) void lib_spin(unsigned long n) { for (unsigned long i = 0; i < n; i++) lib_sink += i; }
C
cat >"$S/prog.c" <<'C'
#include <stdlib.h>
volatile unsigned long sink;
void lib_spin(unsigned long n);
#ifdef PADS
__attribute__((noinline)) void pad1(void) { for (int i = 0; i < 64; i++) sink += i * 3; }
__attribute__((noinline)) void pad2(void) { for (int i = 0; i < 64; i++) sink += i * 5; }
#endif
__attribute__((noinline)) void spin(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }
int main(int argc, char **argv) { unsigned long n = strtoul(argv[1], 0, 0); spin(n); lib_spin(n); return 0; }
C
# build [-DPADS]: the library and the program in $T/w
build() {
	cc -O1 -shared -fPIC "$@" -o "$T/w/libspin.so" "$S/lib.c" &&
		cc -O1 "$@" -o "$T/w/prog" "$S/prog.c" -L"$T/w" -lspin -Wl,-rpath,"$T/w"
}
build_id() { readelf -n "$1" | awk '/Build ID/ { print $3 }'; }
build || fail "cannot build the workload"
ID_PROG=$(build_id "$T/w/prog")
ID_LIB=$(build_id "$T/w/libspin.so")
N=200000000 # about 0.2 s in each function: hundreds of samples each

"$PMC" record -q -e task-clock -o "$T/p.data" "$T/w/prog" $N 2>"$T/rec.err"
expect_eq "pmc record exits 0" $? 0
"$PMC" report -i "$T/p.data" --sort dso,sym >"$T/r0" 2>&1
expect_grep "the recording names spin in prog" ' prog +\[\.\] spin$' "$T/r0"
expect_grep "and lib_spin in libspin.so" ' libspin\.so +\[\.\] lib_spin$' "$T/r0"

# The BUILD_ID feature as perf reads it: the program, the library, the vDSO.
perf buildid-list -i "$T/p.data" >"$T/ids" 2>"$T/ids.err"
expect_grep "perf buildid-list names the program's build id" "^$ID_PROG $T/w/prog\$" "$T/ids"
expect_grep "and the library's" "^$ID_LIB $T/w/libspin.so\$" "$T/ids"
expect_grep "and the vDSO's, as before" ' \[vdso\]$' "$T/ids"

# perf's cache layout: DIR/PATH/ID/elf, and .build-id/ID[0..2]/ID[2..] -> ../../PATH/ID.
C=$HOME/.debug
expect_eq "the program's copy is kept as ~/.debug/PATH/ID/elf" \
	"$(cmp -s "$C$T/w/prog/$ID_PROG/elf" "$T/w/prog" && echo same)" same
expect_eq "the copy is private to the user (0600)" "$(stat -c %a "$C$T/w/prog/$ID_PROG/elf")" 600
expect_eq "the .build-id link points at its folder, relative as perf makes it" \
	"$(readlink "$C/.build-id/${ID_PROG:0:2}/${ID_PROG:2}")" "../..$T/w/prog/$ID_PROG"
expect_eq "the library's copy is kept too" \
	"$(cmp -s "$C/.build-id/${ID_LIB:0:2}/${ID_LIB:2}/elf" "$T/w/libspin.so" && echo same)" same

# Rebuilt with two functions in front of each hot one.
build -DPADS || fail "cannot rebuild the workload"
[ "$(build_id "$T/w/prog")" != "$ID_PROG" ] || fail "the rebuild kept the program's build id"
"$PMC" report -i "$T/p.data" --sort dso,sym >"$T/r1" 2>"$T/r1.err"
expect_eq "pmc report of the rebuilt program exits 0" $? 0
expect_grep "the cached copy names spin" ' prog +\[\.\] spin$' "$T/r1"
expect_grep "and lib_spin" ' libspin\.so +\[\.\] lib_spin$' "$T/r1"
expect_no_grep "no sample is put in a pad function" 'pad[12]' "$T/r1"
expect_no_grep "and no warning is given" 'mismatch' "$T/r1.err"
"$PMC" annotate -i "$T/p.data" spin >"$T/a1" 2>&1
expect_grep "pmc annotate disassembles spin from the copy" "^# spin \\($T/w/prog\\): [0-9]+ samples" "$T/a1"
perf report -i "$T/p.data" --stdio --sort dso,sym >"$T/perf1" 2>&1
expect_grep "perf report finds the cached program" ' prog +\[\.\] spin' "$T/perf1"
expect_grep "and the cached library" ' libspin\.so +\[\.\] lib_spin' "$T/perf1"
expect_no_grep "perf puts no sample in a pad function" 'pad[12]' "$T/perf1"

# Without the copies: marked, and the files named, never the rebuilt files' names.
mv "$C" "$T/debug.saved"
"$PMC" report -i "$T/p.data" --sort dso,sym >"$T/r2" 2>"$T/r2.err"
expect_eq "pmc report without the cache exits 0" $? 0
expect_grep "the program's rows are marked" ' prog +\[\.\] \[build id mismatch\]$' "$T/r2"
expect_grep "and the library's" ' libspin\.so +\[\.\] \[build id mismatch\]$' "$T/r2"
expect_no_grep "no sample is put in a pad function" 'pad[12]|[^_]spin$' "$T/r2"
expect_grep "a warning names the program and both build ids" \
	"$T/w/prog is not the file that was recorded \(build id [0-9a-f]+, recorded $ID_PROG\)" "$T/r2.err"
expect_grep "and one names the library" "$T/w/libspin.so is not the file that was recorded" "$T/r2.err"

# PERF_BUILDID_DIR moves the cache (perf sets it for the scripts it runs).
mkdir -p "$T/bd"
PERF_BUILDID_DIR=$T/bd "$PMC" report -i "$T/p.data" --sort dso,sym >"$T/r3" 2>&1
expect_grep "no copy in \$PERF_BUILDID_DIR: still marked" 'mismatch' "$T/r3"
cp -a "$T/debug.saved/." "$T/bd/"
PERF_BUILDID_DIR=$T/bd "$PMC" report -i "$T/p.data" --sort dso,sym >"$T/r4" 2>&1
expect_grep "the copies in \$PERF_BUILDID_DIR name spin" ' prog +\[\.\] spin$' "$T/r4"

# The kernel's build id, as perf reads it (/sys/kernel/notes), when its code is sampled:
# reading /proc/kallsyms twice spends its time there. Sampling the kernel needs root or
# perf_event_paranoid <= 1 (docs/events.md, "Privilege levels").
if [ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -le 1 ]; then
	"$PMC" record -q -e task-clock --user --kernel -o "$T/k.data" \
		sh -c 'cat /proc/kallsyms /proc/kallsyms >/dev/null' 2>"$T/k.err"
	expect_eq "pmc record --kernel exits 0" $? 0
	perf buildid-list -i "$T/k.data" >"$T/kids" 2>&1
	expect_grep "the kernel's build id is perf's" "^$(perf buildid-list -k) \\[kernel\\.kallsyms\\]\$" "$T/kids"
	KID=$(perf buildid-list -k)
	expect_eq "the kernel's symbols are kept as ~/.debug/[kernel.kallsyms]/ID/kallsyms, linked" \
		"$(cmp -s "$C/.build-id/${KID:0:2}/${KID:2}/kallsyms" "$C/[kernel.kallsyms]/$KID/kallsyms" &&
			grep -c ' [Tt] vsnprintf$' "$C/[kernel.kallsyms]/$KID/kallsyms")" 1
	# The recording as if made under another kernel (its id in BUILD_ID replaced).
	FAKE=abababababababababababababababababababab
	python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); k = bytes.fromhex(sys.argv[2]); assert d.count(k) == 1; open(sys.argv[3], "wb").write(d.replace(k, bytes.fromhex(sys.argv[4])))' \
		"$T/k.data" "$KID" "$T/kf.data" $FAKE
	"$PMC" report -i "$T/kf.data" --sort dso,sym >"$T/kf" 2>"$T/kf.err"
	expect_grep "another kernel's samples are marked" '\[kernel\.kallsyms\] +\[k\] \[build id mismatch\]$' "$T/kf"
	expect_no_grep "and not named with the running kernel's symbols" ' \[k\] [a-z_]' "$T/kf"
	expect_grep "a warning names both kernels" "recording's kernel \\(build id $FAKE\\) is not the running one \\($KID\\)" "$T/kf.err"
	mkdir -p "$C/[kernel.kallsyms]/$FAKE" && cp "$C/[kernel.kallsyms]/$KID/kallsyms" "$C/[kernel.kallsyms]/$FAKE/" &&
		mkdir -p "$C/.build-id/ab" && ln -s "../../[kernel.kallsyms]/$FAKE" "$C/.build-id/ab/${FAKE:2}"
	"$PMC" report -i "$T/kf.data" --sort dso,sym >"$T/kf2" 2>&1
	expect_grep "with that kernel's kallsyms in the cache, its samples are named from it" \
		'\[kernel\.kallsyms\] +\[k\] [a-z_]' "$T/kf2"
else
	echo "note: perf_event_paranoid forbids sampling the kernel: its build id is not checked"
fi

# -N (perf's --no-buildid-cache): the build ids are written, no copy is kept.
build || fail "cannot build the workload again"
mkdir -p "$T/nhome"
HOME=$T/nhome "$PMC" record -q -N -e task-clock -o "$T/n.data" "$T/w/prog" 1000000 2>"$T/n.err"
expect_eq "pmc record -N exits 0" $? 0
expect_eq "-N keeps no copy (the vDSO's image is kept in ~/.cache as before)" \
	"$(ls -A "$T/nhome")" .cache
perf buildid-list -i "$T/n.data" >"$T/nids" 2>&1
expect_grep "-N still writes the build ids" "^$ID_PROG $T/w/prog\$" "$T/nids"

# A link planted in the cache is not followed: the copy is refused with a warning, and
# the link's target is left alone.
mkdir -p "$C$T/w/prog/$ID_PROG" && echo keep >"$T/victim"
ln -s "$T/victim" "$C$T/w/prog/$ID_PROG/elf"
"$PMC" record -q -e task-clock -o "$T/l.data" "$T/w/prog" 1000000 2>"$T/l.err"
expect_eq "pmc record with a planted link exits 0" $? 0
expect_eq "the link's target is untouched" "$(cat "$T/victim")" keep
expect_grep "the copy not kept is said" "cannot keep a copy of $T/w/prog in the build-id cache \(Too many levels of symbolic links\)" "$T/l.err"
rm "$C$T/w/prog/$ID_PROG/elf"
rm -rf "$C$T/w/prog" && ln -s "$T/elsewhere" "$C$T/w/prog" && mkdir "$T/elsewhere"
"$PMC" record -q -e task-clock -o "$T/l2.data" "$T/w/prog" 1000000 2>"$T/l2.err"
expect_eq "a folder replaced by a link is not entered" "$(ls -A "$T/elsewhere")" ""
expect_grep "and the copy not kept is said again" "cannot keep a copy of $T/w/prog" "$T/l2.err"

finish
