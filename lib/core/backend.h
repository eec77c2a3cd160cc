/* SPDX-License-Identifier: MIT */
/*
 * The backend seam: the ops table a backend (lib/backend/<name>/) fills, the registry, and
 * one wrapper per hook. Generic code calls the wrappers, never a hook: a hook a backend
 * leaves NULL becomes -EOPNOTSUPP (or the neutral answer its wrapper documents) here, in
 * one place.
 */
#ifndef PMC_LIB_CORE_BACKEND_H
#define PMC_LIB_CORE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pmc/count.h>
#include <pmc/event.h>

struct pmc_evsel;
struct pmc_counting;
struct pmc_parse_error;
struct pmc_caps;
struct pmc_backend_caps;
struct pmc_cap_check;
struct pmc_sampling;	   /* core/sampling.h */
struct pmc__sample_params; /* core/sampling.h */

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
 * Registers an event programs besides its counter, shared by the core's events: a core holds
 * one value per register at a time, so the planner keeps events that need more distinct
 * values than registers in different passes (count/xreg.c).
 */
enum pmc_xreg {
	PMC_XREG_LDLAT,	  /* the load-latency threshold (evsel->ldlat): one register */
	PMC_XREG_OFFCORE, /* Intel's offcore response matrix (config1): one or two registers */
	PMC_XREG_NR,
};
#define PMC_XREG_MAX 2 /* the most registers of one kind a core has */

/*
 * One backend. Hooks marked optional may be NULL; the pmc__backend_*() wrappers below turn
 * a NULL hook into -EOPNOTSUPP or their documented neutral answer. The flags are the
 * backend's traits, read through their wrappers too.
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
	/*
	 * Counters can be read, enabled and disabled while the target runs (intervals, delays,
	 * control commands); false: counts arrive when the command ends.
	 */
	bool live;
	/*
	 * Issue slots per cycle, for top-down metrics (#slots, docs/metrics.md); 0: not
	 * declared, and then 4, the width Intel's level-1 formulas assume.
	 */
	unsigned issue_width;
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
	/*
	 * optional: describe this backend on this machine in out (usable, why not, where
	 * found, its checks as pmc doctor shows them); machine holds the machine's part,
	 * already filled. Called once; out->name is set.
	 */
	void (*probe_caps)(const struct pmc_caps *machine, struct pmc_backend_caps *out);
	/*
	 * optional: why opening evlist on target was refused (-EACCES, -EPERM): the rule that
	 * refused, the setting in effect and what would allow it, written to why. Returns
	 * -PMC_E_PARANOID or -EACCES with why written, or -ENOENT with nothing to say.
	 */
	int (*why_denied)(struct pmc_evlist *evlist, const struct pmc_target *target, char *why,
			  size_t len);
	/*
	 * optional: whether the kernel takes filter for the tracepoint evsel (tried now, so that
	 * a rejection is said before a run). 0, or -EINVAL with why.
	 */
	int (*check_filter)(struct pmc_evsel *evsel, const char *filter, char *why, size_t len);
	/* Which counter resource the event takes. */
	enum pmc_slot_class (*classify)(const struct pmc_evsel *evsel);
	/* How many of a resource exist (INT_MAX for unlimited). */
	int (*budget)(enum pmc_slot_class cls);
	/*
	 * optional: the value evsel programs into a register of kind xreg other than
	 * PMC_XREG_LDLAT (true, with how many such registers a core has, at most PMC_XREG_MAX, in
	 * *nr), or false when it takes none.
	 */
	bool (*extra_reg)(const struct pmc_evsel *evsel, enum pmc_xreg xreg, uint64_t *value,
			  int *nr);
	/*
	 * optional: whether the kernel takes a generic event on the PMU of type pmu_type through
	 * the extended type (PERF_TYPE_HARDWARE, config (pmu_type << 32) | id), probed on this
	 * machine once per type as perf 6.6 probes it: 1, 0, or a negative errno when the probe
	 * cannot tell (docs/pmus.md, "Hybrid").
	 */
	int (*extended_type)(uint32_t pmu_type);
	/* optional: walk backend-specific names (CPU tables). */
	int (*for_each_known)(pmc_event_fn fn, void *arg);
	/*
	 * optional: the CPU model the backend counts on now, as a column of the PAPI preset
	 * table names it ("corei7": data/presets/papi.tsv), or NULL when no column is its.
	 */
	const char *(*preset_model)(void);
	/*
	 * optional: the CPU model the backend counts on now, as the model column of the shipped
	 * metric files' index names it (data/metrics/index.tsv: "corei7", "pentium", ...), or
	 * NULL when no row is for it. Without the hook, preset_model's answer.
	 */
	const char *(*cpu_model)(void);
	/*
	 * optional: the event pmc record samples when none is named (perf's own choice: cycles
	 * where a hardware PMU counts it, else cpu-clock); NULL: "cycles".
	 */
	const char *(*sample_default)(void);
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
	/* optional: switches counting on or off, of only that event (NULL: all), any target. */
	int (*set_enabled)(struct pmc_counting *c, const struct pmc_evsel *only, bool on);
	/* optional: called once the command has exited (collects results sent at exit). */
	int (*reap)(struct pmc_counting *c);
	/* Read every open event into the counting state's values. */
	int (*read)(struct pmc_counting *c);
	/* optional: the one-syscall group read of pmc_evsel__read_group(). */
	int (*read_group)(struct pmc_counting *c, const struct pmc_evsel *leader,
			  struct pmc_count *values, size_t nr);
	void (*close)(struct pmc_counting *c);
	/*
	 * Sampling (lib/record/), all optional. sample_open opens evlist's events for
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

/* ---- the wrappers: generic code reaches a backend only through these ---- */

