#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc validate: the vpmu model's verdicts (exact on the loop, in-line and REP kernels), the
# perf backend's kernel-side events (tracepoints exact, a mem: breakpoint without :u a bias of
# its known value), a kernel that crashes, unknown names, and results files whole or absent.
. "$(dirname "$0")/lib.sh"

KERNELS=$(dirname "$PMC")/libexec/pmc/pmc-kernels
export PMC_TRUST=$T/trust.json # never this user's own trust file
[ -x "$KERNELS" ] || fail "the kernels program is not built at $KERNELS"
# class KERNEL EVENT FILE: the class of a row of a --format json results file.
class() { json "$3" "[r['class'] for r in j['results'] if r['kernel'] == '$1' and r['event'] == '$2'][0]"; }

# --- the kernels' predictions: one source, their own --list ---
"$KERNELS" --list >"$T/list"
expect_grep "loop predicts 4 instructions per iteration" $'^loop\tinstructions\t4\t-\t' "$T/list"
expect_grep "syscall predicts no start-up getppid" $'^syscall\tsyscalls:sys_enter_getppid\t1\t0\t.*\tany$' "$T/list"

# --- vpmu: every exact event of the loop, in-line and REP kernels comes out exact ---
"$PMC" doctor >"$T/doctor" 2>&1
if grep -qE '^ *\[ok\] vpmu' "$T/doctor"; then
	"$PMC" validate --backend=vpmu --quick --kernel loop,inline,rep --format json -o "$T/v.json" 2>"$T/verr"
	expect_eq "vpmu validate exits 0" "$?" 0
	expect_eq "vpmu: 16 rows" "$(json "$T/v.json" 'len(j["results"])')" 16
	for k in loop inline rep; do
		for e in instructions branches BR_INST_RETIRED.CONDITIONAL MEM_INST_RETIRED.LOADS MEM_INST_RETIRED.STORES; do
			expect_eq "vpmu $k $e" "$(class $k $e "$T/v.json")" exact
		done
	done
	expect_eq "vpmu loop factor of instructions" \
		"$(json "$T/v.json" "[r['factor'] for r in j['results'] if r['kernel'] == 'loop' and r['event'] == 'instructions'][0]")" 1.0
	expect_eq "vpmu: the loop's loads counted with vpmu's Nehalem name, the quantity named" \
		"$(json "$T/v.json" "[r.get('quantity') for r in j['results'] if r['kernel'] == 'loop' and r['event'] == 'MEM_INST_RETIRED.LOADS'][0]")" loads
	expect_eq "vpmu: a generic event has no quantity" \
		"$(json "$T/v.json" "[r.get('quantity') for r in j['results'] if r['kernel'] == 'loop' and r['event'] == 'instructions'][0]")" None
	expect_eq "schema" "$(json "$T/v.json" 'j["schema"]')" pmc-validate/1
	expect_eq "provenance names the backend" "$(json "$T/v.json" 'j["provenance"]["backend"]')" vpmu
	expect_eq "3 sizes x 1 repetition" "$(json "$T/v.json" 'len(j["results"][0]["points"])')" 3
	# the kernel-side events are refused by vpmu with their reason, and the run goes on
	"$PMC" validate --backend=vpmu --quick --kernel syscall,inline -e syscalls:sys_enter_getppid,instructions >"$T/vt" 2>&1
	expect_grep "vpmu: tracepoints unsupported" '^syscalls:sys_enter_getppid +syscall .*unsupported' "$T/vt"
	expect_grep "vpmu: the reason" 'tracepoints are kernel events' "$T/vt"
	expect_grep "vpmu: the rest goes on" '^instructions +inline .* exact$' "$T/vt"
	# the array kernels: the cache misses each pass predicts, from the model's own geometry
	"$PMC" validate --backend=vpmu --quick --trust=none --kernel array-l1,array-l2,array-llc,array-mem \
		--format json -o "$T/a.json" 2>/dev/null
	expect_eq "vpmu array kernels exit 0" "$?" 0
	expect_eq "vpmu array: 24 rows" "$(json "$T/a.json" 'len(j["results"])')" 24
	expect_eq "vpmu array: every row exact" "$(json "$T/a.json" 'sorted(set(r["class"] for r in j["results"]))')" "['exact']"
	per() { json "$3" "[r['per_size'] for r in j['results'] if r['kernel'] == '$1' and r['event'] == '$2'][0]"; }
	# nehalem: 32 KiB 8-way L1D, 256 KiB 8-way L2, 8 MiB 16-way LLC, 64-byte lines
	expect_eq "array-l1 (16 KiB): no L1 miss a pass" "$(per array-l1 L1-dcache-load-misses "$T/a.json")" 0.0
	expect_eq "array-l2 (128 KiB): an L1 miss a line" "$(per array-l2 L1-dcache-load-misses "$T/a.json")" 2048.0
	expect_eq "array-l2: no L2 miss" "$(per array-l2 L2_RQSTS.LD_MISS "$T/a.json")" 0.0
	expect_eq "array-llc (4 MiB): an L2 miss a line" "$(per array-llc L2_RQSTS.LD_MISS "$T/a.json")" 65536.0
	expect_eq "array-llc: no LLC miss" "$(per array-llc LLC-load-misses "$T/a.json")" 0.0
	expect_eq "array-mem (16 MiB): an LLC miss a line" "$(per array-mem LLC-load-misses "$T/a.json")" 262144.0
	expect_eq "array-mem: cache-misses too" "$(per array-mem cache-misses "$T/a.json")" 262144.0
	expect_eq "array-mem: 3 passes, 3 x 262144 LLC misses and the start-up's" \
		"$(json "$T/a.json" "[r['points'][2]['predicted'] for r in j['results'] if r['kernel'] == 'array-mem' and r['event'] == 'LLC-load-misses'][0]")" 786432.0
	# another preset, its own geometry: pentium4 (8 KiB 4-way L1D, 512 KiB L2, no LLC)
	PMC_VPMU_PRESET=pentium4 "$PMC" validate --backend=vpmu --quick --trust=none --kernel array-l2,array-mem \
		--format json -o "$T/a4.json" 2>/dev/null
	expect_eq "pentium4 array: 8 rows (no LLC)" "$(json "$T/a4.json" 'len(j["results"])')" 8
	expect_eq "pentium4 array: every row exact" "$(json "$T/a4.json" 'sorted(set(r["class"] for r in j["results"]))')" "['exact']"
	expect_eq "pentium4 array-l2 (256 KiB): an L1 miss a line" "$(per array-l2 L1-dcache-load-misses "$T/a4.json")" 4096.0
	expect_eq "pentium4 array-mem (1 MiB): an L2 miss a line" "$(per array-mem L2_RQSTS.LD_MISS "$T/a4.json")" 16384.0
