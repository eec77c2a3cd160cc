#!/bin/bash
# SPDX-License-Identifier: MIT
# What data may do, and numbers at the edges (issue 30, sections 6 and 7): a config file never
# runs a command, caches obey the output-file rules, CSV escapes control bytes, pmc merge
# refuses malformed numbers and prints integers exactly, JSON byte strings are injective,
# --ci at extreme levels, -C with a CPU twice, limits said rather than applied silently.
. "$(dirname "$0")/lib.sh"
TP=syscalls:sys_enter_getppid
[ -r /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id ] ||
	[ -r /sys/kernel/debug/tracing/events/syscalls/sys_enter_getppid/id ] ||
	fail "no syscalls tracepoints: scripts/setup.sh mounts tracefs"
LVARS=(-u OMPI_COMM_WORLD_RANK -u OMPI_COMM_WORLD_SIZE -u OMPI_COMM_WORLD_LOCAL_RANK
	-u PMI_RANK -u PMI_SIZE -u MPI_LOCALRANKID -u PMIX_RANK -u SLURM_PROCID -u SLURM_NTASKS
	-u SLURM_LOCALID)

# ---- 6: a config file is data: it never runs a command ----
for key in pre post; do
	printf 'event = %s\n%s = touch %s\n' $TP $key "$T/ran-$key" >"$T/cfg-$key"
	"$PMC" stat --config "$T/cfg-$key" -- "$PROGS/getppid-loop" 1 >/dev/null 2>"$T/cfg-$key.err"
	expect_eq "config '$key =': a usage error" "$?" 2
	expect_eq "config '$key =': the command did not run" "$(test -e "$T/ran-$key" && echo ran)" ""
	expect_grep "config '$key =': said" ":2: '$key' runs a command, and a config file never runs one" "$T/cfg-$key.err"
done

# ---- 6: the vDSO cache in another user's folder (root with their XDG_CACHE_HOME) ----
if [ "$(id -u)" = 0 ]; then
	mkdir -p "$T/victim" "$T/other/cache"
	ln -s "$T/victim" "$T/other/cache/pmc"
	chown -h 65534 "$T/other/cache/pmc" "$T/other/cache" "$T/other"
	XDG_CACHE_HOME=$T/other/cache "$PMC" record -q -e cpu-clock:u -o "$T/v.data" -- "$PROGS/sample-vdso" 5 >/dev/null 2>&1
	expect_eq "vdso cache: nothing made through another user's link" "$(ls -A "$T/victim")" ""
	# one's own cache folder is still made, 0700
	XDG_CACHE_HOME=$T/mine "$PMC" record -q -e cpu-clock:u -o "$T/v2.data" -- "$PROGS/sample-vdso" 5 >/dev/null 2>&1
	expect_eq "vdso cache: one's own made 0700" "$(stat -c %a "$T/mine/pmc" "$T/mine/pmc/vdso")" "700
700"
else
	echo "(vdso cache of another user: needs root to plant another user's link)"
fi

# ---- 6: pmc report -F csv escapes control bytes ----
name=$'esc\e[2Jname'
cp "$PROGS/sample-split" "$T/$name"
"$PMC" record -q -e cpu-clock:u -o "$T/esc.data" -- "$T/$name" 50 >/dev/null 2>&1
"$PMC" report -i "$T/esc.data" -s comm -F csv >"$T/esc.csv" 2>/dev/null
expect_no_grep "report CSV: no raw ESC" $'\e' "$T/esc.csv"
expect_grep "report CSV: the name escaped as on a terminal" '"esc\\x1b\[2Jname"' "$T/esc.csv"

# ---- 7: pmc merge refuses what is malformed, with the file and the field ----
for r in 0 1; do
	env "${LVARS[@]}" OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=2 \
		"$PMC" stat -e $TP --format json -o "$T/m.json" -- "$PROGS/getppid-loop" $((r + 3)) 2>/dev/null
