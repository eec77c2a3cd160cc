/* SPDX-License-Identifier: MIT */
/* The metric engine's objects: expressions (expr.c), sets and metrics, literals, evaluation. */
#ifndef PMC_LIB_METRIC_METRIC_H
#define PMC_LIB_METRIC_METRIC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <pmc/metric.h>

struct pmc_backend_ops;

/* Limits that keep every walk of an expression's tree within the stack (docs/metrics.md). */
#define PMC_EXPR_MAX_HEIGHT 128 /* nodes from an expression's root to its deepest leaf */
#define PMC_METRIC_MAX_DEPTH 32 /* metrics referring to metrics, from a selected one */

/* The nodes of an expression, one per production of the grammar (docs/metrics.md). */
enum pmc__expr_kind {
	PMC_EXPR_NUMBER,       /* 1.5 */
	PMC_EXPR_ID,	       /* an event or the name of another metric */
	PMC_EXPR_SOURCE_COUNT, /* source_count(ID) */
	PMC_EXPR_LITERAL,      /* #smt_on */
	PMC_EXPR_NEG,	       /* - a */
	PMC_EXPR_BINARY,       /* a OP b, OP one of | ^ & < > + - * / % */
	PMC_EXPR_IF,	       /* a if cond else b: kid[0] a, kid[1] cond, kid[2] b */
	PMC_EXPR_MIN,	       /* min(a, b) */
	PMC_EXPR_MAX,	       /* max(a, b) */
	PMC_EXPR_D_RATIO,      /* d_ratio(a, b): a / b, 0 when b is 0 */
};

struct pmc__expr {
	enum pmc__expr_kind kind;
	char op;	/* PMC_EXPR_BINARY: the operator */
	int start, end; /* the bytes of the source text the node spans */
	int height;	/* 1 for a leaf */
	double num;	/* PMC_EXPR_NUMBER */
	/*
	 * ID and SOURCE_COUNT: the name as written, '\' escapes and '?' resolved (compared with
	 * metric names), and as an event string ('@' read as '/'). LITERAL: the name, '#' first.
	 */
	char *name, *event;
	struct pmc__expr *kid[3];
	/* ID: the metric the name refers to (NULL: an event), valid for set generation ref_gen. */
	struct pmc_metric *ref;
	unsigned ref_gen;
};

/*
 * expr.c: parses text (perf 6.1's grammar, docs/metrics.md) into a tree, '?' read as
 * runtime. Returns 0; -PMC_E_EXPR with err's offset and message; -ENOMEM.
 */
int pmc__expr_parse(const char *text, int runtime, struct pmc__expr **out,
		    struct pmc_parse_error *err);
void pmc__expr_free(struct pmc__expr *e);

struct pmc_metric {
	struct pmc_metric_info info; /* the strings are owned */
	struct pmc_metrics *set;
	struct pmc__expr *expr, *threshold;
	struct pmc__expr *exact; /* PmcExactExpr, or NULL */
	/*
	 * Its place in definition order: a shipped file's (its index row, then its entry), or
	 * after every shipped one in the order added. A shipped metric loaded late (shipped.c)
	 * takes the place it would have had, and does not replace the user's or a later file's.
	 */
	bool shipped;
	long order;
};

/* A string of the file's text, by place: its bytes are text[off, off + len). */
struct pmc__lazy_span {
	size_t off, len;
	bool set; /* false: the entry gives no such member */
};

/*
 * One entry of a shipped file not parsed yet (scan.c): its bytes, and where its name and
 * groups lie in the file's text (spans, not copies: two allocations fewer per entry, and a set
 * on fewer heap pages; pmc stat forks for each repetition, and each heap page it writes after
 * a fork is copied, so a set spread among the runner's objects cost faults in every one).
 */
struct pmc__lazy_entry {
	size_t off, len;
	struct pmc__lazy_span name;   /* MetricName; unset: an event description, never needed */
	struct pmc__lazy_span groups; /* MetricGroup */
	bool opaque; /* names the scan could not read plainly (escapes): loaded on any need */
	bool loaded;
};