else
	fail "the vpmu tool is not available (it is part of the build): $(grep vpmu "$T/doctor")"
fi

# --- perf: tracepoints exact; breakpoints exact with :u, N + a constant without (counting the
# kernel level too: --user --kernel-level, as pmc stat --user --kernel) ---
"$PMC" validate --user --kernel-level --kernel syscall,breakpoint -r 2 --format json -o "$T/p.json" 2>"$T/perr"
expect_eq "perf validate exits 0" "$?" 0
expect_eq "tracepoint exact" "$(class syscall syscalls:sys_enter_getppid "$T/p.json")" exact
expect_eq "tracepoint exit exact" "$(class syscall syscalls:sys_exit_getppid "$T/p.json")" exact
if have_breakpoints; then
	BP=$(awk -F'\t' '$1 == "breakpoint" && $2 ~ /:w$/ { print $2 }' "$T/list")
	expect_eq "breakpoint :u exact" "$(class breakpoint "$BP:u" "$T/p.json")" exact
	expect_eq "breakpoint without :u: bias" "$(class breakpoint "$BP" "$T/p.json")" bias
	# the bias is what pmc stat counts beyond the N writes, counted here on its own
	"$PMC" stat --user --kernel -e "$BP" -x, "$KERNELS" breakpoint 1000 2>"$T/s.csv" >/dev/null
	extra=$(($(awk -F, 'NF > 2 { print $1 }' "$T/s.csv" | tail -1) - 1000))
	expect_eq "its value" "$(json "$T/p.json" "int([r['bias'] for r in j['results'] if r['event'] == '$BP'][0])")" "$extra"
	[ "$extra" -gt 0 ] || fail "pmc stat counts no kernel-side write to the watched variable here"
else
	skip_part no-hw-breakpoints "this VM's hardware breakpoints do not fire"
fi

# --- the trust file: written by validate, read back by pmc stat ---
expect_eq "trust file schema" "$(json "$T/trust.json" 'j["schema"]')" pmc-trust/1
expect_eq "trust file: the syscall kernel's perf verdict" \
	"$(json "$T/trust.json" "[e['class'] for e in j['entries'] if e['backend'] == 'perf' and e['event'] == 'syscalls:sys_enter_getppid'][0]")" exact
