#!/bin/bash
# SPDX-License-Identifier: MIT
# Inputs of any size: one -e string expanding to thousands of events (a fixed 4,096-entry
# buffer overflowed the heap), and event lists past the limit of open files (raised to the
# hard limit as perf does; past that, a message that names the limit and what to do).
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98

many() { python3 -c "import sys; print(','.join(['$1'] * int(sys.argv[1])))" "$2"; }

# 5,000 events in one string, counted in one run: room for them, raised if the soft limit is low.
hard=$(ulimit -Hn)
if [ "$hard" = unlimited ] || [ "$hard" -gt 5200 ]; then
	(ulimit -Sn 1024; "$PMC" stat --no-warmup -e "$(many task-clock 5000)" -o "$T/5000.json" \
		--format json -- true >/dev/null 2>"$T/err")
	expect_eq "5000 events in one -e: exit 0" "$?" 0
	expect_eq "5000 events in one -e: each counted" \
		"$(json "$T/5000.json" 'sum(1 for e in j["events"] if e["supported"] and e["mean"] > 0)')" 5000
else
	echo "note: hard limit of open files is $hard; 5000 events checked parse-only"
fi
# Parsed and planned whatever the limit: no buffer sized before parsing.
"$PMC" stat --plan -e "$(many task-clock 5000),$(many page-faults 3000)" >"$T/plan" 2>"$T/err"
expect_eq "8000 events in two strings: planned" "$?" 0
expect_eq "8000 events: all in the plan" "$(grep -c -E 'task-clock|page-faults' "$T/plan")" 8000

# Past the hard limit: said before the program runs, with the limit and the way out.
(ulimit -n 200; "$PMC" stat -e "$(many task-clock 300)" -- touch "$T/ran" >/dev/null 2>"$T/err")
expect_eq "300 events with 200 files: exit 1" "$?" 1
expect_grep "300 events: the limit is named" \
	"300 events take at least 300 file descriptors .* the limit of open files, 200 \\(ulimit -n\\)" "$T/err"
[ ! -e "$T/ran" ] && ok "300 events: the program did not run" || fail "the program ran with no counters open"

# Below the limit everything works: 300 events with the soft limit at 200 and a higher hard one.
if [ "$hard" = unlimited ] || [ "$hard" -gt 400 ]; then
	(ulimit -Sn 200; "$PMC" stat --no-warmup -e "$(many task-clock 300)" -- true >/dev/null 2>"$T/err")
	expect_eq "300 events, soft limit 200: raised and counted" "$?" 0
fi

# In-process regions: EMFILE is named with what to do.
(ulimit -n 64; PMC_EVENTS="$(many task-clock 100)" "$BUILD/examples/region-hello" >/dev/null 2>"$T/err")
expect_grep "regions past the limit: said" "cannot count in thread: .*ulimit -n" "$T/err"
# No new process (RLIMIT_NPROC, which root is exempt from: run as nobody from a copy of pmc
# and libpmc in a folder nobody can read): said as a command that cannot start, exit 127,
# with the limit named.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && command -v prlimit >/dev/null; then
	mkdir -p "$T/nproc"
	cp "$PMC" "$(dirname "$PMC")"/lib/libpmc.so.0 "$T/nproc/"
	chmod 711 "$T"
	chmod 755 "$T/nproc"
	for cmd in "stat -e task-clock" "record -o /dev/null"; do
		ASAN_OPTIONS=detect_leaks=0 LD_LIBRARY_PATH="$T/nproc" \
			setpriv --reuid=65534 --regid=65534 --clear-groups \
			prlimit --nproc=1 "$T/nproc/pmc" $cmd -- true >/dev/null 2>"$T/nproc/err"
		expect_eq "fork refused (${cmd%% *}): exit 127, the command could not start" "$?" 127
		expect_grep "fork refused (${cmd%% *}): the limit named" \
			"cannot start 'true': no new process can be made .*limit of processes is 1 \(RLIMIT_NPROC, 'ulimit -u'\)" \
			"$T/nproc/err"
	done
else
	echo "note: not root, or no setpriv/prlimit: RLIMIT_NPROC not checked"
fi
finish
