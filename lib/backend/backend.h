/* SPDX-License-Identifier: MIT */
/* The backend ops table: what a counting backend (perf, vpmu) provides to libpmc. */
#ifndef PMC_LIB_BACKEND_BACKEND_H
#define PMC_LIB_BACKEND_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <pmc/count.h>
#include <pmc/event.h>

struct pmc_evsel;
struct pmc_counting;
struct pmc_parse_error;
struct pmc_caps;
struct pmc_sampling;	   /* lib/sample/sampling.h */
struct pmc__sample_params; /* lib/sample/sampling.h */

/*
 * Receives one record of the sample stream (a struct perf_event_header and its body,
 * laid out as in docs/sample-file.md). The bytes are valid only during the call.
 * A negative return stops the drain and is passed on.
 */
typedef int (*pmc__sample_sink_fn)(const void *rec, size_t len, void *arg);

/* Counter resources the pass planner packs events onto. */
enum pmc_slot_class {
	PMC_SLOT_NONE,	   /* unlimited: software events, tracepoints */
	PMC_SLOT_GENERAL,  /* a general-purpose hardware counter */
	PMC_SLOT_DEBUGREG, /* a debug register (hardware breakpoint) */
	/*
	 * Fixed counter 0, 1 or 2 (Intel: instructions, core cycles, reference cycles), falling
	 * back to a general one when taken: each counts one event, so two events that want the
	 * same fixed counter take it and a general one, not two fixed ones.
	 */
	PMC_SLOT_FIXED0,
	PMC_SLOT_FIXED1,
	PMC_SLOT_FIXED2,
	PMC_SLOT_NR,
};
#define PMC_SLOT_FIXED_NR 3

/*
 * One backend. Hooks marked optional may be NULL; pmc__backend_*() wrappers in
 * backend.c turn a NULL hook into -EOPNOTSUPP in one place.
 */
struct pmc_backend_ops {
	const char *name;
	const char *desc;
	/* The backend can time-share counters (perf's multiplexing); false: passes only. */
	bool multiplex;
	/*
	 * A measured program's own reads (regions) use the counters the runner programmed
	 * (vpmu); false: they open counters of their own, which the planner must leave room for.
	 */
	bool regions_reuse_counters;
	/*
	 * open and sample_open honour the list's dry run (struct pmc_evlist_opts: describe,
	 * open nothing, return 0 with *out NULL); false: the generic code refuses a dry run
	 * with -EOPNOTSUPP.
	 */
	bool dry_run;
	/* 0 if usable on this machine, else a negative code with the reason in why. */
	int (*probe)(char *why, size_t len);
	/*
	 * optional: resolve a PMC_EV_SYMBOLIC name (evsel->symbol with its modifiers) or a
	 * PMU name the generic code does not know into evsel->attr. -PMC_E_UNKNOWN_EVENT
	 * with err filled when unknown.
	 */
	int (*resolve)(struct pmc_evsel *evsel, struct pmc_parse_error *err);
	/* Can the resolved event be counted here? 0, or a negative code with why. */
	int (*check)(struct pmc_evsel *evsel, char *why, size_t len);
	/* optional: fill this backend's fields of the capabilities (called once). */
	void (*probe_caps)(struct pmc_caps *caps);
	/* Which counter resource the event takes. */
	enum pmc_slot_class (*classify)(const struct pmc_evsel *evsel);
	/* How many of a resource exist (INT_MAX for unlimited). */
	int (*budget)(enum pmc_slot_class cls);
	/* optional: walk backend-specific names (CPU tables). */
	int (*for_each_known)(pmc_event_fn fn, void *arg);
	/*
	 * Open the events of evlist whose pass is pass (all countable ones when -1) on
	 * target. Allocates the backend's counting state (which embeds struct
	 * pmc_counting first) and returns it in *out.
	 */
	int (*open)(struct pmc_evlist *evlist, const struct pmc_target *target, int pass,
		    struct pmc_counting **out);
	int (*start)(struct pmc_counting *c);
	int (*stop)(struct pmc_counting *c);
	int (*reset)(struct pmc_counting *c);
	/* optional: called once the command has exited (collects results sent at exit). */
	int (*reap)(struct pmc_counting *c);
	/* Read every open event into the counting state's values. */
	int (*read)(struct pmc_counting *c);
	/* optional: the one-syscall group read of pmc_evsel__read_group(). */
	int (*read_group)(struct pmc_counting *c, const struct pmc_evsel *leader,
			  struct pmc_count *values, size_t nr);
	void (*close)(struct pmc_counting *c);
	/*
	 * Sampling (lib/sample/), all optional. sample_open opens evlist's events for
	 * sampling as params says (target, sample_type, period or frequency, ...), leaves
	 * them disabled (or enabled on exec), allocates the backend's state (which embeds
	 * struct pmc_sampling first, with the attrs as opened and the ids of each event)
	 * and returns it in *out.
	 */
	int (*sample_open)(struct pmc_evlist *evlist, const struct pmc__sample_params *params,
			   struct pmc_sampling **out);
	/*
	 * The backend starts a COMMAND target itself (vpmu runs it under valgrind): the caller
	 * does not spawn it, and sample_open spawns params->argv into *params->child.
	 */
	bool sample_spawns;
	int (*sample_enable)(struct pmc_sampling *s);
	int (*sample_disable)(struct pmc_sampling *s);
	/*
	 * Waits up to timeout_ms (-1: forever) until records are pending, the target has
	 * exited or params->wake_fd is readable. Returns 0, or -EINTR on a signal.
	 */
	int (*sample_poll)(struct pmc_sampling *s, int timeout_ms);
	/* Hands every pending record to sink, oldest first per buffer; returns how many. */
	int (*sample_drain)(struct pmc_sampling *s, pmc__sample_sink_fn sink, void *arg);
	void (*sample_close)(struct pmc_sampling *s);
};

/* The backend registry: "perf" first, then "vpmu". Returns NULL for an unknown name. */
const struct pmc_backend_ops *pmc__backend_find(const char *name);
/* Backend i of the registry (NULL past the end). */
const struct pmc_backend_ops *pmc__backend_at(size_t i);

#endif /* PMC_LIB_BACKEND_BACKEND_H */
