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

static void put_thread(FILE *f, struct region_thread *t)
{
	size_t nr = t->nr_events;
	char num[16];
	bool any = false;

	for (unsigned id = 0; id < PMC_REGION_MAX && !any; id++)
		any = used(region_slot(t, id));
	if (!any)
		return;
	put_id(f, "thread ", (unsigned)t->tid);
	fputc('\n', f);
	for (unsigned id = 0; id < PMC_REGION_MAX; id++) {
		const uint64_t *s = region_slot(t, id);
		const char *name = pmc__region_name(id, num, sizeof(num));

		if (!used(s) || !name)
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

static int body(const struct region_session *s, struct region_thread *threads, char **out,
		size_t *len)
{
	FILE *f = open_memstream(out, len);

	if (!f)
		return -ENOMEM;
	put_id(f, "process ", (unsigned)getpid());
	fprintf(f, " %zu %" PRIu64 " %" PRIu64 "\n", s->nr_events,
		__atomic_load_n(&s->bad_ids, __ATOMIC_RELAXED),
		__atomic_load_n(&s->failed_reads, __ATOMIC_RELAXED));
	for (size_t e = 0; e < s->nr_events; e++) {
		fputs("event ", f);
		pmc__pct_field(f, s->event_names[e]);
		fputc('\n', f);
	}
	for (struct region_thread *t = threads; t; t = t->next)
		put_thread(f, t);
	fputs("end\n", f);
	return fclose(f) ? -ENOMEM : 0;
}

int pmc__region_record(const struct region_session *s, struct region_thread *threads, char **buf,
		       size_t *len)
{
	char *b = NULL, *rec;
	size_t n = 0;
	int err = body(s, threads, &b, &n), hdr;

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
