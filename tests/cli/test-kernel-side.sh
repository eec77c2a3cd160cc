#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# No silent zeros (docs/events.md, "Privilege levels"): events that happen only in the kernel
# (context-switches, cpu-migrations, tracepoints) count where they happen whatever the
# default privilege; a privilege that leaves them nothing to count is said on their line;
# an event that cannot be counted here does not stop the run (--strict makes it an error).
. "$(dirname "$0")/lib.sh"

[ -r /sys/kernel/tracing/events/sched/sched_switch/id ] ||
	[ -r /sys/kernel/debug/tracing/events/sched/sched_switch/id ] ||
	{ fail "no sched tracepoints: pmc mounts tracefs as root, scripts/setup.sh too"; finish; exit; }

KS="context-switches,cpu-migrations,sched:sched_switch,raw_syscalls:sys_enter"
GP=syscalls:sys_enter_getppid

# ---- the attrs: kernel-side events never get exclude_kernel from the default ----
# attrs FILE: "type config exclude_kernel" per perf_event_attr block of a -vv dry run.
attrs() {
	awk '/^perf_event_attr:/ {t = ""; c = ""; k = 0}
	     $1 == "type" {t = $2} $1 == "config" {c = $2} $1 == "exclude_kernel" {k = $2}
	     /^sys_perf_event_open/ {print t, c, k}' "$1"
}
for priv in "" --user --kernel; do
	"$PMC" stat $priv --dry-run -vv -e "$KS,page-faults" -- true >"$T/dry" 2>"$T/err"
	expect_eq "dry run $priv: exit 0" $? 0
	attrs "$T/dry" >"$T/attrs"
	expect_eq "dry run $priv: context-switches counts the kernel" "$(grep -c '^1 0x3 0$' "$T/attrs")" 1
	expect_eq "dry run $priv: cpu-migrations counts the kernel" "$(grep -c '^1 0x4 0$' "$T/attrs")" 1
	expect_eq "dry run $priv: tracepoints count the kernel" "$(grep -c '^2 0x[0-9a-f]* 0$' "$T/attrs")" 2
done
# page-faults happen at user level too: the default privilege applies to it.
"$PMC" stat --dry-run -vv -e page-faults -- true >"$T/dry"
expect_eq "dry run: page-faults keeps the user-level default" "$(attrs "$T/dry")" "1 0x2 1"
# An explicit :u is the user's: it would blind a kernel-side event, which is not opened.
"$PMC" stat --dry-run -vv -e sched:sched_switch:u,page-faults -- true >"$T/dry" 2>"$T/err"
expect_eq "dry run: a blind event is not opened" "$(attrs "$T/dry")" "1 0x2 1"
expect_grep "dry run: a blind event is said" "'sched:sched_switch:u' is not opened: it happens only in the kernel" "$T/err"

