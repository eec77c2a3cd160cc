// SPDX-License-Identifier: MIT
/*
 * Branch mode (perf report -b, docs/branches.md): each entry of a sample's branch stack
 * (source, target, mispredicted) is one entry of the report, counting 1 as perf's pseudo
 * period does; or, with opts.branch_analysis, the stacks feed the basic-block and trip-count
 * estimates (bblock.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "core/log.h"
#include "report/report.h"

/* LBRs hold 8 to 32 entries; a file claiming more is read up to this many. */
#define MAX_BRANCHES 128

/* Says why the file cannot be read so: in err when the caller gave one, else in the log. */
static int refuse(struct pmc_file_error *err, const char *msg)
{
	if (err) {
		err->offset = 0;
		snprintf(err->msg, sizeof(err->msg), "%s", msg);
	} else {
		pr_err("%s\n", msg);
	}
	return -EINVAL;
}

int pmc__report_branch_check(struct pmc_report *r, struct pmc_file_error *err)
{
	bool any = false, all_kinds = false;

	if (!r->branch_mode)
		return 0;
	for (size_t i = 0; i < r->nr_attrs; i++) {
		bool has = r->attrs[i].sample_type & PERF_SAMPLE_BRANCH_STACK;

		any |= has;
		all_kinds |= has && (r->attrs[i].branch_sample_type & PERF_SAMPLE_BRANCH_ANY);
	}
	if (!any)
		return refuse(err, "its samples carry no branch stack, which branch mode reads: "
				   "record with -b or -j FILTER");
	if (r->opts.branch_analysis && !all_kinds)
		return refuse(err, "basic blocks and trip counts need every taken branch in the "
				   "stacks, and its events filter them: record with -b or -j any");
	return 0;
}

static uint64_t flags_word(const struct perf_branch_entry *b)
{
	uint64_t f;

	memcpy(&f, (const uint8_t *)b + 16, sizeof(f));
	return f;
}

int pmc__report_branch_sample(struct pmc_report *r, size_t attr_idx, const struct pmc__sample *s,
			      const struct rctx *base)
{
	struct rframe from[MAX_BRANCHES], to[MAX_BRANCHES];
	uint8_t kind[MAX_BRANCHES];
	size_t n = s->nr_branch < MAX_BRANCHES ? (size_t)s->nr_branch : MAX_BRANCHES;
	const struct perf_event_attr *a = &r->attrs[attr_idx];

	if (!(a->sample_type & PERF_SAMPLE_BRANCH_STACK) || !n)
		return 0;
	r->total_samples[attr_idx]++;
	if (r->opts.branch_analysis && !(a->branch_sample_type & PERF_SAMPLE_BRANCH_ANY)) {
		r->nr_stacks_filtered++;
		return 0;
	}
	/* The stack is most recent first; the analysis reads it in the order it ran. */
	for (size_t i = 0; i < n; i++) {
		const struct perf_branch_entry *b = &s->branch[i];
		size_t k = r->opts.branch_analysis ? n - 1 - i : i;
		struct rctx c = *base;

		if (!pmc__report_resolve(r, s->pid, b->from, s->time, &from[k]) ||
		    !pmc__report_resolve(r, s->pid, b->to, s->time, &to[k]))
			return -ENOMEM;
		/* perf_branch_entry's type (bits 20-23), when the recording saved it. */
		kind[k] = a->branch_sample_type & PERF_SAMPLE_BRANCH_TYPE_SAVE
				  ? (uint8_t)(flags_word(b) >> 20 & 0xf)
				  : 0;
		if (r->opts.branch_analysis)
			continue;
		c.bfrom = from[k];
		c.bto = to[k];
		c.bflags = flags_word(b);
		if (pmc__report_add_branch(r, attr_idx, &c))
			return -ENOMEM;
	}
	if (!r->opts.branch_analysis)
		return 0;
	r->nr_stacks_used++;
	return pmc__report_bblock_add(r, from, to, kind, n, s->period ? s->period : 1);
}
