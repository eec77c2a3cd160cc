#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc stat's values per unit: per thread (--per-thread) of a command, of -t's threads and of
# -p's process; per CPU, core and socket (-A, --per-core, --per-socket) on this machine's CPUs;
# -G's cgroup; and the combinations refused before anything runs.
. "$(dirname "$0")/lib.sh"

TP=syscalls:sys_enter_getppid
[ -r /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id ] ||
	fail "no syscalls tracepoints: scripts/setup.sh mounts tracefs"

# A command per thread: 4 threads x 250 calls, each thread's row exact, the main thread's
# none, and the total; five times, as the kernel may swap the threads' counters.
for i in 1 2 3 4 5; do
	"$PMC" stat --per-thread -e $TP -o "$T/thr.json" --format json \
		"$PROGS/threads-getppid" 4 250 2>"$T/thr"
	expect_eq "per thread of a command ($i): main thread, then each thread exact" \
		"$(json "$T/thr.json" '[int(u["events"][0]["mean"]) for u in j["units"]]')" \
		"[0, 250, 250, 250, 250]"
	expect_eq "per thread ($i): the total" "$(json "$T/thr.json" 'j["events"][0]["mean"]')" 1000.0
done
expect_eq "per thread: thread ids, the command's pid first, each labelled NAME-TID" \
	"$(json "$T/thr.json" 'all(u["label"] == "threads-getppid-%d" % u["tid"] and u["pid"] == j["units"][0]["tid"] for u in j["units"]) and j["units"][0]["pid"] == j["units"][0]["tid"]')" \
	True
expect_eq "per thread: no thread lost" "$(json "$T/thr.json" 'j["lost_threads"]')" 0
expect_grep "per thread: a row per thread on the terminal" \
	"^threads-getppid-[0-9]+ +250 +$TP" "$T/thr"
expect_grep "per thread: and the total" "^ +1000 +$TP" "$T/thr"

# When thread ids wrap at pid_max, the main thread still comes first and its threads follow
# in the order they were made. In a pid namespace with its own pid_max of 1000, the last pid
# handed out is set a little below it at each try, so that the ids of the command and its
# threads run past 999 and go on from 300 at some try.
# pid_max is a namespace's own from Linux 6.14 on; before, the write would set the whole
# machine's, so it is only tried where the kernel keeps it per namespace.
kv=$(uname -r | awk -F'[.-]' '{ print $1 * 1000 + $2 }')
if [ "$kv" -ge 6014 ] && unshare -pf --mount-proc sh -c 'echo 1000 >/proc/sys/kernel/pid_max' 2>/dev/null; then
	wrapped=0 bad=""
	for last in 984 986 988 990 992 994 996; do
		unshare -pf --mount-proc sh -c "echo 1000 >/proc/sys/kernel/pid_max &&
			echo $last >/proc/sys/kernel/ns_last_pid &&
			exec \"\$0\" stat --per-thread -e $TP -o '$T/wrap.json' --format json \
				'$PROGS/threads-getppid' 4 250" "$PMC" 2>/dev/null
		r=$(json "$T/wrap.json" '(lambda u: "%d %d" % (u[0]["pid"] == u[0]["tid"] and [x["tid"] for x in u[1:]] == sorted((x["tid"] for x in u[1:]), key=lambda t: (t < u[0]["pid"], t)), any(x["tid"] < x["pid"] for x in u)))(j["units"])')
		[ "${r% *}" = 1 ] || bad="$bad $last"
		[ "${r#* }" = 1 ] && wrapped=$((wrapped + 1))
	done
	expect_eq "per thread, ids wrapped: the main thread first, its threads in the order made" "$bad" ""
	expect_eq "per thread, ids wrapped: some try wrapped" "$([ $wrapped -gt 0 ] && echo yes)" yes
else
	skip_part no-pid-namespace "cannot make a pid namespace with a pid_max of its own (Linux 6.14 and later)"
fi

