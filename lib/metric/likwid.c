// SPDX-License-Identifier: MIT
/*
 * LIKWID performance groups as metrics (docs/metrics.md, "LIKWID groups"): a group file's
 * SHORT, EVENTSET, METRICS and LONG sections read line by line, each METRICS line's formula
 * translated into the engine's grammar (counters to their events, time and inverseClock to
 * what they stand for), one metric per line, all selected.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pmc/error.h>
#include <pmc/infile.h>
#include "core/backend.h"
#include "core/grow.h"
#include "metric/metric.h"

#define MAX_COUNTERS 64	      /* EVENTSET lines: LIKWID's largest groups have about 40 */
#define MAX_LINE_BYTES 4096   /* a longer line is refused */
#define MAX_LONG_BYTES 65536  /* of the LONG text kept as the description */
#define MAX_FILE_LINES 100000 /* a longer file is refused */

/*
 * LIKWID's names that are not Intel's with one '_' read as '.'. Sources: LIKWID 5.2's
 * src/includes/perfmon_nehalem_events.txt (the fixed counters' names, ARITH_NUM_DIV as
 * event 0x14 umask 0x02) and the Intel SDM, volume 3B, the Nehalem event table (the same
 * codes as INST_RETIRED.ANY, CPU_CLK_UNHALTED.THREAD, CPU_CLK_UNHALTED.REF and ARITH.DIV).
 */
static const struct {
	const char *likwid, *intel;
} renamed[] = {
	{"INSTR_RETIRED_ANY", "INST_RETIRED.ANY"},
	{"CPU_CLK_UNHALTED_CORE", "CPU_CLK_UNHALTED.THREAD"},
	{"CPU_CLK_UNHALTED_REF", "CPU_CLK_UNHALTED.REF"},
	{"ARITH_NUM_DIV", "ARITH.DIV"},
};

/* The CPU families whose LIKWID folder a group NAME is looked up in, by backend CPU model. */
static const struct {
	const char *model, *family;
} families[] = {
	{"corei7", "nehalem"}, /* vpmu's Core i7 model is a Nehalem */
};

struct counter {
	char *name;  /* PMC0, FIXC1, UPMC0 */
	char *event; /* LIKWID's name */
	char *as;    /* the event in the engine's grammar: the backend's name, else LIKWID's */
};

struct group {
	struct pmc_metrics *m;
	const char *path;
	struct pmc_metric_error *err;
	char *name, *brief, *desc;
	size_t desc_len;
	struct counter ctr[MAX_COUNTERS];
	size_t nr_ctr, nr_mapped; /* counters, those of them whose event is mapped */
	struct pmc_metric **metrics;
	size_t nr, cap;
	struct pmc__name_index names; /* of metrics, for the check that none is given twice */
	int line;
};

static __attribute__((format(printf, 3, 4))) int fault(struct group *g, int code, const char *fmt,
						       ...)
{
	char where[256], msg[sizeof(g->err->parse.msg)];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(where, sizeof(where), "%s: line %d", g->path, g->line);
	pmc__metric_error(g->err, where, NULL, -1, "%s", msg);
	return code;
}

static void group_free(struct group *g)
{
	for (size_t i = 0; i < g->nr_ctr; i++) {
		free(g->ctr[i].name);
		free(g->ctr[i].event);
		free(g->ctr[i].as);
	}
	for (size_t i = 0; i < g->nr; i++)
		pmc__metric_free(g->metrics[i]);
	free(g->metrics);
	pmc__name_index_free(&g->names);
	free(g->name);
	free(g->brief);
	free(g->desc);
}

/* The word at *s (blanks before it skipped), NUL-ended in place; *s moves past it. */
static char *word(char **s)
{
	char *w = *s + strspn(*s, " \t"), *end = w + strcspn(w, " \t");

	*s = *end ? end + 1 : end;
	*end = '\0';
	return w;
}

