// SPDX-License-Identifier: MIT
/*
 * pmc list: every event pmc knows, by kind, sorted, with its description and whether it can be
 * counted here (docs/events.md, "pmc list"). The names are collected first, then filtered,
 * judged and printed: aliases join their canonical name's line, and a kind none of whose
 * events can be counted, all for one reason, is one line unless asked for.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "common/cli.h"
#include "common/stat-metric.h"
#include "list.h"

#define NAME_COLUMN_MAX 40
#define DEFAULT_WIDTH 100

struct entry {
	char *name, *pmu, *desc, *alias_of, *maps_to, *example;
	enum pmc_event_kind kind;
	char *line; /* canonical entries: the names on the line ("cs OR context-switches") */
	struct entry *canon; /* aliases: the entry of their canonical name */
	bool match, shown, ok;
	char why[512];
};

struct list_ctx {
	const struct pmc_evlist_opts *eo;
	const char *pattern;
	bool by_kind; /* the pattern is a kind's name */
	struct entry *e;
	size_t nr, alloc;
};

static char *dup_or_null(const char *s, bool *failed)
{
	char *d = s ? strdup(s) : NULL;

	*failed |= s && !d;
	return d;
}

static int collect(const struct pmc_event_info *info, void *arg)
{
	struct list_ctx *ctx = arg;
	struct entry *e;
	bool failed = false;

	if (ctx->nr == ctx->alloc) {
		size_t n = ctx->alloc ? ctx->alloc * 2 : 256;
		struct entry *grown = realloc(ctx->e, n * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		ctx->e = grown;
		ctx->alloc = n;
	}
	e = &ctx->e[ctx->nr];
	*e = (struct entry){.kind = info->kind};
	e->name = dup_or_null(info->name, &failed);
	e->pmu = dup_or_null(info->pmu, &failed);
	e->desc = dup_or_null(info->desc, &failed);
	e->alias_of = dup_or_null(info->alias_of, &failed);
	e->maps_to = dup_or_null(info->maps_to, &failed);
	e->example = dup_or_null(info->example, &failed);
	ctx->nr++; /* freed with the rest, even when a copy failed */
	return failed ? -ENOMEM : 0;
}

static void free_entries(struct list_ctx *ctx)
{
	for (size_t i = 0; i < ctx->nr; i++) {
		struct entry *e = &ctx->e[i];

		free(e->name);
		free(e->pmu);
		free(e->desc);
		free(e->alias_of);
		free(e->maps_to);
		free(e->example);
		free(e->line);
	}
	free(ctx->e);
}

/* By kind, then by name without regard to case (ties: with it). */
static int by_kind_name(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int d = (int)x->kind - (int)y->kind;

	if (!d)
		d = strcasecmp(x->name, y->name);
	return d ? d : strcmp(x->name, y->name);
}

/* Each alias finds its canonical name's entry, whose line gets " OR alias". */
static int join_aliases(struct list_ctx *ctx)
{
	for (size_t i = 0; i < ctx->nr; i++) {
		struct entry *a = &ctx->e[i], *c = NULL;
		char *line;

		for (size_t j = 0; a->alias_of && j < ctx->nr && !c; j++)
			if (ctx->e[j].kind == a->kind && !strcmp(ctx->e[j].name, a->alias_of))
				c = &ctx->e[j];
		if (!c)
			continue;
		if (asprintf(&line, "%s OR %s", c->line ? c->line : c->name, a->name) < 0)
			return -ENOMEM;
		free(c->line);
		c->line = line;
		a->canon = c;
	}
	return 0;
}

static bool matches(const struct list_ctx *ctx, const struct entry *e)
{
	const char *p = ctx->pattern;

	if (!p)
		return true;
	if (ctx->by_kind)
		return !strcmp(p, pmc_event_kind__name(e->kind));
	if (strpbrk(p, "*?["))
		return !fnmatch(p, e->name, FNM_CASEFOLD);
	return strcasestr(e->name, p) || (e->desc && strcasestr(e->desc, p)) ||
	       (e->maps_to && strcasestr(e->maps_to, p));
}

/* An alias is shown with its canonical name, and either one's match shows both. */
static void filter(struct list_ctx *ctx)
{
	for (size_t i = 0; i < ctx->nr; i++)
		ctx->e[i].match = matches(ctx, &ctx->e[i]);
	for (size_t i = 0; i < ctx->nr; i++)
		if (ctx->e[i].canon)
			ctx->e[i].canon->match |= ctx->e[i].match;
	for (size_t i = 0; i < ctx->nr; i++) {
		struct entry *e = &ctx->e[i];

		e->shown = e->canon ? e->canon->match : e->match;
	}
}

/* Parses and judges one name (a form by its example) in a fresh list, so that verdicts
 * never share state; e->why says why not. */
static void judge(struct list_ctx *ctx, struct entry *e)
{
	const char *name = e->example ? e->example : e->name;
	struct pmc_parse_error perr = {0};
	struct pmc_evlist *l;
	int err = pmc_evlist__new(ctx->eo, &l);

	if (!err)
		err = pmc_evlist__parse(l, name, &perr);
	if (err && e->kind == PMC_EV_SYMBOLIC)
		snprintf(e->why, sizeof(e->why),
			 "in libpfm4's tables, but the kernel exposes no PMU for it here");
	else if (err && e->kind == PMC_EV_PRESET && perr.msg[0])
		snprintf(e->why, sizeof(e->why), "%s", perr.msg);
	else if (err)
		snprintf(e->why, sizeof(e->why), "does not resolve: %s", pmc_strerror(err));
	else
		err = pmc_evsel__check(pmc_evlist__at(l, 0), e->why, sizeof(e->why));
	e->ok = !err;
	pmc_evlist__delete(l);
}

static int print_json(struct list_ctx *ctx)
{
	struct pmc_event_listed *v = calloc(ctx->nr + 1, sizeof(*v));
	size_t n = 0;
	int err;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < ctx->nr; i++) {
		const struct entry *e = &ctx->e[i];

		if (!e->shown)
			continue;
		v[n++] = (struct pmc_event_listed){.info = {.name = e->name,
							    .kind = e->kind,
							    .pmu = e->pmu,
							    .desc = e->desc,
							    .alias_of = e->alias_of,
							    .maps_to = e->maps_to,
							    .example = e->example},
						   .supported = e->ok,
						   .why = e->why};
	}
	err = pmc_event_list__write_json(v, n, ctx->eo->backend, stdout);
	free(v);
	return err;
}

