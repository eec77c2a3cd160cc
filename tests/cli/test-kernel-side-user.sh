#!/bin/bash
# SPDX-License-Identifier: MIT
# Kernel-side events for a user whom the kernel does not let count the kernel
# (perf_event_paranoid 2 without CAP_PERFMON; docs/events.md, "Privilege levels"), as that
# user: syscalls:* without :u/:k count at user level, every call (exact counts), and say so on
# their line; events that happen only in the kernel are <not supported> with the setting and
# what to do, and the others are counted; --strict makes them an error; :k and --kernel stay
# refusals with the rule named. Where the kernel lets the user count the kernel, they count it.
# tracefs is root's only on many machines: what pmc says then is checked, and a private mount
# namespace (root's) gives the user readable copies of a few tracepoint ids for the rest.
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98
use_unprivileged "$PROGS/write-loop"
W=${UBIN:-$PROGS}/write-loop
ME=$(as_user id -u)
LEVEL=$(cat /proc/sys/kernel/perf_event_paranoid)
KERNEL_OK=$(as_user "$PMC" doctor --json | json /dev/stdin '[c["ok"] for c in j["checks"] if c["key"] == "open_kernel"][0]')
echo "perf_event_paranoid $LEVEL; uid $ME may count the kernel: $KERNEL_OK"
export ONLY="it happens only in the kernel, which perf_event_paranoid=$LEVEL does not let uid $ME count"
TODO="sysctl kernel.perf_event_paranoid=1, or run pmc with CAP_PERFMON"
NOTE="counted at user level: perf_event_paranoid=$LEVEL does not let uid $ME count the kernel"
HEADER="95% confidence, user level, backend perf"

# ---- context-switches, cpu-migrations: no tracefs needed ----
as_user "$PMC" stat -e task-clock,context-switches,cpu-migrations -- "$W" 10 2>"$T/cs"
rc=$?
if [ "$KERNEL_OK" = True ]; then
	expect_eq "kernel allowed: exit 0" $rc 0
	expect_grep "kernel allowed: context-switches counts" "^ +[0-9][0-9.]* +(msec +)?context-switches " "$T/cs"
	expect_no_grep "kernel allowed: nothing counted at user level instead" "counted at user level" "$T/cs"
else
	expect_eq "context-switches: the run goes on, exit 0" $rc 0
	for ev in context-switches cpu-migrations; do
		expect_grep "$ev: <not supported>, the setting and the uid named" "^ +<not supported> +$ev +\\($ONLY" "$T/cs"
	done
	expect_grep "context-switches: says what to do" "^ +<not supported> +context-switches +.*: $TODO\\)$" "$T/cs"
	expect_no_grep "context-switches: :u is not suggested (it would read 0)" "add :u" "$T/cs"
	expect_grep "task-clock is still counted" "^ +[0-9][0-9.]* msec task-clock " "$T/cs"
	expect_grep "header: user level only (no kernel-side event counted)" "$HEADER" "$T/cs"

	as_user "$PMC" stat --strict -e task-clock,context-switches -- "$W" 10 2>"$T/strict"
	expect_eq "--strict: exit 1" $? 1
	expect_grep "--strict: the event and the reason" "cannot count 'context-switches': $ONLY.*\\(--strict\\)" "$T/strict"

	# The default set: the two scheduler events not supported, the rest of it counted.
	as_user "$PMC" stat -- "$W" 10 2>"$T/def"
	expect_eq "default set: exit 0" $? 0
	expect_grep "default set: context-switches said" "^ +<not supported> +context-switches +\\($ONLY" "$T/def"
	expect_grep "default set: page-faults counted" "^ +[0-9][0-9.]* +(msec +)?page-faults " "$T/def"

	as_user "$PMC" stat --format json -o - -e context-switches,task-clock -- "$W" 10 >"$T/cs.json" 2>/dev/null
	expect_eq "JSON: unsupported with the reason, task-clock counted" \
		"$(json "$T/cs.json" '[j["events"][0]["supported"], "perf_event_paranoid='"$LEVEL"'" in j["events"][0]["reason"], j["events"][1]["supported"], len(j["events"][1]["values"])]')" \
		"[False, True, True, 1]"

	# The user asked for the kernel: the rule is named as before.
	as_user "$PMC" stat -e context-switches:k,task-clock -- "$W" 10 2>"$T/k"
	expect_eq ":k: exit 0" $? 0
	expect_grep ":k: the rule is named" "^ +<not supported> +context-switches:k +\\('context-switches:k' counts the kernel \\(it happens only there\\), which needs perf_event_paranoid <= 1" "$T/k"
	as_user "$PMC" stat --kernel -e context-switches -- "$W" 10 2>"$T/k"
	expect_grep "--kernel: the rule is named" "^ +<not supported> +context-switches +\\('context-switches' counts the kernel" "$T/k"

	as_user "$PMC" list --json software >"$T/list"
	expect_eq "pmc list: not countable here, with the reason" \
		"$(json "$T/list" '[e["supported"] for e in j["events"] if e["name"] == "context-switches"]')" "[False]"
	expect_eq "pmc list: the reason" \
		"$(json "$T/list" '[e["reason"].startswith(__import__("os").environ["ONLY"]) for e in j["events"] if e["name"] == "context-switches"]')" "[True]"
	expect_eq "pmc list: task-clock countable" \
		"$(json "$T/list" '[e["supported"] for e in j["events"] if e["name"] == "task-clock"]')" "[True]"
