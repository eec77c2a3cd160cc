/* SPDX-License-Identifier: MIT */
/* Internal interfaces of the event parser: parser state, resolvers and name tables. */
#ifndef PMC_LIB_EVENT_PARSE_H
#define PMC_LIB_EVENT_PARSE_H

#include <stdbool.h>
#include <stdint.h>
#include "event/evsel.h"

/*
 * State of one pmc_evlist__parse() call. Events are collected in out[] and appended to
 * the list only when the whole string parsed and resolved, so that a failure leaves the
 * list as it was.
 */
struct pmc_parser {
	const char *str;
	int pos;
	struct pmc_evlist *evlist;
	struct pmc_parse_error *err; /* never NULL inside the parser */
	struct pmc_evsel **out;
	size_t nr, alloc;
	bool in_group;
};

/* Modifiers collected from one or more ":..." segments (event or group). */
struct pmc_mods {
	unsigned bits; /* enum pmc_mod */
	int precise;   /* number of 'p' */
	int cmask;     /* :c=N */
	int offset;    /* where the first modifier was written, -1 if none */
};

/* Records the first error only (later ones are consequences); returns code. */
int pmc__parse_fail(struct pmc_parser *p, int code, int offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* lex.c: character classes and scanners over p->str at p->pos. */
bool pmc__lex_is_name_char(char c);
bool pmc__lex_is_glob_char(char c);
void pmc__lex_skip_ws(struct pmc_parser *p);
/* Length of the name at p->pos ("::" allowed inside, for libpfm4's pmu::EVENT). */
int pmc__lex_name_len(const struct pmc_parser *p);
/* Parses a decimal or 0x-hex number at s; sets *end. Returns 0 or -ERANGE/-EINVAL. */
int pmc__lex_number(const char *s, const char **end, uint64_t *val);
/* Describes the character at offset for messages: "'x'" or "end of string". */
const char *pmc__lex_describe(const char *s, int offset, char *buf, size_t len);

/* parse.c */
int pmc__parse_push(struct pmc_parser *p, struct pmc_evsel *evsel);
/*
 * Ends an event whose head was read, with p->pos just past it: its modifiers, its name (the
 * text from evsel->offset on) and the push. Takes evsel, freeing it on failure.
 */
int pmc__parse_finish_event(struct pmc_parser *p, struct pmc_evsel *evsel);
/* One event (not a group) at p->pos; pushes one or more events. */
int pmc__parse_event(struct pmc_parser *p);

/* evsel.c */
struct pmc_evsel *pmc__evsel_new(struct pmc_parser *p, enum pmc_event_kind kind, int offset);
void pmc__evsel_delete(struct pmc_evsel *evsel);
int pmc__evsel_set_name(struct pmc_evsel *evsel, const char *s, size_t len);

/* modifier.c */
int pmc__mods_parse(struct pmc_parser *p, struct pmc_evsel *evsel, struct pmc_mods *mods,
		    bool bare_first);
int pmc__mods_merge(struct pmc_parser *p, struct pmc_evsel *evsel, const struct pmc_mods *m);
void pmc__mods_apply(struct pmc_evsel *evsel, unsigned default_priv);

/* tables.c: generic hardware, software and cache names (data only). */
struct pmc_event_name {
	const char *name;
	uint32_t type; /* PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE */
	uint64_t config;
	const char *desc;
};
extern const struct pmc_event_name pmc__event_generic[];
extern const size_t pmc__event_nr_generic;
/* The tool events (PMC_EV_TOOL): type 0, config the enum pmc_tool. */
extern const struct pmc_event_name pmc__event_tool[];
extern const size_t pmc__event_nr_tool;
#define PMC_CACHE_MAX_ALIASES 6
/* Aliases of each cache, op and result; the first is the canonical spelling. */
extern const char *const pmc__cache_names[PERF_COUNT_HW_CACHE_MAX][PMC_CACHE_MAX_ALIASES];
extern const char *const pmc__cache_op_names[PERF_COUNT_HW_CACHE_OP_MAX][PMC_CACHE_MAX_ALIASES];
extern const char
	*const pmc__cache_result_names[PERF_COUNT_HW_CACHE_RESULT_MAX][PMC_CACHE_MAX_ALIASES];
/* Bit (1 << op) set when cache supports op, as perf's evsel__hw_cache_stat. */
extern const unsigned pmc__cache_ops_valid[PERF_COUNT_HW_CACHE_MAX];
/* What each cache is, for descriptions ("L1 data cache"). */
extern const char *const pmc__cache_descs[PERF_COUNT_HW_CACHE_MAX];

/* tables.c: forms whose names are syntax, not names (breakpoints), for pmc list. */
struct pmc_event_form {
	const char *syntax;  /* "mem:ADDR[/LEN]:w" */
	const char *example; /* an event string of the form, which parses: "mem:0x1000:w" */
	const char *desc;
};
extern const struct pmc_event_form pmc__breakpoint_forms[];
extern const size_t pmc__nr_breakpoint_forms;

/*
 * tables.c: the PAPI presets, rows of data/presets/papi.tsv (docs/events.md, "PAPI
 * presets"): the event a preset stands for on the perf backend (generic) and on the vpmu
 * Core i7 model (corei7), PAPI 7.0's Nehalem definition it was taken from and its line in
 * papi_events.csv. NULL where the table has "-".
 */
struct pmc_preset {
	const char *name, *generic, *corei7, *papi;
	int line;
	const char *desc;
};
extern const struct pmc_preset pmc__presets[];
extern const size_t pmc__nr_presets;

/*
 * preset.c: a PAPI preset name at off: pushes the event it stands for on p's backend,
 * named as written (with its modifiers). Returns 1 when the name is no preset; 0; or
 * -PMC_E_UNKNOWN_EVENT, saying why, for a preset with no event on this backend.
 */
int pmc__preset_parse(struct pmc_parser *p, int off, int len);
/* Walks the presets as PMC_EV_PRESET names, with what each stands for on evlist's backend. */
int pmc__preset_for_each(const struct pmc_evlist *evlist, pmc_event_fn fn, void *arg);

/* generic.c: lookup in the tables above. */
const struct pmc_event_name *pmc__event_find_generic(const char *name, size_t len);
/* A tool event's row (duration_time, user_time, system_time), or NULL. */
const struct pmc_event_name *pmc__event_find_tool(const char *name, size_t len);
/* 0 with *config set; -PMC_E_UNKNOWN_EVENT when not a cache name; -PMC_E_UNSUPPORTED
 * when the name is a cache name with an op the cache does not have. */
int pmc__event_find_cache(const char *name, size_t len, uint64_t *config);
/* Canonical name of a cache config ("L1-dcache-load-misses") into buf. */
void pmc__event_cache_name(unsigned cache, unsigned op, unsigned result, char *buf, size_t len);
int pmc__event_for_each_generic(pmc_event_fn fn, void *arg);
/* The breakpoint forms, each a PMC_EV_BREAKPOINT info with its example. */
int pmc__event_for_each_form(pmc_event_fn fn, void *arg);

/* pmu-sysfs.c: PMUs under <sysfs root>/bus/event_source/devices (core/sysfile.h). */
bool pmc__pmu_exists(const char *pmu);
int pmc__pmu_parse(struct pmc_parser *p, struct pmc_evsel *evsel, const char *pmu, int terms_off,
		   int terms_len);
int pmc__pmu_for_each(pmc_event_fn fn, void *arg);

/* tracepoint.c */
struct pmc_tp {
	char *subsys, *name;
	uint64_t id;
};
/* The tracefs events/ directory ("/sys/kernel/tracing/events"), or NULL without tracefs. */
const char *pmc__tp_events_dir(void);
bool pmc__tp_exists(const char *subsys, const char *name);
/* Tracepoints matching subsys:name (fnmatch patterns allowed), sorted. Returns 0 (*nr may
 * be 0), -PMC_E_NOTRACEFS or -ENOMEM. */
int pmc__tp_lookup(const char *subsys, const char *name, struct pmc_tp **out, size_t *nr);
void pmc__tp_free(struct pmc_tp *tps, size_t nr);
/* Walks tracepoints (of subsys only, when not NULL) as "subsys:name". */
int pmc__tp_for_each(const char *subsys, pmc_event_fn fn, void *arg);

/* breakpoint.c: p->pos at "mem:". */
int pmc__bp_parse(struct pmc_parser *p, struct pmc_evsel *evsel);

/* suggest.c: fills err->suggest with the known names closest to name. subsys limits
 * the candidates to that tracepoint subsystem; pmu to that PMU's events and terms. */
void pmc__suggest(const struct pmc_evlist *evlist, const char *name, const char *subsys,
		  struct pmc_parse_error *err);
void pmc__suggest_add(struct pmc_parse_error *err, int *dist, const char *name, const char *cand);

#endif /* PMC_LIB_EVENT_PARSE_H */
