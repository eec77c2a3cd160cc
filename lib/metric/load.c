// SPDX-License-Identifier: MIT
/*
 * Metric files in perf's schema (docs/metrics.md, "Files"): a JSON list of objects, each a
 * metric (MetricName, MetricExpr, ...) or an event description, which is passed over.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <jansson.h>
#include <pmc/error.h>
#include <pmc/infile.h>
#include "core/grow.h"
#include "core/suggest.h"
#include "metric/metric.h"

/* A metric file larger than this is refused: perf's largest is under 1 MiB. */
#define MAX_FILE_BYTES (64 << 20)

/* The keys pmc reads, then those of perf's schema it passes over (events' keys: a metric
 * object of perf's uncore files also describes an event). */
static const char *const metric_keys[] = {
	"MetricName",	   "MetricExpr",       "MetricGroup",	    "ScaleUnit",
	"MetricThreshold", "BriefDescription", "PublicDescription", "MetricConstraint",
	"PmcExactExpr", /* pmc's: the model's exact value (docs/metrics.md, "Ground truth") */
};
static const char other_keys[] =
	" AggregationMode AnyThread ArchStdEvent CollectPEBSRecord Compat ConfigCode Counter "
	" CounterHTOff CounterMask CounterType DefaultMetricgroupName Deprecated ELLC EdgeDetect "
	" Errata EventCode EventName Experimental ExtSel FCMask Filter Invert MSRIndex MSRValue "
	" MetricgroupNoGroup Offcore PEBS PEBScounters PerPkg PortMask SampleAfterValue "
	" Speculative TakenAlone UMask UMaskExt Unit ";
static const char *const constraints[] = {
	"NO_NMI_WATCHDOG",
	"NO_GROUP_EVENTS",
	"NO_GROUP_EVENTS_NMI",
	"NO_GROUP_EVENTS_SMT",
};
#define NR(a) (sizeof(a) / sizeof(a[0]))

static bool in_list(const char *const *list, size_t nr, const char *s)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

static void suggest_from(struct pmc_metric_error *err, const char *name, const char *const *list,
			 size_t nr)
{
	int dist[3] = {0};

	if (!err)
		return;
	err->parse.nr_suggest = 0;
	for (size_t i = 0; i < nr; i++)
		pmc__suggest_add(&err->parse, dist, name, list[i]);
}

/* "100%" into 100 and "%"; false when s does not start with a finite number. */
static bool split_scale_unit(const char *s, double *scale, const char **unit)
{
	char *end;

	if (!((*s >= '0' && *s <= '9') || (*s == '.' && s[1] >= '0' && s[1] <= '9')) ||
	    ((s[0] == '0') && (s[1] == 'x' || s[1] == 'X')))
		return false;
	*scale = strtod(s, &end);
	if (!isfinite(*scale) || *scale == 0)
		return false;
	*unit = end + strspn(end, " ");
	return true;
}

/* One file's load: where its faults are, and what it holds so far. */
struct load {
	struct pmc_metrics *set;
	const char *path;
	struct pmc_metric_error *err;
	char where[256]; /* "PATH: entry N (metric 'NAME')" */
	struct pmc_metric **metrics;
	size_t nr, cap;
	struct pmc__name_index names; /* of metrics, for the check that no name comes twice */
	int rank;		      /* a shipped file's index row, -1: the user's */
};

static __attribute__((format(printf, 4, 5))) int fault(struct load *l, const char *field, int code,
						       const char *fmt, ...)
{
	char where[256], msg[192];
	va_list ap;

	snprintf(where, sizeof(where), "%s%s%s", l->where, field ? ": " : "", field ? field : "");
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pmc__metric_error(l->err, where, NULL, -1, "%s", msg);
	return code;
}

