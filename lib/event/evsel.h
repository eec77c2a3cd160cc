/* SPDX-License-Identifier: MIT */
/* Internal layout of events and event lists, shared by event/, count/ and the backends. */
#ifndef PMC_LIB_EVENT_EVSEL_H
#define PMC_LIB_EVENT_EVSEL_H

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

/* perf's builtin terms (docs/events.md, "Terms"), in parse-events.l's order. */
enum pmc_term_id {
	PMC_TERM_CONFIG,
	PMC_TERM_CONFIG1,
	PMC_TERM_CONFIG2,
	PMC_TERM_NAME,
	PMC_TERM_PERIOD,
	PMC_TERM_FREQ,
	PMC_TERM_BRANCH_TYPE,
	PMC_TERM_TIME,
	PMC_TERM_CALL_GRAPH,
	PMC_TERM_STACK_SIZE,
	PMC_TERM_MAX_STACK,
	PMC_TERM_NR,
	PMC_TERM_INHERIT,
	PMC_TERM_NO_INHERIT,
	PMC_TERM_OVERWRITE,
	PMC_TERM_NO_OVERWRITE,
	PMC_TERM_PERCORE,
	PMC_TERM_AUX_OUTPUT,
	PMC_TERM_AUX_SAMPLE_SIZE,
	PMC_TERM_METRIC_ID,
	PMC_TERM_DRV, /* @name[=value], a driver configuration term */
	PMC_TERM_NR_IDS,
};

/* A builtin term's name as written ("call-graph"). */
const char *pmc__term_name(enum pmc_term_id id);

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

/*
 * The event's id within PERF_TYPE_HARDWARE or PERF_TYPE_HW_CACHE without the extended type
 * (config[63:32], a hybrid core PMU's type; docs/pmus.md, "Hybrid"); config for other types.
 */
uint64_t pmc__event_hw_id(const struct pmc_evsel *evsel);

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

/*
 * Events that happen only on the kernel's side (context switches, CPU migrations, cgroup
 * switches, every tracepoint): the list's default privilege does not apply to them, they
 * count at every level unless :u/:k/:h say otherwise (perf's rule).
 */
bool pmc__event_kernel_side(const struct pmc_evsel *evsel);
/* A kernel-side event that counts nothing when the kernel is excluded (all of them but the
 * syscalls:* tracepoints, which the kernel fires with the task's user registers). */
bool pmc__event_user_blind(const struct pmc_evsel *evsel);
/* Whether the user wrote :u, :k or :h on the event (or its group): its levels are the user's. */
bool pmc__event_levels_written(const struct pmc_evsel *evsel);

/*
 * The rules an encoding breaks that need no kernel to say (breakpoint lengths, D or e on a
 * group member, an uncore event sampled or grouped with another PMU's): 0, or -PMC_E_UNSUPPORTED
 * with why written. Part of pmc_evsel__check().
 */
int pmc__evsel_static_check(const struct pmc_evsel *evsel, char *why, size_t len);

/*
 * Makes err (negative) and why the event's cached verdict, as pmc_evsel__check() would have
 * given them, for a refusal found after the check (the kernel's answer at open); the event
 * and the rest of its group leave their pass (pass -1), as the planner leaves out a group
 * with an uncountable member. Returns 0, or -ENOMEM when why could not be copied (the
 * verdict is set all the same, without a reason).
 */
int pmc__evsel_refuse(struct pmc_evsel *evsel, int err, const char *why);

#endif /* PMC_LIB_EVENT_EVSEL_H */
