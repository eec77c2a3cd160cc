/* SPDX-License-Identifier: MIT */
/* Sampling: record events into a perf.data-format file (format: docs/sample-file.md). */
#ifndef PMC_SAMPLE_H
#define PMC_SAMPLE_H

#include <sys/types.h>
#include <pmc/common.h>
#include <pmc/event.h>
#include <pmc/count.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Where and why a sample file was rejected: offset is the file offset of the fault,
 * msg says what was found and what was expected.
 */
struct pmc_file_error {
	uint64_t offset;
	char msg[224];
};

enum pmc_call_graph {
	PMC_CALL_GRAPH_NONE,
	PMC_CALL_GRAPH_FP,    /* the kernel walks frame pointers */
	PMC_CALL_GRAPH_DWARF, /* user registers and a copy of the user stack, unwound later */
};

/* Options of pmc_record__open() (sz: see "Options structs" in pmc/common.h). */
struct pmc_record_opts {
	size_t sz;	    /* sizeof(struct pmc_record_opts) */
	const char *output; /* file to write; "perf.data" when NULL; "-": standard output */
	uint64_t period;    /* sample every period events (-c); 0: use freq */
	/*
	 * Samples per second (-F). When period and freq are 0, perf record's defaults: period 1
	 * for tracepoints and breakpoints (every hit), 4000 a second for other events.
	 */
	uint64_t freq;
	enum pmc_call_graph call_graph;
	uint32_t stack_bytes; /* DWARF: bytes of user stack per sample (8192 when 0) */
	bool branch_stack;    /* sample the last branches (any branch, user and kernel) */
	uint64_t user_regs;   /* extra user registers to sample (PERF_REG_X86_* bits) */
	uint64_t intr_regs;   /* registers at the interrupt (PERF_REG_X86_* bits) */
	bool data_addr;	      /* PERF_SAMPLE_ADDR */
	bool weight;	      /* PERF_SAMPLE_WEIGHT (latency) */
	bool data_src;	      /* PERF_SAMPLE_DATA_SRC */
	bool phys_addr;	      /* PERF_SAMPLE_PHYS_ADDR */
	bool sample_cpu;      /* PERF_SAMPLE_CPU (always on for CPU targets) */
	size_t mmap_pages;    /* ring-buffer data pages per CPU, a power of 2 (256 when 0) */
	int argc;	      /* the command line stored in the file, or 0 */
	char *const *argv;
	/*
	 * Randomised periods: each period drawn uniformly within period_jitter percent (1 to
	 * 90) of the mean period, from a generator seeded by seed (0: 1), so that equal seeds
	 * give identical files. 0: fixed periods. Backends that cannot vary the period refuse
	 * it with -EOPNOTSUPP (perf: the kernel has no period randomisation for most PMUs).
	 */
	unsigned period_jitter;
	uint64_t seed;
	/*
	 * The branch stack's filter (pmc record -j): PERF_SAMPLE_BRANCH_* bits as
	 * pmc_branch_filter_parse() makes them. Non-zero: the branch stack is sampled with it;
	 * 0: branch_stack's "any". An event's branch_type= term is over both.
	 */
	uint64_t branch_filter;
	/*
	 * pmc record -N (perf's --no-buildid-cache): no copy of the sampled objects is kept
	 * in the build-id cache (docs/sample-file.md). Their build ids are written either way.
	 */
	bool no_buildid_cache;
};

/*
 * Branch filters by perf's names (docs/branches.md, "Filters"): "any_call,u" into
 * PERF_SAMPLE_BRANCH_* bits in *mode; privilege levels (u, k, hv) alone mean any branch at
 * those levels, as in perf. Returns 0, or -PMC_E_PARSE with err (when not NULL) naming the
 * unknown name's offset and the closest known names; -EINVAL for NULL arguments.
 */
PMC_API int pmc_branch_filter_parse(const char *str, uint64_t *mode, struct pmc_parse_error *err);
/* perf's name of one PERF_SAMPLE_BRANCH_* bit ("any_call"), or NULL for bits it names not. */
PMC_API const char *pmc_branch_filter_name(uint64_t bit);

/*
 * A recording session.
 *
 * Recipe:
 *
 *	pmc_record__open(evlist, &target, &opts, &rec);  // COMMAND: forked and held
 *	pmc_record__start(rec);                           // exec (or enable); -PMC_E_EXEC
 *	pmc_record__run(rec, &status);                    // drains until the end
 *	pmc_record__finish(rec);                          // final header, rename
 *	pmc_record__delete(rec);
 *
 * pmc_record__run() returns when the command has exited (status is its wait status)
 * or, for PID and CPU targets, when pmc_record__stop() was called (status 0). When the
 * recording cannot go on (-EPIPE: the reader of a pipe or FIFO output went away; the caller
 * ignores SIGPIPE), the command is sent SIGTERM and reaped, and the error returned.
 * An output of "-" or a FIFO gets perf's pipe-mode stream (docs/sample-file.md), and "-"
 * sends the command's standard output to standard error.
 * pmc_record__stop() and pmc_record__kill() are async-signal-safe, for SIGINT handlers.
 */
struct pmc_record;

/*
 * Opens every event of evlist for sampling on target and creates the output's
 * temporary file. Returns 0, -PMC_E_UNSUPPORTED when the backend cannot sample,
 * -EOPNOTSUPP for a TID target (sample the process),
 * -EACCES / -PMC_E_PARANOID when not permitted, or the first failing errno. A dry-run list
 * (struct pmc_evlist_opts) describes the calls instead, creates no file and sets *out to
 * NULL.
 */
PMC_API int pmc_record__open(struct pmc_evlist *evlist, const struct pmc_target *target,
			     const struct pmc_record_opts *opts, struct pmc_record **out);
/* COMMAND: lets it exec (-PMC_E_EXEC with the reason logged when it cannot). Others: enables. */
PMC_API int pmc_record__start(struct pmc_record *rec);
/* Drains the ring buffers into the file until the target ends or stop is requested. */
PMC_API int pmc_record__run(struct pmc_record *rec, int *status);
/* Asks pmc_record__run() to return after a final drain. Async-signal-safe. */
PMC_API void pmc_record__stop(struct pmc_record *rec);
/* COMMAND: sends sig to the command. Async-signal-safe. */
PMC_API int pmc_record__kill(struct pmc_record *rec, int sig);
/* Writes the feature sections, the final header, and renames the file into place. */
PMC_API int pmc_record__finish(struct pmc_record *rec);
/* Closes everything; removes the temporary file unless finished. Accepts NULL. */
PMC_API void pmc_record__delete(struct pmc_record *rec);

PMC_API pid_t pmc_record__child_pid(const struct pmc_record *rec);
PMC_API uint64_t pmc_record__nr_samples(const struct pmc_record *rec);
/* Samples the kernel reported lost (ring buffer full), from PERF_RECORD_LOST. */
PMC_API uint64_t pmc_record__nr_lost(const struct pmc_record *rec);
PMC_API uint64_t pmc_record__bytes(const struct pmc_record *rec);
/* The output's final name (owned by rec). */
PMC_API const char *pmc_record__output(const struct pmc_record *rec);

#ifdef __cplusplus
}
#endif
#endif /* PMC_SAMPLE_H */
