#!/bin/bash
# SPDX-License-Identifier: MIT
# A refusal names what refused it (docs/security.md, "Messages"): run as an unprivileged user
# with the perf_event_paranoid in effect (never changed here), -a, -p of another user's
# process and kernel-level events are explained with /proc/sys/kernel/perf_event_paranoid, its
# value and the value they need, or with ptrace access; an output that cannot be written names
# the file and its error and never perf_event_paranoid; pmc doctor reports what its probes
# opened, which must be what the kernel answers to perf-probe.py (without pmc).
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98
PROBE=$(cd "$(dirname "$0")" && pwd)/perf-probe.py
LEVEL=$(cat /proc/sys/kernel/perf_event_paranoid)
PFILE=/proc/sys/kernel/perf_event_paranoid

# as_user CMD...: CMD as an unprivileged user (lib.sh); pmc, libpmc and the probe script are
# copied where that user can run them when the build tree is private.
use_unprivileged "$PROBE"
[ -n "$UBIN" ] && PROBE=$UBIN/perf-probe.py
# A Python the unprivileged user can run, for the kernel's own answer.
PY=
for p in "$(command -v python3)" /usr/bin/python3; do
	as_user "$p" -c '' 2>/dev/null && PY=$p && break
done
[ -n "$PY" ] || fail "no python3 that an unprivileged user can run"
probe() { as_user "$PY" "$PROBE" "$@"; }
[ "$(probe user)" != unknown-arch ] || fail "perf-probe.py does not know the perf_event_open number of $(uname -m): add it"
K_USER=$(probe user) K_KERNEL=$(probe kernel) K_CPU=$(probe cpu)
[ -n "$K_USER" ] && [ -n "$K_KERNEL" ] && [ -n "$K_CPU" ] || fail "perf-probe.py gave no answer"
echo "perf_event_paranoid $LEVEL; the kernel answers an unprivileged user: user $K_USER, kernel $K_KERNEL, cpu $K_CPU"

# U: a folder the unprivileged user owns; U/ro: one it owns but cannot write. T stays root's
# own (mode 0700): an output there is refused by the folder, not by perf_event_paranoid.
U=$(mktemp -d)
trap '[ "$BASHPID" = "$$" ] && rm -rf "$T" "$U"' EXIT
mkdir "$U/ro"
[ "$(id -u)" = 0 ] && chown -R 65534:65534 "$U"
chmod 755 "$U"
chmod 555 "$U/ro"

# ---- pmc doctor: the probes' answers, and the keys of before ----
as_user "$PMC" doctor --json >"$U/doc.json" 2>"$T/err"
expect_eq "doctor as a user" "$?" 0
check() { json "$U/doc.json" "[c['$2'] for c in j['checks'] if c['key'] == '$1'][0]"; }
verdict() { [ "$1" = ok ] && echo True || echo False; }
expect_eq "doctor: user-level counting as the kernel answers" "$(check open_user ok)" "$(verdict "$K_USER")"
expect_eq "doctor: kernel-level counting as the kernel answers" "$(check open_kernel ok)" "$(verdict "$K_KERNEL")"
expect_eq "doctor: CPU-wide counting as the kernel answers" "$(check open_cpu ok)" "$(verdict "$K_CPU")"
expect_eq "doctor: the paranoid check is the kernel-level probe" "$(check paranoid ok)" "$(verdict "$K_KERNEL")"
expect_eq "doctor: the paranoid check's value" "$(check paranoid value)" "$LEVEL"
expect_eq "doctor: the keys of before are kept" \
	"$(json "$U/doc.json" '",".join(k for k in ["perf_event","hw_pmu","paranoid","nmi_watchdog","rdpmc","breakpoints"] if k not in [c["key"] for c in j["checks"]])')" ""
expect_eq "doctor: schema" "$(json "$U/doc.json" 'j["schema"]')" "pmc-doctor/1"
if [ "$K_CPU" != ok ]; then
	expect_grep "doctor: CPU-wide says what it needs" "perf_event_paranoid <= 0" \
		<(check open_cpu detail)
	expect_grep "doctor: CPU-wide says what helps" "sysctl kernel.perf_event_paranoid=0" \
		<(check open_cpu todo)
