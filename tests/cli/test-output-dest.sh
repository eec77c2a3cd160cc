#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Where outputs go (docs/security.md, "Files pmc writes"): concurrent --append runs add whole
# records under a lock, and --format documents refuse --append before anything runs; FIFOs,
# /dev/stdout as a pipe and a shell's >(cmd) are written in place; a full disk or a file size
# limit says why, exits non-zero and keeps the file that was there; a closed stdout is an
# error; a sticky folder's file that cannot be replaced is said before the run. pmc record
# checks its -o as stat does and says an output's errors in the same words.
. "$(dirname "$0")/lib.sh"

[ -r /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id ] ||
	[ -r /sys/kernel/debug/tracing/events/syscalls/sys_enter_getppid/id ] ||
	fail "no syscalls tracepoints: scripts/setup.sh mounts tracefs"
TP=syscalls:sys_enter_getppid
L="$PROGS/getppid-loop"
EMPTY="$BUILD/examples/empty"
[ -x "$EMPTY" ] || EMPTY=true

# ---- --append from concurrent runs: every run's line, whole ----
N=60
for i in $(seq $N); do
	("$PMC" stat -x, --append -o "$T/a.csv" -e $TP "$L" 100 2>/dev/null; echo $? >"$T/rc.$i") &
done
wait
expect_eq "$N concurrent -x --append runs: $N records" "$(grep -c "^100,,$TP," "$T/a.csv")" $N
expect_eq "$N concurrent -x --append runs: nothing else" "$(grep -vc "^100,,$TP,\|^# pmc stat:" "$T/a.csv")" 0
expect_eq "$N concurrent -x --append runs: all exit 0" "$(cat "$T"/rc.* | sort -u)" 0
for i in $(seq 40); do "$PMC" stat -j --append -o "$T/a.jsonl" -e $TP "$L" 100 2>/dev/null & done
wait
expect_eq "-j --append: JSON Lines, one per run" "$(python3 -c 'import json,sys
print(sum(json.loads(l)["counter-value"] == "100.000000" for l in open(sys.argv[1])))' "$T/a.jsonl")" 40

# ---- --append of a --format document: refused before the command runs ----
for f in json html text csv; do
	"$PMC" stat --format $f --append -o "$T/doc.$f" -e $TP -- sh -c "touch '$T/ran.$f'" 2>"$T/app.err"
	expect_eq "--format $f --append: a usage error" $? 2
	expect_grep "--format $f --append: points to pmc merge" "one file per run.*pmc merge" "$T/app.err"
	[ ! -e "$T/ran.$f" ] && [ ! -e "$T/doc.$f" ] && ok "--format $f --append: nothing ran" ||
		fail "--format $f --append: the command ran or the file was made"
done

# ---- a FIFO, /dev/stdout as a pipe, >(cmd): written in place ----
mkfifo "$T/fifo"
timeout 20 cat "$T/fifo" >"$T/fifo.out" &
timeout 20 "$PMC" stat -x, -o "$T/fifo" -e $TP "$L" 100 2>/dev/null
expect_eq "stat -o FIFO: no hang" $? 0
wait
expect_grep "stat -o FIFO: the reader has the line" "^100,,$TP," "$T/fifo.out"
timeout 20 cat "$T/fifo" >"$T/fifo2.out" &
timeout 20 "$PMC" calibrate -e page-faults -n 20 -r 2 --empty="$EMPTY" -o "$T/fifo" >/dev/null 2>&1
expect_eq "calibrate -o FIFO: no hang" $? 0
wait
expect_eq "calibrate -o FIFO: the reader has the file" "$(json "$T/fifo2.out" 'j["schema"]')" pmc-calibrate/2
"$PMC" stat -x, -o /dev/stdout -e $TP "$L" 100 2>"$T/stdout.err" | cat >"$T/stdout.out"
expect_grep "-o /dev/stdout, a pipe: written" "^100,,$TP," "$T/stdout.out"
"$PMC" stat --format json -o >(cat >"$T/subst.out") -e $TP "$L" 100 2>"$T/subst.err"
expect_eq "-o >(cmd): exit 0" $? 0
for _ in $(seq 50); do [ -s "$T/subst.out" ] && break; sleep 0.1; done
expect_eq "-o >(cmd): the JSON" "$(json "$T/subst.out" 'j["events"][0]["name"]' 2>&1)" $TP
echo "earlier" >"$T/app2.csv"
"$PMC" stat -x, -o /dev/stdout -e $TP "$L" 100 2>/dev/null >>"$T/app2.csv"
expect_eq "-o /dev/stdout >> FILE: added at its end" "$(head -1 "$T/app2.csv"; grep -c "^100,,$TP," "$T/app2.csv")" "earlier
1"

