// SPDX-License-Identifier: MIT
/* Encoding a decoded sample back into a PERF_RECORD_SAMPLE, for writers fed by other modules. */
#include <errno.h>
#include <string.h>
#include "perfdata/cursor.h"
#include "perfdata/perfdata.h"

static int put_regs(struct pmc__out *o, uint64_t mask, uint64_t abi, const uint64_t *v)
{
	int n = __builtin_popcountll(mask);

	pmc__out_u64(o, abi);
	if (!abi)
		return 0;
	if (!v && n)
		return -EINVAL;
	pmc__out_put(o, v, (size_t)n * 8);
	return 0;
}

static void put_head(struct pmc__out *o, uint64_t t, const struct pmc__sample *s)
{
	if (t & PERF_SAMPLE_IDENTIFIER)
		pmc__out_u64(o, s->id);
	if (t & PERF_SAMPLE_IP)
		pmc__out_u64(o, s->ip);
	if (t & PERF_SAMPLE_TID)
		pmc__out_u32pair(o, s->pid, s->tid);
	if (t & PERF_SAMPLE_TIME)
		pmc__out_u64(o, s->time);
	if (t & PERF_SAMPLE_ADDR)
		pmc__out_u64(o, s->addr);
	if (t & PERF_SAMPLE_ID)
		pmc__out_u64(o, s->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		pmc__out_u64(o, s->stream_id);
	if (t & PERF_SAMPLE_CPU)
		pmc__out_u32pair(o, s->cpu, 0);
	if (t & PERF_SAMPLE_PERIOD)
		pmc__out_u64(o, s->period);
}

static int put_middle(struct pmc__out *o, const struct perf_event_attr *attr,
		      const struct pmc__sample *s)
{
	uint64_t t = attr->sample_type;
	static const uint8_t zero[8];

	if (t & PERF_SAMPLE_CALLCHAIN) {
		if (s->nr_callchain && !s->callchain)
			return -EINVAL;
		pmc__out_u64(o, s->nr_callchain);
		pmc__out_put(o, s->callchain, (size_t)s->nr_callchain * 8);
	}
	if (t & PERF_SAMPLE_RAW) {
		uint32_t sz = s->raw_size;
		pmc__out_put(o, &sz, 4);
		pmc__out_put(o, s->raw, sz);
		pmc__out_put(o, zero, (8 - ((4 + sz) & 7)) & 7);
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		if (s->nr_branch && !s->branch)
			return -EINVAL;
		pmc__out_u64(o, s->nr_branch);
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			pmc__out_u64(o, s->branch_hw_idx);
		pmc__out_put(o, s->branch, (size_t)s->nr_branch * sizeof(struct perf_branch_entry));
	}
	return 0;
}

static int put_tail(struct pmc__out *o, const struct perf_event_attr *attr,
		    const struct pmc__sample *s)
{
	uint64_t t = attr->sample_type;

	if ((t & PERF_SAMPLE_REGS_USER) &&
	    put_regs(o, attr->sample_regs_user, s->user_regs_abi, s->user_regs))
		return -EINVAL;
	if (t & PERF_SAMPLE_STACK_USER) {
		pmc__out_u64(o, s->user_stack_size);
		if (s->user_stack_size) {
			if (!s->user_stack)
				return -EINVAL;
			pmc__out_put(o, s->user_stack, (size_t)s->user_stack_size);
			pmc__out_u64(o, s->user_stack_dyn_size);
		}
	}
	if (t & PERF_SAMPLE_WEIGHT_TYPE)
		pmc__out_u64(o, s->weight);
	if (t & PERF_SAMPLE_DATA_SRC)
		pmc__out_u64(o, s->data_src);
	if (t & PERF_SAMPLE_TRANSACTION)
		pmc__out_u64(o, s->transaction);
	if ((t & PERF_SAMPLE_REGS_INTR) &&
	    put_regs(o, attr->sample_regs_intr, s->intr_regs_abi, s->intr_regs))
		return -EINVAL;
	if (t & PERF_SAMPLE_PHYS_ADDR)
		pmc__out_u64(o, s->phys_addr);
	return 0;
}

int pmc__sample_encode(const struct perf_event_attr *attr, const struct pmc__sample *s, void *buf,
		       size_t cap)
{
	struct pmc__out o = {.p = buf, .cap = cap};
	struct perf_event_header h = {.type = PERF_RECORD_SAMPLE, .misc = s->misc};
	int ret;

	if (attr->sample_type & ~PMC_SAMPLE_KNOWN)
		return -EINVAL;
	pmc__out_put(&o, &h, sizeof(h));
	put_head(&o, attr->sample_type, s);
	ret = put_middle(&o, attr, s);
	if (!ret)
		ret = put_tail(&o, attr, s);
	if (ret)
		return ret;
	if (o.overflow || o.pos > UINT16_MAX)
		return -ENOSPC;
	h.size = (uint16_t)o.pos;
	memcpy(buf, &h, sizeof(h));
	return (int)o.pos;
}
