#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc record's per-kind defaults and pmc report's estimates (docs/accuracy.md, "Sampling
# defaults" and "When a report gives an estimate"): a tracepoint or mem: breakpoint samples
# every hit unless -c/-F or a period=/freq= term says otherwise, so N getppid calls give N
# samples and an exact count; where the estimator's assumptions fail (no sample, few samples,
# frequency-mode periods still adapting) every format says "no estimate: WHY", and an interval
# it does give holds the true count.
. "$(dirname "$0")/lib.sh"

TP=syscalls:sys_enter_getppid
[ -r /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id ] ||
	[ -r /sys/kernel/debug/tracing/events/syscalls/sys_enter_getppid/id ] ||
	{ fail "no syscalls tracepoints: scripts/setup.sh mounts tracefs"; exit 1; }
G=$PROGS/getppid-loop

# ---- the attrs: period 1 for tracepoints and breakpoints, 4000 Hz for the rest, options win ----
# attrs FILE: "period P" or "freq F" of each attr block that --dry-run -vv prints, in order
attrs() {
	awk '/^perf_event_attr:/ { if (v != "") print (f ? "freq " : "period ") v; f = 0; v = "" }
		/^  \{ sample_period, sample_freq \}/ { v = $NF }
		/^  freq +1$/ { f = 1 }
		END { if (v != "") print (f ? "freq " : "period ") v }' "$1" | tr '\n' ' '
}
"$PMC" record --dry-run -vv -e "$TP,cpu-clock,mem:0x1000:w" -- true >"$T/d" 2>&1
expect_eq "defaults: tracepoint every hit, cpu-clock 4000 Hz, mem: breakpoint every hit" \
	"$(attrs "$T/d")" "period 1 freq 4000 period 1 "
"$PMC" record --dry-run -vv -F 99 -e "$TP" -- true >"$T/f" 2>&1
expect_eq "-F wins on a tracepoint" "$(attrs "$T/f")" "freq 99 "
"$PMC" record --dry-run -vv -c 7 -e "$TP" -- true >"$T/c" 2>&1
expect_eq "-c wins on a tracepoint" "$(attrs "$T/c")" "period 7 "

# ---- N calls, default options: N samples and the exact count, in every format ----
"$PMC" record -q -e "$TP" -o "$T/n.data" -- "$G" 1000
"$PMC" report --no-callers -i "$T/n.data" >"$T/n.txt"
expect_grep "default: 1000 calls, 1000 samples, the exact count" \
	"^# event '$TP': 1000 samples, count 1000 \(period 1: every event was sampled\)$" "$T/n.txt"
"$PMC" report -F json -i "$T/n.data" >"$T/n.json"
expect_eq "default, JSON: exact, the interval is the count" \
	"$(json "$T/n.json" '(j["schema"], j["events"][0]["samples"], j["events"][0]["estimate"], j["events"][0]["interval"]["lo"], j["events"][0]["interval"]["hi"])')" \
	"('pmc-report/3', 1000, 'exact', 1000.0, 1000.0)"

# ---- an event without samples: a header, a row and a reason ----
"$PMC" record -q -e "$TP,syscalls:sys_enter_getpid" -o "$T/z.data" -- "$G" 100
"$PMC" report --no-callers -i "$T/z.data" >"$T/z.txt"
expect_grep "an event without samples: its header says why" \
	"^# event 'syscalls:sys_enter_getpid': 0 samples, no estimate: no sample$" "$T/z.txt"
"$PMC" report -F csv -i "$T/z.data" >"$T/z.csv"
expect_grep "an event without samples: a CSV row with the reason" \
	'^"syscalls:sys_enter_getpid",0.0000,0.0000,0,0,,,,"no estimate: no sample"$' "$T/z.csv"
"$PMC" report -F json -i "$T/z.data" >"$T/z.json"
expect_eq "an event without samples: JSON" \
	"$(json "$T/z.json" '[(e["name"], e["samples"], e["estimate"], e.get("no_estimate"), "interval" in e) for e in j["events"]]')" \
	"[('$TP', 100, 'exact', None, True), ('syscalls:sys_enter_getpid', 0, 'none', 'no estimate: no sample', False)]"

"$PMC" report -F html -i "$T/z.data" >"$T/z.html"
expect_grep "an event without samples: the HTML page's data says why" \
	'"no_estimate": ?"no estimate: no sample"' "$T/z.html"
expect_grep "the HTML page's data: the exact count" '"exact": ?true' "$T/z.html"

