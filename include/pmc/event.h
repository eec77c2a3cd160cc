/* SPDX-License-Identifier: MIT */
/* Events: parse perf-compatible event strings into an event list (grammar: docs/events.md). */
#ifndef PMC_EVENT_H
#define PMC_EVENT_H

#include <stdio.h>
#include <pmc/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pmc_evlist; /* an ordered list of events, some of them in groups */
struct pmc_evsel;  /* one event of an evlist */

enum pmc_event_kind {
	PMC_EV_HARDWARE,   /* generic hardware: cycles, instructions, ... */
	PMC_EV_SOFTWARE,   /* task-clock, page-faults, ... */
	PMC_EV_CACHE,	   /* generic cache: L1-dcache-load-misses, ... */
	PMC_EV_RAW,	   /* rNNNN */
	PMC_EV_PMU,	   /* pmu/term=val,.../ */
	PMC_EV_TRACEPOINT, /* subsys:name */
	PMC_EV_BREAKPOINT, /* mem:ADDR[/LEN][:rwx] */
	PMC_EV_SYMBOLIC,   /* CPU-specific name resolved by the backend (libpfm4 on perf) */
	/*
	 * PAPI preset name (PAPI_TOT_INS), in pmc_evlist__for_each_known() only: a parsed
	 * preset is the event it stands for on the list's backend, and has that event's kind.
	 */
	PMC_EV_PRESET,
	/*
	 * A time pmc measures itself around each run of the command, as perf's tool events:
	 * duration_time (wall time), user_time and system_time (the command's rusage), in ns.
	 * No backend opens it; it is counted by pmc_evlist__open()'s list (docs/events.md,
	 * "Tool events").
	 */
	PMC_EV_TOOL,
};

/*
 * Returns "hardware", "software", "cache", "raw", "pmu", "tracepoint", "breakpoint", "cpu",
 * "preset", "tool".
 */
PMC_API const char *pmc_event_kind__name(enum pmc_event_kind kind);

/* Where and why an event string failed to parse. */
struct pmc_parse_error {
	int offset;	     /* byte offset of the fault in the parsed string */
	char msg[192];	     /* what was found and what was expected */
	int nr_suggest;	     /* for unknown names: how many entries of suggest are set */
	char suggest[3][96]; /* the closest known names, best first */
};

/* Privilege levels counted by events that carry no :u/:k/:h modifier. */
enum pmc_priv {
	PMC_PRIV_USER = 1 << 0,
	PMC_PRIV_KERNEL = 1 << 1,
	PMC_PRIV_HV = 1 << 2,
};

/*
 * What an event list is for (struct pmc_evlist_opts' use). Terms and modifiers that only
 * steer the other use are refused while parsing, with the offset of the term, as perf stat
 * refuses sampling terms (docs/events.md, "Terms").
 */
enum pmc_evlist_use {
	PMC_USE_ANY,	/* everything the grammar accepts parses (pmc list) */
	PMC_USE_COUNT,	/* counting (pmc stat): perf stat's terms */
	PMC_USE_SAMPLE, /* sampling (pmc record): the terms and modifiers pmc record honours */
};

/* Options of pmc_evlist__new() (sz: see "Options structs" in pmc/common.h). */
/*
 * Receives one description of a dry run (struct pmc_evlist_opts' dry_run): whole lines,
 * NUL-terminated, valid only during the call.
 */
typedef void (*pmc_dry_run_fn)(const char *text, void *arg);

struct pmc_evlist_opts {
	size_t sz;	     /* sizeof(struct pmc_evlist_opts) */
	const char *backend; /* "perf" (NULL) or "vpmu": resolves names and judges events */
	unsigned priv; /* default privilege mask, 0 means PMC_PRIV_USER (run_p5mon's default) */
	/*
	 * Dry run: when set, the list never touches the kernel. pmc_evsel__check() accepts
	 * every encoding the parser gives without a trial open; pmc_evlist__open() and
	 * pmc_record__open() open nothing, start no command, create no file, and hand dry_run
	 * a description of each call they would make instead, then return 0 with nothing open
	 * (pmc_record__open() sets *out to NULL). The perf backend describes each
	 * perf_event_open(2) call in the layout of perf's -vv output: with dry_run_attrs, a
	 * "perf_event_attr:" block of the non-zero fields; always the line
	 * "sys_perf_event_open: pid P  cpu C  group_fd G  flags 0xF = FD", where FD is a
	 * placeholder counted from 3 per open (a member's group_fd names its leader's) and a
	 * command that would be started shows as "pid <command>" (docs/events.md, "Dry runs").
	 * A backend that cannot describe its calls (vpmu) refuses to open with -EOPNOTSUPP.
	 */
	pmc_dry_run_fn dry_run;
	void *dry_run_arg;
	bool dry_run_attrs;
	enum pmc_evlist_use use; /* PMC_USE_ANY (0) unless the caller says */
	/*
	 * perf's --cputype: on a hybrid machine, generic events only on this core type ("core",
	 * "atom", or a core PMU's name such as "cpu_atom"); NULL: on every core PMU
	 * (docs/pmus.md, "Hybrid").
	 */
	const char *cputype;
};

