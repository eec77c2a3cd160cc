/* SPDX-License-Identifier: MIT */
/* The generic sampling state a backend's sample_open() fills, and what it is asked to open. */
#ifndef PMC_LIB_CORE_SAMPLING_H
#define PMC_LIB_CORE_SAMPLING_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pmc_evlist;
struct pmc_backend_ops;
struct pmc_child;

/*
 * What to sample and where. attrs[i] is evlist entry i's attr with the sampling fields
 * already set by lib/record (sample_type, period or freq, regs, stack size, side-band
 * bits on attrs[0]); the backend adds what its open needs (disabled, inherit,
 * enable_on_exec) and stores the attrs as opened in struct pmc_sampling.
 */
struct pmc__sample_params {
	const struct perf_event_attr *attrs; /* [evlist->nr] */
	pid_t pid;	     /* the process to sample; -1 for every process (CPU targets) */
	const char *cpus;    /* CPU list for pid -1; NULL: every online CPU */
	bool inherit;	     /* follow new threads and children of pid */
	bool enable_on_exec; /* pid is held before exec: start counting at its exec */
	bool all_threads;    /* pid is running: open each of its threads */
	int wake_fd;	     /* sample_poll() also returns when this is readable; -1: none */
	size_t mmap_pages;   /* data pages per ring buffer, a power of 2 */
	/*
	 * COMMAND targets of a backend with sample_spawns (pid is then 0): the command, the
	 * fd it inherits (keep_fd/keep_fd_env as in struct pmc_child_opts, -1: none), and
	 * where sample_open puts the command it spawned, held before exec (count/child.h);
	 * the caller starts, waits for and deletes it.
	 */
	char *const *argv;
	int keep_fd;
	const char *keep_fd_env;
	bool stdout_to_stderr; /* the command's stdout is pmc's stderr (record -o -) */
	struct pmc_child **child;
	unsigned period_jitter; /* percent of the mean period; 0: fixed periods */
	uint64_t seed;		/* of the jitter's generator (never 0) */
};

/* Embedded first in each backend's sampling state. */
struct pmc_sampling {
	const struct pmc_backend_ops *ops;
	size_t nr_attrs;
	struct perf_event_attr *attrs; /* [nr_attrs] as opened */
	uint64_t **ids;		       /* [nr_attrs][nr_ids[i]]: the kernel's event ids */
	size_t *nr_ids;
	bool target_exited; /* set by sample_poll() when every event has hung up */
};

#endif /* PMC_LIB_CORE_SAMPLING_H */
