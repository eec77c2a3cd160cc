#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Per-host events under an MPI launcher (docs/mpi.md, "Per-host events"): RAPL's energy (an
# uncore PMU's event, counted system-wide on the host) is counted by the host's local rank 0
# only; the host's other ranks refuse it with the reason, so pmc merge's sum counts each host
# once, and says so. The recorded two-socket Skylake-SP tree (PMC_SYSFS_ROOT) provides the
# power PMU; no machine here has one, so rank 0's value is written into its file (synthetic).
. "$(dirname "$0")/lib.sh"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
LVARS=(-u OMPI_COMM_WORLD_RANK -u OMPI_COMM_WORLD_SIZE -u OMPI_COMM_WORLD_LOCAL_RANK
	-u PMI_RANK -u PMI_SIZE -u MPI_LOCALRANKID -u PMIX_RANK -u SLURM_PROCID -u SLURM_NTASKS
	-u SLURM_LOCALID)
export PMC_SYSFS_ROOT="$SRC/tests/data/sysfs/pmu-intel-skx-2s"
EV=power/energy-pkg/

# Two ranks on this host (local ranks 0 and 1), and a third alone on its host (local rank 0).
for r in 0 1 2; do
	env "${LVARS[@]}" OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=3 \
		OMPI_COMM_WORLD_LOCAL_RANK=$((r == 1)) \
		"$PMC" stat -e "$EV,task-clock" --format json -o "$T/m.json" -- true >/dev/null 2>"$T/err.$r"
	expect_eq "rank $r: exit 0" "$?" 0
done
ev() { json "$T/m.json.rank-$1" "[e for e in j['events'] if e['name'] == '$EV'][0]$2"; }
expect_eq "every rank's file names the per-host events" \
	"$(for r in 0 1 2; do json "$T/m.json.rank-$r" 'j["provenance"]["mpi"]["per_host_events"]'; done | sort -u)" \
	"['$EV']"
expect_eq "local rank 1: not counted" "$(ev 1 '["supported"]')" False
expect_eq "local rank 1: says which rank counts it" "$(ev 1 '["reason"]')" \
	"a per-host event: counted by local rank 0 of host $(json "$T/m.json.rank-1" 'j["provenance"]["mpi"]["host"]'), not by local rank 1 (rank 1), so that pmc merge counts each host once"
expect_no_grep "local rank 0: tried (the kernel's answer, not the rule's)" "per-host event" \
	<(ev 0 '.get("reason", "")')
expect_eq "task-clock: counted by every rank" "$(for r in 0 1 2; do ev_tc=$(json "$T/m.json.rank-$r" "[e for e in j['events'] if e['name'] == 'task-clock'][0]['supported']"); echo "$ev_tc"; done | sort -u)" True

# What local ranks 0 would have counted: 52.5 J and 40 J (in the PMU's 2^-32 J).
for r in 0 2; do
	python3 - "$T/m.json.rank-$r" $((r == 0 ? 225485783040 : 171798691840)) <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
for e in j["events"]:
    if e["name"] == "power/energy-pkg/":
        e.update(supported=True, values=[float(sys.argv[2])], mean=float(sys.argv[2]))
        e.pop("reason", None)
json.dump(j, open(sys.argv[1], "w"))
PY
done
"$PMC" merge "$T"/m.json.rank-* >"$T/merge.txt"
expect_eq "merge: exit 0" "$?" 0
expect_grep "merge says the per-host events are summed over hosts" \
	"^# per-host events, counted by each host's local rank 0 only \(their sum is over hosts, not over a host's ranks\): $EV\$" "$T/merge.txt"
expect_eq "merge: the sum is the two hosts' (n = 2, not 3)" \
	"$(awk -v e="$EV" '$1 == e { print $2, $3, $4, $5, $6 }' "$T/merge.txt")" \
	"397284474880 171798691840 2 225485783040 0"
"$PMC" merge --format json "$T"/m.json.rank-* >"$T/merge.json"
expect_eq "merge JSON: per_host_events" "$(json "$T/merge.json" 'j["per_host_events"]')" "['$EV']"
expect_eq "merge JSON: n = 2" "$(json "$T/merge.json" "[e['n'] for e in j['events'] if e['name'] == '$EV'][0]")" 2

# Outside a launcher the rule does not apply, and a merge of files without per-host events
# has no such line.
env "${LVARS[@]}" "$PMC" stat -e "$EV" --format json -o "$T/solo.json" -- true >/dev/null 2>&1
expect_no_grep "outside a launcher: not refused by the rule" "per-host event" "$T/solo.json"
env "${LVARS[@]}" OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=1 OMPI_COMM_WORLD_LOCAL_RANK=0 \
	"$PMC" stat -e task-clock --format json -o "$T/t.json" -- true >/dev/null 2>&1
"$PMC" merge "$T/t.json.rank-0" >"$T/t.txt"
expect_no_grep "no per-host events: no line" "per-host" "$T/t.txt"
finish
