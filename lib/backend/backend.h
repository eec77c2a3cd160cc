/* SPDX-License-Identifier: MIT */
/* The backend ops table: what a counting backend (perf, vpmu) provides to libpmc. */
#ifndef PMC_LIB_BACKEND_BACKEND_H
#define PMC_LIB_BACKEND_BACKEND_H

#include <stddef.h>
#include <pmc/count.h>
#include <pmc/event.h>

struct pmc_evsel;
struct pmc_counting;
struct pmc_parse_error;
struct pmc_caps;

/* Counter resources the pass planner packs events onto. */
enum pmc_slot_class {
	PMC_SLOT_NONE,      /* unlimited: software events, tracepoints */
	PMC_SLOT_GENERAL,   /* a general-purpose hardware counter */
	PMC_SLOT_FIXED,     /* a fixed counter, falling back to a general one when taken */
	PMC_SLOT_DEBUGREG,  /* a debug register (hardware breakpoint) */
	PMC_SLOT_NR,
};

/*
 * One backend. Hooks marked optional may be NULL; pmc__backend_*() wrappers in
 * backend.c turn a NULL hook into -EOPNOTSUPP in one place.
 */
struct pmc_backend_ops {
	const char *name;
	const char *desc;
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
};

/* The backend registry: "perf" first, then "vpmu". Returns NULL for an unknown name. */
const struct pmc_backend_ops *pmc__backend_find(const char *name);
/* Backend i of the registry (NULL past the end). */
const struct pmc_backend_ops *pmc__backend_at(size_t i);

#endif /* PMC_LIB_BACKEND_BACKEND_H */
