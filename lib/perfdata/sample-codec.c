// SPDX-License-Identifier: MIT
/* Decoding and encoding PERF_RECORD_SAMPLE bodies and sample_id trailers by sample_type. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <pmc/error.h>
#include "perfdata/cursor.h"
#include "perfdata/perfdata.h"

static void regs(struct pmc__cursor *c, uint64_t mask, uint64_t *abi, const uint64_t **v,
		 const char *field)
{
	*abi = pmc__cursor_u64(c, field);
	*v = NULL;
	if (*abi)
		*v = pmc__cursor_u64s(c, (uint64_t)__builtin_popcountll(mask), field);
}

static void decode_branches(struct pmc__cursor *c, const struct perf_event_attr *attr,
			    struct pmc__sample *s)
{
	s->nr_branch = pmc__cursor_u64(c, "branch stack size");
	if (attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
		s->branch_hw_idx = pmc__cursor_u64(c, "branch stack hw_idx");
	if (s->nr_branch > (c->len - c->pos) / sizeof(struct perf_branch_entry)) {
		if (!c->fail)
			c->fail = "branch stack entries";
		return;
	}
	s->branch = (const void *)pmc__cursor_u64s(c, s->nr_branch * 3, "branch stack entries");
}

static void decode_stack(struct pmc__cursor *c, struct pmc__sample *s)
{
	const uint8_t *at = NULL;

	s->user_stack_size = pmc__cursor_u64(c, "user stack size");
	if (!s->user_stack_size || c->fail)
		return;
	if (s->user_stack_size > c->len - c->pos) {
		c->fail = "user stack bytes";
		return;
	}
	pmc__cursor_take(c, (size_t)s->user_stack_size, "user stack bytes", &at);
	s->user_stack = at;
	s->user_stack_dyn_size = pmc__cursor_u64(c, "user stack dyn_size");
	if (s->user_stack_dyn_size > s->user_stack_size)
		s->user_stack_dyn_size = s->user_stack_size;
}

/* The fields up to PERIOD, in sample_type order; shared by samples only. */
static void decode_head(struct pmc__cursor *c, uint64_t t, struct pmc__sample *s)
{
	if (t & PERF_SAMPLE_IDENTIFIER)
		s->id = pmc__cursor_u64(c, "identifier");
	if (t & PERF_SAMPLE_IP)
		s->ip = pmc__cursor_u64(c, "ip");
	if (t & PERF_SAMPLE_TID)
		pmc__cursor_u32pair(c, "pid/tid", &s->pid, &s->tid);
	if (t & PERF_SAMPLE_TIME)
		s->time = pmc__cursor_u64(c, "time");
	if (t & PERF_SAMPLE_ADDR)
		s->addr = pmc__cursor_u64(c, "addr");
	if (t & PERF_SAMPLE_ID)
		s->id = pmc__cursor_u64(c, "id");
	if (t & PERF_SAMPLE_STREAM_ID)
		s->stream_id = pmc__cursor_u64(c, "stream_id");
	if (t & PERF_SAMPLE_CPU) {
		uint32_t res;
		pmc__cursor_u32pair(c, "cpu", &s->cpu, &res);
	}
	if (t & PERF_SAMPLE_PERIOD)
		s->period = pmc__cursor_u64(c, "period");
}

static void decode_tail(struct pmc__cursor *c, const struct perf_event_attr *attr,
			struct pmc__sample *s)
{
	uint64_t t = attr->sample_type;

