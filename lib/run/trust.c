// SPDX-License-Identifier: MIT
/* Reading the trust file that pmc validate writes (schema "pmc-trust/1"; trust.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include <pmc/pmc.h>
#include "core/datadir.h"
#include "run/runner.h"
#include "run/trust.h"

struct trust {
	char *path;
	json_t *root;
};

char *pmc_trust_default_path(void)
{
	return pmc__data_file("PMC_TRUST", "trust");
}

static const char *const classes[] = {"exact",	"bias",	   "multiplicative",
				      "random", "unknown", "unsupported"};

static int class_of(const char *s)
{
	for (size_t i = 0; s && i < sizeof(classes) / sizeof(classes[0]); i++)
		if (!strcmp(s, classes[i]))
			return (int)i;
	return -1;
}

static bool number_ok(json_t *v)
{
	return !v || json_is_null(v) ||
	       (json_is_number(v) && isfinite(json_number_value(v)) &&
		fabs(json_number_value(v)) <= 1e15);
}

static int check_entry(json_t *e, size_t i, char *why, size_t len)
{
	static const char *const strs[] = {"backend", "kernel", "event"};
	static const char *const nums[] = {"factor", "overhead", "bias"};

	for (size_t k = 0; k < 3; k++)
		if (!json_is_string(json_object_get(e, strs[k]))) {
			snprintf(why, len, "entries[%zu]: no \"%s\" string", i, strs[k]);
			return -PMC_E_FORMAT;
		}
	if (class_of(json_string_value(json_object_get(e, "class"))) < 0) {
		snprintf(why, len,
			 "entries[%zu] (%s): \"class\" is none of exact, bias, "
			 "multiplicative, random, unknown, unsupported",
			 i, json_string_value(json_object_get(e, "event")));
		return -PMC_E_FORMAT;
	}
	if (!json_is_integer(json_object_get(e, "priv")) ||
	    json_integer_value(json_object_get(e, "priv")) < 1 ||
	    json_integer_value(json_object_get(e, "priv")) > 7) {
		snprintf(why, len,
			 "entries[%zu] (%s): \"priv\" is not a privilege mask from 1 to 7", i,
			 json_string_value(json_object_get(e, "event")));
		return -PMC_E_FORMAT;
	}
	for (size_t k = 0; k < 3; k++)
		if (!number_ok(json_object_get(e, nums[k]))) {
			snprintf(why, len,
				 "entries[%zu] (%s): %s is not a number from -1e15 to 1e15", i,
				 json_string_value(json_object_get(e, "event")), nums[k]);
			return -PMC_E_FORMAT;
		}
	return 0;
}

static int check(json_t *root, char *why, size_t len)
{
	const char *schema = json_string_value(json_object_get(root, "schema"));
	json_t *entries = json_object_get(root, "entries"), *e;
	size_t i;
	int err = 0;

	if (!schema || strncmp(schema, "pmc-trust/", 10)) {
		snprintf(why, len, "not a trust file (no \"schema\": \"pmc-trust/N\")");
		return -PMC_E_FORMAT;
	}
	if (strcmp(schema, "pmc-trust/1")) {
		snprintf(why, len,
			 "its schema is %.40s; this pmc reads pmc-trust/1 (run 'pmc validate' with "
			 "this pmc)",
			 schema);
		return -PMC_E_VERSION;
	}
	if (!json_is_object(json_object_get(root, "machine"))) {
		snprintf(why, len, "no \"machine\" object");
		return -PMC_E_FORMAT;
	}
	if (!json_is_array(entries)) {
		snprintf(why, len, "no \"entries\" array");
		return -PMC_E_FORMAT;
	}
	json_array_foreach(entries, i, e) if (!err) err = check_entry(e, i, why, len);
	return err;
}

int pmc__trust_load(const char *path, struct trust **out, char *why, size_t len)
{
	struct trust *t = calloc(1, sizeof(*t));
	int err;

	snprintf(why, len, "%s", "");
	if (!t)
		return -ENOMEM;
	t->path = path ? strdup(path) : pmc_trust_default_path();
	if (!t->path) {
		free(t);
		return -ENOMEM;
	}
	/* the default file is read only from a data folder no one else can write */
	err = pmc__data_json_load(t->path, !path, &t->root, why, len);
	if (!err)
		err = check(t->root, why, len);
	if (err) {
		pmc__trust_free(t);
		return err;
	}
	*out = t;
	return 0;
}

void pmc__trust_free(struct trust *t)
{
	if (!t)
		return;
	json_decref(t->root);
	free(t->path);
	free(t);
}

const char *pmc__trust_path(const struct trust *t)
{
	return t->path;
}

bool pmc__trust_stale(const struct trust *t, const char *cpu_model, const char *kernel, char *why,
		      size_t len)
{
	json_t *m = json_object_get(t->root, "machine");
	const char *cpu = json_string_value(json_object_get(m, "cpu_model"));
	const char *kern = json_string_value(json_object_get(m, "kernel"));

	if (!cpu || strcmp(cpu, cpu_model)) {
		snprintf(why, len, "it was made on another CPU (%.100s)", cpu ? cpu : "not named");
		return true;
	}
	if (!kern || strcmp(kern, kernel)) {
		snprintf(why, len, "it was made under another kernel (%.100s)",
			 kern ? kern : "not named");
		return true;
	}
	return false;
}

