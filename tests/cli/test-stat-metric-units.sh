#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Metrics per interval (-I) and per unit (--per-thread, -A; docs/metrics.md, "Per interval and
# per unit"): each interval's and each unit's lines get the metrics of their own values, on the
# terminal, in -x and -j lines and in the JSON file's units, with exact answers from tracepoints
# (vpmu refuses -I and --per-thread, and this machine has no PMU).
. "$(dirname "$0")/lib.sh"

E=syscalls:sys_enter_getppid
X=syscalls:sys_exit_getppid
[ -r /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id ] ||
	fail "no syscalls tracepoints: scripts/setup.sh mounts tracefs"
M=(-M "twice = 2 * $E" -M "ratio = $E / $X")

# -I: 300 calls, a wait of several intervals, 200 calls. Each interval's metric line follows
# its events with 2x its count, so the interval metrics sum to 1000.
mkfifo "$T/go"
"$PMC" stat -I 20 --no-warmup -e $E,$X "${M[@]}" -- "$PROGS/phases" getppid 300 mark "$T/m" \
	wait "$T/go" getppid 200 2>"$T/iv" &
S=$!
for i in $(seq 300); do [ -e "$T/m" ] && break; sleep 0.02; done
sleep 0.1
echo >"$T/go"
wait $S
expect_eq "-I: exit status" $? 0
expect_eq "-I: each interval's 'twice' is 2x its count, and the intervals sum to 1000" \
	"$(awk -v e="$E" '$1 ~ /^[0-9]+\.[0-9]+$/ && $3 == e {c[$1] = $2}
		$1 ~ /^[0-9]+\.[0-9]+$/ && $2 == "#" && $4 == "twice" {m[$1] = $3; s += $3}
		END {for (k in c) if (m[k] + 0 != 2 * c[k]) bad = 1; print (length(c) >= 3 && !bad), s}' "$T/iv")" \
	"1 1000"
expect_eq "-I: a two-input metric per interval: 1 where it called, n/a where it waited" \
	"$(awk '$1 ~ /^[0-9]+\.[0-9]+$/ && $2 == "#" && $4 == "ratio" && $3 != "n/a" {print $3}' "$T/iv" | sort -u | tr '\n' ' ')" \
	"1 "
expect_grep "-I: n/a with its reason in an interval of no calls" \
	"^ +[0-9.]+ +# +n/a  ratio  \(division by zero" "$T/iv"
expect_grep "-I: the summary's metric, of the run's 500 calls" "^ +500 +$E +# +1000  twice$" <(sed 's/ *$//' "$T/iv")

# -I -x: after each interval's event lines, its metric lines led by the interval's time, the
# '#' line naming their fields once.
"$PMC" stat -I 1000 -x, --no-warmup -e $E "${M[@]:0:2}" "$PROGS/getppid-loop" 400 2>"$T/ivx"
expect_eq "-I -x: the fields' line, once" \
	"$(grep -c '^# interval,metric,region,thread,n,value,' "$T/ivx")" 1
expect_eq "-I -x: the interval's metric line" \
	"$(grep -E '^[0-9]+\.[0-9]{9},twice,' "$T/ivx" | cut -d, -f2-7)" "twice,,,1,800,0"
# -I -j: one object per metric with the interval's time.
"$PMC" stat -I 1000 -j --no-warmup -e $E "${M[@]:0:2}" "$PROGS/getppid-loop" 300 2>"$T/ivj"
expect_eq "-I -j: the interval's metric object" \
	"$(python3 -c "import json,sys
ls=[json.loads(l) for l in open(sys.argv[1])]
print([(l['name'], l['value'], l['interval'] > 0) for l in ls if 'name' in l and 'interval' in l])" "$T/ivj")" \
	"[('twice', 600.0, True)]"

# --per-thread: 2 threads x 250 calls, the main thread none; each thread's row its own metrics.
"$PMC" stat --per-thread -e $E,$X "${M[@]}" --format json -o "$T/thr.json" \
	"$PROGS/threads-getppid" 2 250 2>"$T/thr"
expect_eq "--per-thread: exit status" $? 0
expect_eq "--per-thread JSON: each unit's metrics with their n" \
	"$(json "$T/thr.json" '[[(m["name"], m["value"], m["n"], m["status"]) for m in u["metrics"]] for u in j["units"]]')" \
	"[[('twice', 0.0, 1, 'ok'), ('ratio', None, 1, 'n/a')], [('twice', 500.0, 1, 'ok'), ('ratio', 1.0, 1, 'ok')], [('twice', 500.0, 1, 'ok'), ('ratio', 1.0, 1, 'ok')]]"
expect_eq "--per-thread JSON: the whole program's" \
	"$(json "$T/thr.json" '[(m["name"], m["value"]) for m in j["metrics"]]')" \
	"[('twice', 1000.0), ('ratio', 1.0)]"
