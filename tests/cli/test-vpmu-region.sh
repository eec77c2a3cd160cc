#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regions under vpmu: pmc stat --backend=vpmu runs a program with region markers under the
# tool; the program's libpmc counts itself by client requests (the SELF path), so every
# entry of a region around a loop of N x 4 instructions and N branches is exact.
. "$(dirname "$0")/lib.sh"

require_vpmu
R="$PROGS/vpmu-region"
[ -x "$R" ] || skip "$R is not built"

# region_json OUT E N: pmc stat with regions into a JSON file.
region_json() {
	"$PMC" stat --backend=vpmu -e instructions,branches --format json -o "$1" "$R" "$2" "$3" \
		2>>"$T/err"
}
# per_entry FILE EVENT: the region's value per entry of EVENT.
per_entry() {
	json "$1" "[int(e['per_entry']) for e in j['regions'][0]['events'] if e['name'] == '$2'][0]"
}

region_json "$T/n1.json" 10 1000
region_json "$T/n3.json" 10 3000
expect_eq "region entered and exited" \
	"$(json "$T/n1.json" '[(r["name"], r["entered"], r["exited"]) for r in j["regions"]]')" \
	"[('loop', 10, 10)]"
expect_eq "every entry alike" "$(json "$T/n1.json" 'j["regions"][0]["entries_vary"]')" False
expect_eq "instructions per entry: 2000 more iterations, 8000 more" \
	$(($(per_entry "$T/n3.json" instructions) - $(per_entry "$T/n1.json" instructions))) 8000
expect_eq "branches per entry: 2000 more iterations, 2000 more" \
	$(($(per_entry "$T/n3.json" branches) - $(per_entry "$T/n1.json" branches))) 2000
# What is left over N x (4, 1) is the markers' own constant cost, the same in both runs.
c1=$(($(per_entry "$T/n1.json" instructions) - 4000))
c3=$(($(per_entry "$T/n3.json" instructions) - 12000))
expect_eq "marker cost is constant" "$c1" "$c3"
expect_eq "marker cost is small" "$([ "$c1" -ge 0 ] && [ "$c1" -lt 1000 ] && echo yes)" yes
expect_eq "region total = entries x per entry" \
	"$(json "$T/n1.json" 'int(j["regions"][0]["events"][0]["mean"])')" \
	$((10 * $(per_entry "$T/n1.json" instructions)))

# The text output shows the region with its value per entry (one event: one read less per
# marker than with two, so its own constant).
"$PMC" stat --backend=vpmu -e instructions "$R" 5 1000 >"$T/text" 2>&1
expect_grep "text: region header" "^  Region loop, entered 5 times and exited 5 times" "$T/text"
expect_grep "text: per entry" "^    instructions: [0-9]+ \+/- 0\.0 \(0\.000%\) \[4[0-9]{3}\.0 per entry\]" "$T/text"
one=$(sed -n 's/^    instructions: .*\[\([0-9]*\)\.0 per entry\]$/\1/p' "$T/text")

# Standalone under the tool: PMC_BACKEND=vpmu and PMC_EVENTS, results printed at exit; the
# same per-entry value as under pmc stat.
VGLIB="${BUILD:-}/vglib"
if [ -x "$VGLIB/vpmu-amd64-linux" ]; then
	PMC_BACKEND=vpmu PMC_EVENTS=instructions VALGRIND_LIB="$VGLIB" \
		valgrind -q --tool=vpmu "$R" 3 1000 >/dev/null 2>"$T/alone"
	expect_grep "standalone: region" "Region loop, entered 3 times" "$T/alone"
	expect_grep "standalone: exact per entry" "instructions: [0-9]+ \[$one(\.0)?\]" "$T/alone"
fi

# Runner protocol 2: the events of a pass reach the command through its results descriptor,
# so its environment, which decides where its stack lies, is the same in every pass and
# whatever the events. Under vpmu an event's count then does not change with the others.
SIX=branches,branch-misses,cache-references,cache-misses,L1-dcache-loads,L1-dcache-load-misses
"$PMC" stat --backend=vpmu --no-warmup -e instructions -o "$T/e1.res" env >"$T/env1" 2>>"$T/err"
"$PMC" stat --backend=vpmu --no-warmup -e $SIX -o "$T/e6.res" env >"$T/env6" 2>>"$T/err"
expect_eq "vpmu: one environment in both passes and for other events" \
	"$(cat "$T/env1" "$T/env1")" "$(cat "$T/env6")"
W="${BUILD:-}/tests/vpmu/t-work"
if [ -x "$W" ]; then
	# i_state EVENTS: L1D_CACHE_LD.I_STATE on t-work, counted beside EVENTS.
	i_state() {
		"$PMC" stat --backend=vpmu --no-warmup -e "$1" --format csv -o "$T/w.csv" "$W" \
			>/dev/null 2>>"$T/err"
		awk -F, '$1 == "\"L1D_CACHE_LD.I_STATE\"" { split($13, v, ";"); print v[1] }' \
			"$T/w.csv"
	}
	FOUR=L1D_CACHE_ST.I_STATE,L1D_CACHE_LD.I_STATE,L1D_CACHE_LD.MESI,ITLB_MISSES.WALK_COMPLETED
	alone=$(i_state L1D_CACHE_LD.I_STATE)
	expect_eq "vpmu: a count alone is the count beside three others ($alone)" \
		"$(i_state $FOUR)" "${alone:-no count}"
fi

# The pid is no input of the count: a program's own libpmc writes its pid and tid in its
# region record and finds its own folder through /proc/self/exe, and both once took a step
# per digit of the pid (under load pids wrap, so repetitions of one run differed). In a pid
# namespace the same run, at a 1- or 2-digit pid and at a 4-digit one, counts the same.
if unshare -pf --mount-proc true 2>/dev/null; then
	cat >"$T/ns.sh" <<EOF
"$PMC" stat --backend=vpmu --no-warmup -e instructions -x, -o "$T/ns1" "$PROGS/vpmu-region" 10 1000
i=0; while [ \$i -lt 1100 ]; do /bin/true; i=\$((i + 1)); done
sh -c 'echo \$\$' >"$T/ns-pid"
"$PMC" stat --backend=vpmu --no-warmup -e instructions -x, -o "$T/ns2" "$PROGS/vpmu-region" 10 1000
EOF
	unshare -pf --mount-proc bash "$T/ns.sh" 2>"$T/ns.err"
	expect_eq "pid namespace: the later pid has 4 digits" "$(wc -c <"$T/ns-pid")" 5
	c1=$(grep -m1 ',instructions' "$T/ns1" | cut -d, -f1)
	expect_eq "vpmu: the count at a pid of 4 digits is the one at 1 or 2 ($c1)" \
		"$(grep -m1 ',instructions' "$T/ns2" | cut -d, -f1)" "${c1:-no count}"
else
	skip_part no-pid-namespace "cannot make a pid namespace (unshare -pf)"
fi
finish
