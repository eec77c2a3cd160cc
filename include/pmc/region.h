/* SPDX-License-Identifier: MIT */
/* Regions: begin/end markers counted per thread, and the reader of their results (docs/regions.md).
 */
#ifndef PMC_REGION_H
#define PMC_REGION_H

#include <pmc/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Recipe (the thesis's "modified executable"):
 *
 *	pmc_region_register("loop");        // optional: moves every allocation out of the
 *	                                    // measured path (call it in each thread)
 *	for (i = 0; i < 100; i++) {
 *		pmc_region_begin("loop");   // reads the counters
 *		work();
 *		pmc_region_end("loop");     // reads them again, adds the difference
 *	}
 *
 * Run the program under `pmc stat -e EVENTS prog`, which programs the events and reports
 * per region, or directly with PMC_EVENTS=EVENTS set, which prints a summary to stderr at
 * exit (or writes JSON to the file named by PMC_OUTPUT). With neither, the markers do
 * nothing and cost one load and a branch.
 *
 * Regions are per thread, nestable and may overlap. Each counts how often it was entered
 * and exited; a begin of a region that is already open in the thread counts as an entry
 * but the counters run from the outermost begin to the matching end. Threads open their
 * own counters at their first marker (or at pmc_region_register()); later markers do one
 * counter read (one read(2) of the event group, or rdpmc) and no allocation.
 */

/* Region ids 0..PMC_REGION_NUMBERED-1 are the numbered regions ("Region 0" ... "Region 99"). */
#define PMC_REGION_NUMBERED 100
/* The most regions (numbered and named) a process can have. */
#define PMC_REGION_MAX 512

/* Begins / ends the region called name in the calling thread. name is copied on first use. */
PMC_API void pmc_region_begin(const char *name);
PMC_API void pmc_region_end(const char *name);

/*
 * Begins / ends region number id, for code that cannot pass strings (assembly stubs,
 * Fortran through bind(C)): ids below PMC_REGION_NUMBERED are the numbered regions, named
 * by their number in outputs; larger ids are those pmc_region_register() returned.
 * Unknown ids are ignored (and counted as misuse in the results).
 */
PMC_API void pmc_region_begin_n(unsigned id);
PMC_API void pmc_region_end_n(unsigned id);

/*
 * Registers name (when not NULL) and prepares the calling thread: its counters are
 * opened and its region table allocated, so that no marker in this thread allocates.
 * Returns the region's id (usable with pmc_region_begin_n()), 0 when name is NULL, or a
 * negative error: -ENOSPC when PMC_REGION_MAX regions exist, -ENOMEM, or -ENODEV when
 * this thread cannot open its counters (the reason is logged). When regions are off (no
 * PMC_EVENTS and no runner) it only registers the name and returns the id.
 */
PMC_API int pmc_region_register(const char *name);

/* Where the results of regions go when the process exits. */
enum pmc_region_sink {
	PMC_REGION_SINK_DEFAULT, /* as the environment says (see the recipe above) */
	PMC_REGION_SINK_NONE,	 /* keep them in memory only (pmc_region_get()) */
	PMC_REGION_SINK_STDERR,	 /* a text summary on stderr */
	PMC_REGION_SINK_JSON,	 /* JSON to the file output names */
	PMC_REGION_SINK_FD,	 /* the runner protocol of docs/regions.md to fd */
};

/* Options of pmc_region_setup() (sz: see "Options structs" in pmc/common.h). */
struct pmc_region_opts {
	size_t sz;	     /* sizeof(struct pmc_region_opts) */
	const char *events;  /* event string (docs/events.md); NULL: from the environment */
	const char *backend; /* NULL: "perf" */
	unsigned priv;	     /* PMC_PRIV_* for events without modifiers; 0: user */
	enum pmc_region_sink sink;
	const char *output; /* SINK_JSON: the file */
	int fd;		    /* SINK_FD: the descriptor */
};

/*
 * Configures regions programmatically instead of from the environment; must come before
 * the first marker of the process. Returns 0, -EALREADY once markers have run or setup was
 * done, -EINVAL, -ENOMEM, or -PMC_E_PARSE when the events do not parse.
 */
PMC_API int pmc_region_setup(const struct pmc_region_opts *opts);

/*
 * The calling thread's totals for region id so far: entered and exited counts and, in
 * values[0..nr), the accumulated counter differences of the region's events. Returns
 * the number of events (which may exceed nr), or -ENOENT when regions are off or the
 * thread has no counters, -EINVAL for a bad id. For calibration and tests.
 */
PMC_API int pmc_region_get(unsigned id, uint64_t *entered, uint64_t *exited, uint64_t *values,
			   size_t nr);