/*
 * A shipped file as libpmc holds it (data/metrics/gen-shipped.py compiles the files into
 * lib/metric/shipped.c): strings are places in one text (pmc__builtin_text; 0: none), so
 * that the table needs no relocation when libpmc is loaded. A metric entry: its place among
 * the file's entries, its MetricName and MetricGroup, and its nr_kv members, key then value,
 * one string after another from kv.
 */
struct pmc__builtin_entry {
	unsigned idx, name, groups, kv, nr_kv;
};
struct pmc__builtin_file {
	unsigned file, backends, model; /* as index.tsv's row gives them */
	unsigned first, nr;		/* its entries in pmc__builtin_entries */
};

/*
 * A shipped file whose entries are parsed as a selection needs them (shipped.c): read from a
 * folder (text, split by scan.c into e) or built in (builtin, with e for the loaded flags).
 */
struct pmc__lazy_file {
	char *path, *text;
	size_t len;
	int rank; /* its row of index.tsv */
	const struct pmc__builtin_file *builtin;
	struct pmc__lazy_entry *e; /* builtin: for the loaded flags only */
	size_t nr, cap;
};
/* scan.c: splits f->text into f->e. 0, -PMC_E_FORMAT (not a list of objects), -ENOMEM. */
int pmc__lazy_scan(struct pmc__lazy_file *f);
void pmc__lazy_free(struct pmc__lazy_file *f);

/* The machine's '#' literals, read on first use (literal.c). */
struct pmc__literals {
	bool read;
	int err; /* of reading the topology: its literals have no value when set */
	double num_cpus, num_cpus_online, num_cores, num_dies, num_packages, smt_on, core_wide;
	double tsc_freq, slots;
};

/* memo.c: the metrics of a set by name, without regard to case (open addressing). */
struct pmc__name_index {
	struct pmc_metric **v;
	size_t nr, cap;
};

struct pmc_metrics {
	struct pmc_metrics_opts opts; /* backend, dir and cpu_list owned */
	const struct pmc_backend_ops *backend;
	struct pmc_metric **metrics; /* definition order */
	size_t nr, cap;
	struct pmc__name_index names; /* metrics by name */
	/* Metrics another of their name replaced: kept so that pointers to them stay valid. */
	struct pmc_metric **replaced;
	size_t nr_replaced, cap_replaced;
	struct pmc_metric **selected;
	size_t nr_selected, cap_selected;
	unsigned gen; /* changes whenever a name may resolve differently */
	/* A definition being checked: its name resolves to it before it is added. */
	struct pmc_metric *pending;
	struct pmc__lazy_file *lazy; /* shipped files parsed as needed (shipped.c) */
	size_t nr_lazy;
	long nr_user; /* metrics added other than from a shipped file */
	struct pmc__literals lit;
	/*
	 * Events the selected metrics need that the backend does not know (lib/count's
	 * metric-events.c, pmc__metrics_absent_add()), each with why
	 * (name and why owned, pass -1, not counted): pmc_metric__summarize() reads them after the
	 * caller's counts.
	 */
	struct pmc_metric_counts *absent;
	size_t nr_absent;
};

/* memo.c: a set of distinct strings (copies), in the order added, hashed. */
struct pmc__strset {
	char **v;
	size_t nr, cap;
	size_t *idx, cap_idx; /* open addressing: an index into v plus 1, 0 empty */
};
/* Adds a copy of str unless the set has it: 1 when added, 0 when there, or -ENOMEM. */
int pmc__strset_add(struct pmc__strset *s, const char *str);
void pmc__strset_free(struct pmc__strset *s);