/* A string field: NULL when absent (an error when required), a copy in *out. */
static int string(struct load *l, json_t *obj, const char *key, bool required, char **out)
{
	json_t *v = json_object_get(obj, key);

	*out = NULL;
	if (!v && required)
		return fault(l, NULL, -PMC_E_FORMAT, "no %s", key);
	if (!v)
		return 0;
	if (!json_is_string(v))
		return fault(l, key, -PMC_E_FORMAT, "is not a string");
	*out = strdup(json_string_value(v));
	return *out ? 0 : -ENOMEM;
}

static int expression(struct load *l, const char *key, const char *text, struct pmc__expr **out)
{
	struct pmc_parse_error perr;
	char where[300];
	int ret = pmc__expr_parse(text, l->set->opts.runtime, out, &perr);

	if (ret == -PMC_E_EXPR) {
		snprintf(where, sizeof(where), "%s: %s", l->where, key);
		pmc__metric_error_from(l->err, where, text, &perr);
	}
	return ret;
}

/* Every key is one pmc reads or one of perf's it passes over. */
static int check_keys(struct load *l, json_t *obj)
{
	char word[66];
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v)
	{
		/* " KEY " (at most 62 bytes of it), as snprintf(" %.62s ") would, at a tenth of
		 * its cost: a shipped entry's load checks each of its keys */
		size_t n = strnlen(key, 62);

		word[0] = ' ';
		memcpy(word + 1, key, n);
		memcpy(word + 1 + n, " ", 2);
		if (in_list(metric_keys, NR(metric_keys), key) || strstr(other_keys, word))
			continue;
		fault(l, NULL, -PMC_E_FORMAT, "unknown key '%s'", key);
		suggest_from(l->err, key, metric_keys, NR(metric_keys));
		return -PMC_E_FORMAT;
	}
	return 0;
}

static int check_name(struct load *l, const char *name)
{
	size_t len = strlen(name);

	if (!len || len > 127 || name[0] == ' ' || name[len - 1] == ' ')
		return fault(l, "MetricName", -PMC_E_FORMAT,
			     "is empty, longer than 127 bytes, or starts or ends with a blank");
	for (const char *c = name; *c; c++)
		if ((unsigned char)*c < ' ' || *c == ',' || *c == 127)
			return fault(l, "MetricName", -PMC_E_FORMAT,
				     "holds ',' or a control character (a list of names is "
				     "separated by ',')");
	return 0;
}

/* The fields that are not expressions: ScaleUnit, MetricConstraint, MetricGroup. */
static int check_fields(struct load *l, struct pmc_metric_info *i, char *scale_unit)
{
	const char *unit = "";

	i->scale = 1;
	if (scale_unit && !split_scale_unit(scale_unit, &i->scale, &unit))
		return fault(l, "ScaleUnit", -PMC_E_FORMAT,
			     "'%s' is not a factor and a unit (\"100%%\", \"1GHz\")", scale_unit);
	if (!(i->unit = strdup(unit)))
		return -ENOMEM;
	if (i->constraint && !in_list(constraints, NR(constraints), i->constraint)) {
		fault(l, "MetricConstraint", -PMC_E_FORMAT, "unknown constraint '%s'",
		      i->constraint);
		suggest_from(l->err, i->constraint, constraints, NR(constraints));
		return -PMC_E_FORMAT;
	}
	if (!i->groups && !(i->groups = strdup("")))
		return -ENOMEM;
	if (strchr(i->groups, ','))
		return fault(l, "MetricGroup", -PMC_E_FORMAT,
			     "holds ','; groups are separated by ';'");
	return 0;
}

