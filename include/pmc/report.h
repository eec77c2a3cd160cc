/* SPDX-License-Identifier: MIT */
/* Reports over sample files (pmc's and perf's): histograms by symbol, line, data address, ... */
#ifndef PMC_REPORT_H
#define PMC_REPORT_H

#include <stdio.h>
#include <pmc/common.h>
#include <pmc/sample.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Recipe:
 *
 *	pmc_report__new(&opts, &r);                       // sort keys checked here
 *	pmc_report__load(r, "perf.data", &err);           // reads, symbolizes, aggregates
 *	pmc_report__write(r, PMC_REPORT_TEXT, stdout);    // or CSV, JSON, folded stacks, HTML
 *	pmc_report__delete(r);
 *
 * Sort keys (comma-separated, grouped in that order): symbol (sym), dso, srcline,
 * inline (innermost inlined function), ip, comm, pid, tid, rank (the file's: see
 * pmc_report__load()); for data samples daddr (symbol_daddr), dsym, dcacheline, dpage, dsrc
 * (mem), weight; for branch stacks (branch mode, docs/branches.md) symbol_from, symbol_to,
 * dso_from, dso_to, addr_from, addr_to, mispredict, and branch (addr_from,addr_to,mispredict).
 *
 * struct pmc_report_opts is an options struct (sz: see "Options structs" in pmc/common.h).
 */
struct pmc_report_opts {
	size_t sz;	      /* sizeof(struct pmc_report_opts) */
	const char *sort;     /* sort keys; NULL: "symbol" */
	bool children;	      /* sort by the period including callees (needs call chains) */
	bool no_callers;      /* do not list each entry's callers */
	bool no_reconstruct;  /* do not reconstruct data addresses from registers */
	double min_percent;   /* hide entries under this share of their event */
	size_t max_entries;   /* show at most this many entries per event; 0: all */
	const char *kallsyms; /* kernel symbols; NULL: /proc/kallsyms */
	bool folded;	      /* also collect whole stacks, for the formats from FOLDED on */
	bool keep_samples;    /* keep each sample's ip and function in order (pmc_report__skid) */
	bool html;	      /* also collect what PMC_REPORT_HTML shows: stacks per event, */
	/* source lines, data addresses */
	bool srclines;	      /* resolve source lines and inlines whatever the sort keys */
	bool no_demangle;     /* show C++ and Rust symbols as the object spells them */
	bool hide_unresolved; /* leave out samples and callers that no symbol holds */
	/*
	 * perf report -b: every entry of every sample's branch stack is one entry of the
	 * report, counting 1 (a branch key in sort implies it); the default keys are then
	 * comm,dso_from,symbol_from,symbol_to.
	 */
	bool branch_stack;
	/* What TEXT, CSV and JSON write instead of the entries (docs/branches.md). */
	enum pmc_branch_analysis {
		PMC_BRANCH_ANALYSIS_NONE,
		PMC_BRANCH_ANALYSIS_BLOCKS, /* estimated execution counts of basic blocks */
		PMC_BRANCH_ANALYSIS_TRIPS,  /* loop trip counts */
	} branch_analysis;
	bool no_source; /* pmc_report__annotate: no source lines between instructions */
};

enum pmc_report_format {
	PMC_REPORT_TEXT,
	PMC_REPORT_CSV,
	PMC_REPORT_JSON,
	PMC_REPORT_FOLDED, /* "comm;caller;...;leaf count" lines for flame-graph tools */
	PMC_REPORT_HTML,   /* one self-contained page (opts.html): flame graphs, tables */
	/* The exports below need opts.folded, and want opts.srclines (docs/report.md). */
	PMC_REPORT_PPROF,      /* gzip-compressed profile.proto (pprof, Parca, Pyroscope) */
	PMC_REPORT_SPEEDSCOPE, /* speedscope's JSON file format, one profile per event */
	PMC_REPORT_CALLGRIND,  /* callgrind's format (KCachegrind, callgrind_annotate) */
};

/* One row of a report, for callers that format it themselves. */
struct pmc_report_entry {
	size_t event_idx; /* which event of the file */
	const char *key;  /* the sort keys' values, joined by "  "; owned by the report */
	double overhead;  /* self share of the event's period, percent */
	double children;  /* share including callees, percent (opts.children; else = overhead) */
	uint64_t samples;
	uint64_t period; /* estimated event count: the sum of sample periods (k·S) */
};

struct pmc_report;