/* The terminal's width when stdout is one, else DEFAULT_WIDTH. */
static int out_width(void)
{
	struct winsize ws;

	if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col >= 60)
		return ws.ws_col;
	return DEFAULT_WIDTH;
}

/* One kind's shown lines: where they start, how many, and their common verdicts. */
struct kind_run {
	size_t first, end; /* entries [first, end) of one kind, shown or not */
	size_t nr, nr_ok;  /* shown canonical lines, and those countable */
	const char *why;   /* the one reason of every line, when none is countable */
	/* The reason most uncountable lines (two or more) share, said once under them ("no*"). */
	const char *footnote;
	int name_width;
};

static const char *line_name(const struct entry *e)
{
	return e->line ? e->line : e->name;
}

/* The reason most of the kind's uncountable lines give (among the first MAX_REASONS
 * different ones), and how many give it. */
#define MAX_REASONS 8
static const char *common_reason(const struct list_ctx *ctx, const struct kind_run *k,
				 size_t *count)
{
	const char *reason[MAX_REASONS];
	size_t votes[MAX_REASONS] = {0}, n = 0, best = 0;

	for (size_t i = k->first; i < k->end; i++) {
		const struct entry *e = &ctx->e[i];
		size_t r = 0;

		if (!e->shown || e->canon || e->ok)
			continue;
		while (r < n && strcmp(reason[r], e->why))
			r++;
		if (r == n && n < MAX_REASONS)
			reason[n++] = e->why;
		if (r < n && ++votes[r] > votes[best])
			best = r;
	}
	*count = n ? votes[best] : 0;
	return n ? reason[best] : NULL;
}

static void scan_kind(const struct list_ctx *ctx, struct kind_run *k)
{
	size_t nr_why;

	k->name_width = 0;
	k->why = common_reason(ctx, k, &nr_why);
	for (size_t i = k->first; i < k->end; i++) {
		const struct entry *e = &ctx->e[i];
		int w = (int)strlen(line_name(e)) + (e->maps_to ? 4 + (int)strlen(e->maps_to) : 0);

		if (!e->shown || e->canon)
			continue;
		k->nr++;
		k->nr_ok += e->ok;
		if (w > k->name_width)
			k->name_width = w < NAME_COLUMN_MAX ? w : NAME_COLUMN_MAX;
	}
	if (nr_why == k->nr)
		return;
	k->footnote = nr_why >= 2 ? k->why : NULL;
	k->why = NULL;
}

