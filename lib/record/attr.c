// SPDX-License-Identifier: MIT
/* Turning record options into perf_event_attrs, and the side-band records written up front. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/log.h"
#include "event/evsel.h"
#include "record/record.h"
#include "perfdata/synth.h"

/* x86-64 user registers for DWARF unwinding: ax..ip, flags, cs, ss, r8..r15 (perf's mask). */
#define PMC_REGS_X86_64_ALL 0xff0fffull

static void set_sample_fields(struct perf_event_attr *a, const struct pmc_record_opts *o,
			      bool cpu_target)
{
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			 PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	if (cpu_target || o->sample_cpu)
		a->sample_type |= PERF_SAMPLE_CPU;
	if (o->period) {
		a->freq = 0;
		a->sample_period = o->period;
	} else {
		a->freq = 1;
		a->sample_freq = o->freq ? o->freq : 4000;
	}
	if (o->call_graph != PMC_CALL_GRAPH_NONE)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (o->call_graph == PMC_CALL_GRAPH_DWARF) {
		/* The kernel's chain covers kernel frames; user frames come from the stack copy. */
		a->exclude_callchain_user = 1;
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user |= PMC_REGS_X86_64_ALL;
		a->sample_stack_user = o->stack_bytes ? o->stack_bytes : 8192;
	}
	if (o->user_regs) {
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user |= o->user_regs;
	}
	if (o->intr_regs) {
		a->sample_type |= PERF_SAMPLE_REGS_INTR;
		a->sample_regs_intr = o->intr_regs;
	}
	if (o->branch_stack) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	}
	a->sample_type |= (o->data_addr ? PERF_SAMPLE_ADDR : 0) |
			  (o->weight ? PERF_SAMPLE_WEIGHT : 0) |
			  (o->data_src ? PERF_SAMPLE_DATA_SRC : 0) |
			  (o->phys_addr ? PERF_SAMPLE_PHYS_ADDR : 0);
	a->sample_id_all = 1;
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
		*a = el->entries[i]->attr;
		a->size = sizeof(*a);
		set_sample_fields(a, &rec->opts, cpu_target);
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
	rec->attrs[0].mmap_data =
		rec->opts.data_addr || rec->opts.call_graph == PMC_CALL_GRAPH_DWARF;
	return 0;
}

int pmc__record_synthesize(struct pmc_record *rec, const struct pmc_target *target)
{
	struct pmc__synth sy = {
		.attr = &rec->s->attrs[0],
		.id = rec->s->nr_ids[0] ? rec->s->ids[0][0] : 0,
		.sink = pmc__record_sink,
		.arg = rec,
	};
	bool kernel = false;
	int ret = 0;

	for (size_t i = 0; i < rec->s->nr_attrs; i++)
		kernel |= !rec->s->attrs[i].exclude_kernel;
	if (kernel)
		ret = pmc__synth_kernel_mmap(&sy);
	if (ret)
		return ret;
	/* A started command is held before exec: the kernel reports its exec and maps. */
	if (target->kind == PMC_TARGET_PID || target->kind == PMC_TARGET_SELF)
		ret = pmc__synth_process(&sy,
					 target->kind == PMC_TARGET_PID ? target->pid : getpid());
	else if (target->kind == PMC_TARGET_CPUS)
		ret = pmc__synth_all(&sy);
	return ret;
}
