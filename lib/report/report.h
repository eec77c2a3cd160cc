/* SPDX-License-Identifier: MIT */
/* The report's state: sort keys, histogram entries, per-event totals (lib/report/). */
#ifndef PMC_LIB_REPORT_REPORT_H
#define PMC_LIB_REPORT_REPORT_H

#include <jansson.h>
#include <pmc/report.h>
#include "perfdata/ordered.h"
#include "perfdata/perfdata.h"
#include "symbol/machine.h"
#include "symbol/symbol.h"
#include "symbol/unwind.h"

enum rkey {
	K_SYM,
	K_DSO,
	K_SRCLINE,
	K_INLINE,
	K_IP,
	K_COMM,
	K_PID,
	K_TID,
	K_RANK, /* the file's rank (files.c) */
	K_DADDR,
	K_DSYM,
	K_DCACHELINE,
	K_DPAGE,
	K_DSRC,
	K_WEIGHT,
	/* branch mode (branch.c): one entry per LBR entry of each sample */
	K_SYM_FROM,
	K_SYM_TO,
	K_DSO_FROM,
	K_DSO_TO,
	K_ADDR_FROM,
	K_ADDR_TO,
	K_MISPRED,
	K_NR,
};
#define K_BRANCH_FIRST K_SYM_FROM
#define MAX_KEYS 8
#define MAX_FRAMES 256
/* The level of the intervals a report prints (docs/accuracy.md, "Sampling intervals"). */
#define REPORT_LEVEL 0.95

struct fcache;
struct bblock;
struct bloop;

/* One resolved code address. */
struct rframe {
	struct pmc__dso *dso;
	const struct pmc__symres *res;
	bool kernel;
};

/* What the keys of one sample (or of one frame of its chain) are computed from. */
struct rctx {
	struct pmc__thread *thread;
	const char *comm; /* the thread's name at the sample's time (interned) */
	struct rframe frame;
	bool has_daddr, reconstructed;
	uint64_t daddr;
	struct pmc__dso *ddso;		/* map holding daddr, or NULL */
	const struct pmc__symres *dres; /* its symbol, when the DSO has one */
	uint64_t data_src, weight;
	struct rframe bfrom, bto; /* branch mode: the entry's source and target */
	uint64_t bflags;	  /* its perf_branch_entry flags word (bit 0: mispredicted) */
	uint64_t rank;		  /* of the file the sample is from (files.c) */
};

struct hent {
	struct hent *next; /* chain of equal hashes */
	uint64_t key[MAX_KEYS];
	size_t attr_idx;
	struct rctx rep; /* a representative sample: keys are displayed from it */
	uint64_t samples, period, children, nr_reconstructed;
	struct caller {
		const struct pmc__sym *sym;
		uint64_t period;
	} * callers;
	size_t nr_callers;
	char *text; /* formatted keys, made on demand */
};

struct ip_count {
	const struct pmc__symres *res;
	struct pmc__dso *dso;
	uint64_t samples;
};

/* One row of the HTML page's data views (dview.c): samples by one data key. */
struct dent {
	struct dent *next; /* chain of equal hashes */
	enum rkey kind;	   /* K_DCACHELINE, K_DSYM or K_DSRC */
	size_t attr_idx;
	uint64_t key;
	struct rctx rep; /* a representative sample, for the row's text */
	uint64_t samples, period, weight;
};

/*
 * One distinct call chain (stacks.c): the thread's name and its frames, leaf first, with
 * the samples and period of each event that ended on it. The exports (folded, pprof,
 * speedscope, callgrind) are all written from these.
 */
struct rstack {
	struct rstack *next; /* chain of equal hashes */
	uint64_t hash;
	const char *comm;	    /* interned */
	uint64_t *samples, *period; /* [nr_attrs], in the same allocation */
	size_t nr;
	struct rframe frames[];
};

