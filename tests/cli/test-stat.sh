#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc stat end to end: exact counts, passes, formats, exit statuses, errors.
. "$(dirname "$0")/lib.sh"
# running PATTERN: waits (up to 20 s) until a process whose command line matches PATTERN is
# asleep in nanosleep (exit-with made its system calls and sleeps): pmc has its signal
# handlers and the program ran its counted part. A fixed "sleep 1" before the signal raced
# pmc's start on a loaded machine.
running() {
	local p c
	for _ in $(seq 200); do
		for p in /proc/[0-9]*; do
			c=$(tr '\0' ' ' <"$p/cmdline" 2>/dev/null) || continue
			case $c in *$1*) ;; *) continue ;; esac
			# x86-64 nanosleep (35) or clock_nanosleep (230), first field of syscall
			case $(cut -d' ' -f1 "$p/syscall" 2>/dev/null) in 35 | 230) return 0 ;; esac
		done
		sleep 0.1
	done
	fail "no process matching '$1' asleep"
}

[ -r /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id ] ||
	[ -r /sys/kernel/debug/tracing/events/syscalls/sys_enter_getppid/id ] ||
	skip "no syscalls tracepoints (tracefs not mounted or no CONFIG_FTRACE_SYSCALLS)"
TP=syscalls:sys_enter_getppid
# The signal tests look for their program in /proc: a link named in this run's own folder
# keeps another run of this test (a parallel suite) from being taken for it.
EW=$T/exit-with
ln -s "$PROGS/exit-with" "$EW"

# N getppid calls count exactly N, with a confidence interval of 0.
"$PMC" stat -e $TP -r 5 "$PROGS/getppid-loop" 1000 2>"$T/out"
expect_eq "exit status of a clean run" $? 0
expect_grep "perf's line: value, name" "^ {14}1000      $TP  " "$T/out"
expect_no_grep "an exact count has no interval" "1000 .*$TP.*\( \+-" "$T/out"
expect_grep "run_p5mon details: mean +- interval, median, min, max, stddev" \
	"^ +1000 \+- 0\.0 +1000 +1000 +1000 +0\.0  $TP$" "$T/out"

"$PMC" stat -e $TP -r 5 -o "$T/s.json" --format json "$PROGS/getppid-loop" 1000 2>/dev/null
expect_eq "json schema" "$(json "$T/s.json" 'j["schema"]')" "pmc-stat/1"
expect_eq "json values" "$(json "$T/s.json" '[int(v) for v in j["events"][0]["values"]]')" \
	"[1000, 1000, 1000, 1000, 1000]"
expect_eq "json ci" "$(json "$T/s.json" 'j["events"][0]["ci"]')" "0.0"
expect_eq "json keys" "$(json "$T/s.json" 'sorted(k for k in ["name","supported","pass","values","mean","stddev","median","min","max","ci","ci_pct","scaled"] if k not in j["events"][0])')" "[]"
expect_eq "json provenance" "$(json "$T/s.json" 'sorted(k for k in ["pmc_version","backend","cpu_model","kernel","paranoid","command","repetitions","confidence"] if k not in j["provenance"])')" "[]"

# Threads and children are counted: 4 threads x 250 calls.
"$PMC" stat -e $TP -o "$T/t.csv" --format csv "$PROGS/threads-getppid" 4 250 2>/dev/null
expect_grep "threads inherited" "^\"$TP\",yes,0,1,1000.000," "$T/t.csv"

# The thesis's results file: '#' header lines, raw values, then a summary line.
"$PMC" stat -e $TP -r 3 --all-results -o "$T/r.txt" "$PROGS/getppid-loop" 200 2>/dev/null
expect_grep "results header" "^# Event Repetition Value" "$T/r.txt"
expect_eq "raw values" "$(grep -c "^$TP [0-2] 200$" "$T/r.txt")" 3
expect_grep "summary line" "^$TP -1 200.0 0.0 0.000$" "$T/r.txt"