void pmc__trust_event_key(const char *name, char *buf, size_t len)
{
	const char *colon = strrchr(name, ':'), *slash = strrchr(name, '/');
	const char *g = !colon ? slash : !slash ? colon : colon > slash ? colon : slash;
	size_t n;

	snprintf(buf, len, "%s", name);
	if (!g || !g[1] || g[strspn(g + 1, "ukhpPGHIDeWSb") + 1] || (size_t)(g - name) >= len)
		return;
	n = (size_t)(g - name) + (*g == '/'); /* a PMU's closing slash stays */
	for (const char *c = g + 1; *c && n + 2 < len; c++)
		if (!strchr("ukh", *c)) {
			if (*g == ':' && n == (size_t)(g - name))
				buf[n++] = ':';
			buf[n++] = *c;
		}
	buf[n] = '\0';
}

/*
 * The worst class over the kernels that validated event on backend at priv: random, then
 * multiplicative, then bias, then exact; unknown and unsupported rows validate nothing.
 */
void pmc__trust_mark(const struct trust *t, const char *backend, const char *event, unsigned priv,
		     char *buf, size_t len, double *bias)
{
	json_t *worst = NULL, *e;
	char key[512], other[512];
	int rank = -1;
	size_t i;

	*bias = 0;
	pmc__trust_event_key(event, key, sizeof(key));
	json_array_foreach(json_object_get(t->root, "entries"), i, e)
	{
		int c = class_of(json_string_value(json_object_get(e, "class")));
		int r = c == 3 ? 3 : c == 2 ? 2 : c == 1 ? 1 : c == 0 ? 0 : -1;

		pmc__trust_event_key(json_string_value(json_object_get(e, "event")), other,
				     sizeof(other));
		if (strcmp(json_string_value(json_object_get(e, "backend")), backend) ||
		    strcmp(other, key) ||
		    json_integer_value(json_object_get(e, "priv")) != (json_int_t)priv || r <= rank)
			continue;
		rank = r;
		worst = e;
	}
	if (rank == 1)
		*bias = json_number_value(json_object_get(worst, "bias"));
	if (rank == 0)
		snprintf(buf, len, "exact");
	else if (rank == 1)
		snprintf(buf, len, "bias %+.6g per run", *bias);
	else if (rank == 2)
		snprintf(buf, len, "factor %.6g",
			 json_number_value(json_object_get(worst, "factor")));
	else if (rank == 3)
		snprintf(buf, len, "random");
	else
		snprintf(buf, len, "not validated here");
}

/*
 * The runner's side (runner.h): each event's verdict from opts.trust, once a run's values are
 * summarised. A missing default file says nothing; a missing named one, an unreadable one or
 * one from another machine is noted and ignored.
 */
void pmc__run_trust(struct pmc_run *run)
{
	const char *path = run->opts.trust;
	struct pmc_run_results *res = &run->res;
	char why[320];
	double bias;
	int err;

	pmc__run_trust_free(run);
	if (!path)
		return;
	err = pmc__trust_load(*path ? path : NULL, &run->trust, why, sizeof(why));
	if (err == -ENOENT && !*path)
		return;
	/* the machine is probed only when there is a file to check it against: pmc_caps() reads
	 * /proc/cpuinfo and asks every backend, 0.3 ms after each pmc stat otherwise */
	if (!err && pmc__trust_stale(run->trust, pmc_caps()->cpu_model, pmc_caps()->kernel, why,
				     sizeof(why)))
		err = -ESTALE;
	if (err) {
		snprintf(run->trust_note, sizeof(run->trust_note),
			 "the trust file %s is not used: %s; run 'pmc validate' here",
			 *path	      ? path
			 : run->trust ? pmc__trust_path(run->trust)
				      : "(this machine's)",
			 why);
		res->trust_note = run->trust_note;
		pmc__trust_free(run->trust);
		run->trust = NULL;
		return;
	}
	res->trust = calloc(res->nr_events ? res->nr_events : 1, sizeof(*res->trust));
	run->trust_bias = calloc(res->nr_events ? res->nr_events : 1, sizeof(*run->trust_bias));
	for (size_t i = 0; res->trust && run->trust_bias && i < res->nr_events; i++) {
		char mark[64];

		/* the levels it counted at, however they were asked for (-e x:u, --user, none) */
		pmc__trust_mark(run->trust, pmc_evlist__backend(run->evlist),
				pmc_evsel__name(res->events[i].evsel),
				pmc_evsel__priv(res->events[i].evsel), mark, sizeof(mark), &bias);
		res->trust[i] = strdup(mark);
		run->trust_bias[i] = strncmp(mark, "bias ", 5) ? NAN : bias;
	}
	res->trust_file = pmc__trust_path(run->trust);
}

bool pmc__run_trust_bias(const struct pmc_run *run, size_t idx, double *bias)
{
	if (!run->trust_bias || isnan(run->trust_bias[idx]))
		return false;
	*bias = run->trust_bias[idx];
	return true;
}

void pmc__run_trust_free(struct pmc_run *run)
{
	struct pmc_run_results *res = &run->res;

	for (size_t i = 0; res->trust && i < res->nr_events; i++)
		free(res->trust[i]);
	free(res->trust);
	free(run->trust_bias);
	run->trust_bias = NULL;
	res->trust = NULL;
	res->trust_file = res->trust_note = NULL;
	pmc__trust_free(run->trust);
	run->trust = NULL;
}
