// SPDX-License-Identifier: MIT
/* The perf_event_attr of each event pmc record opens: its period, sample fields and call
 * chain from its terms and the options, the terms record refuses, the side-band bits. */
#include <errno.h>
#include <stdlib.h>
#include <pmc/error.h>
#include "core/log.h"
#include "core/opts.h"
#include "event/evsel.h"
#include "record/record.h"

/* x86-64 user registers for DWARF unwinding: ax..ip, flags, cs, ss, r8..r15 (perf's mask). */
#define PMC_REGS_X86_64_ALL 0xff0fffull

#define WROTE(ev, term) ((ev)->cfg.written & 1u << (term))

/* The call chain an event samples: its call-graph= term (docs/events.md), else -g's. */
static enum pmc_call_graph call_graph_of(const struct pmc_evsel *ev,
					 const struct pmc_record_opts *o)
{
	if (!WROTE(ev, PMC_TERM_CALL_GRAPH))
		return o->call_graph;
	return ev->cfg.call_graph == PMC_CG_FP	    ? PMC_CALL_GRAPH_FP
	       : ev->cfg.call_graph == PMC_CG_DWARF ? PMC_CALL_GRAPH_DWARF
						    : PMC_CALL_GRAPH_NONE;
}

/*
 * The event's period= or freq= term, else -c or -F, else perf record's defaults: every hit of
 * a tracepoint (syscalls, kprobes and uprobes are tracepoint events) or breakpoint (period 1,
 * as perf's parser sets for them), 4000 samples a second for the rest (docs/accuracy.md,
 * "Sampling defaults"). In frequency mode the kernel adapts a tracepoint's period too, so the
 * samples of its first calls count nothing reliable.
 */
static void set_period(struct perf_event_attr *a, const struct pmc_evsel *ev,
		       const struct pmc_record_opts *o)
{
	bool every_hit = a->type == PERF_TYPE_TRACEPOINT || a->type == PERF_TYPE_BREAKPOINT;

	if (WROTE(ev, PMC_TERM_PERIOD) || WROTE(ev, PMC_TERM_FREQ))
		return; /* the encoding carries it */
	if (o->period || (!o->freq && every_hit)) {
		a->freq = 0;
		a->sample_period = o->period ? o->period : 1;
	} else {
		a->freq = 1;
		a->sample_freq = o->freq ? o->freq : 4000;
	}
}

static void set_call_graph(struct perf_event_attr *a, const struct pmc_evsel *ev,
			   const struct pmc_record_opts *o)
{
	enum pmc_call_graph cg = call_graph_of(ev, o);
	uint64_t stack = WROTE(ev, PMC_TERM_STACK_SIZE) ? ev->cfg.stack_size : o->stack_bytes;

	if (cg != PMC_CALL_GRAPH_NONE)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (cg == PMC_CALL_GRAPH_DWARF) {
		/* The kernel's chain covers kernel frames; user frames come from the stack copy. */
		a->exclude_callchain_user = 1;
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user |= PMC_REGS_X86_64_ALL;
		/* The kernel wants a multiple of 8 below 64 KiB, leaving room for the rest. */
		a->sample_stack_user =
			stack ? (uint32_t)((stack > 65000 ? 65000 : stack) & ~7ull) : 8192;
	}
	if (WROTE(ev, PMC_TERM_MAX_STACK))
		a->sample_max_stack =
			ev->cfg.max_stack > UINT16_MAX ? UINT16_MAX : ev->cfg.max_stack;
}

