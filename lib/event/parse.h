/* SPDX-License-Identifier: MIT */
/*
 * Internal interfaces of the event parser (grammar: docs/events.md). One event string goes
 * lex.c (tokens) -> parse.c (the productions, which fill one struct pmc_parsed per event)
 * -> build.c (the events it stands for, through the resolvers: tables, terms, sysfs PMUs,
 * tracepoints, breakpoints, presets) -> group.c (the pending list: groups, the backend's
 * resolution, the all-or-nothing append). Nothing after parse.c calls back into it.
 */
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

/* lex.c: tokens (docs/events.md, "Grammar"). */
enum pmc_tok_kind {
	PMC_TOK_END,
	PMC_TOK_WORD,  /* a name; quoted ('...') or not */
	PMC_TOK_NUM,   /* decimal or 0x-hex, 64 bits */
	PMC_TOK_DRV,   /* term mode: @name[=value] */
	PMC_TOK_PUNCT, /* one of , : / { } = - [ ] */
	PMC_TOK_BAD,   /* a byte no token starts with, or a number above 64 bits */
};
enum pmc_lex_mode { PMC_LEX_EVENT, PMC_LEX_TERM };
struct pmc_tok {
	enum pmc_tok_kind kind;
	int off, len;	  /* the token in the string, blanks before it skipped */
	const char *text; /* its text: a word without its quotes, a DRV term without '@' */
	int text_len;
	char c; /* the first byte (PMC_TOK_PUNCT: the punctuation) */
	bool quoted;
	int raw;      /* a word that is a raw code: 1 for rHEX, 3 for r0xHEX; else 0 */
	uint64_t num; /* PMC_TOK_NUM, and a raw code's value */
	int err;      /* PMC_TOK_BAD: -ERANGE (a number too big) or -EINVAL; a raw code's -ERANGE */
};
/* The token at pos in mode. */
void pmc__lex(const char *s, int pos, enum pmc_lex_mode mode, struct pmc_tok *t);
/* Whether word t reads as a CPU name: upper case, '.' or "::" (INST_RETIRED.ANY, pmu::EV). */
bool pmc__tok_cpu_name(const struct pmc_tok *t);
/* group.c: whether t may name a group (NAME{...}), as perf's lexer reads plain names. */
bool pmc__group_name_ok(const struct pmc_tok *t);
/* Whether s[0..len) is perf's modifier letters only ([ukhpPGHSDIWeb]+, modifier_event). */
bool pmc__lex_mod_letters(const char *s, int len);
/* Whether t is the punctuation or unquoted word given. */
bool pmc__tok_is(const struct pmc_tok *t, const char *word);
struct pmc_parsed;
/*
 * What word w at the head of an event is, as perf's lexer tells it by looking words up
 * (keywords, cache names, raw codes, PMU events) and by what follows them: an enum
 * pmc_head (ev's sym, config or num set for SYM, CACHE, RAW); or -PMC_E_UNSUPPORTED (a cache
 * op the cache lacks), -EINVAL (r0xHEX, no event), -ERANGE (a raw code above 64 bits).
 */
int pmc__lex_head(const char *s, const struct pmc_tok *w, struct pmc_parsed *ev);

/* Modifiers as written: perf's letters, and libpfm4's c=N, i, e=V on CPU names. */
struct pmc_mods {
	unsigned bits; /* enum pmc_mod */
	int precise;   /* number of 'p' */
	int cmask;     /* c=N */
	int offset;    /* where the first was written, -1 if none */
};

/* A term between an event's slashes (docs/events.md, "Terms"), pointing into the string. */
enum pmc_term_val { PMC_TV_NONE, PMC_TV_NUM, PMC_TV_STR };
struct pmc_term {
	const char *name;
	int name_len, off; /* off: where the term starts */
	enum pmc_term_val vtype;
	uint64_t num;
	const char *str;
	int str_len, val_off;
	bool raw; /* r1a, r0x1a: config=0x1a */
	bool drv; /* @name[=value]: a driver configuration term */
};

/* What the head of an event is; the heads take different tails (docs/events.md). */
enum pmc_head {
	PMC_HEAD_SYM,	  /* a generic hardware or software name */
	PMC_HEAD_CACHE,	  /* a generic cache name */
	PMC_HEAD_RAW,	  /* rHEX */
	PMC_HEAD_NUMERIC, /* TYPE:CONFIG */
	PMC_HEAD_TP,	  /* subsystem:name */
	PMC_HEAD_BP,	  /* mem:ADDR[/LEN][:ACCESS] */
	PMC_HEAD_PMU,	  /* pmu/terms/ */
	PMC_HEAD_ALIAS,	  /* an event of a sysfs PMU, by its name alone (tsc) */
	PMC_HEAD_CPU,	  /* a CPU-specific name the backend resolves (pmc's extension) */
	PMC_HEAD_PRESET,  /* a PAPI preset (pmc's extension) */
	PMC_HEAD_TOOL,	  /* duration_time, user_time, system_time */
};