done
# mutate FILE-IN FILE-OUT PYTHON (j is the document)
mutate() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); $3; json.dump(j, open(sys.argv[2], 'w'))" "$1" "$2"; }
merge_refused() { # NAME FILE PATTERN
	"$PMC" merge "$T/m.json.rank-0" "$2" >/dev/null 2>"$T/mr.err"
	expect_eq "merge refuses $1" "$?" 1
	expect_grep "merge names the file and field: $1" "$3" "$T/mr.err"
}
mutate "$T/m.json.rank-1" "$T/rank5" 'j["provenance"]["mpi"]["rank"] = 5'
merge_refused "rank >= size" "$T/rank5" 'rank5: provenance\.mpi\.rank 5 is not below provenance\.mpi\.size 2'
mutate "$T/m.json.rank-1" "$T/size45" 'j["provenance"]["mpi"]["size"] = 4.5'
merge_refused "size 4.5" "$T/size45" 'size45: provenance\.mpi\.size is not a job.s size'
mutate "$T/m.json.rank-1" "$T/mstr" 'j["events"][0]["mean"] = "12"'
merge_refused 'a mean "12"' "$T/mstr" "mstr: event '$TP': \"mean\" is not a number"
mutate "$T/m.json.rank-1" "$T/mnull" 'j["events"][0]["mean"] = None'
merge_refused "a mean null" "$T/mnull" "mnull: event '$TP': \"mean\" is not a number"
# numbers at the edges: 1.7e308 in two ranks has a mean (its sum has no value), and counts of
# 10^15 and above keep every digit in text and CSV
mutate "$T/m.json.rank-0" "$T/big.rank-0" 'j["events"][0]["mean"] = 1.7e308'
mutate "$T/m.json.rank-1" "$T/big.rank-1" 'j["events"][0]["mean"] = 1.7e308'
"$PMC" merge --format json -o "$T/big.json" "$T/big.rank-0" "$T/big.rank-1" 2>/dev/null
expect_eq "1.7e308 twice: mean, imbalance, stddev" \
	"$(json "$T/big.json" '(lambda e: (e["mean"], e["imbalance"], e["stddev"], e["sum"]))(j["events"][0])')" \
	"(1.7e+308, 1.0, 0.0, None)"
mutate "$T/m.json.rank-0" "$T/e15.rank-0" 'j["events"][0]["mean"] = 1000000000000001'
mutate "$T/m.json.rank-1" "$T/e15.rank-1" 'j["events"][0]["mean"] = 18446744073709549568'
"$PMC" merge "$T/e15.rank-0" "$T/e15.rank-1" >"$T/e15.txt" 2>/dev/null
expect_grep "text: integers exact" "^$TP [0-9]+ 1000000000000001 0 18446744073709549568 1 " "$T/e15.txt"
"$PMC" merge --format csv "$T/e15.rank-0" "$T/e15.rank-1" >"$T/e15.csv" 2>/dev/null
expect_grep "CSV: integers exact" ",0:1000000000000001;1:18446744073709549568$" "$T/e15.csv"

# ---- 7: the JSON encoding of names is injective: byte 0xFF and the text \xff ----
"$PMC" stat -e $TP --format json -o "$T/names.json" -- "$PROGS/region-cases" as-named $'\xff' '\xff' 2>/dev/null
expect_eq "0xFF and \\xff: two names in JSON" "$(json "$T/names.json" 'sorted(r["name"] for r in j["regions"])')" \
	"['\\\\x5cxff', '\\\\xff']"
"$PMC" merge --format json -o "$T/names-merged.json" "$T/names.json" 2>"$T/names.err"
expect_eq "merge reads pmc's own file" "$?" 0
expect_eq "merge keeps both names, encoded alike" \
	"$(json "$T/names-merged.json" 'sorted(r["name"] for r in j["regions"])')" "['\\\\x5cxff', '\\\\xff']"

# ---- 7: --ci at the edges ----
"$PMC" stat -r 3 --no-warmup --ci 1e-9 -e task-clock --format json -o "$T/ci.json" -- "$PROGS/getppid-loop" 1000 2>/dev/null
expect_eq "--ci 1e-9: an interval that is not negative" "$(json "$T/ci.json" 'j["events"][0]["ci"] >= 0')" True
"$PMC" stat -r 2 --ci 99.99999999999 -e $TP -- true >/dev/null 2>"$T/ci.err"
expect_eq "--ci 99.99999999999 accepted" "$?" 0
for bad in 0 100 -1 1e-400; do
	"$PMC" stat --ci "$bad" -e $TP true >/dev/null 2>"$T/ci.err"
	expect_eq "--ci $bad: a usage error" "$?" 2
done
"$PMC" stat --ci 99.99999999999999 -e $TP true >/dev/null 2>"$T/ci.err"
expect_grep "--ci too close to 100: the reason" "too close to 100 to compute" "$T/ci.err"

# ---- 7: -C with a CPU twice counts it once ----
for list in 0,0 0-1,1 1,0-1; do
	"$PMC" stat --dry-run -C "$list" -e task-clock true >"$T/c.out" 2>&1
	expect_eq "-C $list: each CPU once" "$(grep -o 'cpu [0-9]*' "$T/c.out" | sort | uniq -d)" ""
done