static int eventset_line(struct group *g, char *line)
{
	char *name = word(&line), *event = word(&line);
	struct counter *c = &g->ctr[g->nr_ctr];

	if (!*event || *word(&line))
		return fault(g, -PMC_E_FORMAT, "an EVENTSET line is 'COUNTER EVENT'");
	if (strchr(event, ':'))
		return fault(g, -PMC_E_FORMAT,
			     "event options ('%s') are not supported: remove them or count the "
			     "event with pmc stat -e",
			     strchr(event, ':'));
	if (g->nr_ctr == MAX_COUNTERS)
		return fault(g, -PMC_E_FORMAT, "more than %d counters", MAX_COUNTERS);
	for (size_t i = 0; i < g->nr_ctr; i++)
		if (!strcmp(g->ctr[i].name, name))
			return fault(g, -PMC_E_FORMAT, "counter %s is given twice", name);
	c->name = strdup(name);
	c->event = strdup(event);
	if (!c->name || !c->event) {
		free(c->name);
		free(c->event);
		return -ENOMEM;
	}
	g->nr_ctr++;
	return 0;
}

/* Whether info's name is ev's LIKWID name with one '.' read as '_' (L1D.REPL of L1D_REPL). */
static int match_known(const struct pmc_event_info *info, void *arg)
{
	struct group *g = arg;
	const char *dot = strchr(info->name, '.');

	if (!dot || strchr(dot + 1, '.'))
		return 0;
	for (size_t i = 0; i < g->nr_ctr; i++) {
		struct counter *c = &g->ctr[i];
		size_t at = (size_t)(dot - info->name);

		if (c->as || strlen(c->event) != strlen(info->name) || c->event[at] != '_' ||
		    strncmp(c->event, info->name, at) || strcmp(c->event + at + 1, dot + 1))
			continue;
		if (!(c->as = strdup(info->name)))
			return -ENOMEM;
	}
	return 0;
}

/* Each counter's event as the backend names it, where it has one; else LIKWID's name. */
static int map_events(struct group *g)
{
	int ret;

	if (g->nr_mapped == g->nr_ctr)
		return 0;
	g->nr_mapped = g->nr_ctr;
	for (size_t i = 0; i < g->nr_ctr; i++)
		for (size_t j = 0; j < sizeof(renamed) / sizeof(renamed[0]) && !g->ctr[i].as; j++)
			if (!strcmp(g->ctr[i].event, renamed[j].likwid) &&
			    !(g->ctr[i].as = strdup(renamed[j].intel)))
				return -ENOMEM;
	ret = pmc__backend_for_each_known(g->m->backend, match_known, g);
	for (size_t i = 0; i < g->nr_ctr && !ret; i++)
		if (!g->ctr[i].as && !(g->ctr[i].as = strdup(g->ctr[i].event)))
			ret = -ENOMEM;
	return ret;
}

/* Appends n bytes of s to buf, of which *len bytes are used, within cap bytes. */
static bool append(char *buf, size_t *len, size_t cap, const char *s, size_t n)
{
	if (*len + n >= cap)
		return false;
	memcpy(buf + *len, s, n);
	*len += n;
	buf[*len] = '\0';
	return true;
}

/* What a name in a formula stands for: a counter's event, time, inverseClock; NULL if none. */
static const char *resolve(const struct group *g, const char *name, size_t n)
{
	static const char time_s[] = "(duration_time / 1e9)";
	bool vpmu = !strcmp(pmc__backend_name(g->m->backend), "vpmu");

	if (n == 4 && !strncmp(name, "time", 4))
		return time_s;
	/* the clock period: the host's TSC on perf, as LIKWID measures it; the model has none */
	if (n == 12 && !strncmp(name, "inverseClock", 12))
		return vpmu ? "inverseClock" : "(1 / #system_tsc_freq)";
	for (size_t i = 0; i < g->nr_ctr; i++)
		if (strlen(g->ctr[i].name) == n && !strncmp(g->ctr[i].name, name, n))
			return g->ctr[i].as;
	return NULL;
}

/* formula in the engine's grammar into out (cap bytes): names resolved, numbers rewritten. */
static int translate(struct group *g, const char *formula, char *out, size_t cap)
{
	size_t len = 0;
	const char *s = formula;
	char num[40];

	out[0] = '\0';
	while (*s) {
		size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_"
				     "0123456789");
		const char *to;
		char *end;

		if ((*s >= '0' && *s <= '9') || *s == '.') {
			double v = strtod(s, &end);

			if (end == s)
				end = (char *)s + 1, snprintf(num, sizeof(num), "%c", *s);
			else
				snprintf(num, sizeof(num), "%.17g", v);
			if (!append(out, &len, cap, num, strlen(num)))
				return fault(g, -PMC_E_FORMAT, "the formula is too long");
			s = end;
			continue;
		}
		if (!n) {
			if (!append(out, &len, cap, s, 1))
				return fault(g, -PMC_E_FORMAT, "the formula is too long");
			s++;
			continue;
		}
		to = resolve(g, s, n);
		if (!to)
			return fault(
				g, -PMC_E_FORMAT,
				"the formula names '%.*s', which is no counter of the EVENTSET, "
				"'time' or 'inverseClock'",
				(int)n, s);
		if (!append(out, &len, cap, to, strlen(to)))
			return fault(g, -PMC_E_FORMAT, "the formula is too long");
		s += n;
	}
	return 0;
}

