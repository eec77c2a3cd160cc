#!/bin/bash
# SPDX-License-Identifier: MIT
# One option parser for every command (tools/pmc/common/cli-parse.c), with perf's conventions: each
# row below runs one form through one command, on paths that need no PMU. An accepted form is
# followed by the unknown option --zz, so the first message must be about --zz (the form itself
# was taken); a refusal must be said as the row says, with exit status 2 and where to look.
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=exitcode=99 UBSAN_OPTIONS=exitcode=98

# row CMD RC 'FIRST LINE OF STDERR' ARGS...: pmc CMD ARGS exits RC and says that line first
# (and, for a usage error, "see 'pmc CMD --help'").
row() {
	local cmd=$1 rc=$2 line=$3 what
	shift 3
	what="$cmd $*"
	timeout -k 5 20 "$PMC" "$cmd" "$@" >"$T/out" 2>"$T/err"
	expect_eq "$what: exit status" "$?" "$rc"
	expect_eq "$what: message" "$(head -n 1 "$T/err")" "pmc $cmd: $line"
	if [ "$rc" = 2 ]; then
		expect_grep "$what: says where to look" "^see 'pmc $cmd --help'$" "$T/err"
	fi
}
# taken CMD ARGS...: the forms are accepted (the --zz after them is what is refused).
taken() {
	local cmd=$1
	shift
	row "$cmd" 2 "unknown option '--zz'" "$@" --zz
}

# stat (stops at its first operand: it runs a program)
taken stat --multi                    # a unique prefix of --multiplex
taken stat --no-multiplex             # --no-NAME of a switch
taken stat --no-multi                 # ... and of its prefix
taken stat -r3 -r 3 --repeat=3 --repeat 3 --rep=3 --rep 3
taken stat -x, -x ';' --field-separator=, --field-s ,
taken stat -ai -vv -aA                # grouped short flags
taken stat -vr3                       # a group ending in an option with its value
row stat 2 "Ambiguous option: re (could be --repeat or --region-per-thread)" --re 3 true
row stat 2 "Ambiguous option: no-m (could be --no-multiplex or --no-merge)" --no-m true
row stat 2 "unknown option '--bogus'" --bogus true
row stat 2 "unknown option '-Q'" -Q true
row stat 2 "unknown option '--no-repeat'" --no-repeat true   # a value is not a switch
row stat 2 "option '--plan' takes no value" --plan=yes true
row stat 2 "option '-r' needs a value" -r
row stat 2 "option '--repeat' needs a value" --repeat
row stat 2 "-r takes 1 to 1000000 repetitions, not 'x'" -r x true
row stat 2 "-r takes 1 to 1000000 repetitions, not '0'" --rep=0 true
row stat 2 "-I takes 1 to 3600000 milliseconds, not '3600001'" -I 3600001 true
row stat 2 "--format is text, csv, json or html, not 'xml'" --form xml true
# after "--" and after the first operand, words are the command's
timeout 20 "$PMC" stat --dry-run -e task-clock -- true --zz >"$T/out" 2>&1
expect_eq "stat -- ends the options" "$?" 0
timeout 20 "$PMC" stat --dry-run -e task-clock true --zz >"$T/out" 2>&1
expect_eq "stat stops at its first operand" "$?" 0
# a target is set: --no-inh is --no-inherit's prefix (the attr's inherit bit goes)
"$PMC" stat --dry-run -vv -e task-clock -- true >"$T/d1" 2>&1
"$PMC" stat --dry-run -vv --no-inh -e task-clock -- true >"$T/d2" 2>&1
expect_grep "stat: inherit by default" "^  inherit  *1" "$T/d1"
expect_no_grep "stat --no-inh: no inherit" "^  inherit " "$T/d2"