const char *pmc__backend_name(const struct pmc_backend_ops *b);
/* Traits: false when the backend does not say otherwise. */
bool pmc__backend_multiplexes(const struct pmc_backend_ops *b);
bool pmc__backend_regions_reuse_counters(const struct pmc_backend_ops *b);
bool pmc__backend_can_dry_run(const struct pmc_backend_ops *b);
bool pmc__backend_live(const struct pmc_backend_ops *b);
/* Issue slots per cycle: the backend's issue_width, 4 when it declares none. */
unsigned pmc__backend_issue_width(const struct pmc_backend_ops *b);
bool pmc__backend_spawns_for_sampling(const struct pmc_backend_ops *b);
const char *pmc__backend_sample_default(const struct pmc_backend_ops *b);
/* The backend can sample (it has sample_open). */
bool pmc__backend_can_sample(const struct pmc_backend_ops *b);

/* resolve: -PMC_E_UNKNOWN_EVENT without the hook (the name is unknown to this backend). */
int pmc__backend_resolve(const struct pmc_backend_ops *b, struct pmc_evsel *evsel,
			 struct pmc_parse_error *err);
/* check: 0 without the hook (every resolved event can be counted). */
int pmc__backend_check(const struct pmc_backend_ops *b, struct pmc_evsel *evsel, char *why,
		       size_t len);
/* probe_caps: out->name set, and usable without the hook (it claims nothing else). */
void pmc__backend_probe_caps(const struct pmc_backend_ops *b, const struct pmc_caps *machine,
			     struct pmc_backend_caps *out);
/* Appends a check to out (nothing when its PMC_CAPS_MAX_CHECKS are taken); returns it or NULL. */
struct pmc_cap_check *pmc__caps_add_check(struct pmc_backend_caps *out, const char *key,
					  const char *name, bool ok);
/* why_denied: -ENOENT (nothing to say) without the hook. */
int pmc__backend_why_denied(const struct pmc_backend_ops *b, struct pmc_evlist *evlist,
			    const struct pmc_target *target, char *why, size_t len);
