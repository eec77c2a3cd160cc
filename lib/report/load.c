// SPDX-License-Identifier: MIT
/* pmc report: replaying side-band records (mmap, comm, fork) and the load loop. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "core/log.h"
#include "report/report.h"

static bool is_kernel_path(const char *p)
{
	return !strncmp(p, "[kernel.kallsyms]", 17) || !strncmp(p, "[guest.kernel", 13);
}

/* A record's string at body offset off, bounded by the record (the file may lie). */
static const char *rec_string(const struct perf_event_header *h, size_t off, char *buf, size_t len)
{
	size_t n;

	if (off >= h->size)
		return NULL;
	n = strnlen((const char *)h + off, h->size - off);
	if (n >= len)
		n = len - 1;
	memcpy(buf, (const char *)h + off, n);
	buf[n] = 0;
	return buf;
}

static uint64_t rec_time(struct pmc_report *r, const struct pmc__perfdata_event *ev)
{
	struct pmc__sample id;

	/* Without sample_id_all the record has no trailer: its last bytes are its own. */
	if (!r->attrs[ev->attr_idx].sample_id_all)
		return 0;
	if (pmc__sample_decode_id(&r->attrs[ev->attr_idx], ev->hdr, ev->hdr->size, &id))
		return 0;
	return id.time;
}

static int on_mmap(struct pmc_report *r, const struct pmc__perfdata_event *ev, bool v2)
{
	const struct perf_event_header *h = ev->hdr;
	struct {
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
	} b;
	char path[4096];

	if (h->size < 8 + sizeof(b) + (v2 ? 32 : 0))
		return 0;
	memcpy(&b, (const uint8_t *)h + 8, sizeof(b));
	if (!rec_string(h, 8 + sizeof(b) + (v2 ? 32 : 0), path, sizeof(path)))
		return 0;
	/* Kernel addresses are resolved with kallsyms, not through maps. */
	if (b.pid == UINT32_MAX || is_kernel_path(path))
		return 0;
	return pmc__machine_mmap(r->m, b.pid, b.start, b.len, b.pgoff, path, rec_time(r, ev));
}

static int on_comm(struct pmc_report *r, const struct pmc__perfdata_event *ev)
{
	uint32_t ids[2];
	char comm[64];

	if (ev->hdr->size < 16 || !rec_string(ev->hdr, 16, comm, sizeof(comm)))
		return 0;
	memcpy(ids, (const uint8_t *)ev->hdr + 8, 8);
	return pmc__machine_comm(r->m, ids[0], ids[1], comm,
				 ev->hdr->misc & PERF_RECORD_MISC_COMM_EXEC, rec_time(r, ev));
}

static int on_fork(struct pmc_report *r, const struct pmc__perfdata_event *ev)
{
	uint32_t v[4];

	if (ev->hdr->size < 24)
		return 0;
	memcpy(v, (const uint8_t *)ev->hdr + 8, 16);
	return pmc__machine_fork(r->m, v[0], v[1], v[2], v[3]);
}

int pmc__report_on_event(struct pmc_report *r, const struct pmc__perfdata_event *ev,
			 struct pmc_file_error *err)
{
	const struct perf_event_header *h = ev->hdr;
	uint64_t lost;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		return pmc__report_on_sample(r, ev, err);
	case PERF_RECORD_MMAP:
		return on_mmap(r, ev, false);
	case PERF_RECORD_MMAP2:
		return on_mmap(r, ev, true);
	case PERF_RECORD_COMM:
		return on_comm(r, ev);
	case PERF_RECORD_FORK:
		return on_fork(r, ev);
	case PERF_RECORD_LOST:
		if (h->size >= 24) {
			memcpy(&lost, (const uint8_t *)h + 16, 8);
			r->nr_lost += lost;
		}
		return 0;
	case PERF_RECORD_LOST_SAMPLES:
		if (h->size >= 16) {
			memcpy(&lost, (const uint8_t *)h + 8, 8);
			r->nr_lost += lost;
		}
		return 0;
	}
	return 0;
}

static int copy_attrs(struct pmc_report *r)
{
	size_t n = pmc__perfdata_nr_attrs(r->f);

	r->nr_attrs = n;
	r->attrs = calloc(n, sizeof(*r->attrs));
	r->names = calloc(n, sizeof(*r->names));
	r->total_period = calloc(n, sizeof(uint64_t));
	r->total_samples = calloc(n, sizeof(uint64_t));
	if (!r->attrs || !r->names || !r->total_period || !r->total_samples)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const char *name = pmc__perfdata_attr_name(r->f, i);
		r->attrs[i] = *pmc__perfdata_attr(r->f, i);
		r->names[i] = strdup(name && *name ? name : pmc__report_event_name(&r->attrs[i]));
		if (!r->names[i])
			return -ENOMEM;
		r->has_callchains |= !!(r->attrs[i].sample_type & PERF_SAMPLE_CALLCHAIN);
		r->ordered |= !!(r->attrs[i].sample_type & PERF_SAMPLE_TIME);
	}
	return 0;
}

int pmc_report__load(struct pmc_report *r, const char *path, struct pmc_file_error *err)
{
	struct pmc__perfdata_event ev;
	int ret;

	if (r->f)
		return -EBUSY;
	ret = pmc__perfdata_open(path, &r->f, err);
	if (ret)
		return ret;
	r->path = strdup(path);
	ret = r->path ? copy_attrs(r) : -ENOMEM;
	if (!ret && pmc__perfdata_was_interrupted(r->f))
		pr_warn("%s: the recording was interrupted; reading the data up to the end\n",
			path);
	/*
	 * Records replay in time order when they have times: per-CPU ring buffers are drained
	 * one after another, so a file holds a thread's samples before its FORK, COMM or MMAP.
	 */
	while (!ret && (ret = pmc__perfdata_next(r->f, &ev, err)) == 1)
		ret = r->ordered ? pmc__report_queue(r, &ev, err)
				 : pmc__report_on_event(r, &ev, err);
	if (!ret && r->ordered)
		ret = pmc__report_drain(r, err);
	if (ret == -ENOMEM && err) {
		err->offset = 0;
		snprintf(err->msg, sizeof(err->msg), "out of memory");
	}
	pmc__report_sort(r);
	return ret;
}
