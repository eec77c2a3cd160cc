/* SPDX-License-Identifier: MIT */
/* The generic state of an open event list; each backend embeds it first in its own. */
#ifndef PMC_LIB_COUNT_COUNTING_H
#define PMC_LIB_COUNT_COUNTING_H

#include <stdbool.h>
#include <stdint.h>
#include <pmc/count.h>

struct pmc_backend_ops;
struct pmc_child;

/*
 * The pid a dry run passes for a command it does not start (struct pmc_target's dry_run);
 * backends describe it as "<command>". No process has it: perf_event_open(2) refuses it.
 */
#define PMC__DRY_RUN_CHILD_PID ((pid_t)-2)

struct pmc_counting {
	const struct pmc_backend_ops *ops;
	struct pmc_evlist *evlist;
	struct pmc_target target; /* a copy; argv and strings still belong to the caller */
	int pass;		  /* the pass opened, -1 for all countable events */
	struct pmc_child *child;  /* COMMAND: the started command */
	struct pmc_count *values; /* [evlist->nr]: values at the last read */
	bool *open;		  /* [evlist->nr]: the event is open in this pass */
	bool started;
	/* The tool events' sources: the run's wall clock and the command's rusage. */
	uint64_t start_ns, end_ns; /* CLOCK_MONOTONIC at start and at the end (0: not yet) */
};

/* What one run took, for the tool events and the runner (all in ns). */
struct pmc__run_times {
	uint64_t wall_ns;
	bool have_rusage; /* a command pmc started was reaped: user and sys are its own */
	uint64_t user_ns, sys_ns;
};

/* Fills the generic part; allocates values and open. Returns 0 or -ENOMEM. */
int pmc__counting_init(struct pmc_counting *c, struct pmc_evlist *evlist,
		       const struct pmc_target *target, int pass);
/* Frees what pmc__counting_init() allocated and reaps an unreleased child. */
void pmc__counting_fini(struct pmc_counting *c);
/* Whether evsel belongs to the opened pass, is countable and is a backend's to open (no tool
 * event is). */
bool pmc__counting_selects(const struct pmc_counting *c, const struct pmc_evsel *evsel);
/*
 * The times of evlist's open run, once it ended (the command reaped, or the counters
 * stopped). Returns 0, -EBADF when the list is not open, -EAGAIN when the run has not ended.
 */
int pmc__counting_times(const struct pmc_evlist *evlist, struct pmc__run_times *out);

#endif /* PMC_LIB_COUNT_COUNTING_H */