fi
"$PMC" doctor --json >"$T/rootdoc.json" 2>/dev/null
for k in user kernel cpu; do
	expect_eq "doctor as $(id -un): $k as the kernel answers" \
		"$(json "$T/rootdoc.json" "[c['ok'] for c in j['checks'] if c['key'] == 'open_$k'][0]")" \
		"$(verdict "$("$PY" "$PROBE" $k)")"
done

# ---- -a: counting CPUs ----
as_user "$PMC" stat -a -e task-clock -- true >/dev/null 2>"$T/err"
rc=$?
if [ "$K_USER" != ok ]; then
	expect_eq "stat -a: refused" "$rc" 1
	expect_grep "stat -a: names the setting in effect" "$PFILE is $LEVEL" "$T/err"
elif [ "$K_CPU" != ok ]; then
	expect_eq "stat -a: refused" "$rc" 1
	expect_grep "stat -a: says what CPUs need" "counting CPUs .*needs perf_event_paranoid <= 0 or CAP_PERFMON" "$T/err"
	expect_grep "stat -a: names the file and the value in effect" "$PFILE is $LEVEL" "$T/err"
	expect_grep "stat -a: says what helps" "sysctl kernel.perf_event_paranoid=0" "$T/err"
	expect_no_grep "stat -a: user-level events are not blamed on the kernel rule" "counts the kernel" "$T/err"
else
	expect_eq "stat -a: allowed here, and counts" "$rc" 0
fi
as_user "$PMC" record -a -e task-clock -o "$U/a.data" -- true >/dev/null 2>"$T/err"
rc=$?
if [ "$K_CPU" != ok ]; then
	expect_eq "record -a: refused" "$rc" 1
	expect_grep "record -a: names the file and the value in effect" "$PFILE is $LEVEL" "$T/err"
	[ "$K_USER" = ok ] && expect_grep "record -a: says what CPUs need" "counting CPUs .*perf_event_paranoid <= 0" "$T/err"
	[ ! -e "$U/a.data" ] && ok "record -a: no file is left" || fail "record -a left $U/a.data"
else
	expect_eq "record -a: allowed here, and samples" "$rc" 0
fi

# ---- -p of another user's process: ptrace access, not perf_event_paranoid ----
sleep 60 &
other=$!
K_PID=$(probe user $other)
as_user timeout -s INT 30 "$PMC" stat -e task-clock -p $other >/dev/null 2>"$T/err"
rc=$?
if [ "$K_USER" = ok ] && [ "$K_PID" != ok ]; then
	expect_eq "stat -p of root's process: refused" "$rc" 1
	expect_grep "stat -p: names the owner and the user" "process $other runs as uid 0 and pmc as uid $(as_user id -u)" "$T/err"
	expect_grep "stat -p: says what it needs" "ptrace read access .*CAP_SYS_PTRACE" "$T/err"
	expect_no_grep "stat -p: perf_event_paranoid is not blamed" "paranoid" "$T/err"
	as_user "$PMC" record -e task-clock -p $other -o "$U/p.data" >/dev/null 2>"$T/err"
	expect_eq "record -p of root's process: refused" "$?" 1
	expect_grep "record -p: says what it needs" "process $other runs as uid 0 .*CAP_SYS_PTRACE" "$T/err"
	expect_no_grep "record -p: perf_event_paranoid is not blamed" "paranoid" "$T/err"
elif [ "$K_PID" = ok ]; then
	ok "stat -p: the kernel lets this user count root's process (skipped the refusal)"
fi
kill $other 2>/dev/null
wait $other 2>/dev/null

