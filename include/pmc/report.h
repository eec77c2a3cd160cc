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
 *	pmc_report__write(r, PMC_REPORT_TEXT, stdout);    // or CSV, JSON, folded stacks
 *	pmc_report__delete(r);
 *
 * Sort keys (comma-separated, grouped in that order): symbol (sym), dso, srcline,
 * inline (innermost inlined function), ip, comm, pid, tid; for data samples daddr
 * (symbol_daddr), dsym, dcacheline, dpage, dsrc (mem), weight.
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
	bool folded;	      /* also collect whole stacks, for PMC_REPORT_FOLDED */
	bool no_demangle;     /* show C++ and Rust symbols as the object spells them */
	bool hide_unresolved; /* leave out samples and callers that no symbol holds */
};

enum pmc_report_format {
	PMC_REPORT_TEXT,
	PMC_REPORT_CSV,
	PMC_REPORT_JSON,
	PMC_REPORT_FOLDED, /* "comm;caller;...;leaf count" lines for flame-graph tools */
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
 * Reads a perf.data file and aggregates its samples. Returns 0, or -PMC_E_FORMAT /
 * -PMC_E_TRUNCATED / -PMC_E_VERSION with err naming the offset, or a negative errno.
 */
PMC_API int pmc_report__load(struct pmc_report *r, const char *path, struct pmc_file_error *err);
/* Writes the report to out. Returns 0 or -EIO. */
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
 * NULL) with samples per instruction and source lines interleaved. Returns 0, or
 * -ENOENT when no sampled DSO has the symbol.
 */
PMC_API int pmc_report__annotate(struct pmc_report *r, const char *symbol, const char *dso,
				 FILE *out);
PMC_API void pmc_report__delete(struct pmc_report *r);

#ifdef __cplusplus
}
#endif
#endif /* PMC_REPORT_H */