/*
 * Creates an empty event list bound to a backend. Returns 0, -ENOMEM, -PMC_E_NOBACKEND, or
 * -EINVAL for options that are not valid (an unknown use).
 */
PMC_API int pmc_evlist__new(const struct pmc_evlist_opts *opts, struct pmc_evlist **out);

/* Frees the list, its events, and any counters still open on it. Accepts NULL. */
PMC_API void pmc_evlist__delete(struct pmc_evlist *evlist);

/*
 * Parses str (one or more comma-separated events and {groups}, perf 6.1's grammar:
 * docs/events.md) and appends the events. Returns 0; -PMC_E_PARSE for a syntax error, a
 * term's value of the wrong type, or a term or modifier the list's use refuses;
 * -PMC_E_UNKNOWN_EVENT for a name, PMU or term that is known nowhere, with err (if not NULL)
 * saying where and suggesting names; -PMC_E_FORMAT, -PMC_E_NOTRACEFS; -ENOMEM.
 * On failure the list is left as it was. Parsing does not judge whether an event can be
 * counted here: see pmc_evsel__check().
 */
PMC_API int pmc_evlist__parse(struct pmc_evlist *evlist, const char *str,
			      struct pmc_parse_error *err);

/* Number of events in the list. */
PMC_API size_t pmc_evlist__nr(const struct pmc_evlist *evlist);

/* The idx-th event (0-based), or NULL if out of range. The list owns it. */
PMC_API struct pmc_evsel *pmc_evlist__at(const struct pmc_evlist *evlist, size_t idx);

/* Name of the backend the list is bound to. */
PMC_API const char *pmc_evlist__backend(const struct pmc_evlist *evlist);

/*
 * The event to sample when none is named, as the list's backend chooses it: "cycles" on vpmu
 * (its modelled cycles), and on perf "cycles" where a hardware PMU counts it, else
 * "cpu-clock". A static string, never NULL.
 */
PMC_API const char *pmc_evlist__default_event(const struct pmc_evlist *evlist);

/* The event as the user wrote it (normalised spacing); owned by the event. */
PMC_API const char *pmc_evsel__name(const struct pmc_evsel *evsel);
/*
 * On a hybrid machine, a generic event written once is one event per core PMU, each named
 * "pmu/event/" (docs/pmus.md, "Hybrid"): the event as written ("cycles") for each of them;
 * NULL for every other event. Owned by the event.
 */
PMC_API const char *pmc_evsel__hybrid_name(const struct pmc_evsel *evsel);
PMC_API enum pmc_event_kind pmc_evsel__kind(const struct pmc_evsel *evsel);
/*
 * Writes into buf the canonical name of the generic event the event counts, without
 * modifiers, whatever alias wrote it: "cpu-cycles" for cycles:u, "L1-dcache-load-misses"
 * for l1d-load-miss, "duration_time". Returns 0, or -ENOENT (buf "") for an event that is no
 * generic hardware, software, cache or tool event (raw, PMU, tracepoint, breakpoint,
 * CPU-specific), -EINVAL for a NULL or empty buf. A name too long for len is cut.
 */
PMC_API int pmc_evsel__generic_name(const struct pmc_evsel *evsel, char *buf, size_t len);
/*
 * The scale and unit of the event's PMU alias (its events/NAME.scale and .unit files), which
 * counts are shown in, as perf shows them: power/energy-pkg/ counts 2^-32 joules, its scale
 * 2.3283064365386962890625e-10 and unit "Joules". 1 and "" for an event without them. The
 * unit is owned by the event.
 */