# ---- events that count the kernel ----
as_user "$PMC" stat -e task-clock:k -- true >/dev/null 2>"$T/err"
rc=$?
if [ "$K_USER" = ok ] && [ "$K_KERNEL" != ok ]; then
	# Not counted, said on its line; the run goes on and exits with the program's status.
	expect_eq "stat :k: the run goes on" "$rc" 0
	expect_grep "stat :k: not supported on its line" "^ +<not supported> +(msec +)?task-clock:k +\\(" "$T/err"
	expect_grep "stat :k: names the event and the rule" "'task-clock:k' counts the kernel, which needs perf_event_paranoid <= 1" "$T/err"
	expect_grep "stat :k: names the file and the value in effect" "$PFILE is $LEVEL" "$T/err"
	expect_grep "stat :k: suggests :u" "add :u" "$T/err"
	as_user "$PMC" stat --strict -e task-clock:k -- true >/dev/null 2>"$T/err"
	expect_eq "stat --strict :k: refused" "$?" 1
	expect_grep "stat --strict :k: says why" "cannot count 'task-clock:k': .*perf_event_paranoid <= 1" "$T/err"
	# Kernel-side events that happen only in the kernel are refused too (they count the
	# kernel unless told), never with :u suggested: it would make them read 0. More in
	# cli.test-kernel-side-user.
	as_user "$PMC" stat -e context-switches,task-clock -- true >/dev/null 2>"$T/err"
	expect_eq "stat context-switches: the run goes on" "$?" 0
	expect_grep "stat context-switches: said on its line" "^ +<not supported> +(msec +)?context-switches +\\(it happens only in the kernel, which perf_event_paranoid=$LEVEL does not let uid $(as_user id -u) count" "$T/err"
	expect_no_grep "stat context-switches: :u is not suggested" "add :u" "$T/err"
	expect_grep "stat context-switches: the others are counted" "^ +[0-9][0-9.]* +(msec +)?task-clock " "$T/err"
	as_user "$PMC" stat -e task-clock:u -- true >/dev/null 2>"$T/err"
	expect_eq "stat :u: what was suggested works" "$?" 0
	as_user "$PMC" record -e task-clock --kernel -o "$U/k.data" -- true >/dev/null 2>"$T/err"
	expect_eq "record --kernel: refused" "$?" 1
	expect_grep "record with the kernel: the rule is named" "counts the kernel, which needs perf_event_paranoid <= 1" "$T/err"
elif [ "$K_KERNEL" = ok ]; then
	expect_eq "stat :k: allowed here, and counts" "$rc" 0
fi

# ---- outputs that cannot be written: the file is blamed, never perf_event_paranoid ----
for out in "$T/x" "$U/ro/x"; do
	as_user "$PMC" record -e task-clock:u -o "$out.data" -- touch "$U/ran" 2>"$T/err"
	expect_eq "record -o $out.data: fails" "$?" 1
	expect_grep "record -o $out.data: the file and its error" "cannot write $out.data: Permission denied" "$T/err"
	expect_no_grep "record -o $out.data: paranoid is not blamed" "paranoid" "$T/err"
	# With -a as well: the file is checked first, and only the file is named.
	as_user "$PMC" record -a -e task-clock:u -o "$out.data" -- true 2>"$T/err"
	expect_grep "record -a -o $out.data: the file and its error" "cannot write $out.data: Permission denied" "$T/err"
	expect_no_grep "record -a -o $out.data: paranoid is not blamed" "paranoid" "$T/err"
	as_user "$PMC" stat -e task-clock:u -o "$out.txt" -- touch "$U/ran" 2>"$T/err"
	expect_eq "stat -o $out.txt: fails" "$?" 1
	expect_grep "stat -o $out.txt: the file and its error" "cannot write $out.txt: Permission denied" "$T/err"
	expect_no_grep "stat -o $out.txt: paranoid is not blamed" "paranoid" "$T/err"
	as_user "$PMC" calibrate -e task-clock:u -n 20 -r 2 -o "$out.json" >/dev/null 2>"$T/err"
	expect_eq "calibrate -o $out.json: fails" "$?" 1
	expect_grep "calibrate -o $out.json: the file and its error" "cannot write $out.json: Permission denied" "$T/err"
	expect_no_grep "calibrate -o $out.json: paranoid is not blamed" "paranoid" "$T/err"
done
[ ! -e "$U/ran" ] && ok "no program ran before its output was checked" || fail "a program ran though its output could not be written"
# pmc report writes to stdout: a full stdout is said as a write error, with its errno.
as_user "$PMC" record -q -e task-clock:u -o "$U/ok.data" -- true 2>"$T/err"
expect_eq "record as a user works" "$?" 0
as_user "$PMC" report -i "$U/ok.data" >/dev/full 2>"$T/err"
expect_eq "report to a full stdout: fails" "$?" 1
expect_grep "report to a full stdout: says so" "no space left on stdout" "$T/err"
expect_no_grep "report to a full stdout: paranoid is not blamed" "paranoid" "$T/err"
finish
