// SPDX-License-Identifier: MIT
/*
 * Reading the calibration file that pmc calibrate writes (schemas "pmc-calibrate/2", which
 * adds an entry's first_entry, and "pmc-calibrate/1").
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include <pmc/pmc.h>
#include "run/calib.h"

struct calib {
	char *path;
	json_t *root;
};

char *pmc_calibration_default_path(void)
{
	const char *env = secure_getenv("PMC_CALIBRATION"), *data = secure_getenv("XDG_DATA_HOME");
	const char *home = secure_getenv("HOME");
	char host[256] = "localhost", *path = NULL;

	if (env && *env)
		return strdup(env);
	gethostname(host, sizeof(host) - 1);
	if (data && *data)
		return asprintf(&path, "%s/pmc/calibration-%s.json", data, host) < 0 ? NULL : path;
	return asprintf(&path, "%s/.local/share/pmc/calibration-%s.json", home ? home : ".", host) <
			       0
		       ? NULL
		       : path;
}

/*
 * An overhead is a count: a median that is missing is allowed (the entry is not used), one
 * that is not a finite number from 0 to 1e15 is refused with its entry and field named.
 */
static int check_median(json_t *e, size_t i, const char *field, json_t *v, char *why, size_t len)
{
	double x;

	if (!v)
		return 0;
	x = json_is_number(v) ? json_number_value(v) : -1;
	if (json_is_number(v) && isfinite(x) && x >= 0 && x <= 1e15)
		return 0;
	snprintf(why, len,
		 "entries[%zu] (%s, backend %s): %s is %s; an overhead is a count from 0 to 1e15",
		 i, json_string_value(json_object_get(e, "event")) ?: "?",
		 json_string_value(json_object_get(e, "backend")) ?: "?", field,
		 json_is_number(v) ? "out of range" : "not a number");
	return -PMC_E_FORMAT;
}

static int check_entries(json_t *root, char *why, size_t len)
{
	json_t *entries = json_object_get(root, "entries"), *e;
	size_t i;
	int err = 0;

	if (!json_is_array(entries)) {
		snprintf(why, len, "no \"entries\" array");
		return -PMC_E_FORMAT;
	}
	json_array_foreach(entries, i, e)
	{
		json_t *pair = json_object_get(json_object_get(e, "region_pair"), "counts");

		err = check_median(e, i, "region_pair.counts.median",
				   json_object_get(pair, "median"), why, len);
		if (!err)
			err = check_median(
				e, i, "first_entry.counts.median",
				json_object_get(json_object_get(json_object_get(e, "first_entry"),
								"counts"),
						"median"),
				why, len);
		if (!err)
			err = check_median(
				e, i, "empty_program.median",
				json_object_get(json_object_get(e, "empty_program"), "median"), why,
				len);
		if (err)
			return err;
	}
	return 0;
}

/* The versions of the file this pmc reads (docs/versioning.md). */
static const char *const versions[] = {"pmc-calibrate/2", "pmc-calibrate/1"};

static int check_schema(json_t *root, char *why, size_t len)
{
	const char *schema = json_string_value(json_object_get(root, "schema"));

	if (!schema || strncmp(schema, "pmc-calibrate/", 14)) {
		snprintf(why, len, "not a calibration file (no \"schema\": \"pmc-calibrate/N\")");
		return -PMC_E_FORMAT;
	}
	for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); i++)
		if (!strcmp(schema, versions[i]))
			return 0;
	snprintf(why, len,
		 "its schema is %.40s; this pmc reads pmc-calibrate/1 and /2 (run 'pmc calibrate' "
		 "with this pmc)",
		 schema);
	return -PMC_E_VERSION;
}

int pmc__calib_load(const char *path, struct calib **out, char *why, size_t len)
{
	struct calib *c = calloc(1, sizeof(*c));
	json_error_t jerr;
	FILE *f = NULL;
	int err;

	snprintf(why, len, "%s", "");
	if (!c)
		return -ENOMEM;
	c->path = path ? strdup(path) : pmc_calibration_default_path();
	if (!c->path) {
		free(c);
		return -ENOMEM;
	}
	err = pmc_fopen_input(c->path, &f); /* a FIFO or a device is refused, not waited on */
	if (err) {
		snprintf(why, len, "%s", pmc_strerror(err));
		pmc__calib_free(c);
		return err;
	}
	c->root = json_loadf(f, 0, &jerr);
	fclose(f);
	if (!c->root) {
		snprintf(why, len, "line %d: %s", jerr.line, jerr.text);
		err = -PMC_E_FORMAT;
	} else {
		err = check_schema(c->root, why, len);
		if (!err)
			err = check_entries(c->root, why, len);
	}
	if (err) {
		pmc__calib_free(c);
		return err;
	}
	*out = c;
	return 0;
}

void pmc__calib_free(struct calib *c)
{
	if (!c)
		return;
	json_decref(c->root);
	free(c->path);
	free(c);
}

const char *pmc__calib_path(const struct calib *c)
{
	return c->path;
}

const char *pmc__calib_date(const struct calib *c)
{
	const char *d =
		json_string_value(json_object_get(json_object_get(c->root, "machine"), "date"));

	return d ? d : "unknown";
}

static json_t *entry(const struct calib *c, const char *backend, const char *event, unsigned priv)
{
	json_t *entries = json_object_get(c->root, "entries"), *e;
	size_t i;

	json_array_foreach(entries, i, e)
	{
		const char *b = json_string_value(json_object_get(e, "backend"));
		const char *n = json_string_value(json_object_get(e, "event"));

		if (b && n && !strcmp(b, backend) && !strcmp(n, event) &&
		    json_integer_value(json_object_get(e, "priv")) == (json_int_t)priv)
			return e;
	}
	return NULL;
}

static bool number(json_t *j, double *out)
{
	if (!json_is_number(j))
		return false;
	*out = json_number_value(j);
	return true;
}

bool pmc__calib_per_entry(const struct calib *c, const char *backend, const char *event,
			  unsigned priv, double *out)
{
	json_t *e = entry(c, backend, event, priv);

	return e &&
	       number(json_object_get(json_object_get(json_object_get(e, "region_pair"), "counts"),
				      "median"),
		      out);
}

bool pmc__calib_first_entry(const struct calib *c, const char *backend, const char *event,
			    unsigned priv, double *out)
{
	json_t *e = entry(c, backend, event, priv);

	return e &&
	       number(json_object_get(json_object_get(json_object_get(e, "first_entry"), "counts"),
				      "median"),
		      out);
}

bool pmc__calib_per_run(const struct calib *c, const char *backend, const char *event,
			unsigned priv, double *out)
{
	json_t *e = entry(c, backend, event, priv);

	return e && number(json_object_get(json_object_get(e, "empty_program"), "median"), out);
}