PMC_API double pmc_evsel__scale(const struct pmc_evsel *evsel);
PMC_API const char *pmc_evsel__unit(const struct pmc_evsel *evsel);
/*
 * The event whose output line this event's values join, as perf merges aliases: the first of
 * the events one written event became on several units of a PMU (uncore_imc/cas_count_read/
 * on uncore_imc_0..5, an alias that several uncore PMUs have), with the same name, scale and
 * unit; the event itself when it is first or alone. Owned by the list.
 */
PMC_API const struct pmc_evsel *pmc_evsel__merged_into(const struct pmc_evsel *evsel);
/*
 * Writes into buf the event's name on its own PMU, as perf's --no-merge shows it: the PMU's
 * name and the terms ("uncore_imc_0/cas_count_read/" for uncore_imc/cas_count_read/), the
 * name and the PMU in brackets for an alias written alone ("cas_count_read [uncore_imc_0]"),
 * else the name. Returns 0, or -EINVAL for a NULL or empty buf; a name too long is cut.
 */
PMC_API int pmc_evsel__unit_name(const struct pmc_evsel *evsel, char *buf, size_t len);
/*
 * Writes into buf what the sysfs PMU named pmu is (docs/pmus.md, "Discovery"): its kind
 * (core, uncore, other), type and, where a cpus or cpumask file says, its CPUs ("uncore PMU,
 * type 30, counted on CPUs 0,8"). Returns 0, -ENOENT (buf "") for no such PMU under the
 * sysfs root, -EINVAL for a NULL or empty buf.
 */
PMC_API int pmc_pmu_describe(const char *pmu, char *buf, size_t len);
/* Index of the event in its list. */
PMC_API size_t pmc_evsel__idx(const struct pmc_evsel *evsel);
/* The group leader (the event itself when it is not in a group). */
PMC_API struct pmc_evsel *pmc_evsel__leader(const struct pmc_evsel *evsel);
/* Number of events in this event's group (1 when ungrouped). */
PMC_API size_t pmc_evsel__group_size(const struct pmc_evsel *evsel);
/*
 * Whether the event happens only on the kernel's side (context-switches, cpu-migrations,
 * cgroup-switches, every tracepoint): the list's default privilege does not apply to it, it
 * counts where it happens unless :u, :k or :h say otherwise (docs/events.md).
 */
PMC_API bool pmc_evsel__kernel_side(const struct pmc_evsel *evsel);
/*
 * Whether the event counts its whole host rather than a task or a CPU: an uncore PMU's (a
 * memory controller, RAPL's energy, a package's C-state residency: a PMU with a cpumask in
 * sysfs), counted system-wide on the PMU's cpumask CPUs.
 */
PMC_API bool pmc_evsel__per_host(const struct pmc_evsel *evsel);
struct pmc_launcher;
/*
 * Under an MPI launcher (l from pmc_launcher_detect()), the rule for per-host events: the
 * host's lowest local rank (0) counts them; in any other local rank they are refused with that
 * reason, so that pmc merge, which sums over ranks, counts each host once (docs/mpi.md,
 * "Per-host events"). Outside a launcher, in local rank 0, or when the launcher does not say
 * the local rank, nothing changes. Returns how many events were refused, or -ENOMEM.
 */
PMC_API int pmc_evlist__mpi_per_host(struct pmc_evlist *evlist, const struct pmc_launcher *l);
/*
 * The privilege levels the event counts (enum pmc_priv bits), as it is opened: after
 * pmc_evsel__check(), which may have narrowed them (see pmc_evsel__note()).
 */
PMC_API unsigned pmc_evsel__priv(const struct pmc_evsel *evsel);
/*
 * After pmc_evsel__check(): how the check changed the way an accepted event counts, in words
 * for its output line ("counted at user level: perf_event_paranoid is 2 for uid 1000 ..."),
 * or NULL when it counts as written. Owned by the event.
 */
PMC_API const char *pmc_evsel__note(const struct pmc_evsel *evsel);

/*
 * The name of the event's group when it was written NAME{...} (perf's named groups), on
 * every member; NULL otherwise. Owned by the group's leader.
 */
PMC_API const char *pmc_evsel__group_name(const struct pmc_evsel *evsel);

/*
 * Writes the event's encoding (perf_event_attr type, config, config1, config2, and the
 * modifiers) into buf as "type=4,config=0x3c,..." so that outputs can record it.
 * Returns the length it needed, like snprintf.
 */
