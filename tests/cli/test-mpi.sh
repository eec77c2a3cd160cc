#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc under an MPI launcher (docs/mpi.md): launcher detection by its variables, rank tags and
# rank-named files, one run per rank; pmc merge's statistics exact over 4 Open MPI ranks, its
# refusals, and a rank killed with SIGKILL named missing while the others are stopped early.
. "$(dirname "$0")/lib.sh"

TP=syscalls:sys_enter_getppid
[ -r /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id ] ||
	[ -r /sys/kernel/debug/tracing/events/syscalls/sys_enter_getppid/id ] ||
	skip "no syscalls tracepoints (tracefs not mounted or no CONFIG_FTRACE_SYSCALLS)"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
# The variables of every launcher, unset: each check sets its own.
LVARS=(-u OMPI_COMM_WORLD_RANK -u OMPI_COMM_WORLD_SIZE -u OMPI_COMM_WORLD_LOCAL_RANK
	-u PMI_RANK -u PMI_SIZE -u MPI_LOCALRANKID -u PMIX_RANK -u SLURM_PROCID -u SLURM_NTASKS
	-u SLURM_LOCALID)
tag() { json "$1" 'j["provenance"]["mpi"]["launcher"], j["provenance"]["mpi"]["rank"], j["provenance"]["mpi"]["size"], j["provenance"]["mpi"]["local_rank"]'; }

# ---- launcher detection, by each launcher's variables ----
env "${LVARS[@]}" PMI_RANK=2 PMI_SIZE=12 MPI_LOCALRANKID=0 \
	"$PMC" stat -e $TP --format json -o "$T/h.json" -- "$PROGS/getppid-loop" 10 2>/dev/null
expect_eq "MPICH: rank padded to the width of size-1" "$(ls "$T" | grep '^h\.json')" "h.json.rank-02"
expect_eq "MPICH: tags" "$(tag "$T/h.json.rank-02")" "mpich 2 12 0"
expect_eq "MPICH: one run, no warm-up" "$(json "$T/h.json.rank-02" 'j["provenance"]["warmup"], j["provenance"]["repetitions"], j["events"][0]["values"]')" \
	"False 1 [10.0]"
expect_eq "host and CPUs tagged" "$(json "$T/h.json.rank-02" 'j["provenance"]["mpi"]["host"] == "'"$(hostname)"'", len(j["provenance"]["mpi"]["cpus"]) > 0')" \
	"True True"
env "${LVARS[@]}" PMIX_RANK=5 SLURM_NTASKS=8 \
	"$PMC" stat -e $TP --format json -o "$T/x-%r-%h-%p.json" -- "$PROGS/getppid-loop" 10 2>/dev/null
f=$(ls "$T" | grep '^x-')
expect_eq "PMIx: %r %h %p" "$(echo "$f" | sed -E 's/-[0-9]+\.json$/-PID.json/')" "x-5-$(hostname)-PID.json"
expect_eq "PMIx: tags" "$(tag "$T/$f")" "pmix 5 8 -1"
env "${LVARS[@]}" SLURM_PROCID=3 SLURM_NTASKS=4 SLURM_LOCALID=1 \
	"$PMC" stat -e $TP --format json -o "$T/s.json" -- "$PROGS/getppid-loop" 10 2>/dev/null
expect_eq "Slurm: tags" "$(tag "$T/s.json.rank-3")" "slurm 3 4 1"
env "${LVARS[@]}" OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2 PMIX_RANK=1 \
	"$PMC" stat -e $TP --format json -o "$T/o.json" -- "$PROGS/getppid-loop" 10 2>/dev/null
expect_eq "Open MPI before PMIx" "$(tag "$T/o.json.rank-1")" "openmpi 1 2 -1"
env "${LVARS[@]}" OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2 \
	"$PMC" stat -e $TP --format csv -o "$T/o.csv" -- "$PROGS/getppid-loop" 10 2>/dev/null
expect_eq "CSV: the tags' table first" "$(head -2 "$T/o.csv.rank-1" | cut -d, -f1-4 | tr '\n' ' ')" \
	"launcher,rank,size,local_rank openmpi,1,2,-1 "
env "${LVARS[@]}" OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2 \
	"$PMC" stat -e $TP -o "$T/o.txt" -- "$PROGS/getppid-loop" 10 2>/dev/null