static int add_metric(struct group *g, const char *name, const char *expr)
{
	struct pmc_metric *metric = calloc(1, sizeof(*metric));
	struct pmc_metric_info *i = metric ? &metric->info : NULL;
	struct pmc_parse_error perr;
	int ret = -ENOMEM;

	if (!metric)
		return -ENOMEM;
	i->name = strdup(name);
	i->expr = strdup(expr);
	i->groups = strdup(g->name);
	i->unit = strdup("");
	i->file = strdup(g->path);
	i->brief = g->brief ? strdup(g->brief) : NULL;
	i->scale = 1;
	if (i->name && i->expr && i->groups && i->unit && i->file && (i->brief || !g->brief))
		ret = pmc__expr_parse(i->expr, g->m->opts.runtime, &metric->expr, &perr);
	if (ret == -PMC_E_EXPR)
		ret = fault(g, ret, "metric '%s': %s, in '%s' (the formula in pmc's grammar)", name,
			    perr.msg, expr);
	if (!ret)
		ret = pmc__name_index_reserve(&g->names, 1);
	if (!ret)
		ret = PMC_ENSURE(g->metrics, g->cap, g->nr + 1);
	if (ret) {
		pmc__metric_free(metric);
		return ret;
	}
	g->metrics[g->nr++] = metric;
	pmc__name_index_put(&g->names, metric);
	return 0;
}

/* "NAME  FORMULA": the formula is the last word (LIKWID's formulas hold no blank). */
static int metrics_line(struct group *g, char *line)
{
	char *end = line + strlen(line), *formula, expr[MAX_LINE_BYTES * 2];
	int ret;

	while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	formula = end;
	while (formula > line && formula[-1] != ' ' && formula[-1] != '\t')
		formula--;
	end = formula;
	while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	*end = '\0';
	if (!*line || !*formula)
		return fault(g, -PMC_E_FORMAT, "a METRICS line is 'NAME FORMULA'");
	for (const char *c = line; *c; c++)
		if ((unsigned char)*c < ' ' || *c == ',' || *c == 127)
			return fault(g, -PMC_E_FORMAT,
				     "the metric's name holds ',' or a control character");
	if (pmc__name_index_get(&g->names, line))
		return fault(g, -PMC_E_FORMAT, "metric '%s' is given twice", line);
	if (!g->nr_ctr)
		return fault(g, -PMC_E_FORMAT, "METRICS before the EVENTSET");
	if ((ret = map_events(g)))
		return ret;
	if ((ret = translate(g, formula, expr, sizeof(expr))))
		return ret;
	return add_metric(g, line, expr);
}

static int long_line(struct group *g, const char *line)
{
	size_t n = strlen(line);
	char *d;

	if (g->desc_len + n + 2 > MAX_LONG_BYTES)
		return 0; /* the rest of a long description is left out */
	d = realloc(g->desc, g->desc_len + n + 2);
	if (!d)
		return -ENOMEM;
	g->desc = d;
	if (g->desc_len)
		d[g->desc_len++] = '\n';
	memcpy(d + g->desc_len, line, n + 1);
	g->desc_len += n;
	return 0;
}

enum section { NONE, EVENTSET, METRICS, LONG };