/* The metric named name, or NULL. */
struct pmc_metric *pmc__name_index_get(const struct pmc__name_index *t, const char *name);
/* Makes room for more names: 0 or -ENOMEM. */
int pmc__name_index_reserve(struct pmc__name_index *t, size_t more);
/* Puts metric in the place of the one of its name, or adds it (in the room reserved). */
void pmc__name_index_put(struct pmc__name_index *t, struct pmc_metric *metric);
void pmc__name_index_free(struct pmc__name_index *t);

/*
 * memo.c: what a walk learned of the metrics it finished (eval.c, walk.c): a value and a
 * height (the metrics on the longest chain of references from it, itself included), so that
 * a metric is walked once however many paths lead to it.
 */
struct pmc__memo_slot {
	const struct pmc_metric *key; /* NULL: empty */
	double value;
	int height;
};
struct pmc__memo {
	struct pmc__memo_slot *v;
	size_t nr, cap;
};
/* The slot of m, or NULL (also of a NULL table). */
const struct pmc__memo_slot *pmc__memo_get(const struct pmc__memo *t, const struct pmc_metric *m);
/* Records m (a NULL table, or no memory: nothing is recorded). */
void pmc__memo_put(struct pmc__memo *t, const struct pmc_metric *m, double value, int height);
void pmc__memo_free(struct pmc__memo *t);
/* names.c: whether name[0, len) is one of list's names separated by sep, without regard to case. */
bool pmc__in_list(const char *list, char sep, const char *name, size_t len);
/* names.c: the same of a list that is the n bytes at list (no NUL needed). */
bool pmc__in_listn(const char *list, size_t n, char sep, const char *name, size_t len);

/*
 * set.c: keeps an event the selected metrics need that the backend does not know, with why
 * (copied): pmc_metric__summarize() makes the metrics that need it unavailable with it. 0 or
 * -ENOMEM.
 */
int pmc__metrics_absent_add(struct pmc_metrics *m, const char *event, const char *why);
/* summary-out.c: a summary as its JSON object (docs/stat-output.md, "Metrics"); NULL: no memory. */
struct json_t;
struct json_t *pmc__metric_summary_json(const struct pmc_metric_summary *s);

/* defs.c: frees a metric that is in no set. Accepts NULL. */
void pmc__metric_free(struct pmc_metric *metric);
/* defs.c: the metric of a name among those parsed so far (no file is read), or NULL. */
struct pmc_metric *pmc__metrics_loaded(const struct pmc_metrics *m, const char *name);
/*
 * defs.c: adds metrics (owned by the set from then on, whatever the result), each replacing
 * one of its name. Returns 0 or -ENOMEM, which frees them.
 */
int pmc__metrics_add(struct pmc_metrics *m, struct pmc_metric **metrics, size_t nr);
/* select.c: selects a metric of the set (at the end of the selection) unless it is. 0 or
 * -ENOMEM. */
int pmc__metrics_select_one(struct pmc_metrics *m, struct pmc_metric *metric);
/* set.c: the metric of a name, without regard to case (its shipped file read first), or NULL. */
struct pmc_metric *pmc__metrics_lookup(const struct pmc_metrics *m, const char *name);

