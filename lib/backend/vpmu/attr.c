// SPDX-License-Identifier: MIT
/*
 * What of a perf_event_attr the vpmu model can sample (sample.c): the sample fields and
 * registers its records hold, a call chain as the tool's own unwind, and perf's branch filter
 * as the model's LBR_SELECT, with the filters it cannot apply refused and said why.
 */
#include <errno.h>
#include <stdint.h>
#include <pmc/sample.h>
#include "backend/vpmu/sample.h"
#include "backend/vpmu/vpmu.h"
#include "core/log.h"

/* sample_type bits the converter can fill. */
#define VPMU_SAMPLE_TYPES                                                               \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |  \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |        \
	 PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |            \
	 PERF_SAMPLE_CALLCHAIN)
/* The general registers and the segment registers of perf_regs' x86 order. */
#define VPMU_REGS_MASK 0xffffffull
/* Is everything attr asks for something a vpmu sample holds? */
int pmc__vpmu_check_attr(const struct perf_event_attr *a, const char *name)
{
	uint64_t extra = a->sample_type & ~(uint64_t)VPMU_SAMPLE_TYPES;

	if (extra || ((a->sample_regs_user | a->sample_regs_intr) & ~VPMU_REGS_MASK)) {
		pr_warn("vpmu: cannot sample '%s' with sample_type 0x%llx (registers 0x%llx): "
			"vpmu samples hold no %s\n",
			name, (unsigned long long)a->sample_type,
			(unsigned long long)(a->sample_regs_user | a->sample_regs_intr),
			extra & PERF_SAMPLE_PHYS_ADDR ? "physical addresses" : "such field");
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * A call chain by DWARF (a stack copy for the reader to unwind) becomes the tool's own unwind,
 * which already uses the objects' CFI: the attr asks for the chain and no stack copy, and
 * the file says so. Returns the frames the tool must unwind for a, 0 for none.
 */
unsigned pmc__vpmu_callchain_of(struct perf_event_attr *a)
{
	if (a->sample_type & PERF_SAMPLE_STACK_USER) {
		a->sample_type = (a->sample_type & ~(uint64_t)PERF_SAMPLE_STACK_USER) |
				 PERF_SAMPLE_CALLCHAIN;
		a->sample_stack_user = 0;
		a->exclude_callchain_user = 0;
	}
	if (!(a->sample_type & PERF_SAMPLE_CALLCHAIN))
		return 0;
	if (a->exclude_callchain_user) {
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_CALLCHAIN;
		return 0; /* vpmu runs user code only: a chain without user frames is empty */
	}
	return a->sample_max_stack && a->sample_max_stack < VPMU_MAX_CALLCHAIN ? a->sample_max_stack
									       : VPMU_MAX_CALLCHAIN;
}

/*
 * LBR_SELECT bits (a set bit excludes a kind, guide Table 7) for perf's branch filter: the
 * kinds asked for, at the privilege levels asked for (none named: both, as the kernel
 * takes the event's). The model's code all runs at ring 3, so "k" alone records nothing.
 */
uint32_t pmc__vpmu_lbr_select_of(uint64_t bst)
{
	uint32_t keep = 0,
		 all = VPMU_LBR_JCC | VPMU_LBR_NEAR_REL_CALL | VPMU_LBR_NEAR_IND_CALL |
		       VPMU_LBR_NEAR_RET | VPMU_LBR_NEAR_IND_JMP | VPMU_LBR_NEAR_REL_JMP,
		 sel;
	uint64_t priv = bst & (PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL);

	if (bst & PERF_SAMPLE_BRANCH_ANY_CALL)
		keep |= VPMU_LBR_NEAR_REL_CALL | VPMU_LBR_NEAR_IND_CALL;
	if (bst & PERF_SAMPLE_BRANCH_CALL)
		keep |= VPMU_LBR_NEAR_REL_CALL;
	if (bst & PERF_SAMPLE_BRANCH_IND_CALL)
		keep |= VPMU_LBR_NEAR_IND_CALL;
	if (bst & PERF_SAMPLE_BRANCH_ANY_RETURN)
		keep |= VPMU_LBR_NEAR_RET;
	if (bst & PERF_SAMPLE_BRANCH_COND)
		keep |= VPMU_LBR_JCC;
	if (bst & PERF_SAMPLE_BRANCH_IND_JUMP)
		keep |= VPMU_LBR_NEAR_IND_JMP;
	sel = bst & PERF_SAMPLE_BRANCH_ANY || !keep ? 0 : (all | VPMU_LBR_FAR_BRANCH) & ~keep;
	if (priv == PERF_SAMPLE_BRANCH_USER)
		sel |= VPMU_LBR_CPL_EQ_0;
	else if (priv == PERF_SAMPLE_BRANCH_KERNEL)
		sel |= VPMU_LBR_CPL_NEQ_0;
	return sel;
}

/*
 * Filters the model's LBR cannot apply, with why: it has the Core i7 guide's LBR_SELECT
 * (Table 7), no transactional memory, no call-stack mode, no hypervisor level.
 */
static const struct {
	uint64_t bit;
	const char *why;
} lbr_refused[] = {
	{PERF_SAMPLE_BRANCH_IN_TX, "the model has no transactional memory (TSX)"},
	{PERF_SAMPLE_BRANCH_ABORT_TX, "the model has no transactional memory (TSX)"},
	{PERF_SAMPLE_BRANCH_CALL_STACK,
	 "the Core i7 LBR has no call-stack mode (LBR_SELECT has no such bit; it came with later "
	 "CPUs)"},
	{PERF_SAMPLE_BRANCH_HV, "the model has no hypervisor level (LBR_SELECT filters ring 0 "
				"and ring 3 only)"},
	{PERF_SAMPLE_BRANCH_PRIV_SAVE, "vpmu's LBR entries carry no privilege level"},
	{PERF_SAMPLE_BRANCH_HW_INDEX, "vpmu's LBR has no hardware index"},
	{PERF_SAMPLE_BRANCH_NO_FLAGS, "vpmu's LBR entries always carry their flags"},
	{PERF_SAMPLE_BRANCH_NO_CYCLES, "vpmu's LBR entries always carry their flags"},
};

int pmc__vpmu_check_branch_filter(int model, const uint32_t *lbr_select,
				  const struct perf_event_attr *a, const char *name)
{
	uint64_t bst = a->branch_sample_type;

	if (!(a->sample_type & PERF_SAMPLE_BRANCH_STACK))
		return 0;
	if (model == VPMU_MODEL_PENTIUM) {
		pr_warn("vpmu: cannot sample the branch stack of '%s': the Pentium model has no "
			"last-branch record (use the Core i7 model)\n",
			name);
		return -EOPNOTSUPP;
	}
	for (size_t i = 0; i < sizeof(lbr_refused) / sizeof(lbr_refused[0]); i++) {
		const char *f = pmc_branch_filter_name(lbr_refused[i].bit);

		if (!(bst & lbr_refused[i].bit))
			continue;
		pr_warn("vpmu: cannot filter the branch stack of '%s' by %s%s%s: %s\n", name,
			f ? "'" : "bit ", f ? f : "", f ? "'" : "", lbr_refused[i].why);
		return -EOPNOTSUPP;
	}
	if (lbr_select && *lbr_select != pmc__vpmu_lbr_select_of(bst)) {
		pr_warn("vpmu: cannot sample '%s' with its own branch filter: the model has one "
			"LBR_SELECT for every counter; give the events the same filter\n",
			name);
		return -EOPNOTSUPP;
	}
	return 0;
}