static int metric_fields(struct load *l, json_t *obj, struct pmc_metric *metric)
{
	struct pmc_metric_info *i = &metric->info;
	char *scale_unit = NULL;
	int ret;

	if ((ret = string(l, obj, "MetricExpr", true, (char **)&i->expr)) ||
	    (ret = string(l, obj, "MetricGroup", false, (char **)&i->groups)) ||
	    (ret = string(l, obj, "BriefDescription", false, (char **)&i->brief)) ||
	    (ret = string(l, obj, "PublicDescription", false, (char **)&i->desc)) ||
	    (ret = string(l, obj, "MetricThreshold", false, (char **)&i->threshold)) ||
	    (ret = string(l, obj, "MetricConstraint", false, (char **)&i->constraint)) ||
	    (ret = string(l, obj, "PmcExactExpr", false, (char **)&i->exact)) ||
	    (ret = string(l, obj, "ScaleUnit", false, &scale_unit)))
		return ret;
	ret = check_fields(l, i, scale_unit);
	free(scale_unit);
	if (!ret)
		ret = expression(l, "MetricExpr", i->expr, &metric->expr);
	if (!ret && i->threshold)
		ret = expression(l, "MetricThreshold", i->threshold, &metric->threshold);
	if (!ret && i->exact)
		ret = expression(l, "PmcExactExpr", i->exact, &metric->exact);
	return ret;
}

/* Entry idx of the file: a metric added to l, an event description passed over. */
static int entry(struct load *l, json_t *obj, size_t idx)
{
	struct pmc_metric *metric;
	json_t *name = json_object_get(obj, "MetricName");
	int ret;

	snprintf(l->where, sizeof(l->where), "%s: entry %zu", l->path, idx);
	if (!json_is_object(obj))
		return fault(l, NULL, -PMC_E_FORMAT, "is not an object");
	if (!name && (json_object_get(obj, "EventName") || json_object_get(obj, "ArchStdEvent")))
		return 0;
	if (!json_is_string(name))
		return fault(l, NULL, -PMC_E_FORMAT, "%s",
			     name ? "MetricName is not a string"
				  : "has no MetricName (nor EventName: it is no event either)");
	snprintf(l->where, sizeof(l->where), "%s: entry %zu (metric '%.64s')", l->path, idx,
		 json_string_value(name));
	if ((ret = check_keys(l, obj)))
		return ret;
	if (PMC_ENSURE(l->metrics, l->cap, l->nr + 1))
		return -ENOMEM;
	if (pmc__name_index_reserve(&l->names, 1) || !(metric = calloc(1, sizeof(*metric))))
		return -ENOMEM;
	ret = string(l, obj, "MetricName", true, (char **)&metric->info.name);
	ret = ret ?: check_name(l, metric->info.name);
	ret = ret ?: (metric->info.file = strdup(l->path)) ? 0 : -ENOMEM;
	metric->shipped = l->rank >= 0;
	metric->order = (long)l->rank * 100000 + (long)idx; /* ample: perf's largest has 2000 */
	ret = ret ?: metric_fields(l, obj, metric);
	if (!ret && pmc__name_index_get(&l->names, metric->info.name))
		ret = fault(l, "MetricName", -PMC_E_FORMAT,
			    "'%s' is also the name of an earlier entry", metric->info.name);
	if (ret) {
		pmc__metric_free(metric);
	} else {
		l->metrics[l->nr++] = metric;
		pmc__name_index_put(&l->names, metric);
	}
	return ret;
}

static int read_json(const char *path, json_t **root, struct pmc_metric_error *err)
{
	json_error_t jerr;
	struct stat st;
	char *buf;
	size_t n;
	bool bad;
	FILE *f;
	int ret = pmc_fopen_input(path, &f);

	*root = NULL;
	if (ret) {
		pmc__metric_error(err, path, NULL, -1, "cannot open: %s", pmc_strerror(ret));
		return ret;
	}
	if (fstat(fileno(f), &st)) {
		ret = -errno;
		fclose(f);
		pmc__metric_error(err, path, NULL, -1, "cannot read: %s", pmc_strerror(ret));
		return ret;
	}
	if (st.st_size > MAX_FILE_BYTES) { /* a regular file (pmc_fopen_input()) */
		fclose(f);
		pmc__metric_error(err, path, NULL, -1, "larger than %d MiB", MAX_FILE_BYTES >> 20);
		return -PMC_E_FORMAT;
	}
	/* read whole, then parsed from memory: json_loadf() takes the file a byte at a time
	 * through getc(), which was most of what loading the shipped files cost pmc stat -M */
	buf = malloc((size_t)st.st_size + 1);
	n = buf ? fread(buf, 1, (size_t)st.st_size + 1, f) : 0;
	bad = !buf || ferror(f) || n > (size_t)st.st_size;
	fclose(f);
	if (bad) {
		free(buf);
		pmc__metric_error(err, path, NULL, -1, "cannot read: %s",
				  buf ? "it changed while read" : pmc_strerror(-ENOMEM));
		return buf ? -PMC_E_FORMAT : -ENOMEM;
	}
	*root = json_loadb(buf, n, JSON_REJECT_DUPLICATES, &jerr);
	free(buf);
	if (!*root) {
		pmc__metric_error(err, path, NULL, -1, "line %d, column %d: %s", jerr.line,
				  jerr.column, jerr.text);
		return -PMC_E_FORMAT;
	}
	if (!json_is_array(*root)) {
		pmc__metric_error(err, path, NULL, -1, "is not a JSON list of metric objects");
		json_decref(*root);
		*root = NULL;
		return -PMC_E_FORMAT;
	}
	return 0;
}

