/* SPDX-License-Identifier: MIT */
/* Side-band records pmc writes itself: the kernel map, and comm/mmap of running processes. */
#ifndef PMC_LIB_PERFDATA_SYNTH_H
#define PMC_LIB_PERFDATA_SYNTH_H

#include <linux/perf_event.h>
#include <sys/types.h>
#include "core/backend.h"

/* The event whose sample_id trailer synthesized records carry. */
struct pmc__synth {
	const struct perf_event_attr *attr;
	uint64_t id;
	pmc__sample_sink_fn sink;
	void *arg;
};

/* A PERF_RECORD_MMAP for "[kernel.kallsyms]_text", as perf writes it. 0 when unreadable. */
int pmc__synth_kernel_mmap(const struct pmc__synth *sy);
/* PERF_RECORD_COMM for each thread of pid, and PERF_RECORD_MMAP2 for its executable maps. */
int pmc__synth_process(const struct pmc__synth *sy, pid_t pid);
/* pmc__synth_process() for every process in /proc. */
int pmc__synth_all(const struct pmc__synth *sy);

#endif /* PMC_LIB_PERFDATA_SYNTH_H */