/*
 * Writes the results now, as the process's exit would, and stops recording. For programs
 * that end with _exit() or exec. Returns 0 or a negative errno.
 */
PMC_API int pmc_region_flush(void);

/*
 * pmc_region_flush(), with the results marked as stopped early by signal sig
 * (provenance.interrupted and stopped_by in PMC_OUTPUT's JSON, as pmc stat marks its own):
 * for a program, or libpmc-mpi, about to die of sig. Not async-signal-safe: call it from a
 * thread, not from the handler (docs/mpi.md).
 */
PMC_API int pmc_region_flush_stopped(int sig);

/* ---- Reading results (pmc stat, tools): the records of docs/regions.md ---- */

struct pmc_region_data; /* the regions of one run: every process and thread that recorded */

/* One region's totals, summed over threads, or for one thread. */
struct pmc_region_values {
	const char *name; /* owned by the data */
	uint64_t entered;
	uint64_t exited;
	uint64_t open_at_exit;	/* entries still open when the process ended */
	uint64_t unmatched_end; /* ends without a begin */
	const uint64_t *values; /* [pmc_region_data__nr_events()], owned by the data */
};

PMC_API int pmc_region_data__new(struct pmc_region_data **out);
PMC_API void pmc_region_data__delete(struct pmc_region_data *data);

/*
 * Parses the records in buf[0..len) and adds them: regions are merged by name, threads
 * kept apart. Every record must name the same events. Returns the number of records, or
 * -PMC_E_FORMAT (malformed), -PMC_E_TRUNCATED, -PMC_E_VERSION (newer protocol),
 * -PMC_E_PROTOCOL (the events differ between records), -ENOMEM: the first error met. A
 * record that cannot be read adds nothing and is counted (pmc_region_data__nr_lost()); the
 * records after it are still read, as far as their framing can be found.
 */
PMC_API int pmc_region_data__parse(struct pmc_region_data *data, const void *buf, size_t len);

/* Reads fd from offset 0 to its end and parses it. Returns as pmc_region_data__parse(). */
PMC_API int pmc_region_data__read_fd(struct pmc_region_data *data, int fd);

PMC_API size_t pmc_region_data__nr_events(const struct pmc_region_data *data);
/* The idx-th event's name as the recording process wrote it; NULL when out of range. */
PMC_API const char *pmc_region_data__event(const struct pmc_region_data *data, size_t idx);
PMC_API size_t pmc_region_data__nr_regions(const struct pmc_region_data *data);
/* Threads, ordered by process then thread id. */
PMC_API size_t pmc_region_data__nr_threads(const struct pmc_region_data *data);
/* The process and thread id of thread idx; -EINVAL when out of range. */
PMC_API int pmc_region_data__thread(const struct pmc_region_data *data, size_t idx, int *pid,
				    int *tid);

/*
 * Region idx (numbered regions first, by number, then named ones by first use) summed
 * over every thread when thread < 0, else for that thread. Returns 0 or -EINVAL.
 */
PMC_API int pmc_region_data__get(const struct pmc_region_data *data, size_t idx, int thread,
				 struct pmc_region_values *out);

/*
 * How many of region idx's entries (over every thread when thread < 0, else that thread's)
 * were made with the named marker, pmc_region_begin(name); the others were made by id
 * (pmc_region_begin_n()). The two forms cost differently (docs/regions.md, "Costs"). Returns
 * 0 or -EINVAL.
 */
PMC_API int pmc_region_data__named_entries(const struct pmc_region_data *data, size_t idx,
					   int thread, uint64_t *named);

/*
 * Problems the recording processes counted: markers with an unknown id or name that could
 * not be registered, and counter reads that failed (those entries added nothing).
 */
/*
 * Records read from the arena, not written by their processes: processes that left without
 * writing their results (_exit(), a crash, a signal), whose tables the runner read from the
 * memory it shares with them (docs/regions.md, "The arena"). They are in the data, and not
 * lost.
 */
PMC_API uint64_t pmc_region_data__nr_recovered(const struct pmc_region_data *data);

PMC_API void pmc_region_data__problems(const struct pmc_region_data *data, uint64_t *bad_ids,
				       uint64_t *failed_reads);

/*
 * Records that could not be read and added nothing (at least one when the rest was unframed),
 * and processes whose "started" record came but no record with their results after it (they
 * left with _exit(), crashed or were killed: docs/regions.md, "Lost records").
 */
PMC_API uint64_t pmc_region_data__nr_lost(const struct pmc_region_data *data);

#ifdef __cplusplus
}
#endif
#endif /* PMC_REGION_H */