PMC_API int pmc_evsel__encoding(const struct pmc_evsel *evsel, char *buf, size_t len);

/*
 * Judges whether the event can be counted on this machine with the list's backend.
 * Returns 0, or a negative code (-PMC_E_NOPMU, -PMC_E_UNSUPPORTED, -PMC_E_NOTRACEFS,
 * -PMC_E_PARANOID, -EACCES, ...) with why and what to do written to why (if not NULL).
 * The verdict is computed once and cached; opening the list may still refuse the event
 * (pmc_evlist__open()), which then becomes its verdict.
 *
 * A kernel-side event without :u, :k or :h, in a list whose default privilege leaves out
 * the kernel, is judged by what the kernel lets this caller count (perf backend, probed):
 * where kernel-level counting is refused (perf_event_paranoid >= 2 without CAP_PERFMON),
 * an event that also fires at user level (syscalls:*) is accepted at user level, said by
 * pmc_evsel__note(), and one that would read 0 there (context-switches, sched:*) is refused
 * with -PMC_E_PARANOID and the setting named.
 */
PMC_API int pmc_evsel__check(struct pmc_evsel *evsel, char *why, size_t len);

/*
 * Sets a tracepoint's filter (perf's --filter: "fd == 1 && count > 0", the kernel's
 * ftrace filter syntax over the tracepoint's fields), applied to every counter of the event
 * when the list opens; NULL removes it. The backend tries it first where it can, so that a
 * filter the kernel rejects is said now: returns 0; -EINVAL with why when the event is not a
 * tracepoint or the kernel rejects the filter (why names the fields' format file);
 * -EOPNOTSUPP when the backend takes no filters; -ENOMEM. why may be NULL.
 */
PMC_API int pmc_evsel__set_filter(struct pmc_evsel *evsel, const char *filter, char *why,
				  size_t len);
/* The event's filter (pmc_evsel__set_filter()), or NULL. Valid until it changes. */
PMC_API const char *pmc_evsel__filter(const struct pmc_evsel *evsel);

/*
 * Walks the names pmc knows for the list's backend: generic, software and cache events,
 * the forms of breakpoints, PMU events from sysfs, tracepoints, CPU-specific names and PAPI
 * presets. fn is called once per name, with info and its strings valid during the call
 * only; a non-zero return stops the walk and is returned.
 */
struct pmc_event_info {
	const char *name;
	enum pmc_event_kind kind;
	const char *pmu;  /* PMU or table the name comes from, or NULL */
	const char *desc; /* one-line description, or NULL */
	/* The canonical name when name is an alias of it ("cs" of "context-switches"), or NULL. */
	const char *alias_of;
	/*
	 * PMC_EV_PRESET: the event the preset stands for on the list's backend
	 * ("instructions"), or NULL when it has none there (parsing it says why).
	 */
	const char *maps_to;
	/*
	 * When name is a form rather than a name ("mem:ADDR[/LEN]:w"): an event string of that
	 * form ("mem:0x1000:w"), which parses; NULL for names.
	 */
	const char *example;
};
typedef int (*pmc_event_fn)(const struct pmc_event_info *info, void *arg);
PMC_API int pmc_evlist__for_each_known(const struct pmc_evlist *evlist, pmc_event_fn fn, void *arg);

/* One event as pmc list shows it: what the list knows of it, and whether it counts here. */
struct pmc_event_listed {
	struct pmc_event_info info;
	bool supported;	 /* pmc_evsel__check() let it be counted */
	const char *why; /* not supported: why (pmc_evsel__check()'s text) */
};

/*
 * Writes pmc list's JSON (schema pmc-list/1) of events[nr], counted by backend (NULL: "perf"),
 * to f, followed by a line break. Returns 0, -ENOMEM or -EIO.
 */
PMC_API int pmc_event_list__write_json(const struct pmc_event_listed *events, size_t nr,
				       const char *backend, FILE *f);

/*
 * "Did you mean" for names of the caller's own (pmc validate's kernels, ...): sets
 * err->suggest to the (at most 3) names of cands[0..nr) closest to name, best first, and
 * err->nr_suggest to how many; the rest of err is left as it was. Case-insensitive; names
 * further than a third of name's length (at least 2 edits) are not offered.
 */
PMC_API void pmc_suggest_names(struct pmc_parse_error *err, const char *name,
			       const char *const *cands, size_t nr);

#ifdef __cplusplus
}
#endif
#endif /* PMC_EVENT_H */