# ---- a full disk: said, non-zero ----
full() { # full WHAT CMD...: CMD writes to /dev/full
	local what=$1 rc
	shift
	"$@" >/dev/null 2>"$T/full.err"
	rc=$?
	[ $rc -ne 0 ] && ok "$what: exit $rc" || fail "$what: exit 0 on a full disk"
	expect_grep "$what: the reason" "no space left on /dev/full" "$T/full.err"
}
full "stat -x" "$PMC" stat -x, -o /dev/full -e $TP "$L" 10
full "stat json" "$PMC" stat --format json -o /dev/full -e $TP "$L" 10
full "stat html" "$PMC" stat --format html -o /dev/full -e $TP "$L" 10
full "stat --append" "$PMC" stat -j --append -o /dev/full -e $TP "$L" 10
full "calibrate" "$PMC" calibrate -e page-faults -n 20 -r 2 --empty="$EMPTY" -o /dev/full
"$PMC" stat --format json -o "$T/m.json.rank-0" -e $TP "$L" 10 2>/dev/null
full "merge json" "$PMC" merge --format json -o /dev/full "$T/m.json.rank-0"
"$PMC" record -q -o "$T/r.data" -- "$L" 1000 2>/dev/null
full "report json" "$PMC" report --format json -i "$T/r.data" -o /dev/full
full "report html" "$PMC" report --format html -i "$T/r.data" -o /dev/full
full "validate -o" "$PMC" validate --mode=sampling --quick --kernel syscall -e $TP --trust=none \
	--format json -o /dev/full

# ---- pmc record: the same check before the run and the same words as stat ----
full "record" "$PMC" record -q -e $TP -c 1 -o /dev/full -- "$L" 10
"$PMC" record -q -e $TP -c 1 -o - -- sh -c "touch '$T/ran.rclosed'" >&- 2>"$T/rclosed.err"
rc=$?
[ $rc -ne 0 ] && ok "record -o - to a closed stdout: exit $rc" || fail "record -o - to a closed stdout: exit 0"
expect_grep "record -o - to a closed stdout: said as stat says it" "^pmc record: cannot write stdout: Bad file descriptor" "$T/rclosed.err"
[ ! -e "$T/ran.rclosed" ] && ok "record -o - to a closed stdout: said before the run" ||
	fail "record -o - to a closed stdout: the command ran first"
mkdir "$T/rold.data.old"
"$PMC" record -q -e $TP -c 1 -o "$T/rold.data" -- sh -c "touch '$T/ran.rold'" 2>"$T/rold.err"
expect_grep "record -o FILE with a folder at FILE.old: said as an output" "^pmc record: cannot write .*rold.data: the name that keeps" "$T/rold.err"
[ ! -e "$T/ran.rold" ] && ok "record, a folder at FILE.old: said before the run" ||
	fail "record, a folder at FILE.old: the command ran first"
echo "old recording" >"$T/rkeep.data"
# a fresh HOME: the build-id cache's and the vDSO's copies are written too, and also obey the
# limit (they were plain write(2)s that SIGXFSZ killed when nothing was cached yet)
(ulimit -f 4; HOME="$T/fsize-home" exec "$PMC" record -q -e $TP -c 1 -o "$T/rkeep.data" -- "$L" 2000) 2>"$T/rfsize.err"
expect_eq "record, a file size limit: exit 1, not SIGXFSZ" $? 1
expect_grep "record, a file size limit: said" "^pmc record: cannot write .*rkeep.data: File too large" "$T/rfsize.err"
expect_eq "record, a file size limit: the old file kept" "$(cat "$T/rkeep.data")" "old recording"
expect_eq "record, a file size limit: no temporary file left" "$(ls "$T" | grep -c pmc-tmp)" 0
expect_grep "record, a file size limit: the cache's copy said" "build-id cache \\(File too large\\)" "$T/rfsize.err"
expect_no_grep "record, a file size limit: the vDSO's copy said as it is" "vDSO image \\(Input/output error\\)" "$T/rfsize.err"