# Six breakpoints on four debug registers: two passes, each event exact.
ADDRS=$(nm "$PROGS/write-globals-nopie" | awk '$3 ~ /^g[0-5]$/ {print $3, $1}' | sort | awk '{print $2}')
EV=$(for a in $ADDRS; do printf 'mem:0x%s/8:w,' "$a"; done)
EV=${EV%,}
"$PMC" stat -e "$EV" --plan "$PROGS/write-globals-nopie" >"$T/plan"
expect_grep "six breakpoints plan into two passes" "^# pass plan: 2 passes" "$T/plan"
if have_breakpoints; then
	"$PMC" stat -e "$EV" -r 2 -o "$T/bp.json" --format json "$PROGS/write-globals-nopie" 500 2>/dev/null
	expect_eq "breakpoint counts" "$(json "$T/bp.json" '[int(e["mean"]) for e in j["events"]]')" \
		"[500, 500, 500, 500, 500, 500]"
	expect_eq "breakpoint passes" "$(json "$T/bp.json" '[e["pass"] for e in j["events"]]')" \
		"[0, 0, 0, 0, 1, 1]"
else
	skip_part no-hw-breakpoints "breakpoint counts: mem: events do not count on this machine"
fi

# --multiplex: time-shared counters share one pass; debug registers still need two.
"$PMC" stat -e "$EV" --multiplex --plan true >"$T/mplan"
expect_grep "breakpoints still plan into two passes" "^# pass plan: 2 passes \(multiplexed" "$T/mplan"
"$PMC" stat -e task-clock,page-faults,$TP --multiplex -o "$T/m.json" --format json "$PROGS/getppid-loop" 30 2>/dev/null
expect_eq "multiplexed software events: one pass, exact, not scaled" \
	"$(json "$T/m.json" '[(e["pass"], e["scaled"]) for e in j["events"]] + [j["events"][2]["mean"], j["provenance"]["multiplex"]]')" \
	"[(0, False), (0, False), (0, False), 30.0, True]"

# Exit statuses: the program's own, 128+signal, 127 for a command that cannot start.
"$PMC" stat -e $TP "$PROGS/exit-with" exit 3 2>"$T/e3"
expect_eq "program's exit status" $? 3
"$PMC" stat -e $TP "$PROGS/exit-with" signal 11 2>"$T/sig"
expect_eq "killed by SIGSEGV" $? 139
expect_grep "signal reported" "killed by SIGSEGV" "$T/sig"
expect_grep "counts shown after a crash" "^ +100 +$TP " "$T/sig"
"$PMC" stat -e $TP /nonexistent/program 2>"$T/nx"
expect_eq "command not found" $? 127
expect_grep "cannot run message" "cannot run '/nonexistent/program'" "$T/nx"

# Ctrl-C: the program stops and what was counted is printed.
"$PMC" stat -e $TP "$EW" sleep 10 2>"$T/int" &
PID=$!
running "$EW sleep 10 "
kill -INT $PID
wait $PID
expect_eq "Ctrl-C exit status" $? 130
expect_grep "counted so far" "^ +100 +$TP " "$T/int"

# CPUs without a command are counted once, until a signal: no warm-up run, -r is ignored
# with a note (the progress line under -v says counting began).
"$PMC" stat -v -r 3 -a -e cpu-clock 2>"$T/all" &
PID=$!
for _ in $(seq 100); do grep -q "^pmc stat: pass 1/1" "$T/all" && break; sleep 0.1; done
kill -INT $PID
wait $PID
expect_eq "-a without a command, Ctrl-C: exit status" $? 130
expect_grep "-a without a command: -r ignored, said" "^pmc stat: -r 3 ignored: without a command, CPUs are counted once" "$T/all"
expect_grep "-a without a command: one run, no warm-up" "for 'CPUs all' \(1 repetition, 1 pass," "$T/all"
expect_no_grep "-a without a command: no warm-up values" "warm-up run was the only run" "$T/all"

