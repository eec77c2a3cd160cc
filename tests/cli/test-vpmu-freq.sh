#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc record --backend=vpmu samples in the tool's frequency mode (docs/vpmu.md, "Frequency
# mode"): -F (default 4000) gives about F samples per second of modelled time, whatever the
# event's rate, and the samples' periods sum to the exact count; with no -e, vpmu samples its
# modelled cycles. Before, -F became the fixed period 10^9/F: branch-misses got 0 samples
# with no word, and the default event (cpu-clock) was refused by the backend.
. "$(dirname "$0")/lib.sh"

require_vpmu
LOOP="$PROGS/vpmu-loop"
[ -x "$LOOP" ] || { echo "FAIL: $LOOP is not built (the vpmu workloads are part of the build)"; exit 1; }

# record OUT ARGS...: pmc record --backend=vpmu, its summary line kept in OUT.log.
record() { local out=$1; shift; "$PMC" record --backend=vpmu -o "$out" "$@" 2>"$out.log"; }
nr_samples() { sed -n 's/.*wrote \([0-9]*\) samples.*/\1/p' "$1.log"; }
# count EVENT ARGS...: pmc stat --backend=vpmu's exact count of EVENT over the command.
count() { local ev=$1; shift; "$PMC" stat --backend=vpmu -x, -e "$ev" "$@" 2>&1 >/dev/null | awk -F, -v e="$ev" '$3 == e { print $1 }'; }
# in_range N LO HI: yes when LO <= N <= HI (integers).
in_range() { [ -n "$1" ] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ] && echo yes || echo "no ($1 not in $2..$3)"; }

# branch-misses: a rate far below one per nanosecond.
record "$T/bm.data" -e branch-misses "$LOOP" branches 1000000
expect_eq "branch-misses: record exits 0" $? 0
n=$(nr_samples "$T/bm.data")
cyc=$(count cycles "$LOOP" branches 1000000)
bm=$(count branch-misses "$LOOP" branches 1000000)
want=$((4000 * cyc / 1000000000))
expect_eq "branch-misses: samples, at most F x modelled time + the first short periods" \
	"$(in_range "$n" 1 $((want + 20)))" yes
"$PMC" report -i "$T/bm.data" >"$T/bm.rep" 2>&1
expect_grep "branch-misses: the report lists the event" "event 'branch-misses': $n samples" "$T/bm.rep"

# No -e: vpmu's default event is its modelled cycles, sampled about 4000 times a second.
record "$T/cy.data" "$LOOP" loop 5000000
expect_eq "no -e: record exits 0" $? 0
n=$(nr_samples "$T/cy.data")
cyc=$(count cycles "$LOOP" loop 5000000)
want=$((4000 * cyc / 1000000000))
expect_eq "no -e: about 4000 samples a modelled second ($cyc cycles)" \
	"$(in_range "$n" $((want * 9 / 10)) $((want + 20)))" yes
"$PMC" report -i "$T/cy.data" >"$T/cy.rep" 2>&1
expect_grep "no -e: the samples are cycles" "event 'cycles': $n samples" "$T/cy.rep"
expect_grep "no -e: the hot function" "^ +9[0-9]\.[0-9]+% .*\[\.\] loop$" "$T/cy.rep"

# The same run again gives the same samples.
record "$T/cy2.data" "$LOOP" loop 5000000
"$PMC" report -i "$T/cy2.data" >"$T/cy2.rep" 2>&1
expect_eq "no -e: a second run, the same report" "$(tail -n +2 "$T/cy.rep" | md5sum)" \
	"$(tail -n +2 "$T/cy2.rep" | md5sum)"

# -F is honoured: 10 times the rate, about 10 times the samples.
record "$T/f.data" -F 40000 "$LOOP" loop 5000000
expect_eq "-F 40000: about 40000 samples a modelled second" \
	"$(in_range "$(nr_samples "$T/f.data")" $((want * 9)) $((want * 10 + 20)))" yes

# The periods (PERF_SAMPLE_PERIOD, as the tool adapted them) sum to the count up to the events
# after the last sample, less than a period; the attr says frequency mode, as perf writes it.
if command -v perf >/dev/null; then
	for f in bm cy; do
		ev=$([ $f = bm ] && echo branch-misses || echo cycles)
		args=$([ $f = bm ] && echo "branches 1000000" || echo "loop 5000000")
		# shellcheck disable=SC2086
		exact=$(count $ev "$LOOP" $args)
		perf script -i "$T/$f.data" -F period 2>/dev/null |
			awk -v c="$exact" '{ s += $1; if ($1 > m) m = $1 }
				END { d = c - s; if (d < 0) d = -d; print (s > 0 && d < 2 * m) ? "yes" : "no: sum " s ", count " c ", largest period " m }' >"$T/$f.sum"
		expect_eq "$ev: the periods sum to the exact count ($exact) within a period" "$(cat "$T/$f.sum")" yes
	done
	perf report -i "$T/cy.data" --header-only 2>/dev/null | grep -m1 "name = cycles" >"$T/attr"
	expect_grep "the attr is in frequency mode, 4000 a second" "sample_freq \} = 4000,.* freq = 1" "$T/attr"
	# An event that got no sample keeps its attr in the file, so that readers list it
	# (BR_MISP_EXEC.DIRECT is always 0: the model resolves direct targets at decode).
	record "$T/two.data" -e cycles,BR_MISP_EXEC.DIRECT "$LOOP" loop 1000
	perf report -i "$T/two.data" --header-only 2>/dev/null | grep -c "^# event : name = " >"$T/nattr"
	expect_eq "an event without samples keeps its attr in the file" "$(cat "$T/nattr")" 2
else
	skip_part perf "perf is not installed: the period sums are not checked"
fi

finish
