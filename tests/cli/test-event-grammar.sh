#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The event grammar against perf 6.1 (docs/events.md, "The grammar against perf"): every row
# of tests/data/event-grammar.tsv goes through `perf stat -e EVENT true` and
# `pmc stat -e EVENT true`, and the class of each outcome (accept or reject, not the message)
# must be the row's. Where perf's class and pmc's differ, the row says why.
. "$(dirname "$0")/lib.sh"
TABLE=${SRC:?}/tests/data/event-grammar.tsv

command -v perf >/dev/null || fail "perf is not installed (scripts/setup.sh --test installs linux-perf)"
case "$(perf version 2>&1)" in
"perf version 6.1."*) ;;
*) fail "the table is perf 6.1's, this is $(perf version 2>&1)" ;;
esac

PMUS=/sys/bus/event_source/devices
cpu_pmu=no
[ -e $PMUS/cpu ] || [ -e $PMUS/cpu_core ] && cpu_pmu=yes
[ $cpu_pmu = no ] || skip_part has-pmu "perf's no-pmu:reject rows (CPU names) depend on the CPU's event tables where it has a PMU"

# The class a column expects on this machine: accept, reject or skip.
expected() {
	case "$1" in
	accept | reject) echo "$1" ;;
	if-pmu:*) [ -e "$PMUS/${1#if-pmu:}" ] && echo accept || echo reject ;;
	no-pmu:reject) [ $cpu_pmu = no ] && echo reject || echo skip ;;
	*) echo "bad class '$1'" ;;
	esac
}

# perf rejects with "event syntax error", or exits 129 with its usage after "Run 'perf list'".
perf_class() {
	local out rc
	out=$(perf stat -e "$1" true 2>&1 </dev/null)
	rc=$?
	if grep -q "event syntax error" <<<"$out" || { [ $rc = 129 ] && grep -q "Run 'perf list'" <<<"$out"; }; then
		echo reject
	else
		echo accept
	fi
}

# pmc rejects with exit status 2 and the caret under the fault.
pmc_class() {
	local out rc
	out=$(LIBPFM_FORCE_PMU=nhm "$PMC" stat -e "$1" true 2>&1 </dev/null)
	rc=$?
	if [ $rc = 2 ] && grep -q '^ *\^$' <<<"$out"; then echo reject; else echo accept; fi
}

rows=0
while IFS=$'\t' read -r event perf pmc note; do
	case "$event" in '#'* | '') continue ;; esac
	rows=$((rows + 1))
	if [ "$perf" != "$pmc" ] && ! [[ "$note" =~ ^(extension|stricter|missing): ]]; then
		fail "row '$event': perf and pmc differ ($perf, $pmc) and the note does not say why"
	fi
	want=$(expected "$perf")
	if [ "$want" != skip ]; then
		expect_eq "perf: '$event'" "$(perf_class "$event")" "$want"
	fi
	expect_eq "pmc: '$event'" "$(pmc_class "$event")" "$(expected "$pmc")"
done <"$TABLE"
[ $rows -gt 400 ] || fail "only $rows rows read from $TABLE"
finish