struct pmc_report {
	struct pmc_report_opts opts;
	enum rkey keys[MAX_KEYS];
	size_t nr_keys;
	bool want_srclines, want_data;
	struct pmc__symtab *st;
	struct pmc__machine *m;
	struct pmc__perfdata *f;
	struct pmc__unwind *unwind;	 /* symbol/unwind.c's per-process Dwfls, or NULL */
	struct pmc__addrmap fcaches;	 /* pid → struct fcache (frames.c) */
	struct fcache *last_fc;		 /* the last sample's, most often the next one's too */
	struct pmc__dso *unknown_dso;	 /* "[unknown]": addresses outside every map */
	struct pmc__sym unknown_sym;	 /* "[unknown]": a caller outside every map (frames.c) */
	struct pmc__symres unknown_res;	 /* its resolution: every such caller is this one */
	struct pmc__thread *last_thread; /* the last sample's (threads are never freed early) */
	struct pmc__addrmap ip_hist;	 /* struct pmc__symres * → struct ip_count (annotate) */
	struct pmc__addrmap hmap;	 /* key hash → chain of struct hent */
	struct hent **ents;
	size_t nr_ents, alloc_ents;
	bool sorted;
	struct pmc__addrmap dview; /* (kind, event, key) hash → chain of struct dent (opts.html) */
	struct dent **dents;	   /* [nr_dents] in the order they were made */
	size_t nr_dents;
	struct pmc__addrmap stacks; /* hash → chain of struct rstack (opts.folded) */
	struct rstack **stack_list; /* in the order first seen: the exports are reproducible */
	size_t nr_stacks, alloc_stacks;
	size_t nr_attrs;
	char **names;				/* [nr_attrs] */
	struct perf_event_attr *attrs;		/* [nr_attrs] */
	uint64_t *total_period, *total_samples; /* [nr_attrs] */
	uint64_t *throttled;			/* [nr_attrs]: PERF_RECORD_THROTTLE records */
	struct pmc__addrmap streams; /* frequency mode: (file, event, tid) → periods (settle.c) */
	bool has_callchains;
	bool ordered;	       /* some event has times: replay through q */
	struct pmc__ordered q; /* records replayed in time order (perfdata/ordered.h) */
	uint64_t nr_samples, nr_lost, nr_reconstructed, nr_unwound;
	struct rsample { /* opts.keep_samples: every sample in replay order */
		uint64_t ip;
		const struct pmc__sym *sym; /* NULL outside every symbol */
		size_t attr_idx;
	} * seq;
	size_t nr_seq, alloc_seq;
	uint64_t nr_hidden;	    /* samples left out by opts.hide_unresolved */
	bool branch_mode;	    /* opts.branch_stack or a branch key: entries are branches */
	struct pmc__addrmap blocks; /* opts.branch_analysis (bblock.c): hash → struct bblock */
	struct bblock **block_list; /* in the order first seen */
	size_t nr_blocks, alloc_blocks;
	struct pmc__addrmap loops; /* hash → struct bloop */
	struct bloop **loop_list;
	size_t nr_loops, alloc_loops;
	uint64_t nr_stacks_used;     /* stacks the analysis read */
	uint64_t nr_stacks_filtered; /* stacks of events whose filter is not "any": left out */
	char *path;		     /* the files read, joined by ", " */
	uint64_t rank;		     /* the file being read's rank (files.c) */
	size_t nr_files;	     /* files read before this one */
	struct rfile {		     /* what earlier files' entries still point into */
		struct pmc__perfdata *f;
		struct pmc__machine *m;
	} * files;
};

/* report.c */
const char *pmc__report_entry_text(struct pmc_report *r, struct hent *e);
/* frames.c: the sample's frames, leaf first (kernel chain, then unwound user frames). */
size_t pmc__report_frames(struct pmc_report *r, const struct pmc__sample *s, struct rframe *fr);
void pmc__report_frames_free(struct pmc_report *r);
/* files.c: readies r for another file at path (its rank, a fresh machine); checks that a
 * later file's events are the first's. */
int pmc__report_next_file(struct pmc_report *r, const char *path);
int pmc__report_check_events(struct pmc_report *r, struct pmc_file_error *err);
void pmc__report_files_free(struct pmc_report *r);
/* keys.c */
int pmc__report_parse_keys(struct pmc_report *r, const char *sort);
uint64_t pmc__report_key(const struct pmc_report *r, enum rkey k, const struct rctx *c);
int pmc__report_key_text(const struct pmc_report *r, const struct hent *e, char *buf, size_t len);
/* "f+0x1a": an address by function and offset, as addr_from and the branch analyses show it. */
int pmc__report_addr_text(const struct pmc__symres *res, char *buf, size_t len);
/* One key's text for c, as a report column shows it. */
int pmc__report_one_text(enum rkey k, const struct rctx *c, char *buf, size_t len);
const char *pmc__report_key_name(enum rkey k);
/* frames.c: addr (a branch's source or target) in pid's maps at time into *f. */
bool pmc__report_resolve(struct pmc_report *r, uint32_t pid, uint64_t addr, uint64_t time,
			 struct rframe *f);