/* check_filter: -EOPNOTSUPP (no filters) without the hook. */
int pmc__backend_check_filter(const struct pmc_backend_ops *b, struct pmc_evsel *evsel,
			      const char *filter, char *why, size_t len);
/* classify: PMC_SLOT_NONE (unlimited) without the hook. */
enum pmc_slot_class pmc__backend_classify(const struct pmc_backend_ops *b,
					  const struct pmc_evsel *evsel);
/* budget: INT_MAX (unlimited) without the hook. */
int pmc__backend_budget(const struct pmc_backend_ops *b, enum pmc_slot_class cls);
/*
 * extra_reg: the load-latency threshold is evsel->ldlat (one register) on every backend; other
 * kinds false without the hook.
 */
bool pmc__backend_extra_reg(const struct pmc_backend_ops *b, const struct pmc_evsel *evsel,
			    enum pmc_xreg xreg, uint64_t *value, int *nr);
/* The backend's extended_type hook; -EOPNOTSUPP without one. */
int pmc__backend_extended_type(const struct pmc_backend_ops *b, uint32_t pmu_type);
/* for_each_known: 0 (nothing to walk) without the hook. */
int pmc__backend_for_each_known(const struct pmc_backend_ops *b, pmc_event_fn fn, void *arg);
/* preset_model: NULL (the generic column only) without the hook. */
const char *pmc__backend_preset_model(const struct pmc_backend_ops *b);
/* cpu_model: preset_model's answer without the hook. */
const char *pmc__backend_cpu_model(const struct pmc_backend_ops *b);

/*
 * Counting, on the state b opened (b is that state's ops): -EOPNOTSUPP without the hook,
 * except reap (0: nothing to collect).
 */
int pmc__backend_open(const struct pmc_backend_ops *b, struct pmc_evlist *evlist,
		      const struct pmc_target *target, int pass, struct pmc_counting **out);
int pmc__backend_start(const struct pmc_backend_ops *b, struct pmc_counting *c);
int pmc__backend_stop(const struct pmc_backend_ops *b, struct pmc_counting *c);
int pmc__backend_reset(const struct pmc_backend_ops *b, struct pmc_counting *c);
int pmc__backend_set_enabled(const struct pmc_backend_ops *b, struct pmc_counting *c,
			     const struct pmc_evsel *only, bool on);
int pmc__backend_reap(const struct pmc_backend_ops *b, struct pmc_counting *c);
int pmc__backend_read(const struct pmc_backend_ops *b, struct pmc_counting *c);
int pmc__backend_read_group(const struct pmc_backend_ops *b, struct pmc_counting *c,
			    const struct pmc_evsel *leader, struct pmc_count *values, size_t nr);
/* close: frees c; accepts NULL. */
void pmc__backend_close(const struct pmc_backend_ops *b, struct pmc_counting *c);

/* Sampling: -EOPNOTSUPP without the hook; disable and close do nothing without theirs. */
int pmc__backend_sample_open(const struct pmc_backend_ops *b, struct pmc_evlist *evlist,
			     const struct pmc__sample_params *params, struct pmc_sampling **out);
int pmc__backend_sample_enable(const struct pmc_backend_ops *b, struct pmc_sampling *s);
int pmc__backend_sample_disable(const struct pmc_backend_ops *b, struct pmc_sampling *s);
int pmc__backend_sample_poll(const struct pmc_backend_ops *b, struct pmc_sampling *s,
			     int timeout_ms);
int pmc__backend_sample_drain(const struct pmc_backend_ops *b, struct pmc_sampling *s,
			      pmc__sample_sink_fn sink, void *arg);
/* sample_close: frees s; accepts NULL. */
void pmc__backend_sample_close(const struct pmc_backend_ops *b, struct pmc_sampling *s);

#endif /* PMC_LIB_CORE_BACKEND_H */