"$PMC" stat --user --kernel -e syscalls:sys_enter_getppid "$KERNELS" syscall 10 >/dev/null 2>"$T/s1"
expect_grep "pmc stat marks an exact count" 'syscalls:sys_enter_getppid +\[exact\]$' "$T/s1"
"$PMC" stat --user --kernel -e syscalls:sys_enter_getppid,page-faults -o "$T/s1.json" --format json "$KERNELS" syscall 10 2>/dev/null
expect_eq "and in its JSON" "$(json "$T/s1.json" '[e.get("trust") for e in j["events"]]')" "['exact', 'not validated here']"
expect_eq "the file it read" "$(json "$T/s1.json" 'j["trust"]["file"]')" "$T/trust.json"
# validated counting user and kernel level: the verdict is the levels counted, however they
# were asked for (a tracepoint counts where it happens without :u); user level alone is not
"$PMC" stat -e syscalls:sys_enter_getppid "$KERNELS" syscall 10 >/dev/null 2>"$T/s2"
expect_grep "the same levels at pmc stat's default" 'sys_enter_getppid +\[exact\]$' "$T/s2"
"$PMC" stat -e syscalls:sys_enter_getppid:u "$KERNELS" syscall 10 >/dev/null 2>"$T/s2"
expect_grep "another privilege level is not validated" 'sys_enter_getppid:u +\[not validated here\]$' "$T/s2"
expect_eq "the trust file keeps the levels counted" \
	"$(json "$T/trust.json" "sorted(set(e['priv'] & 3 for e in j['entries'] if e['backend'] == 'perf' and e['event'].startswith('syscalls:')))")" "[3]"
if have_breakpoints; then
	"$PMC" stat --user --kernel -e "$BP,$BP:u" "$KERNELS" breakpoint 10 >/dev/null 2>"$T/s3"
	expect_grep "pmc stat marks the bias" "$BP +\\[bias \\+$extra per run\\]$" "$T/s3"
	expect_grep "and :u exact" "$BP:u +\\[exact\\]$" "$T/s3"
	# --subtract-overhead takes the validated bias for whole-program counts, and says so
	"$PMC" stat --user --kernel --subtract-overhead -e "$BP" "$KERNELS" breakpoint 10 >/dev/null 2>"$T/s6"
	expect_grep "the validated bias is subtracted" "^ +10 +$BP +\\[bias \\+$extra per run, subtracted\\]$" "$T/s6"
	"$PMC" stat --user --kernel --subtract-overhead -e "$BP" -o "$T/s6.json" --format json "$KERNELS" breakpoint 10 2>/dev/null
	expect_eq "JSON: which overhead was subtracted" "$(json "$T/s6.json" '(j["events"][0]["mean"], j["events"][0]["overhead_from"])')" "(10.0, 'validated bias')"
fi
"$PMC" stat --trust=none --user --kernel -e syscalls:sys_enter_getppid "$KERNELS" syscall 10 >/dev/null 2>"$T/s4"
expect_no_grep "--trust=none: no marks" '\[exact\]' "$T/s4"
# a file from another kernel is ignored, with a note
python3 -c "import json,sys; j=json.load(open(sys.argv[1])); j['machine']['kernel']='2.6.32'; json.dump(j, open(sys.argv[2], 'w'))" "$T/trust.json" "$T/stale.json"
"$PMC" stat --trust="$T/stale.json" --user --kernel -e syscalls:sys_enter_getppid "$KERNELS" syscall 10 >/dev/null 2>"$T/s5"
expect_grep "a stale file is said" "trust file .*stale.json is not used: it was made under another kernel \\(2\\.6\\.32\\)" "$T/s5"
expect_no_grep "and not used" '\[exact\]' "$T/s5"
# bad rows: each refused with what is wrong, and the counts are printed unmarked
bad() { # NAME JSON PATTERN
	printf '%s' "$2" >"$T/bad.json"
	"$PMC" stat --trust="$T/bad.json" -e syscalls:sys_enter_getppid "$KERNELS" syscall 3 >/dev/null 2>"$T/b"
	expect_eq "bad trust file ($1): pmc stat still counts" "$?" 0
	expect_grep "bad trust file ($1): said" "$3" "$T/b"
}
M='"machine": {"cpu_model": "x", "kernel": "y"}'
bad "not JSON" '{"schema": ' 'is not used: line 1'
bad "other schema" '{"schema": "pmc-stat/1"}' 'not a trust file'
bad "newer version" '{"schema": "pmc-trust/2"}' 'its schema is pmc-trust/2; this pmc reads pmc-trust/1'
bad "no entries" '{"schema": "pmc-trust/1", '"$M"'}' 'no "entries" array'
bad "unknown class" '{"schema": "pmc-trust/1", '"$M"', "entries": [{"backend": "perf", "kernel": "k", "event": "e", "priv": 3, "class": "great"}]}' 'entries\[0\] \(e\): "class" is none of'
bad "bad priv" '{"schema": "pmc-trust/1", '"$M"', "entries": [{"backend": "perf", "kernel": "k", "event": "e", "priv": 9, "class": "exact"}]}' '"priv" is not a privilege mask'
bad "huge bias" '{"schema": "pmc-trust/1", '"$M"', "entries": [{"backend": "perf", "kernel": "k", "event": "e", "priv": 3, "class": "bias", "bias": 1e300}]}' 'bias is not a number from'
bad "no event" '{"schema": "pmc-trust/1", '"$M"', "entries": [{"backend": "perf", "kernel": "k", "priv": 3, "class": "exact"}]}' 'entries\[0\]: no "event" string'