/* Returns 0, -PMC_E_CONFIG for an unknown sort key (logged with the known ones), -ENOMEM. */
PMC_API int pmc_report__new(const struct pmc_report_opts *opts, struct pmc_report **out);
/*
 * Reads a perf.data file and aggregates its samples. Called again, it adds another file's
 * (the ranks of an MPI job): entries with equal keys sum. A file's rank (sort key rank) is
 * the number after the last "rank-" in its name, else its place among the files read, from
 * 0 (docs/mpi.md). Returns 0, or -PMC_E_FORMAT / -PMC_E_TRUNCATED / -PMC_E_VERSION with err
 * naming the offset, -PMC_E_CONFIG when a later file has not the first's events in the same
 * order (err's msg names the first that differs), or a negative errno.
 */
PMC_API int pmc_report__load(struct pmc_report *r, const char *path, struct pmc_file_error *err);
/*
 * Writes the report to out. Returns 0, -EIO, -ENOMEM, or -EINVAL for PMC_REPORT_HTML when the
 * report was made without opts.html, or for a stack format of a report whose opts.folded was
 * not set.
 */
PMC_API int pmc_report__write(struct pmc_report *r, enum pmc_report_format fmt, FILE *out);
PMC_API size_t pmc_report__nr_entries(const struct pmc_report *r);
/* Fills e with the idx-th entry (in output order). Returns 0 or -ERANGE. */
PMC_API int pmc_report__entry(struct pmc_report *r, size_t idx, struct pmc_report_entry *e);
PMC_API uint64_t pmc_report__nr_samples(const struct pmc_report *r);
PMC_API uint64_t pmc_report__nr_lost(const struct pmc_report *r);
/* Samples whose data address was reconstructed from registers and the instruction. */
PMC_API uint64_t pmc_report__nr_reconstructed(const struct pmc_report *r);
/*
 * Disassembles function symbol (in the DSO whose name contains dso, or any DSO when
 * NULL) with samples per instruction and, unless opts.no_source, the source lines they come
 * from (file:line, each line's share of the samples, and its text where the file can be read)
 * interleaved. symbol may also be an address of a sampled object, "0xADDR" (the function
 * around it, as the object's call-frame information bounds it: for objects without symbols)
 * or "0xSTART-0xEND". Returns 0, or -ENOENT when no sampled DSO has the symbol (or code at
 * the address), -ERANGE when no call-frame information bounds the code at the address,
 * -E2BIG for a range over 1 MiB, -ENOSYS when capstone cannot be loaded, -EIO or -ENOMEM.
 */
PMC_API int pmc_report__annotate(struct pmc_report *r, const char *symbol, const char *dso,
				 FILE *out);
PMC_API void pmc_report__delete(struct pmc_report *r);

/*
 * A count estimated from samples (docs/accuracy.md, "Sampling intervals"): k samples whose
 * periods sum to estimate (k·S at a fixed period S), and the interval [lo, hi] that holds the
 * true count with probability level when k is Poisson (a binomial with many events, each
 * sampled with probability 1/S, independently: jittered periods make it so). The interval is
 * the Poisson score interval of k, times the mean period estimate/k.
 */
struct pmc_count_estimate {
	uint64_t samples;
	uint64_t estimate;
	double lo, hi; /* 0, 0 when samples is 0 */
	double level;
};

/* Fills e for samples whose periods sum to period_sum, at level (0: 0.95). Returns 0, or
 * -EINVAL for a level outside (0, 1). */
PMC_API int pmc_count_estimate(uint64_t samples, uint64_t period_sum, double level,
			       struct pmc_count_estimate *e);
/* The estimate of the idx-th entry (in output order) as pmc_report__entry() lists it, its
 * self samples and period. Returns 0, -ERANGE or -EINVAL. */
PMC_API int pmc_report__entry_estimate(struct pmc_report *r, size_t idx, double level,
				       struct pmc_count_estimate *e);
/* The estimate of a whole event of the file (event_idx as in struct pmc_report_entry). Returns
 * 0, -ERANGE or -EINVAL. */
PMC_API int pmc_report__event_estimate(struct pmc_report *r, size_t event_idx, double level,
				       struct pmc_count_estimate *e);

/*
 * Whether a report can estimate an event's count, and why not (docs/accuracy.md, "When a
 * report gives an estimate"). The estimate above (pmc_count_estimate()) assumes that every
 * sample stands for one period of events and that k is Poisson; a report checks what it can
 * see of that in the file, in this order:
 *   NO_SAMPLE    the event has no sample;
 *   LOST         the kernel lost samples (PERF_RECORD_LOST, LOST_SAMPLES): some are missing;
 *   THROTTLED    the kernel throttled the event (PERF_RECORD_THROTTLE): it took no samples
 *                for a while;
 *   EXACT        fixed periods, every sample of period 1 (-c 1; or a tracepoint, whose every
 *                hit the kernel samples in fixed-period mode): the count is the samples;
 *   FEW_SAMPLES  fewer than PMC_ESTIMATE_MIN_SAMPLES samples;
 *   ADAPTING     frequency mode, and more than PMC_ESTIMATE_MAX_ADAPTING percent of the
 *                period sum comes from samples taken while the kernel changed the period:
 *                each thread's periods are cut into runs at every jump (a period more than
 *                PMC_ESTIMATE_JUMP times the one before, or less than its inverse); a run of
 *                at least PMC_ESTIMATE_SETTLED samples has settled but for its first sample,
 *                a shorter one is adapting (there a sample's period need not be the events
 *                since the one before it);
 *   BRANCHES     (first of all) a report in branch mode: its entries are branches, each
 *                counting 1, not events;
 *   INTERVAL     an estimate with its interval: fixed periods, or frequency mode whose
 *                periods settled (the interval then also holds the unsettled samples' period
 *                sum as unknown: widened by it on both sides).
 */
