/* SPDX-License-Identifier: MIT */
/* The perf backend's sampling hooks (lib/core/backend.h): ring buffers per CPU. */
#ifndef PMC_LIB_BACKEND_PERF_SAMPLE_H
#define PMC_LIB_BACKEND_PERF_SAMPLE_H

#include <poll.h>
#include "core/backend.h"
#include "backend/perf/perf.h"
#include "backend/perf/ringbuf.h"
#include "core/sampling.h"

/*
 * Events are opened per CPU (the kernel refuses to map inherited per-task events), for
 * each thread of the target (one "thread" of pid -1 for CPU targets); every event of a
 * CPU writes into that CPU's single ring buffer (PERF_EVENT_IOC_SET_OUTPUT).
 */
struct perf_sampling {
	struct pmc_sampling base;
	int nr_cpus;
	int *cpus;
	int nr_threads;
	pid_t *threads;
	int *fds;		  /* [attr][thread][cpu], -1 where not open */
	struct pmc__ringbuf *rbs; /* [cpu] */
	struct pollfd *pfds;	  /* [cpu] ring buffers, then the wake fd */
	int nr_pfds;
	struct perf_dry_run dry; /* a dry run describes the opens and keeps no fd */
};

/* For the perf backend's ops table (lib/backend/perf/backend.c). */
int pmc__perf_sample_open(struct pmc_evlist *evlist, const struct pmc__sample_params *params,
			  struct pmc_sampling **out);
int pmc__perf_sample_enable(struct pmc_sampling *s);
int pmc__perf_sample_disable(struct pmc_sampling *s);
int pmc__perf_sample_poll(struct pmc_sampling *s, int timeout_ms);
int pmc__perf_sample_drain(struct pmc_sampling *s, pmc__sample_sink_fn sink, void *arg);
void pmc__perf_sample_close(struct pmc_sampling *s);

#endif /* PMC_LIB_BACKEND_PERF_SAMPLE_H */