fi

# ---- tracefs as this machine has it ----
if ! as_user test -r /sys/kernel/tracing/events/header_page &&
	[ "$(stat -f -c %T /sys/kernel/tracing 2>/dev/null)" = tracefs ]; then
	as_user "$PMC" stat -e syscalls:sys_enter_write -- "$W" 10 2>"$T/tfs"
	expect_eq "tracefs root's only: a runtime error" $? 1
	expect_grep "tracefs root's only: says so, with the uid and what to do" \
		"cannot resolve tracepoint 'syscalls:sys_enter_write': tracefs on /sys/kernel/tracing is not readable by uid $ME \\(run pmc as root, or remount it with gid=GROUP,mode=0750\\)" "$T/tfs"
fi

# ---- tracepoints, with their ids readable ----
# tp_as_user CMD...: CMD as the user, where it can read tracefs: as it is if it already can;
# else (root) in a private mount namespace over whose /sys/kernel/tracing lie copies of the
# ids of the tracepoints used here (the kernel's own tracefs is untouched; the kernel judges
# the events as ever, only their ids are read from the copies).
TPS="syscalls/sys_enter_write syscalls/sys_enter_getppid sched/sched_switch"
cat >"$T/ns.sh" <<'NS'
ev=/sys/kernel/tracing/events copy=$(mktemp -d)
[ -e "$ev/header_page" ] || mount -t tracefs nodev /sys/kernel/tracing || exit 90
for tp in $TPS; do
	mkdir -p "$copy/$tp" && cat "$ev/$tp/id" >"$copy/$tp/id" || exit 90
done
cat "$ev/header_page" >"$copy/header_page" || exit 90
mount -t tmpfs -o mode=0755 pmc-test-tracefs /sys/kernel/tracing || exit 91
cp -r "$copy" /sys/kernel/tracing/events && chmod -R a+rX /sys/kernel/tracing || exit 91
setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
NS
if as_user test -r /sys/kernel/tracing/events/header_page; then
	tp_as_user() { as_user "$@"; }
elif [ "$(id -u)" = 0 ] && command -v unshare >/dev/null && command -v setpriv >/dev/null; then
	tp_as_user() { (cd / && TPS=$TPS unshare --mount --propagation private bash "$T/ns.sh" "$@"); }
else
	skip_part no-unprivileged-user "not root: no namespace can give this user a readable tracefs"
	finish
	exit
fi

