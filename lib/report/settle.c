// SPDX-License-Identifier: MIT
/*
 * Whether the kernel had settled each thread's sampling period (docs/accuracy.md, "When a
 * report gives an estimate"): in frequency mode it starts at a period of 1 and changes it at
 * every sample until the rate is met, and while it does, a sample's recorded period need not
 * be the events since the one before (a period of 4,537,639 in a run of 200,000 calls).
 */
#include <errno.h>
#include <stdlib.h>
#include "report/report.h"

/*
 * One thread's periods of one event in one file, cut into runs at each jump (a period more
 * than PMC_ESTIMATE_JUMP times the one before, or less than its inverse). A run of fewer than
 * PMC_ESTIMATE_SETTLED samples is the kernel adapting; in a longer one the period had settled,
 * all but its first sample: the sample at a jump may record the new period, not the events
 * since the one before.
 */
struct stream {
	size_t attr_idx;
	uint64_t last;	    /* the last sample's period */
	uint64_t run_len;   /* samples in the current run */
	uint64_t run_sum;   /* their periods */
	uint64_t run_first; /* the period of its first sample */
	uint64_t adapting;  /* the periods of the ended runs' unsettled samples */
};

/* The periods of a run's samples taken while the kernel adapted the period. */
static uint64_t run_adapting(const struct stream *s)
{
	return s->run_len < PMC_ESTIMATE_SETTLED ? s->run_sum : s->run_first;
}

/* a and b differ by less than the factor PMC_ESTIMATE_JUMP (1.5: 2a < 3b and 2b < 3a). */
static int close_periods(uint64_t a, uint64_t b)
{
	return 2 * (double)a < 3 * (double)b && 2 * (double)b < 3 * (double)a;
}

int pmc__report_settle_add(struct pmc_report *r, size_t attr_idx, uint32_t tid, uint64_t period)
{
	/* The file, the event and the thread: ranks' tids may repeat across files. */
	uint64_t key =
		(uint64_t)(r->nr_files & 0xffff) << 48 | (uint64_t)(attr_idx & 0xffff) << 32 | tid;
	struct stream *s;

	if (!r->attrs[attr_idx].freq)
		return 0; /* fixed periods do not settle: they are set */
	s = pmc__addrmap_get(&r->streams, key);
	if (!s) {
		s = calloc(1, sizeof(*s));
		if (!s || pmc__addrmap_put(&r->streams, key, s)) {
			free(s);
			return -ENOMEM;
		}
		s->attr_idx = attr_idx;
	}
	if (s->run_len && close_periods(period, s->last)) {
		s->run_len++;
	} else {
		s->adapting += s->run_len ? run_adapting(s) : 0;
		s->run_sum = 0;
		s->run_len = 1;
		s->run_first = period;
	}
	s->run_sum += period;
	s->last = period;
	return 0;
}

uint64_t pmc__report_adapting(const struct pmc_report *r, size_t attr_idx)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < r->streams.cap; i++) {
		const struct stream *s = r->streams.vals[i];
		if (!s || s->attr_idx != attr_idx)
			continue;
		sum += s->adapting + run_adapting(s);
	}
	return sum;
}

void pmc__report_settle_free(struct pmc_report *r)
{
	for (size_t i = 0; i < r->streams.cap; i++)
		free(r->streams.vals[i]);
	pmc__addrmap_free(&r->streams);
}