# --- a kernel that crashes: its rows say so, the other kernels run ---
cat >"$T/crashing" <<EOS
#!/bin/sh
[ "\$1" = syscall ] && kill -SEGV \$\$
exec "$KERNELS" "\$@"
EOS
chmod +x "$T/crashing"
PMC_KERNELS=$T/crashing "$PMC" validate --quick --kernel syscall,breakpoint -e syscalls:sys_enter_getppid,"$(awk -F'\t' '$1 == "breakpoint" { print $2; exit }' "$T/list")" >"$T/c" 2>&1
expect_eq "a crash is no failure of validate" "$?" 0
expect_grep "the crash is said" 'the kernel crashed at size 1000 \(signal 11' "$T/c"
expect_grep "its row is unknown" '^syscalls:sys_enter_getppid +syscall .* unknown$' "$T/c"
expect_grep "the other kernel ran" '^mem:0x[0-9a-f]+:w:u +breakpoint .*1\.000000' "$T/c"

# --- unknown names: exit 2 with the closest ones ---
"$PMC" validate --kernel lop >"$T/o" 2>"$T/e"
expect_eq "unknown kernel exits 2" "$?" 2
expect_grep "did you mean loop" "did you mean 'loop'" "$T/e"
"$PMC" validate -e instrutcions >"$T/o" 2>"$T/e"
expect_eq "unknown event exits 2" "$?" 2
expect_grep "did you mean instructions" "did you mean 'instructions'" "$T/e"
"$PMC" validate -r 0 >"$T/o" 2>"$T/e"
expect_eq "-r 0 exits 2" "$?" 2
PMC_KERNELS=/nonexistent/pmc-kernels "$PMC" validate >"$T/o" 2>"$T/e"
expect_eq "no kernels program exits 1" "$?" 1
expect_grep "says what to do" 'set PMC_KERNELS' "$T/e"

# --- the other classes, from kernels that do not do what they predict ---
# twice the calls predicted: multiplicative, factor 2; noise around N: random
cat >"$T/twice" <<EOS
#!/bin/sh
[ "\$1" = syscall ] && exec "$KERNELS" syscall \$((\$2 * 2))
exec "$KERNELS" "\$@"
EOS
# (noise of mean 0 from a fixed sequence, so that the verdict is the same on every run)
echo 0 >"$T/k"
cat >"$T/noisy" <<EOS
#!/bin/bash
[ "\$1" = syscall ] || exec "$KERNELS" "\$@"
k=\$((\$(cat "$T/k") + 1)); echo \$k >"$T/k"
exec "$KERNELS" syscall \$((\$2 + (k * 7919) % 201 - 100))
EOS
chmod +x "$T/twice" "$T/noisy"
PMC_KERNELS=$T/twice "$PMC" validate --trust=none --kernel syscall -e syscalls:sys_enter_getppid --format json -o "$T/m.json" 2>/dev/null
expect_eq "twice the calls: multiplicative" "$(class syscall syscalls:sys_enter_getppid "$T/m.json")" multiplicative
expect_eq "its factor" "$(json "$T/m.json" 'j["results"][0]["factor"]')" 2.0
PMC_KERNELS=$T/noisy "$PMC" validate --trust=none --kernel syscall -e syscalls:sys_enter_getppid -r 5 --format json -o "$T/r.json" 2>/dev/null
expect_eq "noise around N: random" "$(class syscall syscalls:sys_enter_getppid "$T/r.json")" random
expect_eq "with residuals" "$(json "$T/r.json" 'j["results"][0]["residual_sd"] > 10')" True

