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
# The skid checks below make validate's two skid recordings again, and a recording's samples
# in libc's start-up move with the environment: validate adds "--skid=3" to PMC_VPMU_ARGS
# with setenv(), which appends a new variable but changes one the environment has in place.
# So the variable is there from the start, for every vpmu run (--skid moves imprecise
# samples only; counts and precise samples do not change).
export PMC_VPMU_ARGS=--skid=3

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
# skid: the same seed precise and --skid=3 instructions late pair one to one. The test makes
# the two recordings validate makes (the period in its JSON, seed 1, both runs with
# PMC_VPMU_ARGS as validate sets it, in the same place in the environment) and pairs their
# samples through perf script: pairs, moves and changes of function equal validate's. In
# the loop (k_loop, 4 instructions an iteration) every sample moves 3 instructions on and
# none leaves the function; samples in start-up and exit code (a few in a hundred, how many
# depends on the environment) may: a skidded `ret` lands in its caller.
expect_eq "skid: all paired" "$(json "$T/s.json" '[r["skid"]["unpaired"] for r in j["sampling"]]')" "[0, 0]"
command -v perf >/dev/null || fail "perf is a test dependency (scripts/setup.sh --test)"
for ev in instructions branches; do
	period=$(json "$T/s.json" "[r['skid']['period'] for r in j['sampling'] if r['event'] == '$ev'][0]")
	# changed in place, as setenv() does (`VAR=x cmd` would put it first)
	PMC_VPMU_ARGS="--skid=3 --skid=3"
	for m in p i; do
		e=$ev
		[ $m = p ] && e=$ev:p
		"$PMC" record --backend=vpmu -e "$e" -c "$period" --period-jitter=50 \
			--seed=1 -o "$T/skid-$m.data" "$KERNELS" loop 300000 >/dev/null 2>&1
		perf script -i "$T/skid-$m.data" -F ip,sym 2>/dev/null >"$T/skid-$m.txt"
	done
	PMC_VPMU_ARGS=--skid=3
	# (pairs, moved, other function, in k_loop: pairs, moved, other function)
	got=$(python3 - "$T/skid-p.txt" "$T/skid-i.txt" <<'PYEOF2'
import sys
def rows(f):
    out = []
    for line in open(f):
        w = line.split()
        out.append((int(w[0], 16), w[1] if len(w) > 1 else ""))
    return out
a, b = rows(sys.argv[1]), rows(sys.argv[2])
pairs = list(zip(a, b))
moved = [(x, y) for x, y in pairs if x[0] != y[0]]
loop = [(x, y) for x, y in pairs if x[1] == "k_loop"]
print((len(a) == len(b), len(pairs), len(moved), sum(x[1] != y[1] for x, y in moved),
       len(loop) > 80, sum(x[0] != y[0] for x, y in loop) == len(loop), sum(x[1] != y[1] for x, y in loop)))
PYEOF2
)
	want=$(json "$T/s.json" "[(True, s['pairs'], s['moved'], s['other_symbol'], True, True, 0) for r in j['sampling'] if r['event'] == '$ev' for s in [r['skid']]][0]")
	expect_eq "skid of $ev: validate's pairs, moves and changes of function as perf script pairs them; in k_loop all move, none leaves" "$got" "$want"
done
expect_eq "skid: 3 instructions" "$(json "$T/s.json" '[r["skid"]["skid_instructions"] for r in j["sampling"]]')" "[3, 3]"
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