expect_grep "text: the tags' line" "^# rank 1 of 2 \(openmpi\), local rank -1, host " "$T/o.txt.rank-1"
env "${LVARS[@]}" "$PMC" stat -e $TP --format json -o "$T/plain.json" -- "$PROGS/getppid-loop" 10 2>/dev/null
expect_eq "outside a launcher: no tags, -o as given" "$(json "$T/plain.json" '"mpi" in j["provenance"]')" False

env "${LVARS[@]}" PMI_RANK=1 PMI_SIZE=2 "$PMC" stat -e $TP -o /dev/null -- true 2>"$T/null.err"
expect_eq "-o /dev/null stays /dev/null" "$?:$(ls /dev/null.rank-* 2>/dev/null)" "0:"
env "${LVARS[@]}" PMI_RANK=0 PMI_SIZE=2 "$PMC" stat -r 3 -e $TP -- true 2>"$T/r.err"
expect_eq "-r 3 under a launcher: usage error" $? 2
expect_grep "-r refused with the alternatives" "runs once.*run mpirun 3 times and merge the files \(pmc merge\), or drop -r" "$T/r.err"
env "${LVARS[@]}" PMI_RANK=0 PMI_SIZE=2 "$PMC" stat --backend=vpmu \
	-e branches,branch-misses,cache-misses,cache-references,L1-dcache-loads,L1-dcache-load-misses -- true 2>"$T/p.err"
expect_eq "several passes under a launcher: usage error" $? 2
expect_grep "passes refused with the alternatives" "passes.*runs once.*--multiplex.*pmc merge" "$T/p.err"
env "${LVARS[@]}" PMI_RANK=0 "$PMC" stat -e $TP -o "$T/bad-%q" -- true 2>"$T/q.err"
expect_eq "-o with %q: usage error" $? 2
expect_grep "-o's sequences named" "%r is the rank, %h the host, %p the pid" "$T/q.err"

# pmc record in a rank: its own perf.data, named as pmc stat's files are.
(cd "$T" && env "${LVARS[@]}" PMI_RANK=1 PMI_SIZE=2 "$PMC" record -q -e task-clock -- "$PROGS/getppid-loop" 10 2>/dev/null)
expect_eq "pmc record: perf.data named for the rank" "$(cd "$T" && ls perf.data*)" "perf.data.rank-1"
env "${LVARS[@]}" SLURM_PROCID=12 SLURM_NTASKS=16 "$PMC" record -q -e task-clock -o "$T/rec-%r.data" -- "$PROGS/getppid-loop" 10 2>/dev/null
expect_eq "pmc record: -o with %r" "$(cd "$T" && ls rec-*)" "rec-12.data"

# ---- pmc merge over files made here (no launcher needed) ----
for r in 0 1; do
	env "${LVARS[@]}" OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=3 \
		"$PMC" stat -e $TP --format json -o "$T/m.json" -- "$PROGS/getppid-loop" $((100 * (r + 1))) 2>/dev/null
done
"$PMC" merge --format csv "$T/m.json.rank-1" "$T/m.json.rank-0" >"$T/m.csv"
expect_eq "CSV: exact row, ranks in order" "$(grep '^event,' "$T/m.csv")" \
	"event,,\"$TP\",2,300,100,0,200,1,150,70.7106781186548,0.471404520791032,1.33333333333333,0.75,110,125,150,175,190,0:100;1:200"
"$PMC" merge "$T/m.json.rank-0" "$T/m.json.rank-1" >"$T/m.txt"
# The reader walks the text (lib/merge/scan.c): members in another order, names escaped,
# compact or indented, the same JSON gives the same merge.
for r in 0 1; do
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); j=dict(reversed(list(j.items()))); json.dump(j, open(sys.argv[2], "w"), ensure_ascii=True, separators=(",", ":"))' \
		"$T/m.json.rank-$r" "$T/rev.json.rank-$r"
