#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# pmc record -j/--branch-filter and the branch_type= term: perf's filter names into
# branch_sample_type bits (shown by --dry-run -vv), unknown names refused with exit 2 and the
# closest names, the perf backend's refusal where the PMU has no LBR, and under vpmu each
# filter the model's LBR_SELECT applies (only returns, only conditional branches, nothing at
# ring 0) or refuses (in_tx, stack, hv) with the reason.
. "$(dirname "$0")/lib.sh"

# dry FILTER-ARGS...: the branch_sample_type line of a --dry-run -vv on the perf backend.
dry() {
	"$PMC" record --dry-run -vv -e cpu-clock "$@" -- true 2>&1 |
		sed -n 's/^ *branch_sample_type *//p' | head -1
}
expect_eq "-b: any branch" "$(dry -b)" "ANY"
expect_eq "-j any_call,u" "$(dry -j any_call,u)" "USER|ANY_CALL"
expect_eq "-j u alone means any branch at user level" "$(dry -j u)" "USER|ANY"
expect_eq "-j k,hv alone" "$(dry -j k,hv)" "KERNEL|HV|ANY"
expect_eq "-j names are case-insensitive, as perf's" "$(dry -j COND,Ind_Jmp)" "COND|IND_JUMP"
expect_eq "-j save_type alone adds any" "$(dry -j save_type)" "ANY|TYPE_SAVE"
expect_eq "-j every kind" "$(dry -j any_ret,ind_call,call,no_tx,in_tx,abort_tx,stack,priv)" \
	"ANY_RETURN|IND_CALL|ABORT_TX|IN_TX|NO_TX|CALL_STACK|CALL|PRIV_SAVE"
expect_eq "--branch-filter=cond" "$("$PMC" record --dry-run -vv -e cpu-clock --branch-filter=cond -- true 2>&1 |
	sed -n 's/^ *branch_sample_type *//p')" "COND"
expect_eq "branch_type= term" "$("$PMC" record --dry-run -vv -e 'cpu-clock/branch_type=ind_call/' -- true 2>&1 |
	sed -n 's/^ *branch_sample_type *//p')" "IND_CALL"
expect_eq "branch_type= over -j" "$("$PMC" record --dry-run -vv -e 'cpu-clock/branch_type=cond/' -j any_call -- true 2>&1 |
	sed -n 's/^ *branch_sample_type *//p')" "COND"
"$PMC" record --dry-run -vv -e 'cpu-clock/branch_type=no/' -b -- true >"$T/no" 2>&1
expect_no_grep "branch_type=no drops -b's branch stack" "BRANCH_STACK" "$T/no"
"$PMC" record --dry-run -vv -e 'cpu-clock' -- true >"$T/none" 2>&1
expect_no_grep "no -b, -j: no branch stack" "BRANCH_STACK|branch_sample_type" "$T/none"

# Unknown names: exit 2, the name, the closest known ones.
"$PMC" record -j any_cal -- true 2>"$T/bad1"
expect_eq "unknown filter: exit 2" $? 2
expect_grep "unknown filter named" "unknown branch filter 'any_cal'" "$T/bad1"
expect_grep "the closest name offered" "did you mean 'any_call'\?" "$T/bad1"
"$PMC" record -j u,cnd -- true 2>"$T/bad2"
expect_eq "unknown second filter: exit 2" $? 2
expect_grep "caret under the second name" "^    \^$" "$T/bad2"
expect_grep "cond offered" "did you mean 'cond'\?" "$T/bad2"
"$PMC" record -j 'u,' -- true 2>"$T/bad3"
expect_eq "empty filter name: exit 2" $? 2
"$PMC" record -e 'cpu-clock/branch_type=cal/' -- true 2>"$T/bad4"
expect_eq "unknown branch_type=: exit 2" $? 2
expect_grep "branch_type= names the filter" "branch_type=cal: unknown branch filter 'cal'" "$T/bad4"
expect_grep "call offered" "did you mean 'call'\?" "$T/bad4"
"$PMC" record -b -j any -- true 2>"$T/both"
expect_eq "-b with -j: exit 2" $? 2
expect_grep "-b with -j: said" "-b and -j" "$T/both"
"$PMC" stat -e 'cpu-clock/branch_type=any/' -- true 2>"$T/stat"
expect_eq "pmc stat refuses branch_type=: exit 2" $? 2

# The perf backend: the kernel gets the filter; without an LBR the refusal names it.
"$PMC" record -e cpu-clock -j any_call -o "$T/perf.data" -- true 2>"$T/perf.err"
rc=$?
if [ -e /sys/bus/event_source/devices/cpu/caps/branches ]; then
	# A PMU with an LBR; cpu-clock is a software event, which has no branch stack.
	expect_eq "perf: software event refused" $rc 1
	expect_grep "perf: the LBR's depth in the refusal" "LBR here \([0-9]+ entries\)" "$T/perf.err"