# SIGTERM and SIGHUP: the program gets the signal pmc got (not SIGINT), pmc prints what was
# counted, exits 128+signal, and the results file says it stopped early; no child survives.
for sig in TERM HUP; do
	"$PMC" stat -r 3 -e $TP -o "$T/stop-$sig.txt" "$EW" sleep 17 2>"$T/stop-$sig" &
	PID=$!
	running "$EW sleep 17 "
	kill -$sig $PID
	wait $PID
	expect_eq "SIG$sig: exit status 128+signal" $? $((128 + $(kill -l $sig)))
	expect_grep "SIG$sig reaches the program" "killed by SIG$sig" "$T/stop-$sig"
	expect_grep "SIG$sig: counts shown" "^ +100 +$TP " "$T/stop-$sig"
	expect_grep "SIG$sig: terminal says stopped early" "stopped early: SIG$sig" "$T/stop-$sig"
	expect_grep "SIG$sig: results file says stopped early" \
		"^# stopped early: SIG$sig, in the warm-up run" "$T/stop-$sig.txt"
	expect_eq "SIG$sig: no program left running" \
		"$(cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\0' ' ' | grep -c "$EW sleep 1[7] ")" 0
done
"$PMC" stat -r 3 -e $TP --format json -o "$T/stop.json" "$EW" sleep 10 2>/dev/null &
PID=$!
running "$EW sleep 10 "
kill -TERM $PID
wait $PID
expect_eq "JSON of a stopped run: stopped_by, in the warm-up, one value" \
	"$(json "$T/stop.json" '[j["provenance"]["interrupted"], j["provenance"]["stopped_by"], j["provenance"]["stopped_in_warmup"], j["events"][0]["values"]]')" \
	"[True, 'SIGTERM', True, [100.0]]"

# Usage errors (2) versus runtime errors (1).
"$PMC" stat -e 'instructons' true 2>"$T/typo"
expect_eq "unknown event is a usage error" $? 2
expect_grep "suggestion" "instructions" "$T/typo"
"$PMC" stat -e 'cycles:zz' true 2>"$T/caret"
expect_eq "bad modifier is a usage error" $? 2
expect_grep "caret under the fault" "^ +\^" "$T/caret"
if "$PMC" doctor | grep -q '\[no\] hardware PMU'; then
	# An event that cannot be counted here is said on its line and the rest are counted;
	# the exit status is the program's. --strict makes it a runtime error.
	"$PMC" stat -e cycles,$TP "$PROGS/exit-with" exit 3 2>"$T/nopmu"
	expect_eq "no PMU: the run goes on, the program's status" $? 3
	expect_grep "no PMU: said on its line, why and what to try" \
		"^ +<not supported> +cycles +\(no hardware PMU.*try --backend=vpmu\)" "$T/nopmu"
	expect_grep "no PMU: the other event is counted" "^ +[0-9][0-9.]* +(msec +)?$TP " "$T/nopmu"
	"$PMC" stat --strict -e cycles,$TP "$PROGS/exit-with" exit 3 2>"$T/nopmu"
	expect_eq "no PMU with --strict is a runtime error" $? 1
	expect_grep "--strict says why and what to try" \
		"cannot count 'cycles': no hardware PMU.*try --backend=vpmu" "$T/nopmu"
	# The default set shows what cannot be counted, once, with the reason.
	"$PMC" stat "$PROGS/getppid-loop" 10 2>"$T/def"
	expect_eq "default events run" $? 0
	expect_grep "default set: unsupported shown" "^ +<not supported> +cycles( |$)" "$T/def"
	expect_grep "default set: task-clock counted" "^ +[0-9][0-9.]* +(msec +)?task-clock " "$T/def"
else
	echo "note: this machine has a hardware PMU; the no-PMU checks do not apply"
fi