/* One line (its newline removed) in section *sec. */
static int line(struct group *g, char *s, enum section *sec)
{
	char *t = s + strspn(s, " \t");

	if (*sec == LONG)
		return long_line(g, s);
	if (!*t || *t == '#')
		return 0;
	if (!strncmp(t, "SHORT", 5) && (!t[5] || t[5] == ' ' || t[5] == '\t')) {
		free(g->brief);
		g->brief = strdup(t + 5 + strspn(t + 5, " \t"));
		return g->brief ? 0 : -ENOMEM;
	}
	if (!strcmp(t, "EVENTSET") || !strcmp(t, "METRICS") || !strcmp(t, "LONG")) {
		*sec = *t == 'E' ? EVENTSET : *t == 'M' ? METRICS : LONG;
		return 0;
	}
	if (*sec == EVENTSET)
		return eventset_line(g, t);
	if (*sec == METRICS)
		return metrics_line(g, t);
	return fault(g, -PMC_E_FORMAT, "expected SHORT, EVENTSET, METRICS or LONG");
}

static int read_group(struct group *g)
{
	enum section sec = NONE;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;
	int ret = pmc_fopen_input(g->path, &f);

	if (ret) {
		pmc__metric_error(g->err, g->path, NULL, -1, "cannot open: %s", pmc_strerror(ret));
		return ret;
	}
	while (!ret && (n = getline(&buf, &cap, f)) >= 0) {
		g->line++;
		if (n && buf[n - 1] == '\n')
			buf[--n] = '\0';
		if (n && buf[n - 1] == '\r')
			buf[--n] = '\0';
		if (n > MAX_LINE_BYTES || strlen(buf) != (size_t)n || g->line > MAX_FILE_LINES)
			ret = fault(g, -PMC_E_FORMAT,
				    "a NUL byte, or longer than %d bytes or %d lines",
				    MAX_LINE_BYTES, MAX_FILE_LINES);
		else
			ret = line(g, buf, &sec);
	}
	free(buf);
	fclose(f);
	if (!ret && !g->nr)
		ret = fault(g, -PMC_E_FORMAT, "the group has no METRICS line");
	return ret;
}

/* The group's name: its file's name less ".txt". */
static int group_name(struct group *g)
{
	const char *base = strrchr(g->path, '/') ? strrchr(g->path, '/') + 1 : g->path;
	size_t n = strlen(base);

	if (n > 4 && !strcmp(base + n - 4, ".txt"))
		n -= 4;
	g->name = strndup(base, n);
	return g->name ? 0 : -ENOMEM;
}

/* The file of group NAME in the LIKWID folder of the backend's CPU family, into path. */
static int group_path(struct pmc_metrics *m, const char *name, char *path, size_t len,
		      struct pmc_metric_error *err)
{
	const char *dir = getenv("PMC_LIKWID_GROUPS_DIR"), *model;
	const char *family = NULL;

	model = pmc__backend_cpu_model(m->backend);
	for (size_t i = 0; model && i < sizeof(families) / sizeof(families[0]); i++)
		if (!strcmp(model, families[i].model))
			family = families[i].family;
	if (!family) {
		pmc__metric_error(err, name, NULL, -1,
				  "no LIKWID CPU family is known for backend %s's CPU (%s): give "
				  "the group's file",
				  pmc__backend_name(m->backend), model ? model : "unknown");
		return -ENOENT;
	}
	if (!dir || !*dir)
		dir = "/usr/share/likwid/perfgroups";
	if ((size_t)snprintf(path, len, "%s/%s/%s.txt", dir, family, name) >= len) {
		pmc__metric_error(err, name, NULL, -1, "the group's name is too long");
		return -ENAMETOOLONG;
	}
	return 0;
}

int pmc_metrics__load_likwid(struct pmc_metrics *m, const char *group, struct pmc_metric_error *err)
{
	struct group g = {.m = m, .path = group, .err = err};
	char path[4096];
	int ret = 0;

	if (!strchr(group, '/') && !strstr(group, ".txt")) {
		ret = group_path(m, group, path, sizeof(path), err);
		g.path = path;
	}
	if (!ret)
		ret = group_name(&g);
	if (!ret)
		ret = read_group(&g);
	for (size_t i = 0; i < g.nr && !ret; i++) {
		struct pmc_metric_info *info = &g.metrics[i]->info;

		if (g.desc && !(info->desc = strdup(g.desc)))
			ret = -ENOMEM;
	}
	if (!ret) {
		ret = pmc__metrics_add(m, g.metrics, g.nr); /* which frees them on failure */
		for (size_t i = 0; i < g.nr && !ret; i++)
			ret = pmc__metrics_select_one(m, g.metrics[i]);
		g.nr = 0;
	}
	group_free(&g);
	return ret;
}
