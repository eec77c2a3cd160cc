#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc report's exports (docs/report.md): pprof decoded by protoc against pprof's own
# profile.proto and read by go tool pprof, whose top entries are pmc report's; speedscope
# checked against its file-format schema; callgrind read by callgrind_annotate with the
# costs pmc report gives, every event per source line under vpmu; folded stacks by -s keys;
# hostile symbol names escaped in every format.
. "$(dirname "$0")/lib.sh"

PROTO_DIR=/usr/share/gocode/src/github.com/google/pprof/proto
SCHEMA="$(dirname "$0")/../data/speedscope-schema.json"
for tool in protoc go callgrind_annotate; do
	command -v $tool >/dev/null || fail "$tool is missing: run scripts/setup.sh --test"
done
[ -f "$PROTO_DIR/profile.proto" ] || fail "pprof's profile.proto is missing: scripts/setup.sh --test"
python3 -c 'import jsonschema' 2>/dev/null || fail "python3-jsonschema is missing: scripts/setup.sh --test"
export HOME="$T" GOCACHE="$T/go-cache" PPROF_TMPDIR="$T"

# decode FILE: the profile as protoc's text format.
decode() { zcat "$1" | protoc --decode=perftools.profiles.Profile --proto_path="$PROTO_DIR" profile.proto; }
# pmc_top FILE [ARGS]: "name percent" of pmc report's first two entries.
pmc_top() {
	local f=$1
	shift
	"$PMC" report -i "$f" --no-callers "$@" | awk '/^ +[0-9.]+%/ { print $NF, $1 }' | head -2
}
# pprof_top FILE [ARGS]: the same from go tool pprof -top (flat column).
pprof_top() {
	local f=$1
	shift
	go tool pprof -top "$@" "$f" 2>"$T/pprof.err" | awk '$2 ~ /%$/ && $1 != "flat" { print $NF, $2 }' | head -2
}

# A 75/25 program sampled with call chains on cpu-clock.
"$PMC" record -q -F 2000 -g -o "$T/s.data" -- "$PROGS/sample-split" 600 >/dev/null 2>"$T/err" ||
	fail "pmc record: $(cat "$T/err")"

# pprof
"$PMC" report -i "$T/s.data" -F pprof -o "$T/s.pb.gz" 2>"$T/err"
expect_eq "pprof: exit status" "$?" 0
expect_eq "pprof: gzip-compressed" "$(head -c2 "$T/s.pb.gz" | od -An -tx1 | tr -d ' ')" 1f8b
decode "$T/s.pb.gz" >"$T/s.txt" 2>"$T/err"
expect_eq "pprof: protoc decodes it against pprof's profile.proto" "$?" 0
expect_grep "pprof: the event is a sample type" '^string_table: "cpu-clock"$' "$T/s.txt"
expect_grep "pprof: in nanoseconds" '^string_table: "nanoseconds"$' "$T/s.txt"
bid=$(readelf -n "$PROGS/sample-split" | awk '/Build ID/ { print $3 }')
expect_grep "pprof: the program's mapping has its build id" "^string_table: \"$bid\"\$" "$T/s.txt"
expect_grep "pprof: mappings carry a build id" '^  build_id: [1-9]' "$T/s.txt"
expect_grep "pprof: locations have source lines" '^    line: [1-9][0-9]*$' "$T/s.txt"
pmc_top "$T/s.data" >"$T/pmc.top"
pprof_top "$T/s.pb.gz" >"$T/pprof.top"
expect_eq "pprof: go tool pprof -top's first entries are pmc report's" "$(cat "$T/pprof.top")" "$(cat "$T/pmc.top")"
expect_grep "pprof: the hot function first" "^hot " "$T/pprof.top"

# first_mapping FILE: the file name of the profile's first mapping (protoc's text).
first_mapping() {
	decode "$1" | python3 -c '
import re, sys
t = sys.stdin.read()
strs = [eval(s) for s in re.findall(r"^string_table: (\".*\")$", t, re.M)]
m = re.search(r"^mapping \{\n(?:  .*\n)*?  filename: (\d+)$", t, re.M)
print(strs[int(m.group(1))] if m else "")'
}
# The main binary is the first mapping (pprof names the profile after it and reads its
# symbols): the program, even where the dynamic loader's samples came first (under vpmu
# the count starts at the loader's first instruction). Before, mapping 1 was ld-linux.
if [ -x "$PROGS/vpmu-loop" ] && "$PMC" record -q --backend=vpmu -e instructions -c 20000 \
	-o "$T/v.data" -- "$PROGS/vpmu-loop" loop 100000 >/dev/null 2>"$T/err"; then
	"$PMC" report -i "$T/v.data" -F pprof -o "$T/v.pb.gz" 2>"$T/err"
	expect_eq "pprof: the first mapping is the program, not the loader" \
		"$(first_mapping "$T/v.pb.gz")" "$PROGS/vpmu-loop"