# Children are threads of their own: sh's two getppid-loop processes.
"$PMC" stat --per-thread --no-warmup -e $TP -o "$T/ch.json" --format json -- \
	sh -c "'$PROGS/getppid-loop' 30; '$PROGS/getppid-loop' 70" 2>/dev/null
expect_eq "per thread: each child process" \
	"$(json "$T/ch.json" 'sorted((u["label"].rsplit("-", 1)[0], int(u["events"][0]["mean"])) for u in j["units"][1:])')" \
	"[('getppid-loop', 30), ('getppid-loop', 70)]"

# -t TID and -p PID: a process that waits on a FIFO, counted once the control FIFO answers a
# ping (the counters are on by then), then let go.
# Each wait has a FIFO of its own: a second writer of one FIFO may come while the first
# read still holds it open, and its byte is then thrown away with the first.
mkfifo "$T/go1" "$T/go2" "$T/ctl" "$T/ack"
count_waiting() { # OPTION: counts "phases wait; getppid 77; wait; getppid 5" under pmc stat OPTION
	"$PROGS/phases" wait "$T/go1" getppid 77 wait "$T/go2" getppid 5 &
	local w=$!
	"$PMC" stat "$1" $w --per-thread --control "fifo:$T/ctl,$T/ack" -e $TP -o "$T/w.json" \
		--format json 2>"$T/w" &
	local s=$!
	echo ping >"$T/ctl"
	read -r ACK <"$T/ack"
	echo >"$T/go1"
	echo >"$T/go2"
	wait $w
	wait $s
	WPID=$w
}
count_waiting -t
expect_eq "-t: the acknowledgement" "$ACK" ack
expect_eq "-t TID: every call of the thread" "$(json "$T/w.json" 'j["events"][0]["mean"]')" 82.0
expect_eq "-t --per-thread: its row" \
	"$(json "$T/w.json" '[(u["label"], u["events"][0]["mean"]) for u in j["units"]]')" \
	"[('phases-$WPID', 82.0)]"
count_waiting -p
expect_eq "-p --per-thread: the process's thread" \
	"$(json "$T/w.json" '[(u["tid"], u["events"][0]["mean"]) for u in j["units"]]')" \
	"[($WPID, 82.0)]"