	if (t & PERF_SAMPLE_REGS_USER) {
		s->user_regs_mask = attr->sample_regs_user;
		regs(c, attr->sample_regs_user, &s->user_regs_abi, &s->user_regs, "user regs");
	}
	if (t & PERF_SAMPLE_STACK_USER)
		decode_stack(c, s);
	if (t & PERF_SAMPLE_WEIGHT_TYPE) {
		s->weight = pmc__cursor_u64(c, "weight");
		if (t & PERF_SAMPLE_WEIGHT_STRUCT)
			s->weight &= 0xffffffffu;
	}
	if (t & PERF_SAMPLE_DATA_SRC)
		s->data_src = pmc__cursor_u64(c, "data_src");
	if (t & PERF_SAMPLE_TRANSACTION)
		s->transaction = pmc__cursor_u64(c, "transaction");
	if (t & PERF_SAMPLE_REGS_INTR) {
		s->intr_regs_mask = attr->sample_regs_intr;
		regs(c, attr->sample_regs_intr, &s->intr_regs_abi, &s->intr_regs, "intr regs");
	}
	if (t & PERF_SAMPLE_PHYS_ADDR)
		s->phys_addr = pmc__cursor_u64(c, "phys_addr");
}

/*
 * Zeroes a sample field by field: a report decodes a million samples, and memset of the
 * whole struct compiles to `rep stos`, whose start-up cost was half of decoding a sample.
 * The assert makes whoever adds a field add it here too.
 */
static void clear_sample(struct pmc__sample *s)
{
	_Static_assert(sizeof(struct pmc__sample) == 30 * 8, "clear every field of pmc__sample");
	s->sample_type = s->id = s->ip = s->time = s->addr = s->stream_id = s->period = 0;
	s->misc = 0;
	s->pid = s->tid = s->cpu = s->raw_size = 0;
	s->nr_callchain = s->nr_branch = s->branch_hw_idx = 0;
	s->callchain = NULL;
	s->raw = NULL;
	s->branch = NULL;
	s->user_regs_abi = s->user_regs_mask = s->user_stack_size = s->user_stack_dyn_size = 0;
	s->user_regs = NULL;
	s->user_stack = NULL;
	s->weight = s->data_src = s->transaction = s->phys_addr = 0;
	s->intr_regs_abi = s->intr_regs_mask = 0;
	s->intr_regs = NULL;
}

int pmc__sample_decode(const struct perf_event_attr *attr, const void *rec, size_t len,
		       struct pmc__sample *s, struct pmc_file_error *err)
{
	struct pmc__cursor c = {.p = rec, .len = len, .pos = sizeof(struct perf_event_header)};
	uint64_t t = attr->sample_type;

	clear_sample(s);
	s->sample_type = t;
	s->misc = ((const struct perf_event_header *)rec)->misc;
	s->period = attr->freq ? 0 : attr->sample_period;
	if (t & ~PMC_SAMPLE_KNOWN) {
		if (err) {
			err->offset = 0;
			snprintf(err->msg, sizeof(err->msg),
				 "sample_type 0x%llx has fields pmc cannot decode (0x%llx)",
				 (unsigned long long)t,
				 (unsigned long long)(t & ~PMC_SAMPLE_KNOWN));
		}
		return -PMC_E_FORMAT;
	}
	decode_head(&c, t, s);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		s->nr_callchain = pmc__cursor_u64(&c, "callchain length");
		s->callchain = pmc__cursor_u64s(&c, s->nr_callchain, "callchain entries");
	}
	if (t & PERF_SAMPLE_RAW) {
		const uint8_t *at;
		uint32_t sz = 0;
		if (pmc__cursor_take(&c, 4, "raw size", &at))
			memcpy(&sz, at, 4);
		s->raw_size = sz;
		if (pmc__cursor_take(&c, sz, "raw data", &at))
			s->raw = at;
		/* The raw block and its size are padded to 8 bytes together. */
		c.pos = c.fail ? c.pos : (c.pos + 7) & ~(size_t)7;
		if (c.pos > c.len && !c.fail)
			c.fail = "raw padding";
	}
	if (t & PERF_SAMPLE_BRANCH_STACK)
		decode_branches(&c, attr, s);
	decode_tail(&c, attr, s);
	if (c.fail) {
		if (err) {
			err->offset = c.pos;
			snprintf(err->msg, sizeof(err->msg),
				 "sample record of %zu bytes ends inside its %s field", len,
				 c.fail);
		}
		return -PMC_E_FORMAT;
	}
	return 0;
}