# record (stops at its first operand)
taken record --dry -q --no-quiet -c5 -c 5 --count=5 --count 5 --cou=5
taken record -dW -vq -o"$T/r.data" -o "$T/r.data"
row record 2 "Ambiguous option: da (could be --data or --data-src)" --da true
row record 2 "unknown option '-Z'" -dZ true
row record 2 "option '-c' needs a value" -c
row record 2 "-c needs a positive number, not 'x'" -c x true
row record 2 "-c needs a positive number, not '0'" --count=0 true

# report (options anywhere; operands after them)
taken report --chil --no-children -n5 -n 5 --max-entries=5 --max 5 -bn5
taken report -Ftext -F text --format=csv --form json
row report 2 "Ambiguous option: no- (could be --no-callers or --no-reconstruct)" --no- x.data
row report 2 "unknown option '--nope'" x.data --nope
row report 2 "option '-i' needs a value" -i
row report 2 "-n takes a number of entries (0: all), not 'x'" -n x
row report 2 "--percent-limit takes a percentage, 0 to 100, not '101'" --perc 101
row report 2 "--format is text, csv, json, folded, html, pprof, speedscope or callgrind, not 'x'" -Fx
row report 1 "cannot read --zz: cannot open --zz: No such file or directory" -- --zz

# annotate
taken annotate --no-s --no-source -i"$T/p.data" -i "$T/p.data" --in="$T/p.data" -dlibc
row annotate 2 "unknown option '--no-input'" --no-input f
row annotate 2 "option '-d' needs a value" -d

# list
taken list -j --no-json --js --back=vpmu --backend vpmu
row list 2 "unknown option '-x'" -jx
"$PMC" list --js --back vpmu >"$T/list.json" 2>"$T/err"
expect_eq "list --js --back vpmu: JSON" "$(json "$T/list.json" "type(j).__name__")" dict

# metrics
taken metrics -Mipc -M ipc --metrics=ipc --form csv --format=json
row metrics 2 "Ambiguous option: metric (could be --metrics or --metrics-file)" --metric ipc f
row metrics 2 "--format is text, csv or json, not 'x'" --format x f
row metrics 2 "option '--metrics-file' needs a value" --metrics-f

# merge
taken merge -o"$T/m" -o "$T/m" --out="$T/m" --form=csv --format json
row merge 2 "--format is text, csv or json, not 'html'" --format html f
row merge 2 "option '-o' needs a value" f -o

# validate
taken validate --dry --quick --no-quick -r2 -r 2 --repeat=2 --rep 2 -vv
row validate 2 "-r takes 1 to 1000 repetitions, not '1001'" -r 1001
row validate 2 "--skid takes 1 to 4096 instructions, not 'x'" --ski=x
row validate 2 "--format is text, csv or json, not 'x'" --format=x
row validate 2 "unknown option '--no-repeat'" --no-repeat

# calibrate
taken calibrate --se --no-set -n5 -n 5 --samples=5 --sam 5 -r2
row calibrate 2 "-n and -r want a number >= 1, not 'x'" -n x
row calibrate 2 "Ambiguous option: s (could be --samples or --set)" --s
row calibrate 2 "option '--empty' needs a value" --empty

# doctor
taken doctor -j --no-json --js
row doctor 2 "option '--json' takes no value" --json=1
"$PMC" doctor --js >"$T/doctor.json" 2>"$T/err"
expect_eq "doctor --js: JSON" "$(json "$T/doctor.json" "type(j).__name__")" dict

# --help by any prefix, and in a group of short flags: the usage, exit 0
for c in stat record report annotate list metrics merge validate calibrate doctor; do
	"$PMC" "$c" --he >"$T/h" 2>&1
	expect_eq "$c --he: exit 0" "$?" 0
	expect_grep "$c --he: the usage" "^usage: pmc $c " "$T/h"
done
"$PMC" stat -vh >"$T/h" 2>&1
expect_eq "stat -vh: exit 0" "$?" 0
expect_grep "stat -vh: the usage" "^usage: pmc stat " "$T/h"
finish