done
"$PMC" merge --format csv "$T/rev.json.rank-1" "$T/rev.json.rank-0" | sed 's/rev\.json/m.json/g' >"$T/rev.csv"
expect_eq "members reordered, compact: the same merge" "$(cmp "$T/m.csv" "$T/rev.csv" && echo same)" same
printf '{"schema": "pmc-stat/1", "schema": "pmc-stat/1"}' >"$T/dup.json"
"$PMC" merge "$T/dup.json" >/dev/null 2>"$T/dupkey.err"
expect_eq "a member twice: refused" $? 1
expect_grep "a member twice: where" "dup\.json: not a pmc stat results file .*: not JSON \(at byte 34\)" "$T/dupkey.err"
expect_grep "text: missing rank named" "^# missing ranks: 2$" "$T/m.txt"
expect_grep "text: exact row" "^$TP 300 100 0 200 1 150 70.7107 0.4714 1.3333 0.7500 110 125 150 175 190$" "$T/m.txt"
env "${LVARS[@]}" OMPI_COMM_WORLD_RANK=2 OMPI_COMM_WORLD_SIZE=3 \
	"$PMC" stat -e $TP,task-clock --format json -o "$T/other.json" -- true 2>/dev/null
"$PMC" merge "$T/m.json.rank-0" "$T/other.json.rank-2" >/dev/null 2>"$T/ev.err"
expect_eq "other events: refused" $? 1
expect_grep "other events: both files named" "other\.json\.rank-2 counts 2 events, .*m\.json\.rank-0 counts 1" "$T/ev.err"
"$PMC" merge "$T/m.json.rank-0" "$T/m.json.rank-0" >/dev/null 2>"$T/dup.err"
expect_eq "a rank twice: refused" $? 1
expect_grep "a rank twice: named" "m\.json\.rank-0 and .*m\.json\.rank-0 are both rank 0" "$T/dup.err"
"$PMC" merge "$T/m.json.rank-0" "$T/plain.json" >/dev/null 2>"$T/tag.err"
expect_eq "tagged and untagged: refused" $? 1
"$PMC" merge "$T/o.txt.rank-1" >/dev/null 2>"$T/fmt.err"
expect_eq "a text results file: refused" $? 1
expect_grep "a text results file: named" "o\.txt\.rank-1: not a pmc stat results file in JSON" "$T/fmt.err"
"$PMC" merge >/dev/null 2>&1
expect_eq "no files: usage error" $? 2