/* The reason's text without the "'NAME': " a parse message starts with. */
static const char *own_reason(const struct entry *e)
{
	size_t n = strlen(e->name);

	if (e->why[0] == '\'' && !strncmp(e->why + 1, e->name, n) &&
	    !strncmp(e->why + n + 1, "': ", 3))
		return e->why + n + 4;
	return e->why;
}

static void print_line(const struct entry *e, const struct kind_run *k, int width)
{
	bool noted = !e->ok && (k->why || (k->footnote && !strcmp(e->why, k->footnote)));
	const char *verdict = e->ok ? "yes" : noted && !k->why ? "no*" : "no";
	char name[512], why[sizeof(e->why) + 2];
	const char *text = e->desc;
	int col;

	snprintf(name, sizeof(name), "%s%s%s", line_name(e), e->maps_to ? " -> " : "",
		 e->maps_to ? e->maps_to : "");
	snprintf(why, sizeof(why), "(%s)", own_reason(e));
	if (!text && !e->ok && !noted)
		text = why; /* no description: the reason takes its place */
	col = printf("  %-*s  %s", k->name_width, name, verdict);
	if (!text) {
		putchar('\n');
		return;
	}
	col += printf("%*s", 5 - (int)strlen(verdict), "");
	cli_wrap(stdout, text, col, col, width);
	if (text == e->desc && !e->ok && !noted) {
		printf("%*s", col, "");
		cli_wrap(stdout, why, col, col, width);
	}
}

/* Before a sysfs PMU's first line: the PMU, its kind, type and CPUs (pmc_pmu_describe()). */
static void print_pmu_heading(const struct list_ctx *ctx, size_t i, size_t *last)
{
	char what[256];

	if (*last != SIZE_MAX && ctx->e[*last].pmu && !strcmp(ctx->e[*last].pmu, ctx->e[i].pmu)) {
		*last = i;
		return;
	}
	*last = i;
	if (!pmc_pmu_describe(ctx->e[i].pmu, what, sizeof(what)))
		printf(" %s: %s\n", ctx->e[i].pmu, what);
}

static void print_kind(const struct list_ctx *ctx, const struct kind_run *k, int width)
{
	const char *kind = pmc_event_kind__name(ctx->e[k->first].kind);
	char text[1024];
	int col;

	if (!k->nr)
		return;
	col = printf("\n%s events:", kind) - 1;
	if (k->why && !ctx->pattern) {
		/* Nothing of the kind counts here, for one reason: one line says it all. */
		snprintf(text, sizeof(text),
			 "none of %zu countable here: %s ('pmc list%s%s %s' "
			 "lists them)",
			 k->nr, k->why, ctx->eo->backend ? " --backend=" : "",
			 ctx->eo->backend ? ctx->eo->backend : "", kind);
		cli_wrap(stdout, text, col, 4, width);
		return;
	}
	if (k->why) {
		snprintf(text, sizeof(text), "none countable here: %s", k->why);
		cli_wrap(stdout, text, col, 4, width);
	} else {
		putchar('\n');
	}
	for (size_t i = k->first, last = SIZE_MAX; i < k->end; i++) {
		if (!ctx->e[i].shown || ctx->e[i].canon)
			continue;
		if (ctx->e[i].kind == PMC_EV_PMU && ctx->e[i].pmu)
			print_pmu_heading(ctx, i, &last);
		print_line(&ctx->e[i], k, width);
	}
	if (k->footnote) {
		snprintf(text, sizeof(text), "no*: %s", k->footnote);
		fputs("  ", stdout);
		cli_wrap(stdout, text, 2, 4, width);
	}
}

static void print_text(const struct list_ctx *ctx)
{
	int width = out_width();
	size_t nr = 0, nr_ok = 0;

	for (size_t i = 0; i < ctx->nr;) {
		struct kind_run k = {.first = i};

		while (i < ctx->nr && ctx->e[i].kind == ctx->e[k.first].kind)
			i++;
		k.end = i;
		scan_kind(ctx, &k);
		print_kind(ctx, &k, width);
	}
	for (size_t i = 0; i < ctx->nr; i++) {
		nr += ctx->e[i].shown;
		nr_ok += ctx->e[i].shown && ctx->e[i].ok;
	}
	printf("\n%zu events, %zu countable here\n", nr, nr_ok);
}

