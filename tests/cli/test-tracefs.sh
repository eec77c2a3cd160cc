#!/bin/bash
# SPDX-License-Identifier: MIT
# The README's first command on a machine where tracefs is not mounted: as root, pmc mounts
# it as perf does and the tracepoint counts; as another user it says how to mount it. Run in
# a private mount namespace (unshare), never on the machine's own mounts, so that the tests
# running beside this one keep their tracefs.
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98
: "${BUILD:?}"

[ "$(id -u)" = 0 ] || skip_cap no-unprivileged-user "not root: cannot make a mount namespace here"
command -v unshare >/dev/null || fail "unshare (util-linux) is missing"

# In the namespace: unmount every tracefs and debugfs (debugfs would automount one under
# /sys/kernel/debug/tracing), check none is left, run the README's command, show the mounts.
cat >"$T/ns.sh" <<'NS'
for m in $(awk '$3 == "tracefs" || $3 == "debugfs" {print $2}' /proc/self/mounts | sort -r); do
	umount -l "$m" || exit 90
done
[ -e /sys/kernel/tracing/events ] && exit 91
"$1" stat -r 5 -e task-clock,page-faults,syscalls:sys_enter_write "$2" >/dev/null 2>"$3"
rc=$?
awk '$3 == "tracefs" {print $2}' /proc/self/mounts >"$4"
exit $rc
NS
unshare --mount --propagation private bash "$T/ns.sh" "$PMC" "$BUILD/examples/hello" \
	"$T/root.err" "$T/root.mounts"
rc=$?
[ $rc -ne 90 ] && [ $rc -ne 91 ] || fail "the namespace could not unmount tracefs ($rc)"
expect_eq "README's first command without tracefs, as root: exit 0" $rc 0
expect_grep "the write is counted once per run" "^ +1 +syscalls:sys_enter_write " "$T/root.err"
expect_eq "pmc mounted tracefs where the kernel expects it" "$(cat "$T/root.mounts")" \
	/sys/kernel/tracing
expect_grep "the machine's own tracefs is untouched" " /sys/kernel/tracing tracefs " /proc/self/mounts

# Another user cannot mount: the message says what is missing and how to mount it. pmc and
# libpmc are copied where that user can read them.
mkdir -p "$T/bin"
cp "$PMC" "$BUILD/lib/libpmc.so.0" "$BUILD/examples/hello" "$T/bin/"
chmod 711 "$T"
chmod 755 "$T/bin"
cat >"$T/ns-user.sh" <<'NS'
for m in $(awk '$3 == "tracefs" || $3 == "debugfs" {print $2}' /proc/self/mounts | sort -r); do
	umount -l "$m" || exit 90
done
LD_LIBRARY_PATH=$1 ASAN_OPTIONS=detect_leaks=0 setpriv --reuid=65534 --regid=65534 \
	--clear-groups "$1/pmc" stat -e syscalls:sys_enter_write "$1/hello" >/dev/null 2>"$2"
NS
unshare --mount --propagation private bash "$T/ns-user.sh" "$T/bin" "$T/user.err"
expect_eq "without tracefs, as nobody: a runtime error (docs/events.md)" $? 1
expect_grep "says tracefs is missing and how to mount it" \
	"cannot parse 'syscalls:sys_enter_write': cannot resolve tracepoint .*tracefs is not mounted or not readable \(try: mount -t tracefs nodev /sys/kernel/tracing\)" \
	"$T/user.err"
finish