# --format csv: the units' counts and the units' metrics, each a table of its own.
"$PMC" stat --per-thread -e $E,$X "${M[@]}" --format csv -o "$T/thr.csv" \
	"$PROGS/threads-getppid" 2 250 2>"$T/thrc"
expect_eq "--per-thread CSV: exit status" $? 0
# csv_table FILE HEADER-START EXPR: EXPR over rows (dicts) of the file's table whose header starts so.
csv_table() {
	python3 - "$@" <<'PY'
import csv, sys
for t in open(sys.argv[1], newline="").read().split("\n\n"):
    if t.startswith(sys.argv[2]):
        rows = list(csv.DictReader(t.strip("\n").splitlines()))
        print(eval(sys.argv[3]))
PY
}
expect_eq "--per-thread CSV: each thread's counts, the main thread none, with its tid" \
	"$(csv_table "$T/thr.csv" unit_label,cpu, 'sorted((r["event"], r["values"], r["unit_label"].endswith("-" + r["tid"])) for r in rows)')" \
	"[('$E', '0', True), ('$E', '250', True), ('$E', '250', True), ('$X', '0', True), ('$X', '250', True), ('$X', '250', True)]"
expect_eq "--per-thread CSV: each thread's metrics, of its own counts" \
	"$(csv_table "$T/thr.csv" unit_label,metric, 'sorted((r["metric"], r["value"], r["n"], r["status"]) for r in rows)')" \
	"[('ratio', '', '1', 'n/a'), ('ratio', '1', '1', 'ok'), ('ratio', '1', '1', 'ok'), ('twice', '0', '1', 'ok'), ('twice', '500', '1', 'ok'), ('twice', '500', '1', 'ok')]"
expect_eq "--per-thread CSV: a thread's 'twice' is twice its count, thread by thread" \
	"$(csv_table "$T/thr.csv" unit_label,cpu, 'sorted((r["unit_label"], 2 * int(r["values"])) for r in rows if r["event"] == "'$E'")')" \
	"$(csv_table "$T/thr.csv" unit_label,metric, 'sorted((r["unit_label"], int(r["value"])) for r in rows if r["metric"] == "twice")')"
"$PMC" metrics --format json "$T/thr.json" >"$T/thr-again.json"
expect_eq "pmc metrics: each unit's metrics again from the file's counts" \
	"$(json "$T/thr-again.json" '[(u["label"], [(m["name"], m["value"], m["n"]) for m in u["metrics"]]) for u in j["units"]]')" \
	"$(json "$T/thr.json" '[(u["label"], [(m["name"], m["value"], m["n"]) for m in u["metrics"]]) for u in j["units"]]')"
expect_grep "pmc metrics: a unit's lines in the text" "^  threads-getppid-[0-9]+:$" \
	<("$PMC" metrics "$T/thr.json")
expect_eq "--per-thread text: a thread's metric line after its events" \
	"$(grep -cE '^threads-getppid-[0-9]+ +# +500  twice$' "$T/thr")" 2
"$PMC" stat --per-thread -x, -e $E "${M[@]:0:2}" "$PROGS/threads-getppid" 2 250 2>"$T/thrx"
expect_eq "--per-thread -x: the units' fields' line, then each thread's metric" \
	"$(grep -c '^# unit_label,metric,' "$T/thrx") $(grep -cE '^threads-getppid-[0-9]+,twice,,,1,500,' "$T/thrx")" \
	"1 2"
# -j: each thread's metric line names its thread as the thread's event line does (it was "" or
# left out: the key's function filled the value's buffer after the value was read from it).
"$PMC" stat --per-thread -j -e $E "${M[@]:0:2}" "$PROGS/threads-getppid" 2 250 2>"$T/thrj"
expect_eq "--per-thread -j: each thread's metric names its thread, the run's none" \
	"$(python3 -c 'import json, sys
ev, me = [], []
for l in open(sys.argv[1]):
    o = json.loads(l)
    (me if "name" in o else ev).append(o.get("thread"))
units = [t for t in me if t is not None]
print(len(units) >= 2, sorted(units) == sorted(ev), len(me) - len(units))' "$T/thrj")" \
	"True True 1"

# -a -A: each CPU's metric is 2x that CPU's count.
"$PMC" stat -a -A --no-warmup -e $E "${M[@]:0:2}" "$PROGS/getppid-loop" 700 2>"$T/cpu"
expect_eq "-A: each CPU's metric from its own count" \
	"$(awk -v e="$E" '$1 ~ /^CPU/ && $3 == e {c[$1] = $2} $1 ~ /^CPU/ && $2 == "#" && $4 == "twice" {m[$1] = $3}
		END {for (k in c) if (m[k] + 0 != 2 * c[k]) bad = 1; print (length(c) > 0 && !bad)}' "$T/cpu")" 1
finish