static bool is_kind(const char *s)
{
	for (int k = PMC_EV_HARDWARE; k <= PMC_EV_TOOL; k++)
		if (!strcmp(s, pmc_event_kind__name(k)))
			return true;
	return false;
}

enum { O_BACKEND = CLI_LONG_ONLY };

/* What the options set. */
struct list_args {
	struct pmc_evlist_opts eo;
	bool json;
};

static const struct cli_opt options[] = {
	{"json", 'j', NULL, CLI_V_NONE, NULL, "print the list as JSON (schema pmc-list/1)",
	 CLI_TRUE(struct list_args, json)},
	{"backend", O_BACKEND, "NAME", CLI_V_CHOICES, "perf vpmu",
	 "the events of this backend: perf (default) or vpmu",
	 CLI_STR(struct list_args, eo.backend)},
	{"help", 'h', NULL, CLI_V_NONE, NULL, "this text", CLI_SHOW_HELP},
	{0},
};

const struct cli_cmd cmd_list_doc = {
	.name = "list",
	.summary = "list the events pmc knows and whether they can be counted here",
	.synopsis = "[options] [KIND|PATTERN|WORD]\n[options] metrics [WORD]",
	.about = "Lists every event pmc knows, by kind and sorted by name, with its description, "
		 "whether it can be counted on this machine and, if not, why; aliases share a "
		 "line (context-switches OR cs) and a PAPI preset shows the event it stands for "
		 "(PAPI_TOT_INS -> instructions). A kind none of whose events can be counted, "
		 "all for one reason, takes one line that says why.\n\nKIND is one of hardware, "
		 "software, cache, breakpoint, pmu, tracepoint, cpu, preset; PATTERN a shell "
		 "glob over the names; any other WORD lists the events whose name, description "
		 "or preset event contains it; PATTERN and WORD match without regard to case."
		 "\n\n'pmc list metrics [WORD]' lists the metric groups and the metrics of the "
		 "backend's shipped files (docs/metrics.md), each with its description, formula, "
		 "unit and threshold; WORD keeps those whose name, groups or description contain "
		 "it.",
	.opts = options,
	.operands = CLI_V_EVENTS,
};

static int list(struct list_ctx *ctx, bool json)
{
	struct pmc_evlist *l;
	int err = pmc_evlist__new(ctx->eo, &l);

	if (err) {
		fprintf(stderr, "pmc list: backend '%s': %s\n", ctx->eo->backend,
			pmc_strerror(err));
		return 2;
	}
	err = pmc_evlist__for_each_known(l, collect, ctx);
	pmc_evlist__delete(l);
	if (!err) {
		qsort(ctx->e, ctx->nr, sizeof(*ctx->e), by_kind_name);
		err = join_aliases(ctx);
	}
	if (err) {
		fprintf(stderr, "pmc list: cannot walk the events: %s\n", pmc_strerror(err));
		return 1;
	}
	filter(ctx);
	for (size_t i = 0; i < ctx->nr; i++)
		if (ctx->e[i].shown)
			judge(ctx, &ctx->e[i]);
	if (json)
		err = print_json(ctx);
	else
		print_text(ctx);
	return err || fflush(stdout) || ferror(stdout) ? 1 : 0;
}

int cmd_list(int argc, char **argv)
{
	struct list_args a = {.eo = {.sz = sizeof(a.eo)}};
	struct list_ctx ctx = {.eo = &a.eo};
	int first, ret = cli_parse(&cmd_list_doc, argc, argv, &a, NULL, &first);

	if (ret)
		return ret < 0 ? 0 : ret;
	ctx.pattern = first < argc ? argv[first] : NULL;
	if (ctx.pattern && !strcmp(ctx.pattern, "metrics"))
		return list_metrics(a.eo.backend, first + 1 < argc ? argv[first + 1] : NULL,
				    a.json);
	ctx.by_kind = ctx.pattern && is_kind(ctx.pattern);
	ret = list(&ctx, a.json);
	free_entries(&ctx);
	return ret;
}