# ---- counting: each kernel-side event counts above 0, or says why on its line ----
# A shell that moves itself between CPUs (each move is a migration when it wakes on the
# other CPU) and sleeps five times (each sleep is at least one context switch).
WORK='taskset -pc 0 $$ >/dev/null; taskset -pc 1 $$ >/dev/null; taskset -pc 0 $$ >/dev/null; for i in 1 2 3 4 5; do sleep 0.01; done'
"$PMC" stat -e "$KS" -- sh -c "$WORK" 2>"$T/ks"
expect_eq "kernel-side events: the program's exit status" $? 0
value() { sed -n "s/^ *\([0-9][0-9]*\) *$1 .*/\1/p" "$2"; }
for ev in context-switches sched:sched_switch raw_syscalls:sys_enter cpu-migrations; do
	if grep -q "^ *<not supported> *$ev   (.\+)" "$T/ks"; then
		ok "$ev: not counted here, and says why: $(grep " $ev  " "$T/ks")"
		continue
	fi
	v=$(value "$ev" "$T/ks")
	min=5
	[ "$ev" = cpu-migrations ] && min=$([ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null && echo 1 || echo 0)
	expect_eq "$ev counts at least $min (got $v)" "$([ -n "$v" ] && [ "$v" -ge "$min" ] && echo yes)" yes
done

# Exact counts: N getppid calls are N syscalls:sys_enter_getppid hits and at least N
# raw_syscalls:sys_enter; syscalls:* fire with the task's user registers, so :u counts them.
"$PMC" stat -e "$GP,$GP:u,raw_syscalls:sys_enter" "$PROGS/getppid-loop" 1000 2>"$T/gp"
expect_grep "syscalls tracepoint: exact" "^ +1000 +$GP " "$T/gp"
expect_grep "syscalls tracepoint with :u: exact" "^ +1000 +$GP:u " "$T/gp"
v=$(value raw_syscalls:sys_enter "$T/gp")
expect_eq "raw_syscalls:sys_enter counts at least the 1000 calls (got $v)" \
	"$([ -n "$v" ] && [ "$v" -ge 1000 ] && echo yes)" yes

# N write(2) calls are N syscalls:sys_enter_write hits, in every repetition.
"$PMC" stat -r 3 --all-results -e syscalls:sys_enter_write "$PROGS/write-loop" 100 2>"$T/w"
expect_grep "100 writes: 100 hits" "^ +100 +syscalls:sys_enter_write " "$T/w"
expect_grep "100 writes: min 100, max 100" "^ +100 \+- 0\.0 +100 +100 +100 +0\.0  syscalls:sys_enter_write$" "$T/w"
expect_eq "100 writes: each repetition" "$(grep -c '^    rep [123]: 100$' "$T/w")" 3

# ---- the header: the default level, and kernel-side events where they happen ----
expect_grep "header: kernel-side events count where they happen" \
	"95% confidence, user level; kernel-side events where they happen, backend perf" "$T/w"
"$PMC" stat -e task-clock,page-faults "$PROGS/write-loop" 1 2>"$T/h"
expect_grep "header: user level only without kernel-side events" "95% confidence, user level, backend perf" "$T/h"
"$PMC" stat -e task-clock,sched:sched_switch:u "$PROGS/write-loop" 1 2>"$T/h"
expect_grep "header: user level only when the kernel-side event is not counted" "95% confidence, user level, backend perf" "$T/h"
"$PMC" stat --kernel -e task-clock,context-switches "$PROGS/write-loop" 1 2>"$T/h"
expect_grep "header: --kernel, and kernel-side events where they happen" "95% confidence, kernel level; kernel-side events where they happen, backend perf" "$T/h"
"$PMC" stat --user --kernel -e task-clock,context-switches "$PROGS/write-loop" 1 2>"$T/h"
expect_grep "header: both levels include where kernel-side events happen" "95% confidence, user and kernel levels, backend perf" "$T/h"

# ---- :u on an event that happens only in the kernel: said, never a silent 0 ----
"$PMC" stat -e sched:sched_switch:u,context-switches:u,$GP "$PROGS/exit-with" exit 3 2>"$T/u"
expect_eq ":u blind events: the run goes on, the program's status" $? 3
expect_grep ":u tracepoint: said on its line" \
	"^ +<not supported> +sched:sched_switch:u +\(it happens only in the kernel, .*read 0" "$T/u"
expect_grep ":u context-switches: said on its line" \
	"^ +<not supported> +context-switches:u +\(it happens only in the kernel" "$T/u"
expect_grep ":u blind events: the others are counted" "^ +100 +$GP " "$T/u"
"$PMC" stat --strict -e sched:sched_switch:u,$GP "$PROGS/exit-with" exit 3 2>"$T/u"
expect_eq ":u blind event with --strict: exit 1" $? 1
expect_grep "--strict says which and why" "cannot count 'sched:sched_switch:u': it happens only in the kernel" "$T/u"
"$PMC" stat -o "$T/u.json" --format json -e sched:sched_switch:u,$GP "$PROGS/exit-with" 2>/dev/null
expect_eq "JSON: the blind event is unsupported, with the reason" \
	"$(json "$T/u.json" '[j["events"][0]["supported"], "only in the kernel" in j["events"][0]["reason"], j["events"][1]["values"]]')" \
	"[False, True, [100.0]]"

# ---- a hardware event where there is no PMU: <not supported>, the rest counted ----
if "$PMC" doctor | grep -q '\[no\] hardware PMU'; then
	"$PMC" stat -e cycles,context-switches,$GP "$PROGS/exit-with" exit 5 2>"$T/hw"
	expect_eq "no PMU: the program's exit status" $? 5
	expect_grep "no PMU: cycles not supported, with the reason" "^ +<not supported> +cycles +\(no hardware PMU" "$T/hw"
	expect_grep "no PMU: the others are counted" "^ +100 +$GP " "$T/hw"
	"$PMC" stat --strict -e cycles,$GP "$PROGS/exit-with" exit 5 2>"$T/hw"
	expect_eq "no PMU with --strict: exit 1" $? 1
else
	echo "note: this machine has a hardware PMU; sched:sched_switch:u above is the uncountable event"
fi

# ---- an event the kernel refuses at open though the check let it pass ----
# Tracepoints are judged by one shared open (opening each costs 40 ms at close), so the kernel's
# own refusal of ftrace:function (root's only on most kernels, refused even to root on some)
# comes when the pass opens: that event is <not supported> with the reason, the rest counted.
FN=ftrace:function
[ -r /sys/kernel/tracing/events/ftrace/function/id ] ||
	fail "no $FN tracepoint (a kernel without CONFIG_FUNCTION_TRACER?): the test has no event the kernel refuses at open"
"$PMC" stat -e "syscalls:sys_enter_write,$FN,task-clock" "$PROGS/exit-with" exit 4 2>"$T/fn"
rc=$?
if grep -q "^ *[0-9][0-9]* *$FN " "$T/fn"; then
	fail "this kernel counts $FN: the test has no event the kernel refuses at open"
else
	expect_eq "refused at open: the run goes on, the program's status" $rc 4
	expect_grep "refused at open: <not supported> with the errno and what it means" \
		"^ +<not supported> +$FN +\(the kernel refuses it on the command \((Operation not permitted|Permission denied)\), though it lets pmc count a software event there" "$T/fn"
	"$PMC" stat -e "syscalls:sys_enter_write,$FN,task-clock" "$PROGS/write-loop" 100 2>"$T/fn"
	expect_grep "refused at open: the others are counted, exactly" "^ +100 +syscalls:sys_enter_write " "$T/fn"
	expect_grep "refused at open: task-clock counted" "^ +[0-9][0-9.]* msec task-clock " "$T/fn"
	"$PMC" stat --format json -o "$T/fn.json" -e "syscalls:sys_enter_write,$FN" "$PROGS/write-loop" 100 2>/dev/null
	expect_eq "refused at open, JSON: unsupported with the reason, out of its pass" \
		"$(json "$T/fn.json" '[j["events"][1]["supported"], "refuses it on the command" in j["events"][1]["reason"], j["events"][1]["pass"], j["events"][1]["values"], j["events"][0]["values"]]')" \
		"[False, True, -1, [], [100.0]]"
	"$PMC" stat --format csv -o "$T/fn.csv" -e "syscalls:sys_enter_write,$FN" "$PROGS/write-loop" 100 2>/dev/null
	expect_grep "refused at open, CSV: supported no" "^\"$FN\",no,-1," "$T/fn.csv"
	# A group is counted whole or not: its other member is not counted either.
	"$PMC" stat -e "syscalls:sys_enter_write,{task-clock,$FN}" "$PROGS/write-loop" 100 2>"$T/fn"
	expect_eq "refused at open in a group: exit 0" $? 0
	expect_grep "refused at open in a group: the member says why" "^ +<not supported> +$FN +\(the kernel refuses it on the command" "$T/fn"
	expect_grep "refused at open in a group: its leader is not counted" "^ +<not counted> +msec +task-clock$" "$T/fn"
	expect_grep "refused at open in a group: the rest is" "^ +100 +syscalls:sys_enter_write " "$T/fn"
	# --strict: an error before the command runs.
	"$PMC" stat --strict -e "syscalls:sys_enter_write,$FN" -- touch "$T/ran" 2>"$T/fn"
	expect_eq "refused at open with --strict: exit 1" $? 1
	expect_grep "refused at open with --strict: the event and the reason" "cannot count '$FN': the kernel refuses it on the command .*\(--strict\)" "$T/fn"
	[ ! -e "$T/ran" ] && ok "refused at open with --strict: the command did not run" ||
		fail "refused at open with --strict: the command ran"
fi
# The check's shared answer is an acceptance only: a first tracepoint the kernel refuses does
# not make the others unsupported.
"$PMC" stat -e "$FN,syscalls:sys_enter_write" "$PROGS/write-loop" 100 2>"$T/fn"
expect_grep "a refused first tracepoint: the next one still counts" "^ +100 +syscalls:sys_enter_write " "$T/fn"

# ---- pmc record: tracepoints sample where they fire; a blind one is refused with the reason ----
"$PMC" record -a -e sched:sched_switch -o "$T/sw.data" -- sh -c 'for i in 1 2 3 4 5; do sleep 0.01; done' 2>"$T/rec"
rc=$?
if [ $rc = 0 ]; then
	n=$(sed -n 's/.*wrote \([0-9]*\) samples.*/\1/p' "$T/rec")
	expect_eq "record -a sched:sched_switch: samples written (got $n)" \
		"$([ -n "$n" ] && [ "$n" -ge 5 ] && echo yes)" yes
else
	expect_grep "record -a sched:sched_switch: refused with the reason" "paranoid|CAP_PERFMON" "$T/rec"
fi
"$PMC" record -e sched:sched_switch:u -o "$T/u.data" -- true 2>"$T/rec"
expect_eq "record of a blind event: refused" $? 1
expect_grep "record of a blind event: says why" "sched:sched_switch:u': it happens only in the kernel" "$T/rec"

finish