# ---- 7: limits said, not applied silently ----
"$PMC" record --call-graph=dwarf,70000 -e cpu-clock -o "$T/dw.data" -- true >/dev/null 2>"$T/dw.err"
expect_eq "--call-graph dwarf,70000: a usage error" "$?" 2
expect_grep "--call-graph dwarf,70000: the limit said" "at most 65000 bytes" "$T/dw.err"
"$PMC" record -e 'cpu-clock/call-graph=dwarf,stack-size=70000/' -o "$T/dw.data" -- true >/dev/null 2>"$T/dw.err"
expect_grep "stack-size=70000: the limit said" "stack-size' takes 0 to 65000" "$T/dw.err"
# a validated bias larger than the count: said, and marked in JSON (a tracepoint counts at
# every level: priv 7)
"$PMC" stat -e $TP --user --kernel --format json -o "$T/p.json" true 2>/dev/null
python3 - "$T/p.json" "$T/trust.json" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))["provenance"]
json.dump({"schema": "pmc-trust/1", "machine": {"cpu_model": p["cpu_model"], "kernel": p["kernel"]},
	   "entries": [{"backend": "perf", "kernel": "syscall", "event": "syscalls:sys_enter_getppid",
			"priv": 7, "class": "bias", "bias": 100}]}, open(sys.argv[2], "w"))
EOF
"$PMC" stat --trust="$T/trust.json" --subtract-overhead --user --kernel -e $TP --format json \
	-o "$T/bias.json" -- "$PROGS/getppid-loop" 10 2>"$T/bias.err"
expect_grep "bias above the count: said" "the validated bias subtracted from '$TP' \(100 per run\) is larger than its count \(10\)" "$T/bias.err"
expect_grep "bias above the count: marked in the summary" "subtracted, larger than the count: 0\\]" "$T/bias.err"
expect_eq "bias above the count: marked in JSON" "$(json "$T/bias.json" 'j["events"][0]["mean"], j["events"][0]["overhead_clamped"]')" "0.0 1"
# ... and in every other format: perf's -x line keeps perf's fields and says it in pmc's
# last field; -j has the JSON file's key; the CSV file a column; the text file a comment.
sub() { "$PMC" stat --trust="$T/trust.json" --subtract-overhead --user --kernel -e $TP "$@" -- \
	"$PROGS/getppid-loop" 10; }
CLAMPED="overhead larger than the count in 1 of 1 runs: counted as 0"
sub -x, 2>"$T/bias.x"
expect_eq "bias above the count: -x, perf's fields as they were, the mark last" \
	"$(grep -v '^#' "$T/bias.x" | grep -v 'pmc stat:' | cut -d, -f1-3,8-)" "0,,$TP,0,$CLAMPED"
sub -j 2>"$T/bias.j"
expect_eq "bias above the count: -j, overhead_clamped and the note" \
	"$(grep '^{' "$T/bias.j" | python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); print(j["overhead_clamped"], j["note"])')" \
	"1 $CLAMPED"
sub --format csv -o "$T/bias.csv" 2>/dev/null
expect_eq "bias above the count: CSV's overhead_clamped column" \
	"$(python3 -c 'import csv,sys; r=next(csv.DictReader(open(sys.argv[1]))); print(r["mean"], r["overhead_clamped"])' "$T/bias.csv")" \
	"0.000 1"
sub --format text -o "$T/bias.txt" 2>/dev/null
expect_grep "bias above the count: the text file's comment" "^# $TP: $CLAMPED\$" "$T/bias.txt"

# ---- 7: threads that cannot open counters (ulimit -n 64): said once, counted everywhere ----
(ulimit -n 64 && "$PMC" stat --no-warmup -e $TP --format json -o "$T/fd.json" -- \
	"$PROGS/region-cases" held 200 >/dev/null 2>"$T/fd.err")
expect_eq "EMFILE: said once" "$(grep -c 'libpmc' "$T/fd.err")" 1
expect_eq "EMFILE: threads counted and without counters make 200" \
	"$(json "$T/fd.json" 'j["regions"][0]["entered"] + j["region_problems"]["threads_without_counters"] == 200 and j["region_problems"]["threads_without_counters"] > 0')" True
(ulimit -n 64 && "$PMC" stat --no-warmup -e $TP -o "$T/fd.txt" -- "$PROGS/region-cases" held 200 >/dev/null 2>"$T/fd2.err")
expect_grep "EMFILE: the text results count them" "threads without counters: [1-9]" "$T/fd.txt"
expect_grep "EMFILE: the summary says so" "threads entered regions without counters" "$T/fd2.err"
(ulimit -n 64 && PMC_EVENTS=$TP PMC_OUTPUT=$T/sa.json "$PROGS/region-cases" held 200 2>"$T/sa.err")
expect_eq "EMFILE standalone: said once" "$(grep -c 'libpmc' "$T/sa.err")" 1
expect_eq "EMFILE standalone: counted in JSON" \
	"$(json "$T/sa.json" 'j["regions"][0]["entered"] + j["region_problems"]["threads_without_counters"]')" 200

finish