# ---- a write that fails partway: the file that was there is kept ----
echo "old results" >"$T/keep.json"
(ulimit -f 1; exec "$PMC" stat --format json -o "$T/keep.json" -e $TP "$L" 10) 2>"$T/fsize.err"
expect_eq "a file size limit: exit 1, not SIGXFSZ" $? 1
expect_grep "a file size limit: said" "cannot write .*keep.json: File too large" "$T/fsize.err"
expect_eq "a file size limit: the old file kept" "$(cat "$T/keep.json")" "old results"
expect_eq "a file size limit: no temporary file left" "$(ls "$T" | grep -c pmc-tmp)" 0

# ---- -o - with stdout closed: an error ----
"$PMC" stat -x, -o - -e $TP -- sh -c "touch '$T/ran.closed'" >&- 2>"$T/closed.err"
rc=$?
[ $rc -ne 0 ] && ok "-o - to a closed stdout: exit $rc" || fail "-o - to a closed stdout: exit 0"
expect_grep "-o - to a closed stdout: said" "cannot write stdout: Bad file descriptor" "$T/closed.err"
[ ! -e "$T/ran.closed" ] && ok "-o - to a closed stdout: said before the run" ||
	fail "-o - to a closed stdout: the command ran first"
"$PMC" merge "$T/m.json.rank-0" >&- 2>"$T/closed.err"
rc=$?
[ $rc -ne 0 ] && ok "merge to a closed stdout: exit $rc" || fail "merge to a closed stdout: exit 0"

# ---- a sticky folder's file someone else owns: said before the run ----
# (root makes the file, nobody writes: lib.sh's use_unprivileged, which needs root here)
if [ "$(id -u)" = 0 ]; then
	use_unprivileged
	mkdir "$T/sticky" && chmod 1777 "$T/sticky" && chmod 755 "$T"
	echo "root's" >"$T/sticky/out.csv"
	as_user "$PMC" stat -x, -o "$T/sticky/out.csv" -e task-clock -- sh -c "touch '$T/sticky/ran'" 2>"$T/sticky.err"
	expect_eq "sticky folder: exit 1" $? 1
	expect_grep "sticky folder: said" "cannot write .*out.csv: Operation not permitted" "$T/sticky.err"
	[ ! -e "$T/sticky/ran" ] && ok "sticky folder: refused before the run" ||
		fail "sticky folder: the command ran first"
	as_user "$PMC" record -q -e task-clock -o "$T/sticky/out.csv" -- sh -c "touch '$T/sticky/ran'" 2>"$T/rsticky.err"
	expect_grep "sticky folder: record says it as stat" "^pmc record: cannot write .*out.csv: Operation not permitted" "$T/rsticky.err"
	[ ! -e "$T/sticky/ran" ] && ok "sticky folder: record refused before the run" ||
		fail "sticky folder: record ran the command first"
	mkfifo -m 600 "$T/sticky/fifo"
	as_user "$PMC" record -q -e task-clock -o "$T/sticky/fifo" -- sh -c "touch '$T/sticky/ran'" 2>"$T/rfifo.err"
	expect_grep "a FIFO the user cannot write: record says so first" "^pmc record: cannot write .*fifo: Permission denied" "$T/rfifo.err"
	[ ! -e "$T/sticky/ran" ] && ok "a FIFO the user cannot write: refused before the run" ||
		fail "a FIFO the user cannot write: the command ran first"
	as_user "$PMC" validate --kernel syscall -e $TP --trust="$T/sticky/out.csv" 2>"$T/vsticky.err" >/dev/null
	expect_grep "sticky folder: validate's trust file refused first" "nothing was measured" "$T/vsticky.err"
else
	skip_part no-unprivileged-user "not root: no file of another user can be made in a sticky folder"
fi
finish