# ---- 4 Open MPI ranks ----
command -v mpirun >/dev/null ||
	{ skip_part no-openmpi "mpirun not found (scripts/setup.sh --test installs Open MPI)"; finish; exit; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# A hung job fails the test instead of hanging it: every mpirun is bounded.
mpi() { timeout -k 5 "${MPI_LIMIT_S:-60}" mpirun -n 4 --oversubscribe "$@"; }

# Exactness: rank r makes (r+1)*1000 getppid calls in region "work".
mpi "$PMC" stat -e $TP --format json -o "$T/ex.json" -- "$PROGS/region-ranks" 2>"$T/ex.err"
expect_eq "4 ranks: mpirun ends well" $? 0
expect_eq "4 ranks: one file each" "$(ls "$T" | grep -c '^ex\.json\.rank-[0-3]$')" 4
"$PMC" merge --format json -o "$T/ex-merged.json" "$T"/ex.json.rank-*
reg='[e for e in j["regions"] if e["name"] == "work"][0]["events"][0]'
expect_eq "region work: sum, min at rank 0, max at rank 3, mean" \
	"$(json "$T/ex-merged.json" "$reg[\"sum\"], $reg[\"min\"], $reg[\"min_rank\"], $reg[\"max\"], $reg[\"max_rank\"], $reg[\"mean\"]")" \
	"10000.0 1000.0 0 4000.0 3 2500.0"
expect_eq "region work: every rank's value" "$(json "$T/ex-merged.json" "[(r['rank'], r['value']) for r in $reg['ranks']]")" \
	"[(0, 1000.0), (1, 2000.0), (2, 3000.0), (3, 4000.0)]"
# The whole program adds what its start and exit call, the same in each rank.
ev='j["events"][0]'
expect_eq "whole program: min at rank 0, max at rank 3, 3000 apart, sum 4 means" \
	"$(json "$T/ex-merged.json" "$ev[\"min_rank\"], $ev[\"max_rank\"], $ev[\"max\"] - $ev[\"min\"], $ev[\"sum\"] == 4 * $ev[\"mean\"], $ev[\"min\"] >= 1000")" \
	"0 3 3000.0 True True"
expect_eq "JSON: job and ranks" "$(json "$T/ex-merged.json" 'j["launcher"], j["size"], j["nr_ranks"], j["missing_ranks"], [r["provenance"]["mpi"]["rank"] for r in j["ranks"]]')" \
	"openmpi 4 4 [] [0, 1, 2, 3]"

# Rank 3 dies (its pmc stat SIGKILLed) once the others have counted: Open MPI stops them with
# SIGTERM, each still writes its file, marked stopped early, and merge names rank 3 missing.
# Open MPI sends SIGKILL 1 s after its SIGTERM (odls_base_sigkill_timeout, which it waits out
# whole): a loaded machine (sanitizers, parallel suites) may take longer to write, so the test
# gives it 10 s, and the job 120 s.
OMPI_MCA_odls_base_sigkill_timeout=10 MPI_LIMIT_S=120 \
	mpi "$PMC" stat -e $TP --format json -o "$T/k.json" -- "$PROGS/region-ranks" 1000 3 "$T/mark" \
	>/dev/null 2>"$T/k.err"
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && ok "killed rank: mpirun fails, not hangs ($rc)" ||
	fail "killed rank: mpirun exited $rc"
expect_eq "killed rank: the others' files" "$(cd "$T" && ls k.json.rank-* | tr '\n' ' ')" \
	"k.json.rank-0 k.json.rank-1 k.json.rank-2 "
expect_eq "killed rank: the others stopped early" \
	"$(for r in 0 1 2; do json "$T/k.json.rank-$r" 'j["provenance"]["interrupted"], j["provenance"]["stopped_by"]'; done | sort -u)" \
	"True SIGTERM"
"$PMC" merge "$T"/k.json.rank-* >"$T/k.txt"
expect_grep "killed rank: merge names it missing" "^# missing ranks: 3$" "$T/k.txt"
expect_grep "killed rank: merge names the ranks stopped early" \
	"^# stopped early: rank 0 \(SIGTERM\), rank 1 \(SIGTERM\), rank 2 \(SIGTERM\)$" "$T/k.txt"
expect_grep "killed rank: the rest merged exactly" "^work $TP 6000 1000 0 3000 2 2000 " "$T/k.txt"
# ---- libpmc-mpi ----
if [ ! -x "$PROGS/mpi-ranks" ]; then
	skip_part no-openmpi "libpmc-mpi not built (mpi.h not found)"
	finish
	exit
fi
# Open MPI's own allocations outlive MPI_Finalize: LeakSanitizer would report them as ours.
MPIENV=(-x ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 -x PMC_EVENTS=$TP)
# Alone (PMC_EVENTS, PMC_OUTPUT): each rank's own file, and rank 0's gather merged.
mpi "${MPIENV[@]}" -x PMC_OUTPUT="$T/lib.json" "$PROGS/mpi-ranks" >"$T/lib.out" 2>&1
expect_eq "libpmc-mpi: the job ends well" $? 0
expect_eq "libpmc-mpi: each rank's file and the merged one" "$(cd "$T" && ls lib.json.* | tr '\n' ' ')" \
	"lib.json.merged lib.json.rank-0 lib.json.rank-1 lib.json.rank-2 lib.json.rank-3 "
expect_eq "libpmc-mpi: 7 MPI_Allreduce in each rank, counted exactly" \
	"$(for r in 0 1 2 3; do json "$T/lib.json.rank-$r" '[(x["name"], x["entered"], x["exited"]) for x in j["regions"] if x["name"].startswith("MPI_")]'; done | sort -u)" \
	"[('MPI_Allreduce', 7, 7)]"
reg='[e for e in j["regions"] if e["name"] == "work"][0]["events"][0]'
expect_eq "libpmc-mpi: rank 0's gather, region work exact" \
	"$(json "$T/lib.json.merged" "j['nr_ranks'], $reg['sum'], $reg['min'], $reg['min_rank'], $reg['max'], $reg['max_rank'], $reg['mean']")" \
	"4 10000.0 1000.0 0 4000.0 3 2500.0"
"$PMC" merge "$T"/lib.json.rank-* >"$T/lib-merge.txt"
expect_grep "libpmc-mpi: pmc merge of the ranks' own files, exact" "^work $TP 10000 1000 0 4000 3 2500 " "$T/lib-merge.txt"
# libpmc-mpi alone catches SIGTERM: rank 3 dies of SIGKILL while the others wait for it in
# MPI_Barrier; Open MPI stops them with SIGTERM and each writes its own file, stopped early
# (the same 10 s before Open MPI's SIGKILL as above).
OMPI_MCA_odls_base_sigkill_timeout=10 MPI_LIMIT_S=120 \
	mpi "${MPIENV[@]}" -x PMC_OUTPUT="$T/lk.json" "$PROGS/mpi-ranks" 1000 7 3 "$T/lmark" >"$T/lk.out" 2>&1
rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && ok "libpmc-mpi, killed rank: mpirun fails, not hangs ($rc)" ||
	fail "libpmc-mpi, killed rank: mpirun exited $rc"
expect_eq "libpmc-mpi, killed rank: the others' files" "$(cd "$T" && ls lk.json.* | tr '\n' ' ')" \
	"lk.json.rank-0 lk.json.rank-1 lk.json.rank-2 "
expect_eq "libpmc-mpi, killed rank: the others stopped early, in MPI_Barrier" \
	"$(for r in 0 1 2; do json "$T/lk.json.rank-$r" 'j["provenance"]["interrupted"], j["provenance"]["stopped_by"], [(x["name"], x["entered"], x["exited"]) for x in j["regions"]]'; done | sort -u)" \
	"True SIGTERM [('work', 1, 1), ('MPI_Barrier', 1, 0)]"
"$PMC" merge "$T"/lk.json.rank-* >"$T/lk.txt"
expect_grep "libpmc-mpi, killed rank: merge names it missing" "^# missing ranks: 3$" "$T/lk.txt"
expect_grep "libpmc-mpi, killed rank: merge names the ranks stopped early" \
	"^# stopped early: rank 0 \(SIGTERM\), rank 1 \(SIGTERM\), rank 2 \(SIGTERM\)$" "$T/lk.txt"
expect_grep "libpmc-mpi, killed rank: the rest merged exactly" "^work $TP 6000 1000 0 3000 2 2000 " "$T/lk.txt"
# Fortran: Open MPI's mpif.h bindings call the C PMPI_ functions, past the C wrappers; the
# Fortran wrappers (mpi/fortran.c) count the calls, MPI_FINALIZE gathers to rank 0.
if [ -x "$PROGS/mpi-fortran" ]; then
	mpi "${MPIENV[@]}" -x PMC_OUTPUT="$T/f.json" "$PROGS/mpi-fortran" >"$T/f.out" 2>&1
	expect_eq "Fortran: the job ends well" $? 0
	expect_eq "Fortran: 7 MPI_ALLREDUCE in each rank, counted exactly" \
		"$(for r in 0 1 2 3; do json "$T/f.json.rank-$r" '[(x["name"], x["entered"], x["exited"]) for x in j["regions"]]'; done | sort -u)" \
		"[('MPI_Allreduce', 7, 7)]"
	expect_eq "Fortran: MPI_FINALIZE's gather to rank 0" \
		"$(json "$T/f.json.merged" 'j["nr_ranks"], [r["name"] for r in j["regions"]]')" "4 ['MPI_Allreduce']"
else
	skip_part no-gfortran "mpi-fortran not built (gfortran not found; scripts/setup.sh --test installs it)"
fi
# Preloaded into a program that does not link it.
mpi "${MPIENV[@]}" -x PMC_OUTPUT="$T/pre.json" -x LD_PRELOAD="$BUILD/mpi/libpmc-mpi.so" \
	"$PROGS/mpi-ranks-plain" >"$T/pre.out" 2>&1
expect_eq "LD_PRELOAD: 7 MPI_Allreduce" "$(json "$T/pre.json.rank-3" '[(x["name"], x["entered"]) for x in j["regions"] if x["name"].startswith("MPI_")]')" \
	"[('MPI_Allreduce', 7)]"
# Under pmc stat: MPI calls are regions beside the program's own.
mpi -x ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0 \
	"$PMC" stat -e $TP --format json -o "$T/st.json" -- "$PROGS/mpi-ranks" 2>"$T/st.err"
expect_eq "under pmc stat: MPI_Allreduce and work regions" \
	"$(json "$T/st.json.rank-1" 'sorted((x["name"], x["entered"], x["events"][0]["mean"]) for x in j["regions"])')" \
	"[('MPI_Allreduce', 7, 0.0), ('work', 1, 2000.0)]"
expect_eq "pkg-config --libs libpmc-mpi" \
	"$(PKG_CONFIG_PATH="$BUILD/mpi:$BUILD/lib" pkg-config --libs libpmc-mpi | grep -o -- '-lpmc[-a-z]*' | tr '\n' ' ')" \
	"-lpmc-mpi -lpmc "
finish