static void set_sample_fields(struct perf_event_attr *a, const struct pmc_evsel *ev,
			      const struct pmc_record_opts *o, bool cpu_target)
{
	uint64_t bmode;

	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	if (WROTE(ev, PMC_TERM_TIME) && !ev->cfg.time)
		a->sample_type &= ~PERF_SAMPLE_TIME;
	if (cpu_target || o->sample_cpu)
		a->sample_type |= PERF_SAMPLE_CPU;
	/* A tracepoint's fields, as perf records them: perf script prints them, perf report
	 * sorts by them (and crashes on a tracepoint sample without them). */
	if (a->type == PERF_TYPE_TRACEPOINT)
		a->sample_type |= PERF_SAMPLE_RAW;
	set_period(a, ev, o);
	set_call_graph(a, ev, o);
	if (o->user_regs) {
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user |= o->user_regs;
	}
	if (o->intr_regs) {
		a->sample_type |= PERF_SAMPLE_REGS_INTR;
		a->sample_regs_intr = o->intr_regs;
	}
	/* -b (any branch), -j FILTER, or the event's branch_type= term over both ("no": none). */
	bmode = o->branch_filter ? o->branch_filter : o->branch_stack ? PERF_SAMPLE_BRANCH_ANY : 0;
	if (WROTE(ev, PMC_TERM_BRANCH_TYPE))
		bmode = ev->cfg.branch_mode;
	if (bmode) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = bmode;
	}
	a->sample_type |= (o->data_addr ? PERF_SAMPLE_ADDR : 0) |
			  (o->weight ? PERF_SAMPLE_WEIGHT : 0) |
			  (o->data_src ? PERF_SAMPLE_DATA_SRC : 0) |
			  (o->phys_addr ? PERF_SAMPLE_PHYS_ADDR : 0);
	a->sample_id_all = 1;
}

/*
 * The terms pmc record does not honour (docs/events.md, "Terms"); a list parsed for
 * sampling (PMC_USE_SAMPLE) refuses them already, another may hold them.
 */
static int unsupported_terms(const struct pmc_evsel *ev)
{
	static const enum pmc_term_id refused[] = {PMC_TERM_NR,
						   PMC_TERM_INHERIT,
						   PMC_TERM_NO_INHERIT,
						   PMC_TERM_OVERWRITE,
						   PMC_TERM_NO_OVERWRITE,
						   PMC_TERM_AUX_OUTPUT,
						   PMC_TERM_AUX_SAMPLE_SIZE};

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (WROTE(ev, refused[i])) {
			pr_err("'%s': pmc record does not support the term %s\n", ev->name,
			       pmc__term_name(refused[i]));
			return -PMC_E_UNSUPPORTED;
		}
	if (WROTE(ev, PMC_TERM_CALL_GRAPH) && ev->cfg.call_graph == PMC_CG_LBR) {
		pr_err("'%s': pmc record does not walk call chains through the LBR\n", ev->name);
		return -PMC_E_UNSUPPORTED;
	}
	return 0;
}

int pmc__record_build_attrs(struct pmc_record *rec)
{
	struct pmc_evlist *el = rec->evlist;
	bool cpu_target = rec->kind == PMC_TARGET_CPUS;

	if (!el->nr)
		return -EINVAL;
	rec->attrs = calloc(el->nr, sizeof(*rec->attrs));
	if (!rec->attrs)
		return -ENOMEM;
	for (size_t i = 0; i < el->nr; i++) {
		struct perf_event_attr *a = &rec->attrs[i];
		int err = unsupported_terms(el->entries[i]);

		if (err)
			return err;
		*a = el->entries[i]->attr;
		a->size = sizeof(*a);
		set_sample_fields(a, el->entries[i], &rec->opts, cpu_target);
		rec->dwarf |= call_graph_of(el->entries[i], &rec->opts) == PMC_CALL_GRAPH_DWARF;
	}
	/* The first event also tracks what symbolization needs: maps, names, forks, exits. */
	rec->attrs[0].mmap = 1;
	rec->attrs[0].mmap2 = 1;
	rec->attrs[0].comm = 1;
	rec->attrs[0].comm_exec = 1;
	rec->attrs[0].task = 1;
	/*
	 * DWARF unwinders find .eh_frame_hdr through the read-only map that holds it, which the
	 * kernel reports only with mmap_data (perf record --call-graph dwarf sets it too).
	 */
	rec->attrs[0].mmap_data = rec->opts.data_addr || rec->dwarf;
	return 0;
}