# --- the array kernels are vpmu's; on perf, chase-* with no prediction between the levels ---
"$PMC" validate --kernel array-l1 >"$T/o" 2>"$T/e"
expect_eq "array-l1 on perf exits 2" "$?" 2
expect_grep "says whose it is" "kernel 'array-l1' is not for the perf backend" "$T/e"
expect_grep "chase-mem predicts a miss a line of 4 x the LLC" $'^chase-mem\tLLC-load-misses\t[1-9][0-9]*\t-\t.*\tperf$' "$T/list"
expect_grep "chase-l2 predicts nothing" $'^chase-l2\tL1-dcache-load-misses\t-\t' "$T/list"
# a row predicting nothing is counted and reported, not classified
cat >"$T/between" <<EOS
#!/bin/sh
[ "\$1" = --list ] && { printf 'mid\tsyscalls:sys_enter_getppid\t-\t-\t1000,2000\t1000,2000\tperf\n'; exit 0; }
exec "$KERNELS" syscall "\$2"
EOS
chmod +x "$T/between"
PMC_KERNELS=$T/between "$PMC" validate --trust=none -r 1 --kernel mid --format json -o "$T/mid.json" 2>/dev/null
expect_eq "no prediction: unknown" "$(class mid syscalls:sys_enter_getppid "$T/mid.json")" unknown
# (the shell's own getppid may add one)
expect_eq "with its counts" "$(json "$T/mid.json" '(j["results"][0]["reported_mean"] - 2000 in (0, 1), j["results"][0]["reported_mean"] == j["results"][0]["points"][1]["reported"], j["results"][0]["predicted"], j["results"][0]["points"][0]["size"])')" "(True, True, None, 1000.0)"
expect_eq "and why" "$(json "$T/mid.json" 'j["results"][0]["why"]')" "nothing is predicted between the cache levels: reported, not classified"

# --- interrupts counted alongside, and residuals that follow them ---
expect_eq "perf: interrupts from the tracepoints" "$(json "$T/p.json" 'j["interrupts"]')" \
	"irq:irq_handler_entry + irq_vectors:local_timer_entry"
expect_eq "perf: each point's interrupts" "$(json "$T/p.json" 'all("interrupts" in p and "page_faults" in p for r in j["results"] if r["class"] != "unsupported" for p in r["points"])')" True
expect_eq "vpmu: no interrupts in the model" "$(json "$T/v.json" 'j["interrupts"]')" None
# a kernel whose count is the timer's own interrupts, spinning longer at each run: its
# residuals follow the interrupts counted alongside
echo 0 >"$T/spin"
cat >"$T/spinning" <<EOS
#!/bin/bash
[ "\$1" = --list ] && { printf 'spin\tirq_vectors:local_timer_entry\t0\t-\t1,2\t1,2\tperf\n'; exit 0; }
k=\$((\$(cat "$T/spin") + 1)); echo \$k >"$T/spin"
exec "$KERNELS" loop \$((k * 200000000))
EOS
chmod +x "$T/spinning"
PMC_KERNELS=$T/spinning "$PMC" validate --trust=none --kernel spin -r 2 --format json -o "$T/irq.json" 2>/dev/null
expect_eq "spinning: the residuals follow the interrupts" "$(json "$T/irq.json" 'j["results"][0]["interrupts_r"] > 0.9')" True
expect_grep "and the row says so" '"note": "the residuals follow (the page faults \(r = -?[01]\.[0-9]+\) and )?the interrupts, irq:irq_handler_entry \+ irq_vectors:local_timer_entry \(r = [01]\.[0-9]+\) counted alongside"' "$T/irq.json"

# --- --trust=none writes no trust file ---
PMC_TRUST=$T/none-trust.json "$PMC" validate --quick --kernel syscall --trust=none >/dev/null 2>&1
expect_eq "--trust=none exits 0" "$?" 0
[ ! -e "$T/none-trust.json" ] && ok "--trust=none: no trust file" || fail "--trust=none wrote a trust file"

# --- results files whole or absent ---
"$PMC" validate --quick --kernel syscall --format csv -o "$T/v.csv" 2>/dev/null
expect_eq "csv header" "$(head -1 "$T/v.csv" | cut -d, -f1-3)" "event,kernel,per_size"
expect_eq "csv rows" "$(grep -c '^syscalls:' "$T/v.csv")" 2
"$PMC" validate --quick --kernel lop -o "$T/none.json" 2>/dev/null
[ ! -e "$T/none.json" ] && ok "no file after a usage error" || fail "a file was left after a usage error"
finish