# The CPUs of this machine: a row per online CPU that sums to the total (-a counts every
# process, so the total is at least the command's).
ONLINE=$(python3 -c "import sys
s=open('/sys/devices/system/cpu/online').read().strip()
print(sum(int(b) - int(a) + 1 if a != b else 1 for a, _, b in (p.partition('-') if '-' in p else (p, '', p) for p in s.split(','))))")
"$PMC" stat -a -A -e $TP -o "$T/cpu.json" --format json "$PROGS/getppid-loop" 1000 2>"$T/cpu"
expect_eq "-a -A: one row per online CPU" "$(json "$T/cpu.json" 'len(j["units"])')" "$ONLINE"
expect_eq "-a -A: rows named CPUn, in order" \
	"$(json "$T/cpu.json" '[u["label"] for u in j["units"]] == ["CPU%d" % u["cpu"] for u in j["units"]] and [u["cpu"] for u in j["units"]] == sorted(u["cpu"] for u in j["units"])')" True
expect_eq "-a -A: the rows sum to the total" \
	"$(json "$T/cpu.json" 'sum(u["events"][0]["mean"] for u in j["units"]) == j["events"][0]["mean"] >= 1000')" True
expect_grep "-a -A: rows on the terminal" "^CPU[0-9]+ +[0-9]+ +$TP" "$T/cpu"
"$PMC" stat -a --per-socket -r 2 -e $TP -o "$T/sock.json" --format json "$PROGS/getppid-loop" 500 2>/dev/null
expect_eq "--per-socket -r 2: each socket's CPUs, summing to every online CPU" \
	"$(json "$T/sock.json" 'sum(u["nr_cpus"] for u in j["units"])')" "$ONLINE"
expect_eq "--per-socket -r 2: a value per repetition, summing to the total's" \
	"$(json "$T/sock.json" '[sum(u["events"][0]["values"][r] for u in j["units"]) for r in (0, 1)] == j["events"][0]["values"]')" True
"$PMC" stat -C 0 --per-core -e $TP -o "$T/core.json" --format json "$PROGS/getppid-loop" 10 2>/dev/null
expect_eq "-C 0 --per-core: CPU 0's core alone" \
	"$(json "$T/core.json" '[(u["nr_cpus"], u["cpu"], u["label"].startswith("S")) for u in j["units"]]')" \
	"[(1, 0, True)]"

# Cores and sockets as sysfs's topology says, through the sysfs seam (PMC_SYSFS_ROOT): two
# recorded two-CPU machines, one with a socket per CPU and one whose CPUs are a core's two
# hardware threads. The program runs on CPU 0, so its calls are the first unit's; they are
# writes to descriptor 987, which the filter keeps and no other program (-a counts them all)
# makes.
per_unit() { # FIXTURE MODE: "label/CPUs=value ..." of pmc stat -a MODE -x,
	PMC_SYSFS_ROOT="$SRC/tests/data/sysfs/$1" "$PMC" stat -a "$2" -x, \
		-e syscalls:sys_enter_write --filter 'fd == 987' \
		taskset -c 0 "$PROGS/phases" write 987 40 2>&1 987>/dev/null |
		awk -F, '!/^#/ {printf "%s%s/%s=%s", n++ ? " " : "", $1, $2, $3}'
}
expect_eq "--per-socket: a socket per CPU" "$(per_unit topo-2cpu-2s --per-socket)" "S0/1=40 S1/1=0"
expect_eq "--per-core: a core per CPU" "$(per_unit topo-2cpu-2s --per-core)" "S0-D0-C0/1=40 S1-D0-C0/1=0"
expect_eq "--per-die: a die per socket" "$(per_unit topo-2cpu-2s --per-die)" "S0-D0/1=40 S1-D0/1=0"
expect_eq "--per-die: one die of two CPUs" "$(per_unit topo-2cpu-smt --per-die)" "S0-D0/2=40"
expect_eq "--per-socket: one socket of two CPUs" "$(per_unit topo-2cpu-smt --per-socket)" "S0/2=40"
expect_eq "--per-core: one core of two hardware threads" "$(per_unit topo-2cpu-smt --per-core)" \
	"S0-D0-C0/2=40"

# -G: a cgroup made here; the command moves itself into it, and only what runs there counts
# (its child's 5 calls and its own 123), not the getppid-loop outside it.
CG2=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/self/mounts)
CG=pmc-test-$$
if [ -n "$CG2" ] && mkdir "$CG2/$CG" 2>/dev/null; then
	"$PROGS/getppid-loop" 100000 &
	OUT=$!
	"$PMC" stat -a -A -G $CG -e $TP -o "$T/cg.json" --format json -- sh -c \
		"echo \$\$ >'$CG2/$CG/cgroup.procs' && '$PROGS/getppid-loop' 5 && exec '$PROGS/getppid-loop' 123" 2>"$T/cg"
	wait $OUT
	expect_eq "-G: only the cgroup's tasks" "$(json "$T/cg.json" 'j["events"][0]["mean"]')" 128.0
	expect_eq "-G -A: per CPU, summing to it" \
		"$(json "$T/cg.json" 'sum(u["events"][0]["mean"] for u in j["units"])')" 128.0
	rmdir "$CG2/$CG"
	"$PMC" stat -a -G $CG -e $TP true 2>"$T/nocg"
	expect_eq "-G: a cgroup that is not there: exit 2" $? 2
	expect_grep "-G: it says where it looked" "no cgroup '$CG': .*cgroups are the folders under" "$T/nocg"
else
	skip_part no-cgroup-v2 "-G: no writable cgroup2 hierarchy here to make a cgroup in"
fi

# Combinations that cannot be: tests/data/stat-options.tsv (cli.test-stat-options).
finish