# ---- a fixed period: the kernel samples every hit of a tracepoint all the same (period 1) ----
"$PMC" record -q -e "$TP" -c 200 -o "$T/c200.data" -- "$G" 1000
"$PMC" report --no-callers -i "$T/c200.data" >"$T/c200.txt"
expect_grep "-c 200 on a tracepoint: the kernel's samples of period 1 are the exact count" \
	"^# event '$TP': 1000 samples, count 1000 \(period 1: every event was sampled\)$" "$T/c200.txt"

# ---- a fixed period under vpmu (exact, deterministic): too few samples, or an interval ----
if "$PMC" doctor 2>&1 | grep -qE '^ *\[ok\] vpmu'; then
	V=$PROGS/vpmu-loop
	C=$("$PMC" stat --backend=vpmu -x, -e instructions -- "$V" loop 2000000 2>&1 | cut -d, -f1 | tail -1)
	"$PMC" record -q --backend=vpmu -e instructions -c 1000000 -o "$T/few.data" -- "$V" loop 2000000
	"$PMC" report --no-callers -i "$T/few.data" >"$T/few.txt"
	expect_grep "vpmu -c 1000000 on $C instructions: no estimate from 8 samples" \
		"^# event 'instructions': 8 samples, sum of sample periods 8000000, no estimate: only 8 samples \(an estimate needs 10\)$" "$T/few.txt"
	expect_grep "vpmu -c 1000000: the rows have no estimate either" "^ +[0-9.]+% +[0-9]+ +- +no estimate +" "$T/few.txt"
	"$PMC" record -q --backend=vpmu -e instructions -c 100000 -o "$T/fix.data" -- "$V" loop 2000000
	"$PMC" report -F json -i "$T/fix.data" >"$T/fix.json"
	expect_eq "vpmu -c 100000 on $C instructions: an interval that holds the count" \
		"$(json "$T/fix.json" '(lambda e: (e["estimate"], e["interval"]["lo"] <= '"$C"' <= e["interval"]["hi"]))(j["events"][0])')" \
		"('interval', True)"
else
	fail "the vpmu tool is not available (it is part of the build)"
fi

# ---- -F on a tracepoint: the kernel adapts the period; an interval, if any, holds the truth ----
# (the old default: 1000 calls at -F 4000 gave 6 samples and "[4485, 21353]")
for n in 1000 200000 2000000; do
	"$PMC" record -q -e "$TP" -F 1000 -o "$T/F$n.data" -- "$G" $n
	"$PMC" report --no-callers -i "$T/F$n.data" >"$T/F$n.txt"
	"$PMC" report -F json -i "$T/F$n.data" >"$T/F$n.json"
	"$PMC" report -F csv -i "$T/F$n.data" >"$T/F$n.csv"
	got=$(json "$T/F$n.json" '(lambda e: "holds" if e["estimate"] == "interval" and e["interval"]["lo"] <= '$n' <= e["interval"]["hi"] else e.get("no_estimate", "excludes %s" % e.get("interval")))(j["events"][0])')
	echo "-F 1000, $n calls: $got"
	case $got in
	holds) ok "-F 1000, $n calls: the interval holds $n" ;;
	"no estimate: "*)
		ok "-F 1000, $n calls: no estimate, with the reason"
		expect_eq "-F 1000, $n calls: the text header says why" \
			"$(grep -c "^# event '$TP': [0-9]* samples, sum of sample periods [0-9]*, no estimate: " "$T/F$n.txt"):$(grep -cF -- ", $got" "$T/F$n.txt")" 1:1
		expect_eq "-F 1000, $n calls: each CSV row says why" \
			"$(tail -n +2 "$T/F$n.csv" | grep -vcF -- ",,,\"$got\"")" 0 ;;
	*) fail "-F 1000, $n calls: $got" ;;
	esac
done
expect_grep "-F 1000, 1000 calls: no estimate" "no estimate: " "$T/F1000.txt"

# ---- mem: breakpoints: every write by default ----
if have_breakpoints; then
	A=0x$(nm "$PROGS/write-globals-nopie" | awk '$3 == "g0" { print $1 }')
	"$PMC" record -q -e "mem:$A:w" -o "$T/bp.data" -- "$PROGS/write-globals-nopie" 500
	"$PMC" report --no-callers -i "$T/bp.data" >"$T/bp.txt"
	expect_grep "mem: breakpoint, default: 500 writes, 500 samples, exact" \
		"^# event 'mem:$A:w': 500 samples, count 500 \(period 1: every event was sampled\)$" "$T/bp.txt"
else
	skip_part breakpoints "hardware breakpoints do not fire here: the mem: default is checked by --dry-run only"
fi
finish