else
	fail "pmc record --backend=vpmu: $(cat "$T/err")"
fi
expect_eq "pprof: perf's recording too" "$(first_mapping "$T/s.pb.gz")" "$PROGS/sample-split"

# Inlined frames: pprof shows spin() as inlined into outer(), from the location's two lines.
"$PMC" record -q -F 2000 -g -o "$T/i.data" -- "$PROGS/sample-inline" 300 >/dev/null 2>"$T/err" ||
	fail "pmc record: $(cat "$T/err")"
"$PMC" report -i "$T/i.data" -F pprof -o "$T/i.pb.gz"
go tool pprof -top "$T/i.pb.gz" >"$T/i.top" 2>&1
expect_grep "pprof: the inlined function, as pprof names inlines" " spin \(inline\)$" "$T/i.top"
# outer() holds all of spin()'s samples (its cum at least spin's) and few of its own: a
# sample may land on its loop's own instructions around the inlined body (0.17 % in one run
# of 600), and one in start-up code keeps both cums under 100 %.
expect_eq "pprof: the function it was inlined into" \
	"$(awk '{ sub(/%/, "", $2); sub(/%/, "", $5) }
		/ spin \(inline\)$/ { spin = $5 + 0 }
		$NF == "outer" { flat = $2 + 0; cum = $5 + 0 }
		END { print (spin > 0 && cum >= spin && flat < 5) }' "$T/i.top")" 1

# speedscope
"$PMC" report -i "$T/s.data" -F speedscope -o "$T/s.json"
expect_eq "speedscope: exit status" "$?" 0
python3 - "$T/s.json" "$SCHEMA" >"$T/ss.out" 2>&1 <<'PY'
import json, sys, jsonschema
doc = json.load(open(sys.argv[1]))
jsonschema.validate(doc, json.load(open(sys.argv[2])))
frames = doc["shared"]["frames"]
for p in doc["profiles"]:
    assert len(p["samples"]) == len(p["weights"]), "one weight per sample"
    assert sum(p["weights"]) == p["endValue"], "weights sum to the event's period"
    for s in p["samples"]:
        assert all(0 <= i < len(frames) for i in s), "frame indexes in range"
p = doc["profiles"][0]
hot = sum(w for s, w in zip(p["samples"], p["weights"]) if frames[s[-1]]["name"] == "hot")
print("%s %.2f%%" % (p["name"], 100.0 * hot / p["endValue"]))
PY
expect_eq "speedscope: valid against the schema" "$?" 0
hot_pct=$(awk '$1 == "hot" { print $2 }' "$T/pmc.top")
expect_eq "speedscope: hot's share of the leaf frames is pmc report's" "$(cat "$T/ss.out")" "cpu-clock $hot_pct"

# callgrind
# group N: N with thousands separators, as callgrind_annotate prints counts.
group() { echo "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
"$PMC" report -i "$T/s.data" -F callgrind -o "$T/s.cg"
expect_eq "callgrind: exit status" "$?" 0
callgrind_annotate --inclusive=no "$T/s.cg" >"$T/s.ann" 2>&1
expect_eq "callgrind: callgrind_annotate reads it" "$?" 0
total=$("$PMC" report -i "$T/s.data" | sed -n "s/^# event 'cpu-clock': .*estimated count \([0-9]*\).*/\1/p")
expect_grep "callgrind: the program total is the event's count" \
	"^$(group "$total") \(100.0%\) +PROGRAM TOTALS" "$T/s.ann"
hot_period=$("$PMC" report -i "$T/s.data" --no-callers | awk '$NF == "hot" { print $3 }')
expect_grep "callgrind: hot's self cost is pmc report's" \
	"^ *$(group "$hot_period") .*sample-split.c:hot " "$T/s.ann"
# main's inclusive cost: the period of every chain through main (speedscope's stacks).
through_main=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); names = [f["name"] for f in d["shared"]["frames"]]
p = d["profiles"][0]
print(sum(w for s, w in zip(p["samples"], p["weights"]) if "main" in (names[i] for i in s)))' "$T/s.json")
callgrind_annotate --inclusive=yes "$T/s.cg" >"$T/s.inc" 2>&1
expect_grep "callgrind: main's inclusive cost holds its calls" \
	"^ *$(group "$through_main") .*sample-split.c:main " "$T/s.inc"