#define PMC_ESTIMATE_MIN_SAMPLES 10
#define PMC_ESTIMATE_SETTLED 8
#define PMC_ESTIMATE_JUMP 1.5
#define PMC_ESTIMATE_MAX_ADAPTING 10
enum pmc_estimate_status {
	PMC_ESTIMATE_INTERVAL,
	PMC_ESTIMATE_EXACT,
	PMC_ESTIMATE_NO_SAMPLE,
	PMC_ESTIMATE_LOST,
	PMC_ESTIMATE_THROTTLED,
	PMC_ESTIMATE_FEW_SAMPLES,
	PMC_ESTIMATE_ADAPTING,
	PMC_ESTIMATE_BRANCHES,
};
struct pmc_estimate_check {
	enum pmc_estimate_status status;
	/* INTERVAL and EXACT: the estimate as a report prints it (EXACT: lo = hi = samples) */
	struct pmc_count_estimate est;
	uint64_t adapting; /* frequency mode: the period sum of samples before periods settled */
	uint64_t lost, throttled;
	char reason[160]; /* "no estimate: ..." for the other statuses; "" for these two */
};
/*
 * Checks event event_idx of a loaded report and fills out. Returns 0, -ERANGE for an event the
 * report lacks, or -EINVAL. Unlike pmc_report__event_estimate(), which gives the bare k·S
 * estimate whatever the file holds, this is what pmc report prints.
 */
PMC_API int pmc_report__event_check(struct pmc_report *r, size_t event_idx, double level,
				    struct pmc_estimate_check *out);

/*
 * Skid, measured exactly under vpmu: two recordings of one run with the same event, period
 * and seed, one precise (:p) and one imprecise (--skid=N instructions from PMC_VPMU_ARGS),
 * sample the same events in the same order, so their samples pair up one to one; the
 * imprecise sample of a pair is where the skid took it.
 */
struct pmc_skid {
	uint64_t pairs;	       /* samples paired, in order */
	uint64_t unpaired;     /* samples of the longer recording left over (0 when alike) */
	uint64_t moved;	       /* pairs at different instructions */
	uint64_t other_symbol; /* pairs in different functions: attributed elsewhere by skid */
	double mean_bytes;     /* mean |ip difference| of the moved pairs */
};
/*
 * Pairs event event_idx's samples of two reports loaded with opts.keep_samples. Returns 0,
 * -EINVAL when a report kept no samples, -ERANGE for an event either file lacks.
 */
PMC_API int pmc_report__skid(const struct pmc_report *precise, const struct pmc_report *imprecise,
			     size_t event_idx, struct pmc_skid *out);

/*
 * Validation's sampling mode: one estimate against the count a counting run gave (or a count
 * known from construction).
 */
struct pmc_sampling_check {
	double error;	  /* estimate - counted, in events */
	double rel_error; /* error / counted; 0 when counted is 0 */
	double z;     /* error in standard errors (estimate / sqrt(samples)); 0 without samples */
	bool covered; /* lo <= counted <= hi (without samples: counted == 0) */
};
/* Returns 0 or -EINVAL. */
PMC_API int pmc_sampling_check(const struct pmc_count_estimate *e, uint64_t counted,
			       struct pmc_sampling_check *out);

/*
 * Many checks of one event at one period (runs with different seeds): how often the intervals
 * held the counted value, and the period's bias, the mean relative error, with its Student-t
 * interval at level (0: 0.95; 0 when n < 2).
 */
struct pmc_sampling_summary {
	size_t n, covered;
	double coverage;      /* covered / n: near the estimates' level when they are right */
	double bias;	      /* mean rel_error */
	double bias_ci;	      /* half-width of bias's interval */
	double rms_rel_error; /* root mean square of rel_error: bias and spread together */
};
/* Returns 0, -EINVAL (n == 0, a level outside (0, 1)) or -ENOMEM. */
PMC_API int pmc_sampling_summarize(const struct pmc_sampling_check *v, size_t n, double level,
				   struct pmc_sampling_summary *out);

#ifdef __cplusplus
}
#endif
#endif /* PMC_REPORT_H */
