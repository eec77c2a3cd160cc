#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runner protocol 3: the command's environment is the same, byte for byte, in every run of
# pmc stat (warm-up, repetitions, passes) and whatever the events, and it is pmc's own plus
# PMC_REGION_FD alone. The environment's size moves the command's stack, so an environment
# that named the pass's events moved the counts with the events beside them; the events, the
# backend and the privilege mask now reach the command through its results descriptor
# (docs/regions.md).
. "$(dirname "$0")/lib.sh"

# env_of OUT ARGS...: what env prints under pmc stat ARGS, one environment per run.
env_of() {
	local out=$1
	shift
	"$PMC" stat -o "$T/res" "$@" -- env >"$out" 2>>"$T/err"
	expect_eq "pmc stat $* env: exit status" $? 0
}
# copies ONE ALL: how many copies of file ONE file ALL holds, or "not copies".
copies() {
	python3 -c 'import sys
one, all = (open(f, "rb").read() for f in sys.argv[1:])
n = len(all) // len(one) if one else 0
print(n if n and all == one * n else "not copies")' "$1" "$2"
}

env_of "$T/one" --no-warmup -e task-clock
expect_grep "the command gets its results descriptor" "^PMC_REGION_FD=[0-9]+$" "$T/one"
expect_no_grep "no events in the environment" "^PMC_REGION_EVENTS=" "$T/one"
# pmc's own environment and PMC_REGION_FD: nothing else, on either backend and whatever the
# privilege mask (`_` is the path of what the shell ran). Runner protocol 2 put the backend
# and the mask in pmc's own environment with setenv(), where every later child of the
# process found them too.
# mine_plus_fd FILE WHAT [IGNORED]: FILE against this shell's environment, both less the
# variables that match the pattern IGNORED.
mine_plus_fd() {
	grep -v "^_=${3:+\|$3}" "$1" | sed 's/^PMC_REGION_FD=[0-9]*$/PMC_REGION_FD=N/' | sort >"$1.s"
	{ env | grep -v "^_=${3:+\|$3}"; echo PMC_REGION_FD=N; } | sort | diff - "$1.s" >"$1.diff" &&
		ok "$2: pmc's environment and PMC_REGION_FD" ||
		fail "$2: the command's environment is not pmc's and PMC_REGION_FD: $(cat "$1.diff")"
}
mine_plus_fd "$T/one" "perf backend"
env_of "$T/user" --no-warmup -e task-clock:u
mine_plus_fd "$T/user" "perf backend, user only"
require_vpmu
env_of "$T/vpmu" --no-warmup --backend=vpmu -e instructions:u
# Valgrind's own (docs/vpmu.md, "Counting"): the tool's folder, its preload, the debug-info
# path and the C++ allocator switches it hands the client
mine_plus_fd "$T/vpmu" "vpmu backend" \
	'^\(VALGRIND_LIB\|LD_PRELOAD\|LD_LIBRARY_PATH\|GLIBCXX_FORCE_NEW\|GLIBCPP_FORCE_NEW\)='
expect_grep "vpmu: the tool's folder" "^VALGRIND_LIB=" "$T/vpmu"

# Four events, a warm-up and three repetitions: four runs, each with the same environment
# as one event's single run.
env_of "$T/four" -r 3 -e task-clock,page-faults,context-switches,cpu-migrations
expect_eq "same environment in every run, whatever the events" "$(copies "$T/one" "$T/four")" 4
# Tracepoints and software events are pinned open by pmc (lib/backend/perf/pin.c): the pins
# must not move the results descriptor that the environment names.
env_of "$T/tp" -e syscalls:sys_enter_getppid,page-faults
expect_eq "same environment with pinned events" "$(copies "$T/one" "$T/tp")" 2

# Passes: six breakpoints on four debug registers plan into two (they need not fire here).
EV=$(for a in 1000 1008 1010 1018 1020 1028; do printf 'mem:0x%s/8:w,' $a; done)
EV=${EV%,}
if "$PMC" stat -e "$EV" --plan env 2>/dev/null | grep -q "^# pass plan: 2 passes"; then
	env_of "$T/passes" -r 2 -e "$EV"
	expect_eq "same environment in every pass" "$(copies "$T/one" "$T/passes")" 5
else
	echo "note: no two-pass breakpoint plan on this machine; passes not checked"
fi
finish