/* One event as parse.c read it; build.c makes the events. Strings point into the string. */
struct pmc_parsed {
	enum pmc_head head;
	int off, end; /* the event's text, its name unless a name= term says otherwise */
	const char *word, *word2; /* name, PMU, CPU name or subsystem; tracepoint name */
	int word_len, word2_len;
	uint64_t num, num2; /* RAW: config; NUMERIC: type, config; BP: address, length */
	int num_off, num2_off;
	unsigned bp_type; /* BP: HW_BREAKPOINT_* bits, 0 for the default */
	int bp_type_off;
	const struct pmc_event_name *sym; /* SYM */
	uint64_t config;		  /* CACHE */
	struct pmc_term *terms;
	size_t nr_terms, alloc_terms;
	int terms_off, terms_end; /* the text between the slashes; terms_off -1 without slashes */
	char *cpu_extra;      /* CPU: what follows the name for libpfm4 (":UMASK:t=1"), or NULL */
	struct pmc_mods mods; /* the event's own modifiers */
};

/* parse-error.c: records the first error only (later ones are consequences); returns code. */
int pmc__parse_fail(struct pmc_parser *p, int code, int offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* "unexpected X, expected WHAT" at offset. */
int pmc__parse_expected(struct pmc_parser *p, int offset, const char *what);

/* group.c: the pending events of one parse. */
/* Takes evsel onto the pending list (freeing it on failure). */
int pmc__parse_push(struct pmc_parser *p, struct pmc_evsel *evsel);
/* Makes out[first..] a group: leader, name, group modifiers (mods_off..mods_end in str). */
int pmc__group_close(struct pmc_parser *p, size_t first, const char *name, int name_len,
		     const struct pmc_mods *m, int mods_off, int mods_end);
/* After the whole string parsed: the backend resolves, the modifiers apply, the list grows. */
int pmc__parse_commit(struct pmc_parser *p);
void pmc__parse_discard(struct pmc_parser *p);

/* build.c: the events one parsed event stands for, pushed. Frees nothing of ev. */
int pmc__event_build(struct pmc_parser *p, struct pmc_parsed *ev);

/* term.c: perf's builtin terms (config, period, name, call-graph, ...). */
enum pmc_term_scope {
	PMC_TERMS_COMMON, /* generic, cache, raw, numeric and CPU names: builtin terms only */
	PMC_TERMS_TP,	  /* tracepoints: the sampling terms perf allows them */
	PMC_TERMS_PMU,	  /* PMUs: builtin terms here, the others to the PMU */
};
/* Whether t sets a config word (config, config1, config2, rHEX). */
bool pmc__term_is_config(const struct pmc_term *t);
/*
 * Applies one term to evsel if it is builtin (returns 0) and the scope allows it; 1 when it
 * is not builtin (the PMU's); a parse error otherwise.
 */
int pmc__term_apply(struct pmc_parser *p, struct pmc_evsel *evsel, const struct pmc_term *t,
		    enum pmc_term_scope scope);
/* What pmc stat and pmc record accept (struct pmc_evlist_opts' use), checked once parsed. */
int pmc__terms_check_use(struct pmc_parser *p, const struct pmc_evsel *evsel,
			 const struct pmc_parsed *ev);

/* evsel.c */
struct pmc_evsel *pmc__evsel_new(struct pmc_parser *p, enum pmc_event_kind kind, int offset);
void pmc__evsel_delete(struct pmc_evsel *evsel);
int pmc__evsel_set_name(struct pmc_evsel *evsel, const char *s, size_t len);

/* modifier.c */
/* Reads perf's modifier letters s[0..len) at off into m (added to what m holds). */
int pmc__mods_letters(struct pmc_parser *p, const char *s, int len, int off, struct pmc_mods *m);
/*
 * The load-latency threshold a CPU-specific name carries as libpfm4's attribute ":ldlat=N"
 * (any case; the last one written), or 0 (evsel->ldlat).
 */
unsigned pmc__symbol_ldlat(const char *symbol);
/*
 * A CPU name's segment ":WORD[=VALUE]" (WORD at off): perf's letters, libpfm4's c=N, i[=V],
 * e=V, u=V, k=V, h=V into m; anything else (a unit mask, t=1, ldlat=3) appended to *extra.
 */
int pmc__mods_cpu_segment(struct pmc_parser *p, const struct pmc_tok *word,
			  const struct pmc_tok *value, struct pmc_mods *m, char **extra);
/* The modifiers m of an event or of its group (group) onto evsel. */
int pmc__mods_merge(struct pmc_parser *p, struct pmc_evsel *evsel, const struct pmc_mods *m,
		    bool group);
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
 * preset.c: the preset named name[0..len), or NULL. For a preset, *target is the name of the
 * event it stands for on evlist's backend; NULL, with why written ("'NAME': ..."), when none.
 */
const struct pmc_preset *pmc__preset_find(const char *name, size_t len);
const char *pmc__preset_target(const struct pmc_evlist *evlist, const struct pmc_preset *ps,
			       char *why, size_t why_len);
/* Walks the presets as PMC_EV_PRESET names, with what each stands for on evlist's backend. */
int pmc__preset_for_each(const struct pmc_evlist *evlist, pmc_event_fn fn, void *arg);

/* generic.c: lookup in the tables above. */
const struct pmc_event_name *pmc__event_find_generic(const char *name, size_t len);
/* A tool event's row (duration_time, user_time, system_time), or NULL. */
const struct pmc_event_name *pmc__event_find_tool(const char *name, size_t len);
/*
 * perf's cache names: 0 with *config set; -PMC_E_UNKNOWN_EVENT when not a cache name;
 * -PMC_E_UNSUPPORTED when it names an operation the cache does not have.
 */
int pmc__event_find_cache(const char *name, size_t len, uint64_t *config);
/* Canonical name of a cache config ("L1-dcache-load-misses") into buf. */
void pmc__event_cache_name(unsigned cache, unsigned op, unsigned result, char *buf, size_t len);
int pmc__event_for_each_generic(pmc_event_fn fn, void *arg);
/* The breakpoint forms, each a PMC_EV_BREAKPOINT info with its example. */
int pmc__event_for_each_form(pmc_event_fn fn, void *arg);

/* tracepoint.c */
struct pmc_tp {
	char *subsys, *name;
	uint64_t id;
};
/* The tracefs events/ directory ("/sys/kernel/tracing/events"), or NULL without tracefs. */
const char *pmc__tp_events_dir(void);
bool pmc__tp_exists(const char *subsys, const char *name);
/* Tracepoints matching subsys:name ('*' and '?' patterns, as perf), sorted. Returns 0 (*nr
 * may be 0), -PMC_E_NOTRACEFS or -ENOMEM. */
int pmc__tp_lookup(const char *subsys, const char *name, struct pmc_tp **out, size_t *nr);
void pmc__tp_free(struct pmc_tp *tps, size_t nr);
/*
 * The tracepoint of id id into *out (one entry; pmc__tp_free(*out, 1)). hint, when not NULL,
 * is tried first: a name that starts "subsys:name" (as an evsel of a tracepoint is named);
 * else every tracepoint is read. Returns 0, -ENOENT, -PMC_E_NOTRACEFS or -ENOMEM.
 */
int pmc__tp_by_id(uint64_t id, const char *hint, struct pmc_tp **out);
/* Walks tracepoints (of subsys only, when not NULL) as "subsys:name". */
int pmc__tp_for_each(const char *subsys, pmc_event_fn fn, void *arg);
/*
 * The tracepoints of ev (subsystem ev->word, name ev->word2) into *tps; errors said (an
 * unknown tracepoint is -PMC_E_UNKNOWN_EVENT, without suggestions).
 */
int pmc__tp_resolve(struct pmc_parser *p, const struct pmc_parsed *ev, struct pmc_tp **tps,
		    size_t *nr);

/* breakpoint.c: ev's address, length and access into evsel (perf's defaults). */
void pmc__bp_build(struct pmc_evsel *evsel, const struct pmc_parsed *ev);
/* Access letters "r", "w", "x" (each once, at most 3) into *type; 0 or -EINVAL. */
int pmc__bp_access(const char *s, int len, unsigned *type);
/* The kernel's rules on breakpoint lengths, said for check(): 0, or -PMC_E_UNSUPPORTED. */
int pmc__bp_check(const struct pmc_evsel *evsel, char *why, size_t len);

/* suggest.c: fills err->suggest with the known names closest to name. subsys limits
 * the candidates to that tracepoint subsystem. */
void pmc__suggest(const struct pmc_evlist *evlist, const char *name, const char *subsys,
		  struct pmc_parse_error *err);

#endif /* PMC_LIB_EVENT_PARSE_H */
