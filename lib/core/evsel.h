/* SPDX-License-Identifier: MIT */
/*
 * The layout of an event and of an event list: what event/ builds, count/ opens and the
 * backends read, beside the backend seam (backend.h) that hands them to the backends, so that
 * the seam reads them from its own layer. event/evsel.h declares event/'s functions on them.
 */
#ifndef PMC_LIB_CORE_EVSEL_H
#define PMC_LIB_CORE_EVSEL_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/perf_event.h>
#include <pmc/event.h>

struct pmc_backend_ops;
struct pmc_counting;

/* Modifiers the user wrote explicitly (evsel->mods). */
enum pmc_mod {
	PMC_MOD_U = 1 << 0,
	PMC_MOD_K = 1 << 1,
	PMC_MOD_H = 1 << 2,
	PMC_MOD_P = 1 << 3,	/* any :p, :pp, :ppp; the level is attr.precise_ip */
	PMC_MOD_CMASK = 1 << 4, /* :c=N on a CPU-specific name */
	PMC_MOD_INV = 1 << 5,
	PMC_MOD_EDGE = 1 << 6,
	PMC_MOD_GUEST = 1 << 7,	  /* :G, count in guest only (exclude_host) */
	PMC_MOD_HOST = 1 << 8,	  /* :H, count in host only (exclude_guest) */
	PMC_MOD_IDLE = 1 << 9,	  /* :I, exclude_idle */
	PMC_MOD_PINNED = 1 << 10, /* :D, attr.pinned */
	PMC_MOD_EXCL = 1 << 11,	  /* :e, attr.exclusive */
	PMC_MOD_WEAK = 1 << 12,	  /* :W, a group that does not fit is split (on the leader) */
	PMC_MOD_SREAD = 1 << 13,  /* :S, sample read (perf record's leader sampling) */
	PMC_MOD_PMAX = 1 << 14,	  /* :P, the highest precise level the backend gives */
	PMC_MOD_BPF = 1 << 15,	  /* :b, perf's BPF counters; pmc counts as without it */
};

/*
 * What the terms between an event's slashes ask beyond the encoding (attr carries config*,
 * period and freq): for pmc record, which honours some (record.c), and outputs.
 */
enum pmc_call_graph_term { PMC_CG_UNSET, PMC_CG_NO, PMC_CG_FP, PMC_CG_DWARF, PMC_CG_LBR };
struct pmc_evsel_terms {
	unsigned written; /* 1 << enum pmc_term_id of every builtin term written */
	enum pmc_call_graph_term call_graph;
	uint64_t stack_size; /* stack-size=N */
	uint64_t max_stack;  /* max-stack=N */
	uint64_t nr;	     /* nr=N */
	uint64_t aux_sample_size;
	bool time, inherit, overwrite, percore, aux_output;
	char *branch_type;    /* branch_type=... */
	uint64_t branch_mode; /* its PERF_SAMPLE_BRANCH_* bits; 0 for "no" */
	char *metric_id;      /* metric-id=... */
};

struct pmc_evsel {
	struct pmc_evlist *evlist;
	size_t idx; /* position in evlist->entries */
	char *name; /* the event as written, one event without group braces */
	enum pmc_event_kind kind;
	/*
	 * The backend-neutral encoding: type, config, config1, config2, bp_addr/bp_len/bp_type
	 * and exclude_user/kernel/hv, precise_ip. Counting flags (disabled, inherit,
	 * read_format, ...) are set by count/ when the event is opened, not here.
	 */
	struct perf_event_attr attr;
	char *pmu;		    /* PMU name (PMU-qualified and symbolic events) or NULL */
	char *symbol;		    /* symbolic (CPU-specific) name without modifiers, or NULL */
	unsigned mods;		    /* enum pmc_mod bits written explicitly */
	int cmask;		    /* :c=N, when PMC_MOD_CMASK */
	int offset;		    /* offset of this event in the parsed string */
	struct pmc_evsel *leader;   /* group leader; self when ungrouped */
	size_t nr_members;	    /* group size, set on the leader (1 when ungrouped) */
	int pass;		    /* planner: pass number, -1 when not countable */
	int check_err;		    /* cached pmc_evsel__check() verdict; 1 = not yet judged */
	char *check_why;	    /* its reason, when check_err < 0 */
	char *check_note;	    /* how the check changed its levels, in words, or NULL */
	char *terms;		    /* backend PMUs: their own terms, "k=v,k", or NULL */
	int terms_off;		    /* where terms was written, when written verbatim; else -1 */
	bool by_backend;	    /* a PMU not in sysfs: the backend resolves it */
	struct pmc_evsel_terms cfg; /* builtin terms beyond the encoding */
	char *group_name;	    /* on a leader: NAME of NAME{...}, or NULL */
	double scale;		    /* PMU alias .scale file, 0 when none */
	char *unit;		    /* PMU alias .unit file, or NULL */
	int tool;		    /* PMC_EV_TOOL: enum pmc_tool */
	char *filter;		    /* tracepoints: pmc_evsel__set_filter()'s filter, or NULL */
	/*
	 * The load-latency threshold the event asks for: perf's ldlat= term (a sysfs format,
	 * config1 on Intel's cpu PMU), libpfm4's :ldlat=N, vpmu's ldlat=; 0 for none. A core has
	 * one threshold register (MSR 0x3f6), so the planner keeps events of different
	 * thresholds in different passes (docs/events.md, "Load latency").
	 */
	unsigned ldlat;
	/* A generic event opened per core PMU (docs/pmus.md, "Hybrid"): the event as written
	 * ("cycles"), which perf's --hybrid-merge prints; NULL otherwise. */
	char *hybrid_of;
};

/* The tool events (PMC_EV_TOOL), perf's enum perf_tool_event: what pmc measures itself. */
enum pmc_tool {
	PMC_TOOL_NONE,
	PMC_TOOL_DURATION_TIME, /* wall time of the run, ns */
	PMC_TOOL_USER_TIME,	/* the command's user CPU time (rusage), ns */
	PMC_TOOL_SYSTEM_TIME,	/* the command's system CPU time (rusage), ns */
};

struct pmc_evlist {
	const struct pmc_backend_ops *backend;
	struct pmc_counting *counting; /* open counters, or NULL */
	unsigned priv;		       /* default privilege mask for events without :u/:k/:h */
	pmc_dry_run_fn dry_run;	       /* struct pmc_evlist_opts: NULL unless a dry run */
	void *dry_run_arg;
	bool dry_run_attrs;
	enum pmc_evlist_use use; /* what the terms and modifiers must suit */
	char cputype[64];	 /* --cputype's core PMU ("cpu_atom"), "" for every one */
	struct pmc_evsel **entries;
	size_t nr, alloc;
};

#endif /* PMC_LIB_CORE_EVSEL_H */