/* error.c: writes a metric error: code's message, where (may be NULL), text and offset. */
void pmc__metric_error(struct pmc_metric_error *err, const char *where, const char *text,
		       int offset, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* error.c: err (may be NULL) from a parse error of text, under where. */
void pmc__metric_error_from(struct pmc_metric_error *err, const char *where, const char *text,
			    const struct pmc_parse_error *perr);

/*
 * shipped.c: the shipped files of the set's backend (index.tsv), each read and split into its
 * entries, parsed when needed: pmc__metrics_need() parses those that define name[0, len) as
 * a metric or a group (an error is logged: the file is the installation's), len 0 every
 * one. The set's readers call it before they look (lookup, select, nr, at).
 */
int pmc__metrics_load_shipped(struct pmc_metrics *m, struct pmc_metric_error *err);
void pmc__metrics_need(const struct pmc_metrics *m, const char *name, size_t len);
/* load.c: a shipped entry (text[0, len), entry idx of file rank) parsed and added. */
int pmc__metrics_load_entry(struct pmc_metrics *m, const char *path, int rank, size_t idx,
			    const char *text, size_t len, struct pmc_metric_error *err);
/* load.c: a built-in shipped entry: nr members, key then value, one string after another. */
int pmc__metrics_load_pairs(struct pmc_metrics *m, const char *path, int rank, size_t idx,
			    const char *kv, size_t nr, struct pmc_metric_error *err);
/* load.c: a whole file, shipped (its index row rank) or the user's (rank -1). */
int pmc__metrics_load_file(struct pmc_metrics *m, const char *path, int rank,
			   struct pmc_metric_error *err);
/*
 * shipped.c: reads dir/index.tsv, calling fn with the fields of each row (strings valid
 * during the call). Returns 0, fn's non-zero return, -errno or -PMC_E_FORMAT with err.
 */
typedef int (*pmc__metric_index_fn)(const char *file, const char *backends, const char *model,
				    const char *source, void *arg);
int pmc__metric_index_read(const char *dir, pmc__metric_index_fn fn, void *arg,
			   struct pmc_metric_error *err);

/*
 * literal.c: the literal name ("#SMT_on") is, as the table spells it ("#smt_on"; static), or
 * NULL; and its value on this machine for the set, which returns 0, -ENOENT (not a literal)
 * or the errno of reading the machine.
 */
const char *pmc__literal_name(const char *name);
int pmc__literal_value(struct pmc_metrics *m, const char *name, double *out);
/*
 * literal.c: every '#' literal this machine gives a value, as a JSON object by name, for the
 * counts of backend (NULL: perf) on cpu_list (NULL: all) and whether system-wide: the results
 * file's record of the machine that counted (docs/metrics.md, "Literals"); NULL: no memory.
 */
struct json_t;
struct json_t *pmc__literals_json(const char *backend, bool system_wide, const char *cpu_list);
/* literal.c: offers every literal name to pmc__suggest_add() for name. */
void pmc__literal_suggest(const char *name, struct pmc_parse_error *err);
/* literal.c: whether event names a value the runner supplies (duration_time, ...). */
bool pmc__metric_tool_event(const char *event);

/* eval.c and walk.c: a walk of a metric and what it refers to. */
struct pmc__eval {
	const struct pmc_metric_eval_opts *opts; /* NULL: no inputs (constant folding) */
	char *why;				 /* the first reason a value is missing, or NULL */
	size_t len;
	const struct pmc_metric *root;			      /* the metric walked */
	const char *text;				      /* of the expression walked */
	const struct pmc_metric *stack[PMC_METRIC_MAX_DEPTH]; /* the metrics entered */
	int depth;
	int deepest;		/* the greatest depth the walk reached below the metric entered */
	struct pmc__memo *memo; /* the values of metrics evaluated, or NULL */
	bool exact;		/* metrics give their PmcExactExpr where they have one */
};
/* eval.c and walk.c: the tree and text a walk reads for m: its exact ones in an exact walk. */
struct pmc__expr *pmc__metric_expr(const struct pmc__eval *ev, const struct pmc_metric *m,
				   const char **text);
/* eval.c: the value of a node of the expression ev->text: PMC_METRIC_OK with *out, or another
 * status with the reason in ev->why. */
enum pmc_metric_status pmc__expr_eval(struct pmc__eval *ev, struct pmc__expr *e, double *out);
/* eval.c: the metric an ID node names in ev->root's set, or NULL for an event. */
struct pmc_metric *pmc__expr_ref(const struct pmc__eval *ev, struct pmc__expr *e);

/*
 * walk.c: checks that the metric (and its threshold) refers to no metric that refers back.
 * Returns 0, or -PMC_E_METRIC_CYCLE with the cycle in why ("a -> b -> a").
 */
int pmc__metric_check_cycles(const struct pmc_metric *metric, char *why, size_t len);

#endif /* PMC_LIB_METRIC_METRIC_H */
