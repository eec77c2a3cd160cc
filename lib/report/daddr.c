// SPDX-License-Identifier: MIT
/*
 * Data-address reconstruction, the Pentium 4 paper's data-address profile: decode the
 * sampled instruction (capstone) and evaluate its memory operand with the sampled registers.
 * The registers are those the sample carries (at the interrupt when present, else user):
 * an instruction that overwrites its own base register (mov (%rax),%rax) cannot be undone,
 * and with skid (no :p) the registers may belong to a later instruction.
 */
#include <capstone/capstone.h>
#include <string.h>
#include "report/capstone-api.h"
#include "report/report.h"

/* capstone's x86 register → perf's PERF_REG_X86_* number, or -1. */
static int perf_reg(x86_reg r, bool *is32)
{
	static const struct {
		x86_reg r64, r32;
		int perf;
	} map[] = {
		{X86_REG_RAX, X86_REG_EAX, 0},	 {X86_REG_RBX, X86_REG_EBX, 1},
		{X86_REG_RCX, X86_REG_ECX, 2},	 {X86_REG_RDX, X86_REG_EDX, 3},
		{X86_REG_RSI, X86_REG_ESI, 4},	 {X86_REG_RDI, X86_REG_EDI, 5},
		{X86_REG_RBP, X86_REG_EBP, 6},	 {X86_REG_RSP, X86_REG_ESP, 7},
		{X86_REG_R8, X86_REG_R8D, 16},	 {X86_REG_R9, X86_REG_R9D, 17},
		{X86_REG_R10, X86_REG_R10D, 18}, {X86_REG_R11, X86_REG_R11D, 19},
		{X86_REG_R12, X86_REG_R12D, 20}, {X86_REG_R13, X86_REG_R13D, 21},
		{X86_REG_R14, X86_REG_R14D, 22}, {X86_REG_R15, X86_REG_R15D, 23},
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		if (r == map[i].r64 || r == map[i].r32) {
			*is32 = r == map[i].r32;
			return map[i].perf;
		}
	}
	return -1;
}

/* The sampled value of capstone register r; false when the sample lacks it. */
static bool reg_value(const struct pmc__sample *s, x86_reg r, uint64_t *v)
{
	const uint64_t *regs = s->intr_regs_abi ? s->intr_regs : s->user_regs;
	uint64_t mask = s->intr_regs_abi ? s->intr_regs_mask : s->user_regs_mask;
	bool is32 = false;
	int p = perf_reg(r, &is32);

	if (p < 0 || !regs || !(mask >> p & 1))
		return false;
	*v = regs[__builtin_popcountll(mask & ((1ull << p) - 1))];
	if (is32)
		*v &= 0xffffffffu;
	return true;
}

static bool eval_mem(const cs_insn *insn, const struct pmc__sample *s, uint64_t *daddr)
{
	const cs_x86 *x = &insn->detail->x86;

	for (int i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];
		uint64_t base = 0, index = 0;
		if (op->type != X86_OP_MEM)
			continue;
		/* fs:/gs: bases (TLS) are not in the sampled registers. */
		if (op->mem.segment != X86_REG_INVALID)
			return false;
		if (op->mem.base == X86_REG_RIP)
			base = s->ip + insn->size;
		else if (op->mem.base != X86_REG_INVALID && !reg_value(s, op->mem.base, &base))
			return false;
		if (op->mem.index != X86_REG_INVALID && !reg_value(s, op->mem.index, &index))
			return false;
		*daddr = base + index * (uint64_t)op->mem.scale + (uint64_t)op->mem.disp;
		return true;
	}
	return false;
}

bool pmc__daddr_reconstruct(struct pmc__dso *dso, uint64_t vaddr, const struct pmc__sample *s,
			    uint64_t *daddr)
{
	uint8_t code[16];
	size_t n = pmc__dso_read(dso, vaddr, code, sizeof(code));
	const struct pmc__cs_api *cs = pmc__cs_api();
	cs_insn *insn = NULL;
	csh h;
	bool ok = false;

	if (!n || !cs || cs->open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
		return false;
	cs->option(h, CS_OPT_DETAIL, CS_OPT_ON);
	if (cs->disasm(h, code, n, vaddr, 1, &insn) == 1)
		ok = eval_mem(insn, s, daddr);
	if (insn)
		cs->free(insn, 1);
	cs->close(&h);
	return ok;
}
