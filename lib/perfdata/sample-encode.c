// SPDX-License-Identifier: MIT
/* Encoding a decoded sample back into a PERF_RECORD_SAMPLE, for writers fed by other modules. */
#include <errno.h>
#include <string.h>
#include "perfdata/perfdata.h"

/* An output cursor; overflow is remembered and reported once at the end. */
struct out {
	uint8_t *p;
	size_t cap, pos;
	bool overflow;
};

static void put(struct out *o, const void *v, size_t n)
{
	if (o->overflow || n > o->cap - o->pos) {
		o->overflow = true;
		return;
	}
	memcpy(o->p + o->pos, v, n);
	o->pos += n;
}

static void put64(struct out *o, uint64_t v)
{
	put(o, &v, 8);
}

static void put32x2(struct out *o, uint32_t a, uint32_t b)
{
	put(o, &a, 4);
	put(o, &b, 4);
}

static int put_regs(struct out *o, uint64_t mask, uint64_t abi, const uint64_t *v)
{
	int n = __builtin_popcountll(mask);

	put64(o, abi);
	if (!abi)
		return 0;
	if (!v && n)
		return -EINVAL;
	put(o, v, (size_t)n * 8);
	return 0;
}

static void put_head(struct out *o, uint64_t t, const struct pmc__sample *s)
{
	if (t & PERF_SAMPLE_IDENTIFIER)
		put64(o, s->id);
	if (t & PERF_SAMPLE_IP)
		put64(o, s->ip);
	if (t & PERF_SAMPLE_TID)
		put32x2(o, s->pid, s->tid);
	if (t & PERF_SAMPLE_TIME)
		put64(o, s->time);
	if (t & PERF_SAMPLE_ADDR)
		put64(o, s->addr);
	if (t & PERF_SAMPLE_ID)
		put64(o, s->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		put64(o, s->stream_id);
	if (t & PERF_SAMPLE_CPU)
		put32x2(o, s->cpu, 0);
	if (t & PERF_SAMPLE_PERIOD)
		put64(o, s->period);
}

static int put_middle(struct out *o, const struct perf_event_attr *attr,
		      const struct pmc__sample *s)
{
	uint64_t t = attr->sample_type;
	static const uint8_t zero[8];

	if (t & PERF_SAMPLE_CALLCHAIN) {
		if (s->nr_callchain && !s->callchain)
			return -EINVAL;
		put64(o, s->nr_callchain);
		put(o, s->callchain, (size_t)s->nr_callchain * 8);
	}
	if (t & PERF_SAMPLE_RAW) {
		uint32_t sz = s->raw_size;
		put(o, &sz, 4);
		put(o, s->raw, sz);
		put(o, zero, (8 - ((4 + sz) & 7)) & 7);
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		if (s->nr_branch && !s->branch)
			return -EINVAL;
		put64(o, s->nr_branch);
		if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			put64(o, s->branch_hw_idx);
		put(o, s->branch, (size_t)s->nr_branch * sizeof(struct perf_branch_entry));
	}
	return 0;
}

static int put_tail(struct out *o, const struct perf_event_attr *attr, const struct pmc__sample *s)
{
	uint64_t t = attr->sample_type;

	if ((t & PERF_SAMPLE_REGS_USER) &&
	    put_regs(o, attr->sample_regs_user, s->user_regs_abi, s->user_regs))
		return -EINVAL;
	if (t & PERF_SAMPLE_STACK_USER) {
		put64(o, s->user_stack_size);
		if (s->user_stack_size) {
			if (!s->user_stack)
				return -EINVAL;
			put(o, s->user_stack, (size_t)s->user_stack_size);
			put64(o, s->user_stack_dyn_size);
		}
	}
	if (t & PERF_SAMPLE_WEIGHT_TYPE)
		put64(o, s->weight);
	if (t & PERF_SAMPLE_DATA_SRC)
		put64(o, s->data_src);
	if (t & PERF_SAMPLE_TRANSACTION)
		put64(o, s->transaction);
	if ((t & PERF_SAMPLE_REGS_INTR) &&
	    put_regs(o, attr->sample_regs_intr, s->intr_regs_abi, s->intr_regs))
		return -EINVAL;
	if (t & PERF_SAMPLE_PHYS_ADDR)
		put64(o, s->phys_addr);
	return 0;
}

int pmc__sample_encode(const struct perf_event_attr *attr, const struct pmc__sample *s, void *buf,
		       size_t cap)
{
	struct out o = {.p = buf, .cap = cap};
	struct perf_event_header h = {.type = PERF_RECORD_SAMPLE, .misc = s->misc};
	int ret;

	if (attr->sample_type & ~PMC_SAMPLE_KNOWN)
		return -EINVAL;
	put(&o, &h, sizeof(h));
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