/* branch.c: branch mode's entries for one sample; the file's check; the analyses' writers. */
int pmc__report_branch_sample(struct pmc_report *r, size_t attr_idx, const struct pmc__sample *s,
			      const struct rctx *base);
int pmc__report_branch_check(struct pmc_report *r, struct pmc_file_error *err);
/*
 * bblock.c: basic blocks and trip counts from one sample's stack (chronological entries; kind:
 * each entry's PERF_BR_* type, 0 where the stack saved none).
 */
int pmc__report_bblock_add(struct pmc_report *r, const struct rframe *from, const struct rframe *to,
			   const uint8_t *kind, size_t n, uint64_t period);
int pmc__report_write_branch_analysis(struct pmc_report *r, enum pmc_report_format fmt, FILE *out);
void pmc__report_bblock_free(struct pmc_report *r);
/* hist.c */
int pmc__report_add_branch(struct pmc_report *r, size_t attr_idx, const struct rctx *c);
int pmc__report_add(struct pmc_report *r, size_t attr_idx, const struct pmc__sample *s,
		    struct rframe *frames, size_t nr_frames, const struct rctx *base);
void pmc__report_sort(struct pmc_report *r);
bool pmc__report_visible(const struct pmc_report *r, const struct hent *e);
/* estimate.c: whether samples of the event may skid past the instruction that caused them. */
bool pmc__report_imprecise(const struct perf_event_attr *a);
/* stacks.c */
int pmc__report_add_stack(struct pmc_report *r, size_t attr_idx, const struct rctx *c,
			  const struct rframe *frames, size_t n, uint64_t period);
void pmc__report_stacks_free(struct pmc_report *r);
/* A frame's function name: the innermost inlined function at its address, else its symbol. */
const char *pmc__report_frame_func(const struct rframe *f);
int pmc__report_write_folded(struct pmc_report *r, FILE *out);
/* pprof.c, speedscope.c, callgrind.c */
int pmc__report_write_pprof(struct pmc_report *r, FILE *out);
int pmc__report_write_speedscope(struct pmc_report *r, FILE *out);
int pmc__report_write_callgrind(struct pmc_report *r, FILE *out);
/* settle.c: each thread's periods in frequency mode, and the period sum of an event's samples
 * taken before they settled (docs/accuracy.md, "When a report gives an estimate"). */
int pmc__report_settle_add(struct pmc_report *r, size_t attr_idx, uint32_t tid, uint64_t period);
uint64_t pmc__report_adapting(const struct pmc_report *r, size_t attr_idx);
void pmc__report_settle_free(struct pmc_report *r);
/*
 * estimate.c: event ai's check (pmc_report__event_check at the report's level), and an entry's
 * estimate under it: false when the event has none (check->reason says why).
 */
void pmc__report_check(struct pmc_report *r, size_t ai, struct pmc_estimate_check *check);
bool pmc__report_entry_interval(const struct pmc_estimate_check *check, uint64_t samples,
				uint64_t period, double *lo, double *hi);
/* json.c */
int pmc__report_write_json(struct pmc_report *r, FILE *out);
/* dview.c: the HTML page's data-address views */
int pmc__report_dview_add(struct pmc_report *r, size_t attr_idx, const struct rctx *c,
			  uint64_t period);
void pmc__report_dview_free(struct pmc_report *r);
/* source.c: source-line heat of the hottest functions, for the HTML page */
json_t *pmc__report_source_json(struct pmc_report *r);
/* html.c */
int pmc__report_write_html(struct pmc_report *r, FILE *out);
/* daddr.c: the Pentium 4 paper's data-address profile from sampled registers. */
bool pmc__daddr_reconstruct(struct pmc__dso *dso, uint64_t vaddr, const struct pmc__sample *s,
			    uint64_t *daddr);

#endif /* PMC_LIB_REPORT_REPORT_H */
