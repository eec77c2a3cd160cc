#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc validate --mode=sampling (docs/accuracy.md, "Sampling mode"): under vpmu with fixed seeds,
# each period's k*S estimates against the count of the same kernel (their bias, error and the
# intervals' coverage) and the exact skid of imprecise against precise samples; the same seeds
# give the same results; on perf, tracepoints (every event a sample, so the estimate is the
# count); bad input.
. "$(dirname "$0")/lib.sh"

require_vpmu
KERNELS=$(dirname "$PMC")/libexec/pmc/pmc-kernels
export PMC_TRUST=$T/trust.json # never this user's own trust file

"$PMC" validate --backend=vpmu --mode=sampling --quick -e instructions,branches --format json \
	-o "$T/s.json" 2>"$T/err"
expect_eq "vpmu sampling exits 0" "$?" 0
expect_eq "schema and mode" "$(json "$T/s.json" '(j["schema"], j["mode"], j["seeds"], j["period_jitter"])')" \
	"('pmc-validate/1', 'sampling', 3, 50)"
expect_eq "the loop kernel by default: 2 rows" "$(json "$T/s.json" '[(r["kernel"], r["event"]) for r in j["sampling"]]')" \
	"[('loop', 'instructions'), ('loop', 'branches')]"
# the count is pmc stat's of the same kernel at its largest quick size
"$PMC" stat --backend=vpmu -x, -e instructions "$KERNELS" loop 300000 2>"$T/c.csv" >/dev/null
expect_eq "counted as pmc stat counts" "$(json "$T/s.json" 'int(j["sampling"][0]["counted"])')" \
	"$(grep -v '^#' "$T/c.csv" | cut -d, -f1)"
expect_eq "three periods: the count over 25, 100 and 400 samples" \
	"$(json "$T/s.json" '[p["period"] == round(j["sampling"][0]["counted"] / t) for p, t in zip(j["sampling"][0]["periods"], (25, 100, 400))]')" \
	"[True, True, True]"
expect_eq "three seeds a period" "$(json "$T/s.json" '[len(p["runs"]) for p in j["sampling"][0]["periods"]]')" "[3, 3, 3]"
# each estimate and its check as libpmc makes them: covered when lo <= counted <= hi
expect_eq "covered means lo <= counted <= hi" \
	"$(json "$T/s.json" 'all(x["covered"] == (x["lo"] <= r["counted"] <= x["hi"]) for r in j["sampling"] for p in r["periods"] for x in p["runs"])')" True
expect_eq "coverage is covered / runs" \
	"$(json "$T/s.json" 'all(p["coverage"] == sum(x["covered"] for x in p["runs"]) / 3 for r in j["sampling"] for p in r["periods"])')" True
expect_eq "the bias is the mean relative error" \
	"$(json "$T/s.json" 'all(abs(p["bias"] - sum(x["rel_error"] for x in p["runs"]) / 3) < 1e-12 for r in j["sampling"] for p in r["periods"])')" True
# k*S sums the periods up to the last overflow: it undercounts by about half a period, so
# the bias is negative and shrinks with the period (-2 % at 25 samples, -0.1 % at 400)
expect_eq "the period's bias: below 0, smaller at shorter periods" \
	"$(json "$T/s.json" 'all(r["periods"][0]["bias"] < r["periods"][2]["bias"] < 0 for r in j["sampling"])')" True
expect_eq "every interval holds the count at 400 samples a run" \
	"$(json "$T/s.json" '[r["periods"][2]["covered"] for r in j["sampling"]]')" "[3, 3]"
# skid: the same seed precise and --skid=3 instructions late pair one to one, and every sample
# moves (3 instructions on in a loop of 4), none out of the loop's function
expect_eq "skid: all paired" "$(json "$T/s.json" '[r["skid"]["unpaired"] for r in j["sampling"]]')" "[0, 0]"
expect_eq "skid: every pair moved, none to another function" \
	"$(json "$T/s.json" '[(r["skid"]["pairs"] > 90 and r["skid"]["moved"] == r["skid"]["pairs"], r["skid"]["other_symbol"], r["skid"]["skid_instructions"]) for r in j["sampling"]]')" "[(True, 0, 3), (True, 0, 3)]"
# fixed seeds: the same results again
"$PMC" validate --backend=vpmu --mode=sampling --quick -e instructions,branches --format json \
	-o "$T/s2.json" 2>/dev/null
expect_eq "the same seeds, the same results" "$(json "$T/s2.json" 'j["sampling"]')" "$(json "$T/s.json" 'j["sampling"]')"
"$PMC" validate --backend=vpmu --mode=sampling --quick --seeds 2 --skid 5 -e branches >"$T/t" 2>/dev/null
expect_grep "the table: a line per period" '^branches +loop +[0-9]+ +[0-9]+ +[0-9.]+ +[-+][0-9.]+% \+- [0-9.]+% +[0-9.]+% +[0-2]/2 ' "$T/t"
expect_grep "and the skid" '^    skid \(precise against --skid=5, period [0-9]+, seed 1\): [0-9]+ pairs' "$T/t"
"$PMC" validate --backend=vpmu --mode=sampling --quick --seeds 1 -e branches --format csv -o "$T/s.csv" 2>/dev/null
expect_eq "csv: a header and a row per period" "$(wc -l <"$T/s.csv")" 4
expect_eq "csv header" "$(head -1 "$T/s.csv" | cut -d, -f1-6)" "event,kernel,size,counted,period,runs"
[ ! -e "$T/trust.json" ] && ok "sampling mode writes no trust file" || fail "sampling mode wrote a trust file"

# perf: a tracepoint is sampled at every event whatever the period (the kernel writes each
# software event as a sample of period 1 when samples carry their period), so k*S is the count
"$PMC" validate --mode=sampling --quick --kernel syscall -e syscalls:sys_enter_getppid --format json \
	-o "$T/p.json" 2>/dev/null
expect_eq "perf sampling exits 0" "$?" 0
expect_eq "perf: no jitter, no skid" "$(json "$T/p.json" '(j["period_jitter"], "skid" in j["sampling"][0])')" "(0, False)"
expect_eq "perf tracepoint: every estimate is the count" \
	"$(json "$T/p.json" '[(r["counted"], all(x["estimate"] == r["counted"] for p in r["periods"] for x in p["runs"])) for r in j["sampling"]]')" "[(3000.0, True)]"
# an event the backend cannot count is said, and the rest goes on
"$PMC" validate --mode=sampling --quick --kernel syscall,loop -e syscalls:sys_exit_getppid,instructions >"$T/u" 2>&1
expect_grep "perf: an unsupported event is not sampled" '^instructions +loop .*not sampled$' "$T/u"
expect_grep "the rest goes on" '^syscalls:sys_exit_getppid +syscall +3000 ' "$T/u"

# bad input
"$PMC" validate --mode=sample >/dev/null 2>"$T/e"
expect_eq "--mode=sample: usage error" "$?" 2
"$PMC" validate --format=xml >/dev/null 2>"$T/e"
expect_eq "--format=xml: usage error" "$?" 2
"$PMC" validate --mode=sampling --seeds 0 >/dev/null 2>"$T/e"
expect_eq "--seeds 0: usage error" "$?" 2
"$PMC" validate --mode=sampling --skid 5000 >/dev/null 2>"$T/e"
expect_eq "--skid 5000: usage error" "$?" 2
finish