# folded: -s keys, one line per distinct text
"$PMC" report -i "$T/s.data" -F folded >"$T/f.sym"
expect_grep "folded: by symbol" "^sample-split;.*;main;hot [0-9]+$" "$T/f.sym"
expect_eq "folded: one line per stack text" "$(cut -d' ' -f1 "$T/f.sym" | sort | uniq -d)" ""
"$PMC" report -i "$T/s.data" -F folded -s dso >"$T/f.dso"
expect_grep "folded -s dso: DSO frames" "^sample-split;(.*;)?sample-split;sample-split [0-9]+$" "$T/f.dso"
"$PMC" report -i "$T/s.data" -F folded -s sym,srcline >"$T/f.line"
expect_grep "folded -s sym,srcline: name and line" ";main sample-split\.c:[0-9]+;hot sample-split\.c:[0-9]+ [0-9]+$" "$T/f.line"
sum() { awk '{ n += $NF } END { print n }' "$1"; }
expect_eq "folded: every sample once, whatever the keys" "$(sum "$T/f.dso")" "$(sum "$T/f.sym")"

# Every event of a vpmu recording per source line (callgrind) and as a sample type (pprof).
if "$PMC" record -q --backend=vpmu -e instructions,branches -c 100000 -o "$T/v.data" \
	"$PROGS/vpmu-loop" loop 3000000 >/dev/null 2>"$T/err"; then
	"$PMC" report -i "$T/v.data" -F callgrind -o "$T/v.cg"
	expect_grep "callgrind: both events are columns" "^events: E0_instructions E1_branches$" "$T/v.cg"
	callgrind_annotate "$T/v.cg" >"$T/v.ann" 2>&1
	expect_grep "callgrind: loop's line has both events' counts" \
		"^ *12,000,000 \([0-9.]+%\) +3,000,000 \(100\.0%\) .*__asm__" "$T/v.ann"
	"$PMC" report -i "$T/v.data" -F pprof -o "$T/v.pb.gz"
	expect_eq "pprof: two sample types" "$(decode "$T/v.pb.gz" | grep -c '^sample_type {')" 2
	expect_eq "pprof -sample_index=branches: loop has them all" \
		"$(pprof_top "$T/v.pb.gz" -sample_index=branches | head -1)" "loop 100%"
else
	skip_part vpmu "the vpmu tool cannot record here: $(tail -1 "$T/err")"
fi

# Hostile symbol names: kernel samples named from a kallsyms file whose names hold the
# separators and escapes of every format, and a symbol version.
"$PMC" record -q -e task-clock:k -c 100000 -g -o "$T/k.data" -- "$PROGS/getppid-loop" 100000 \
	>/dev/null 2>"$T/err" || fail "pmc record of kernel samples: $(cat "$T/err")"
EVIL=$(printf '(9)a;b<i>&"\x27\x1b[31mc\x01')
awk -v e="$EVIL" '$2 ~ /^[tT]$/ { $3 = e "_" $3 "@@GLIBC_2.34" } { print $1, $2, $3 }' \
	/proc/kallsyms >"$T/kallsyms"
for fmt in folded pprof speedscope callgrind; do
	"$PMC" report -i "$T/k.data" --kallsyms="$T/kallsyms" -F $fmt -o "$T/k.$fmt" 2>"$T/err"
	expect_eq "hostile names, $fmt: exit status" "$?" 0
done
expect_no_grep "hostile names: no raw escape byte in folded" $'\x1b' "$T/k.folded"
expect_grep "folded: ';' escaped, versions dropped, control bytes as \\\\x" \
	'^getppid-loop;.*\(9\)a\\x3bb<i>&"'"'"'\\x1b\[31mc\\x01_[A-Za-z0-9_.]+[; ]' "$T/k.folded"
expect_no_grep "folded: no symbol version" "@@GLIBC" "$T/k.folded"
expect_eq "folded: every line is frames and a count" "$(grep -cvE '^[^ ].* [0-9]+$' "$T/k.folded")" 0
decode "$T/k.pprof" >"$T/k.txt" 2>"$T/err"
expect_eq "hostile names, pprof: protoc decodes it" "$?" 0
go tool pprof -top "$T/k.pprof" >"$T/k.top" 2>&1
expect_eq "hostile names, pprof: go tool pprof reads it" "$?" 0
python3 - "$T/k.speedscope" "$SCHEMA" "$EVIL" >"$T/ss.out" 2>&1 <<'PY'
import json, sys, jsonschema
doc = json.load(open(sys.argv[1]))
jsonschema.validate(doc, json.load(open(sys.argv[2])))
names = [f["name"] for f in doc["shared"]["frames"]]
assert any(n.startswith(sys.argv[3] + "_") for n in names), names[:5]
PY
expect_eq "hostile names, speedscope: valid, names kept whole" "$?" 0
callgrind_annotate "$T/k.callgrind" >"$T/k.ann" 2>&1
expect_eq "hostile names, callgrind: callgrind_annotate reads it" "$?" 0
expect_eq "callgrind: one line per name, none broken" "$(grep -c $'\x1b' "$T/k.callgrind")" 0
expect_grep "callgrind: a compressed name that starts with (9)" '^fn=\([0-9]+\) \(9\)a;b' "$T/k.callgrind"
finish