else
	expect_eq "perf without LBR: exit 1" $rc 1
	expect_grep "perf without LBR: said" "has no last-branch record \(LBR\).*--backend=vpmu" "$T/perf.err"
fi

# vpmu: the model's LBR_SELECT.
require_vpmu
B="$PROGS/vpmu-bare"
record() { local out=$1; shift; "$PMC" record -q --backend=vpmu -e BR_INST_EXEC.TAKEN -c 997 -o "$out" "$@" "$B" 2>"$out.log"; }
# kinds FILE: the distinct "from/to" pairs of every entry of every sample, by symbol+offset.
kinds() {
	perf script -i "$1" -F brstacksym 2>/dev/null | tr ' ' '\n' | sed -n 's|^\([^/]*/[^/]*\)/.*|\1|p' | sort -u
}
# samples FILE: how many samples perf script reads (the empty-stack checks are not vacuous).
samples() { perf script -i "$1" -F ip 2>/dev/null | wc -l; }
record "$T/ret.data" -j any_ret
expect_eq "vpmu -j any_ret: records" $? 0
expect_eq "vpmu -j any_ret: only the three returns" "$(kinds "$T/ret.data" | tr '\n' ' ')" \
	"f_big+0x9/_start+0x1c f_mid+0x9/_start+0x17 f_small+0x9/_start+0x12 "
record "$T/cond.data" -j cond,u
expect_eq "vpmu -j cond,u: only the four conditional branches" "$(kinds "$T/cond.data" | tr '\n' ' ')" \
	"_start+0x1f/_start+0xd f_big+0x7/f_big+0x5 f_mid+0x7/f_mid+0x5 f_small+0x7/f_small+0x5 "
record "$T/call.data" -j call
expect_eq "vpmu -j call: only the three calls" "$(kinds "$T/call.data" | tr '\n' ' ')" \
	"_start+0x12/f_mid+0x0 _start+0x17/f_big+0x0 _start+0xd/f_small+0x0 "
record "$T/acall.data" -j any_call
expect_eq "vpmu -j any_call: the three calls" "$(kinds "$T/acall.data" | tr '\n' ' ')" \
	"_start+0x12/f_mid+0x0 _start+0x17/f_big+0x0 _start+0xd/f_small+0x0 "
for f in ind_call ind_jmp; do
	record "$T/ind.data" -j $f
	expect_eq "vpmu -j $f: records" $? 0
	expect_eq "vpmu -j $f: no entry (vpmu-bare has no indirect branch)" "$(kinds "$T/ind.data" | wc -l)" 0
	expect_eq "vpmu -j $f: the samples are there" "$([ "$(samples "$T/ind.data")" -gt 500 ] && echo yes)" yes
done
record "$T/notx.data" -j no_tx
expect_eq "vpmu -j no_tx: every branch (none is in a transaction)" "$(kinds "$T/notx.data" | wc -l)" 10
record "$T/any.data" -j any_call,any_ret,cond
expect_eq "vpmu: kinds combine" "$(kinds "$T/any.data" | wc -l)" 10
record "$T/k.data" -j k
expect_eq "vpmu -j k: records" $? 0
expect_eq "vpmu -j k: no entry (the model's code runs at ring 3)" "$(kinds "$T/k.data" | wc -l)" 0
expect_eq "vpmu -j k: the samples are there" "$([ "$(samples "$T/k.data")" -gt 500 ] && echo yes)" yes
record "$T/term.data" -e 'BR_INST_EXEC.TAKEN/period=997,branch_type=any_ret/'
expect_eq "vpmu branch_type=any_ret: the returns" "$(kinds "$T/term.data" | wc -l)" 3
for f in in_tx abort_tx stack hv priv; do
	record "$T/r.data" -j "$f"
	expect_eq "vpmu refuses -j $f: exit 1" $? 1
	expect_grep "vpmu refuses -j $f: names it and why" "cannot filter the branch stack of 'BR_INST_EXEC.TAKEN' by '$f': .{10,}" "$T/r.data.log"
done
"$PMC" record -q --backend=vpmu -e BR_INST_EXEC.TAKEN/branch_type=cond/ -e INST_RETIRED.ANY/branch_type=call/ \
	-c 997 -o "$T/two.data" "$B" 2>"$T/two.log"
expect_eq "vpmu: two filters at once refused" $? 1
expect_grep "vpmu: one LBR_SELECT said" "one LBR_SELECT" "$T/two.log"
finish
