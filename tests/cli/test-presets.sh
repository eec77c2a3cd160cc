#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# PAPI presets in pmc stat (docs/events.md, "PAPI presets"): exact counts under vpmu on both
# models from differences of two runs, the perf backend's encodings, and a preset with no
# event on the backend refused with the reason.
. "$(dirname "$0")/lib.sh"

require_vpmu

value() { awk -F, -v e="\"$1\"" '$1 == e { split($13, v, ";"); print v[1] }' "$2"; }
stat_csv() { local out=$1; shift; "$PMC" stat --backend=vpmu --format csv -o "$out" "$@" 2>>"$T/err"; }
d() { echo $(($(value "$1" "$T/$2-2.csv") - $(value "$1" "$T/$2-1.csv"))); }

# K and 2K iterations of {nop; add; dec; jnz}: 4 instructions and 1 conditional branch each.
EV=PAPI_TOT_INS,PAPI_BR_INS,PAPI_BR_CN,PAPI_BR_TKN,instructions
stat_csv "$T/i7-1.csv" -e $EV "$PROGS/vpmu-loop" loop 100000
stat_csv "$T/i7-2.csv" -e $EV "$PROGS/vpmu-loop" loop 200000
expect_eq "PAPI_TOT_INS of K iterations (Core i7)" "$(d PAPI_TOT_INS i7)" 400000
expect_eq "PAPI_BR_INS of K iterations (Core i7)" "$(d PAPI_BR_INS i7)" 100000
expect_eq "PAPI_BR_CN of K iterations (Core i7)" "$(d PAPI_BR_CN i7)" 100000
expect_eq "PAPI_BR_TKN of K iterations (Core i7)" "$(d PAPI_BR_TKN i7)" 100000
expect_eq "PAPI_TOT_INS counts what instructions counts" \
	"$(value PAPI_TOT_INS "$T/i7-1.csv")" "$(value instructions "$T/i7-1.csv")"

# The Pentium model takes the generic column: instructions and branches, through its map.
export PMC_VPMU_MODEL=pentium
stat_csv "$T/p5-1.csv" -e PAPI_TOT_INS,PAPI_BR_INS "$PROGS/vpmu-loop" loop 100000
stat_csv "$T/p5-2.csv" -e PAPI_TOT_INS,PAPI_BR_INS "$PROGS/vpmu-loop" loop 200000
expect_eq "PAPI_TOT_INS of K iterations (Pentium)" "$(d PAPI_TOT_INS p5)" 400000
expect_eq "PAPI_BR_INS of K iterations (Pentium)" "$(d PAPI_BR_INS p5)" 100000
"$PMC" stat --backend=vpmu -e PAPI_BR_CN -- true >"$T/p5cn" 2>&1
expect_eq "no generic conditional-branch event: usage error" $? 2
expect_grep "says why on Pentium" "'PAPI_BR_CN': no event on backend vpmu: no generic event" "$T/p5cn"
unset PMC_VPMU_MODEL

# Modifiers and names carry through: the results name the preset as written.
"$PMC" stat --backend=vpmu -e 'PAPI_TOT_INS:u' -o "$T/u.json" --format json \
	"$PROGS/vpmu-loop" loop 1000 2>>"$T/err"
expect_eq "named as written" "$(json "$T/u.json" 'j["events"][0]["name"]')" "PAPI_TOT_INS:u"

# perf: the generic events' encodings (a dry run needs no PMU; -vv leaves out zero fields,
# so type 0, HARDWARE, shows as no type line).
"$PMC" stat --dry-run -vv -e PAPI_TOT_INS:u,PAPI_L1_DCM,PAPI_BR_MSP -- true >"$T/dry" 2>&1
expect_eq "perf encodings" "$(awk '$1 == "type" || $1 == "config" {printf "%s=%s ", $1, $2}' "$T/dry")" \
	"config=0x1 type=3 config=0x10000 config=0x5 "

# A preset with no event here is a usage error that names it and says why.
while IFS='~' read -r backend preset want; do
	"$PMC" stat --backend="$backend" -e "cycles,$preset" -- true >"$T/no" 2>&1
	expect_eq "$preset on $backend: usage error" $? 2
	expect_grep "$preset on $backend: why" "$want" "$T/no"
	expect_grep "$preset on $backend: where" '^         \^' "$T/no"
done <<'EOF'
vpmu~PAPI_L2_DCM~'PAPI_L2_DCM': derived, not one event \(PAPI 7.0 on Nehalem: DERIVED_ADD of L2_RQSTS:LD_MISS,L2_RQSTS:RFO_MISS\)
perf~PAPI_FP_OPS~'PAPI_FP_OPS': derived
perf~PAPI_BR_CN~'PAPI_BR_CN': no event on backend perf: no generic event means the same \(PAPI 7.0 on Nehalem: BR_INST_EXEC:COND
EOF
finish