# Dynamic PMUs that reject exclude bits still count under the user-level default.
if [ -d /sys/bus/event_source/devices/msr/events ]; then
	"$PMC" stat -e msr/tsc/ true 2>"$T/msr"
	expect_eq "msr/tsc/ counts" $? 0
	expect_grep "msr/tsc/ value" "^ +[1-9][0-9.]* +(msec +)?msr/tsc/ " "$T/msr"
fi

# --config: run_p5mon's parameter file; the command line overrides it.
printf 'event = %s\nrepeat = 4\nno_warmup = yes\n# a comment\n' $TP >"$T/parms"
"$PMC" stat --config "$T/parms" -r 2 -o "$T/c.json" --format json "$PROGS/getppid-loop" 7 2>/dev/null
expect_eq "config file read, -r overrides" "$(json "$T/c.json" '(j["provenance"]["repetitions"], j["events"][0]["values"], j["provenance"]["warmup"])')" "(2, [7.0, 7.0], False)"
printf 'not a key value line\n' >"$T/bad"
"$PMC" stat --config "$T/bad" true 2>"$T/badcfg"
expect_eq "bad config line is a usage error" $? 2
expect_grep "names the line" ":1: expected 'key = value'" "$T/badcfg"
# Values are read by the option's kind: "repeat = 1" is -r 1 (it took the next argument as its
# value before), a switch takes yes/no only, an empty value and an unknown key are errors.
printf 'event = %s\nrepeat = 1\nno_warmup = no\n' $TP >"$T/p1"
"$PMC" stat --config "$T/p1" -o "$T/p1.json" --format json "$PROGS/getppid-loop" 3 2>"$T/p1.err"
expect_eq "config: repeat = 1 is one repetition, no_warmup = no keeps the warm-up" \
	"$(json "$T/p1.json" '(j["provenance"]["repetitions"], j["events"][0]["values"], j["provenance"]["warmup"])')" "(1, [3.0], True)"
for bad in 'repeat =' 'no_warmup = 5' 'colour = blue' 'config = x'; do
	printf '%s\n' "$bad" >"$T/p2"
	"$PMC" stat --config "$T/p2" -e $TP true 2>"$T/p2.err"
	rc=$?
	expect_eq "config '$bad' is a usage error" "$rc" 2
done
printf 'repeat =\n' >"$T/p2"; "$PMC" stat --config "$T/p2" true 2>"$T/p2.err"
expect_grep "config: an empty value is named" ":1: 'repeat' needs a value" "$T/p2.err"
printf 'event = %s\nno_warmup = 5\n' $TP >"$T/p2"; "$PMC" stat --config "$T/p2" true 2>"$T/p2.err"
expect_grep "config: a switch takes yes or no" ":2: 'no-warmup' is a switch: yes or no, not '5'" "$T/p2.err"
printf 'colour = blue\n' >"$T/p2"; "$PMC" stat --config "$T/p2" true 2>"$T/p2.err"
expect_grep "config: an unknown key is named" ":1: unknown key 'colour'" "$T/p2.err"
mkdir "$T/dir"; "$PMC" stat --config "$T/dir" true 2>"$T/p2.err"
expect_grep "config: a folder is refused" "not a regular file" "$T/p2.err"
# A comment longer than any buffer is one line: its tail is not read as an option.
{ printf '# %*s' 6000 ''; printf ' event = page-faults\nevent = %s\n' $TP; } >"$T/long"
"$PMC" stat --config "$T/long" --plan true >"$T/longplan" 2>&1
expect_eq "long comment, one event planned" "$(grep -c '^  [a-z]' "$T/longplan")" 1

# A results file is written whole or not at all.
"$PMC" stat -e $TP -o /nonexistent-dir/x.json --format json true 2>"$T/nodir"
expect_eq "unwritable output fails" $? 1
expect_eq "no temporary file left" "$(ls "$T" | grep -c tmp)" 0

finish