tp_as_user "$PMC" stat -r 3 -e syscalls:sys_enter_write,sched:sched_switch,task-clock -- "$W" 100 2>"$T/tp"
rc=$?
[ $rc -ne 90 ] && [ $rc -ne 91 ] || fail "the namespace could not lay out the tracepoint ids ($rc)"
expect_eq "tracepoints: exit 0" $rc 0
if [ "$KERNEL_OK" = True ]; then
	expect_grep "kernel allowed: 100 writes are 100 hits" "^ +100 +syscalls:sys_enter_write " "$T/tp"
	expect_no_grep "kernel allowed: counted where it happens" "counted at user level" "$T/tp"
	finish
	exit
fi
expect_grep "100 writes are 100 hits at user level, said on the line" \
	"^ +100 +syscalls:sys_enter_write .*\\($NOTE\\)$" "$T/tp"
expect_grep "sched:sched_switch: <not supported>, with the setting" "^ +<not supported> +sched:sched_switch +\\($ONLY.*$TODO\\)$" "$T/tp"
expect_grep "tracepoints: task-clock counted" "^ +[0-9][0-9.]* msec task-clock " "$T/tp"
expect_grep "tracepoints: header says user level (the kernel-side ones do not count the kernel)" "$HEADER" "$T/tp"

# Said once under -v, however many syscalls:* fall back.
tp_as_user "$PMC" stat -v -e syscalls:sys_enter_write,syscalls:sys_enter_getppid -- "$W" 100 2>"$T/v"
expect_eq "-v: the fall-back said once" "$(grep -c "is counted at user level" "$T/v")" 1
expect_grep "-v: and why" "'syscalls:sys_enter_write' is $NOTE" "$T/v"
expect_grep "-v: getppid too, with its note" "^ +0 +syscalls:sys_enter_getppid .*\\($NOTE\\)" "$T/v"

tp_as_user "$PMC" stat --format json -o - -e syscalls:sys_enter_write,sched:sched_switch -- "$W" 100 >"$T/tp.json" 2>/dev/null
expect_eq "JSON: the note, the user-level encoding and the count" \
	"$(json "$T/tp.json" '[j["events"][0]["note"], "exclude_kernel=1" in j["events"][0]["encoding"], j["events"][0]["values"], j["events"][1]["supported"], "note" in j["events"][1]]')" \
	"['$NOTE', True, [100.0], False, False]"

# :u is the user's own choice: no note. :k and --kernel ask for the kernel: the rule is named,
# and :u suggested (syscalls:* count at user level).
tp_as_user "$PMC" stat -e syscalls:sys_enter_write:u,syscalls:sys_enter_write:k -- "$W" 100 2>"$T/uk"
expect_eq ":u and :k: exit 0" $? 0
expect_grep ":u: exact, without a note" "^ +100 +syscalls:sys_enter_write:u +$" "$T/uk"
expect_grep ":k: the rule is named, :u suggested" \
	"^ +<not supported> +syscalls:sys_enter_write:k +\\('syscalls:sys_enter_write:k' counts the kernel, which needs perf_event_paranoid <= 1 .*add :u" "$T/uk"
tp_as_user "$PMC" stat --kernel -e syscalls:sys_enter_write -- "$W" 100 2>"$T/uk"
expect_grep "--kernel: the rule is named" "^ +<not supported> +syscalls:sys_enter_write +\\('syscalls:sys_enter_write' counts the kernel, which needs perf_event_paranoid <= 1" "$T/uk"

tp_as_user "$PMC" stat --strict -e syscalls:sys_enter_write,sched:sched_switch -- "$W" 100 2>"$T/strict"
expect_eq "--strict with sched:sched_switch: exit 1" $? 1
expect_grep "--strict: the event and the reason" "cannot count 'sched:sched_switch': $ONLY" "$T/strict"

tp_as_user "$PMC" list --json 'sched:sched_switch' >"$T/list"
expect_eq "pmc list: sched:sched_switch not countable here, with the reason" \
	"$(json "$T/list" '[(e["supported"], e["reason"].startswith(__import__("os").environ["ONLY"])) for e in j["events"] if e["name"] == "sched:sched_switch"]')" \
	"[(False, True)]"
finish
