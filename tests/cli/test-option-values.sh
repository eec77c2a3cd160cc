#!/bin/bash
# SPDX-License-Identifier: MIT
# Option values are checked before anything runs, with the limits in the message: a usage
# error (2) that names the option, the value and what would be right; no file is written.
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98

# expect_usage WHAT PATTERN CMD...: CMD exits 2 at once and says PATTERN on stderr.
expect_usage() {
	local what=$1 pat=$2
	shift 2
	timeout -k 5 20 "$@" >"$T/out" 2>"$T/err"
	expect_eq "$what: usage error" "$?" 2
	expect_grep "$what: says why" "$pat" "$T/err"
}
online=$(cat /sys/devices/system/cpu/online)
expect_usage "record -C 99" "CPU 99 is not online \\(the online CPUs are $online\\)" \
	"$PMC" record -C 99 -o "$T/r.data" -- true
expect_usage "record -C 1,,2" "'1,,2' is not a CPU list \\(at ',2'" "$PMC" record -C 1,,2 -o "$T/r.data" -- true
expect_usage "record -C 3-1" "'3-1' is not a CPU list" "$PMC" record -C 3-1 -o "$T/r.data" -- true
expect_usage "record -c -5" "-c needs a positive number, not '-5'" "$PMC" record -c -5 -o "$T/r.data" -- true
expect_usage "record -F 0" "-F needs a positive number, not '0'" "$PMC" record -F 0 -o "$T/r.data" -- true
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
expect_usage "record -F above the kernel's rate" "-F $((max + 1)) is above the kernel's maximum sample rate, $max" \
	"$PMC" record -F $((max + 1)) -o "$T/r.data" -- true
true & gone=$!; wait $gone # a pid that just ended
expect_usage "record -p of a missing process" "no process $gone is running" "$PMC" record -p $gone -o "$T/r.data"
[ ! -e "$T/r.data" ] && ok "no file was written" || fail "a refused run wrote $T/r.data"
# An output that cannot be written is said as such before the program runs (it was blamed on
# perf_event_paranoid, after the program had started).
"$PMC" record -o "$T/missing/r.data" -- touch "$T/ran" 2>"$T/err"
expect_eq "record -o in a missing folder fails" "$?" 1
expect_grep "record -o: the file is blamed" "cannot write $T/missing/r.data: No such file or directory" "$T/err"
expect_no_grep "record -o: paranoid is not" "paranoid" "$T/err"
[ ! -e "$T/ran" ] && ok "record -o: the program did not run" || fail "the program ran before the file was checked"

"$PMC" record -q -e cpu-clock:u -o "$T/ok.data" -- true || fail "record of true failed"
expect_usage "report -n -1" "-n takes a number of entries \\(0: all\\), not '-1'" "$PMC" report -n -1 -i "$T/ok.data"
expect_usage "report --percent-limit=nan" "--percent-limit takes a percentage, 0 to 100, not 'nan'" \
	"$PMC" report --percent-limit=nan -i "$T/ok.data"
expect_usage "report --percent-limit=101" "not '101'" "$PMC" report --percent-limit=101 -i "$T/ok.data"
"$PMC" report -n 0 --percent-limit=0.5 -i "$T/ok.data" >/dev/null 2>"$T/err"
expect_eq "report -n 0 --percent-limit=0.5 are fine" "$?" 0
# pmc stat: the same checks, before the program runs.
expect_usage "stat -C 99" "CPU 99 is not online" "$PMC" stat -C 99 -- true
expect_usage "stat -C 1,,2" "'1,,2' is not a CPU list" "$PMC" stat -C 1,,2 -- true
expect_usage "stat -p of a missing process" "no process $gone is running" "$PMC" stat -p $gone
expect_usage "stat -r 0" "-r takes 1 to 1000000 repetitions, not '0'" "$PMC" stat -r 0 -- true
expect_usage "stat -r above its limit" "-r takes 1 to 1000000 repetitions, not '1000001'" \
	"$PMC" stat -r 1000001 -- true
expect_usage "stat --ci 95x" "--ci takes a level in percent, above 0 and below 100" \
	"$PMC" stat --ci 95x -- true
expect_usage "stat --ci 100" "not '100'" "$PMC" stat --ci 100 -- true
"$PMC" stat -e task-clock -o "$T/missing/s.txt" -- touch "$T/ran" 2>"$T/err"
expect_eq "stat -o in a missing folder fails" "$?" 1
expect_grep "stat -o: the file is blamed" "cannot write $T/missing/s.txt: No such file or directory" "$T/err"
[ ! -e "$T/ran" ] && ok "stat -o: the program did not run" || fail "stat ran the program before checking -o"
"$PMC" stat -e task-clock -o "$T/s.txt" --ci 99.5 -r 2 -- true 2>/dev/null
expect_eq "stat -o FILE --ci 99.5 -r 2 works" "$?" 0
expect_grep "stat: the results file was written" "99.5% confidence" "$T/s.txt"
finish
