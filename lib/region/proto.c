// SPDX-License-Identifier: MIT
/* Writing the region record of a process: the line format of docs/regions.md, version 1. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/field.h"
#include "region/proto.h"
#include "region/region.h"

static bool used(const uint64_t *s)
{
	return s[SLOT_ENTERED] || s[SLOT_EXITED];
}

/*
 * A process or thread id as ten decimal digits, leading zeros included, by a loop that runs
 * ten times whatever the id: printf's conversion takes a step per digit, so under vpmu a
 * whole program's count moved with the number of digits of its pid (45 instructions between
 * a 4-digit and a 5-digit pid), and repetitions of one run differed once pids wrapped.
 */
static void id_digits(char b[11], unsigned v)
{
	for (int i = 9; i >= 0; i--, v /= 10)
		b[i] = (char)('0' + v % 10);
	b[10] = '\0';
}

static void put_id(FILE *f, const char *kw, unsigned v)
{
	char b[11];

	id_digits(b, v);
	fputs(kw, f);
	fputs(b, f);
}

static void put_thread(FILE *f, const struct pmc__region_src *src, unsigned tid,
		       const uint64_t *table)
{
	size_t nr = src->nr_events, stride = SLOT_HDR + 2 * nr;
	char num[16];
	bool any = false;

	for (unsigned id = 0; id < PMC_REGION_MAX && !any; id++)
		any = used(table + id * stride);
	if (!any)
		return;
	put_id(f, "thread ", tid);
	fputc('\n', f);
	for (unsigned id = 0; id < PMC_REGION_MAX; id++) {
		const uint64_t *s = table + id * stride;
		const char *name = used(s) ? src->name(src->ctx, id, num, sizeof(num)) : NULL;

		if (!name)
			continue;
		fprintf(f, "region %s%u ", id < PMC_REGION_NUMBERED ? "#" : "", id);
		pmc__pct_field(f, name);
		fprintf(f, " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64, s[SLOT_ENTERED],
			s[SLOT_EXITED], s[SLOT_DEPTH], s[SLOT_UNMATCHED]);
		for (size_t e = 0; e < nr; e++)
			fprintf(f, " %" PRIu64, s[SLOT_HDR + nr + e]);
		fputc('\n', f);
		if (s[SLOT_NAMED])
			fprintf(f, "named %" PRIu64 "\n", s[SLOT_NAMED]);
	}
}

static int body(const struct pmc__region_src *src, char **out, size_t *len)
{
	FILE *f = open_memstream(out, len);
	const uint64_t *table;
	unsigned tid;

	if (!f)
		return -ENOMEM;
	put_id(f, "process ", src->pid);
	fprintf(f, " %zu %" PRIu64 " %" PRIu64 "\n", src->nr_events, src->bad_ids,
		src->failed_reads);
	for (size_t e = 0; e < src->nr_events; e++) {
		fputs("event ", f);
		pmc__pct_field(f, src->events[e]);
		fputc('\n', f);
	}
	while (src->next_thread(src->ctx, &tid, &table))
		put_thread(f, src, tid, table);
	fputs("end\n", f);
	return fclose(f) ? -ENOMEM : 0;
}

int pmc__region_record_of(const struct pmc__region_src *src, char **buf, size_t *len)
{
	char *b = NULL, *rec;
	size_t n = 0;
	int err = body(src, &b, &n), hdr;

	if (err) {
		free(b);
		return err;
	}
	hdr = snprintf(NULL, 0, "%s %d %zu\n", PMC_REGION_MAGIC, PMC_REGION_VERSION, n);
	rec = malloc((size_t)hdr + n + 1);
	if (!rec) {
		free(b);
		return -ENOMEM;
	}
	snprintf(rec, (size_t)hdr + 1, "%s %d %zu\n", PMC_REGION_MAGIC, PMC_REGION_VERSION, n);
	memcpy(rec + hdr, b, n);
	free(b);
	*buf = rec;
	*len = (size_t)hdr + n;
	return 0;
}

static const char *live_name(void *ctx, unsigned id, char *buf, size_t len)
{
	(void)ctx;
	return pmc__region_name(id, buf, len);
}

static bool live_thread(void *ctx, unsigned *tid, const uint64_t **table)
{
	struct region_thread **t = ctx;

	if (!*t)
		return false;
	*tid = (unsigned)(*t)->tid;
	*table = (*t)->table;
	*t = (*t)->next;
	return true;
}

int pmc__region_record(const struct region_session *s, struct region_thread *threads, char **buf,
		       size_t *len)
{
	struct region_thread *cursor = threads;
	struct pmc__region_src src = {
		.pid = (unsigned)getpid(),
		.nr_events = s->nr_events,
		.bad_ids = __atomic_load_n(&s->problems[REGION_BAD_IDS], __ATOMIC_RELAXED),
		.failed_reads =
			__atomic_load_n(&s->problems[REGION_FAILED_READS], __ATOMIC_RELAXED),
		.events = s->event_names,
		.name = live_name,
		.next_thread = live_thread,
		.ctx = &cursor,
	};

	return pmc__region_record_of(&src, buf, len);
}

/*
 * The record a process writes when it starts to count regions: its pid and "started", no
 * event and no region. Made without stdio or allocation, in steps that do not depend on the
 * pid: under vpmu it is part of the program's count.
 */
size_t pmc__region_start_record(char *buf, size_t len)
{
	static const char body_head[] = "process ", body_tail[] = " 0 0 0\nstarted\nend\n";
	char pid[11], hdr[48];
	size_t body = sizeof(body_head) - 1 + 10 + sizeof(body_tail) - 1, h, n;

	id_digits(pid, (unsigned)getpid());
	h = (size_t)snprintf(hdr, sizeof(hdr), "%s %d %zu\n", PMC_REGION_MAGIC, PMC_REGION_VERSION,
			     body);
	n = h + body;
	if (n > len)
		return 0;
	memcpy(buf, hdr, h);
	memcpy(buf + h, body_head, sizeof(body_head) - 1);
	memcpy(buf + h + sizeof(body_head) - 1, pid, 10);
	memcpy(buf + h + sizeof(body_head) - 1 + 10, body_tail, sizeof(body_tail) - 1);
	return n;
}
