// SPDX-License-Identifier: MIT
/* Reading the trust file that validation writes (schema "pmc-trust/1"; trust.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include <pmc/pmc.h>
#include <pmc/validate.h>
#include "core/datadir.h"
#include "core/jsonfile.h"
#include "trust/trust.h"

struct pmc_trust {
	char *path;
	json_t *root;
};

char *pmc_trust_default_path(void)
{
	return pmc__data_file("PMC_TRUST", "trust");
}

/* The classes' names: the trust file's words, and every output's. */
static const char *const names[] = {
	[PMC_VALIDATE_EXACT] = "exact",
	[PMC_VALIDATE_BIAS] = "bias",
	[PMC_VALIDATE_MULTIPLICATIVE] = "multiplicative",
	[PMC_VALIDATE_RANDOM] = "random",
	[PMC_VALIDATE_UNKNOWN] = "unknown",
	[PMC_VALIDATE_UNSUPPORTED] = "unsupported",
};

const char *pmc_validate_class_name(enum pmc_validate_class c)
{
	return (unsigned)c < sizeof(names) / sizeof(names[0]) ? names[c] : "?";
}

static int class_of(const char *s)
{
	for (int i = PMC_VALIDATE_EXACT; s && i <= PMC_VALIDATE_UNSUPPORTED; i++)
		if (!strcmp(s, pmc_validate_class_name(i)))
			return i;
	return -1;
}

static const char *const versions[] = {"pmc-trust/1", NULL};
static const struct pmc__jsonfile_kind kind = {
	.family = "pmc-trust",
	.name = "trust file",
	.writer = "pmc validate",
	.versions = versions,
	.reads = "pmc-trust/1",
};

const struct pmc__jsonfile_kind *pmc__trust_kind(void)
{
	return &kind;
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
	json_t *entries = json_object_get(root, "entries"), *e;
	size_t i;
	int err = 0;

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

int pmc_trust__load(const char *path, struct pmc_trust **out, char *why, size_t len)
{
	struct pmc_trust *t = calloc(1, sizeof(*t));
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
	err = pmc__jsonfile_load(t->path, !path, &kind, &t->root, NULL, why, len);
	if (!err)
		err = check(t->root, why, len);
	if (err) {
		pmc_trust__delete(t);
		return err;
	}
	*out = t;
	return 0;
}

void pmc_trust__delete(struct pmc_trust *t)
{
	if (!t)
		return;
	json_decref(t->root);
	free(t->path);
	free(t);
}

const char *pmc_trust__path(const struct pmc_trust *t)
{
	return t->path;
}

bool pmc_trust__stale(const struct pmc_trust *t, const char *cpu_model, const char *kernel,
		      char *why, size_t len)
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
static json_t *worst_of(const struct pmc_trust *t, const char *backend, const char *event,
			unsigned priv, int *rank)
{
	json_t *worst = NULL, *e;
	char key[512], other[512];
	size_t i;

	*rank = -1;
	pmc__trust_event_key(event, key, sizeof(key));
	json_array_foreach(json_object_get(t->root, "entries"), i, e)
	{
		int c = class_of(json_string_value(json_object_get(e, "class")));

		pmc__trust_event_key(json_string_value(json_object_get(e, "event")), other,
				     sizeof(other));
		if (c > PMC_VALIDATE_RANDOM ||
		    strcmp(json_string_value(json_object_get(e, "backend")), backend) ||
		    strcmp(other, key) ||
		    json_integer_value(json_object_get(e, "priv")) != (json_int_t)priv ||
		    c <= *rank)
			continue;
		*rank = c;
		worst = e;
	}
	return worst;
}

int pmc_trust__lookup(const struct pmc_trust *t, const char *backend, const char *event,
		      unsigned priv, enum pmc_validate_class *cls, double *value, char *mark,
		      size_t len)
{
	int rank;
	json_t *worst = worst_of(t, backend, event, priv, &rank);
	double v = rank == PMC_VALIDATE_BIAS ? json_number_value(json_object_get(worst, "bias"))
		   : rank == PMC_VALIDATE_MULTIPLICATIVE
			   ? json_number_value(json_object_get(worst, "factor"))
			   : 0;

	if (cls)
		*cls = rank < 0 ? PMC_VALIDATE_UNKNOWN : (enum pmc_validate_class)rank;
	if (value)
		*value = v;
	if (!mark || !len)
		;
	else if (rank == PMC_VALIDATE_EXACT)
		snprintf(mark, len, "exact");
	else if (rank == PMC_VALIDATE_BIAS)
		snprintf(mark, len, "bias %+.6g per run", v);
	else if (rank == PMC_VALIDATE_MULTIPLICATIVE)
		snprintf(mark, len, "factor %.6g", v);
	else if (rank == PMC_VALIDATE_RANDOM)
		snprintf(mark, len, "random");
	else
		snprintf(mark, len, "not validated here");
	return rank < 0 ? -ENOENT : 0;
}
