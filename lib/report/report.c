// SPDX-License-Identifier: MIT
/* pmc report: reading a sample file, replaying its side-band records, symbolizing samples. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "core/log.h"
#include "core/opts.h"
#include "report/report.h"

int pmc_report__new(const struct pmc_report_opts *opts, struct pmc_report **out)
{
	struct pmc_report *r = calloc(1, sizeof(*r));
	struct pmc__symtab_opts so = {0};
	int ret;

	if (!r)
		return -ENOMEM;
	ret = PMC_OPTS_COPY(pmc_report_opts, &r->opts, opts, sz);
	if (!ret)
		ret = pmc__report_parse_keys(r, r->opts.sort);
	so.srclines = r->want_srclines;
	so.kallsyms = r->opts.kallsyms;
	if (!ret)
		ret = pmc__symtab_new(&so, &r->st);
	if (!ret)
		ret = pmc__machine_new(r->st, &r->m);
	if (ret) {
		pmc_report__delete(r);
		return ret;
	}
	*out = r;
	return 0;
}

static void data_address(struct pmc_report *r, const struct pmc__sample *s, struct rctx *c)
{
	const struct pmc__map *map;

	c->data_src = s->data_src;
	c->weight = s->weight;
	if ((s->sample_type & PERF_SAMPLE_ADDR) && s->addr) {
		c->has_daddr = true;
		c->daddr = s->addr;
	} else if (!r->opts.no_reconstruct && !c->frame.kernel &&
		   (s->intr_regs_abi || s->user_regs_abi) &&
		   pmc__daddr_reconstruct(c->frame.dso, c->frame.res->addr, s, &c->daddr)) {
		c->has_daddr = c->reconstructed = true;
		r->nr_reconstructed++;
	}
	if (!c->has_daddr || !(map = pmc__machine_find(r->m, s->pid, c->daddr, s->time)))
		return;
	c->ddso = map->dso;
	c->dres = pmc__dso_resolve(
		map->dso, pmc__dso_offset_to_vaddr(map->dso, c->daddr - map->start + map->pgoff));
	/* An address outside any named object groups under its mapping instead. */
	if (c->dres && c->dres->sym->size == 1 && !strncmp(c->dres->sym->name, "0x", 2))
		c->dres = NULL;
}

int pmc__report_on_sample(struct pmc_report *r, const struct pmc__perfdata_event *ev,
			  struct pmc_file_error *err)
{
	struct rframe frames[MAX_FRAMES];
	struct pmc__sample s;
	struct rctx c = {0};
	size_t n;
	int ret = pmc__perfdata_sample(r->f, ev, &s, err);

	if (ret)
		return ret;
	r->nr_samples++;
	c.thread = r->last_thread;
	if (!c.thread || c.thread->pid != s.pid || c.thread->tid != s.tid)
		c.thread = r->last_thread = pmc__machine_thread(r->m, s.pid, s.tid);
	n = pmc__report_frames(r, &s, frames);
	if (!c.thread || !n)
		return -ENOMEM;
	/* A later COMM renames the thread; this sample keeps the name it ran under. */
	c.comm = c.thread->comm;
	c.frame = frames[0];
	if (r->want_data)
		data_address(r, &s, &c);
	return pmc__report_add(r, ev->attr_idx, &s, frames, n, &c);
}

/* A name for an event a file does not name (no EVENT_DESC): perf's generic names. */
const char *pmc__report_event_name(const struct perf_event_attr *a)
{
	static const char *const sw[] = {
		"cpu-clock",	    "task-clock",	"page-faults",
		"context-switches", "cpu-migrations",	"minor-faults",
		"major-faults",	    "alignment-faults", "emulation-faults"};
	static const char *const hw[] = {"cycles",
					 "instructions",
					 "cache-references",
					 "cache-misses",
					 "branches",
					 "branch-misses",
					 "bus-cycles",
					 "stalled-cycles-frontend",
					 "stalled-cycles-backend",
					 "ref-cycles"};

	if (a->type == PERF_TYPE_SOFTWARE && a->config < sizeof(sw) / sizeof(sw[0]))
		return sw[a->config];
	if (a->type == PERF_TYPE_HARDWARE && a->config < sizeof(hw) / sizeof(hw[0]))
		return hw[a->config];
	return "event";
}

size_t pmc_report__nr_entries(const struct pmc_report *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nr_ents; i++)
		n += pmc__report_visible(r, r->ents[i]);
	return n;
}

/* The entry's keys as text, made once. */
const char *pmc__report_entry_text(struct pmc_report *r, struct hent *e)
{
	char buf[2048];

	if (!e->text) {
		pmc__report_key_text(r, e, buf, sizeof(buf));
		e->text = strdup(buf);
	}
	return e->text ? e->text : "?";
}

int pmc_report__entry(struct pmc_report *r, size_t idx, struct pmc_report_entry *out)
{
	pmc__report_sort(r);
	for (size_t i = 0; i < r->nr_ents; i++) {
		struct hent *e = r->ents[i];
		double total;
		if (!pmc__report_visible(r, e) || idx--)
			continue;
		total = (double)(r->total_period[e->attr_idx] ? r->total_period[e->attr_idx] : 1);
		*out = (struct pmc_report_entry){
			.event_idx = e->attr_idx,
			.key = pmc__report_entry_text(r, e),
			.overhead = 100.0 * (double)e->period / total,
			.children = 100.0 * (double)e->children / total,
			.samples = e->samples,
			.period = e->period,
		};
		return 0;
	}
	return -ERANGE;
}

uint64_t pmc_report__nr_samples(const struct pmc_report *r)
{
	return r->nr_samples;
}

uint64_t pmc_report__nr_lost(const struct pmc_report *r)
{
	return r->nr_lost;
}

uint64_t pmc_report__nr_reconstructed(const struct pmc_report *r)
{
	return r->nr_reconstructed;
}

void pmc_report__delete(struct pmc_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_ents; i++) {
		free(r->ents[i]->callers);
		free(r->ents[i]->text);
		free(r->ents[i]);
	}
	for (size_t i = 0; i < r->folded.cap; i++) {
		struct folded *f = r->folded.vals[i];
		while (f) {
			struct folded *next = f->next;
			free(f);
			f = next;
		}
	}
	for (size_t i = 0; r->names && i < r->nr_attrs; i++)
		free(r->names[i]);
	for (size_t i = 0; i < r->ip_hist.cap; i++)
		free(r->ip_hist.vals[i]);
	pmc__addrmap_free(&r->ip_hist);
	pmc__unwind_free(&r->unwind);
	pmc__report_frames_free(r);
	pmc__report_queue_free(r);
	pmc__addrmap_free(&r->hmap);
	pmc__addrmap_free(&r->folded);
	free(r->ents);
	free(r->names);
	free(r->attrs);
	free(r->total_period);
	free(r->total_samples);
	free(r->path);
	pmc__perfdata_close(r->f);
	pmc__machine_delete(r->m);
	pmc__symtab_delete(r->st);
	free(r);
}