/* Entry idx of a shipped file added, its object released. */
static int load_one(struct pmc_metrics *m, const char *path, int rank, size_t idx, json_t *obj,
		    struct pmc_metric_error *err)
{
	struct load l = {.set = m, .path = path, .err = err, .rank = rank};
	int ret = entry(&l, obj, idx);

	json_decref(obj);
	if (!ret && l.nr)
		ret = pmc__metrics_add(m, l.metrics, l.nr);
	pmc__name_index_free(&l.names);
	free(l.metrics);
	return ret;
}

int pmc__metrics_load_entry(struct pmc_metrics *m, const char *path, int rank, size_t idx,
			    const char *text, size_t len, struct pmc_metric_error *err)
{
	json_error_t jerr;
	json_t *obj = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);

	if (!obj) {
		pmc__metric_error(err, path, NULL, -1, "entry %zu: %s", idx, jerr.text);
		return -PMC_E_FORMAT;
	}
	return load_one(m, path, rank, idx, obj, err);
}

int pmc__metrics_load_pairs(struct pmc_metrics *m, const char *path, int rank, size_t idx,
			    const char *kv, size_t nr, struct pmc_metric_error *err)
{
	/* The object the entry's text would parse to, built without lexing it: the generator
	 * wrote valid UTF-8 and no key twice (the checks json_loadb() makes). */
	json_t *obj = json_object(), *v;

	for (size_t i = 0; obj && i < nr; i++) {
		const char *key = kv, *val = key + strlen(key) + 1;

		kv = val + strlen(val) + 1;
		if (!(v = json_string_nocheck(val)) || json_object_set_new_nocheck(obj, key, v)) {
			json_decref(obj);
			obj = NULL;
		}
	}
	if (!obj) {
		pmc__metric_error(err, path, NULL, -1, "entry %zu: %s", idx, pmc_strerror(-ENOMEM));
		return -ENOMEM;
	}
	return load_one(m, path, rank, idx, obj, err);
}

int pmc_metrics__load(struct pmc_metrics *m, const char *path, struct pmc_metric_error *err)
{
	return pmc__metrics_load_file(m, path, -1, err);
}

int pmc__metrics_load_file(struct pmc_metrics *m, const char *path, int rank,
			   struct pmc_metric_error *err)
{
	struct load l = {.set = m, .path = path, .err = err, .rank = rank};
	json_t *root, *obj;
	size_t idx;
	int ret = read_json(path, &root, err);

	if (ret)
		return ret;
	json_array_foreach(root, idx, obj)
	{
		if ((ret = entry(&l, obj, idx)))
			break;
	}
	json_decref(root);
	if (!ret)
		ret = pmc__metrics_add(m, l.metrics, l.nr); /* which frees them on failure */
	else
		for (size_t i = 0; i < l.nr; i++)
			pmc__metric_free(l.metrics[i]);
	pmc__name_index_free(&l.names);
	free(l.metrics);
	return ret;
}
