/* SPDX-License-Identifier: MIT */
/* A recording session's state (lib/record/). */
#ifndef PMC_LIB_RECORD_RECORD_H
#define PMC_LIB_RECORD_RECORD_H

#include <signal.h>
#include <pmc/sample.h>
#include "core/backend.h"
#include "count/child.h"
#include "perfdata/perfdata.h"
#include "record/hits.h"
#include "core/sampling.h"

struct pmc_record {
	struct pmc_evlist *evlist;
	const struct pmc_backend_ops *ops;
	struct pmc_record_opts opts;
	enum pmc_target_kind kind;
	struct perf_event_attr *attrs; /* [evlist->nr], as asked for */
	bool dwarf;		       /* some event copies user stacks (larger buffers) */
	struct pmc_sampling *s;
	struct pmc_child *child;
	int pidfd; /* the command's pidfd, or -1 */
	struct pmc__perfdata_writer *w;
	char *output;
	const char *argv0; /* the command's name, for messages */
	volatile sig_atomic_t stop;
	bool started, finished;
	uint64_t nr_samples, nr_lost, nr_round;
	struct pmc__hits hits; /* the objects with samples, for their build ids */
};

/* attr.c: fills rec->attrs from the evlist's events and the options; -EINVAL for no event,
 * -PMC_E_UNSUPPORTED (said) for a term record refuses. */
int pmc__record_build_attrs(struct pmc_record *rec);

/*
 * tracepoints.c: hands the writer the tracefs names of the tracepoints among rec's events,
 * whose formats it writes as the TRACING_DATA feature (perf script and perf report need it).
 * pmc reads its files without it, so a failure other than -ENOMEM is said and 0 returned.
 */
int pmc__record_tracepoints(struct pmc_record *rec);

#endif /* PMC_LIB_RECORD_RECORD_H */
