// SPDX-License-Identifier: MIT
/* Reading the calibration file that pmc calibrate writes (schema "pmc-calibrate/1"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include <pmc/pmc.h>
#include "calib.h"

struct calib {
	char *path;
	json_t *root;
};

char *calib_default_path(void)
{
	const char *env = getenv("PMC_CALIBRATION"), *data = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
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

int calib_load(const char *path, struct calib **out)
{
	struct calib *c = calloc(1, sizeof(*c));
	json_error_t jerr;
	const char *schema;

	if (!c)
		return -ENOMEM;
	c->path = path ? strdup(path) : calib_default_path();
	if (!c->path) {
		free(c);
		return -ENOMEM;
	}
	if (access(c->path, R_OK)) {
		int err = -errno;

		calib_free(c);
		return err;
	}
	c->root = json_load_file(c->path, 0, &jerr);
	schema = json_string_value(json_object_get(c->root, "schema"));
	if (!c->root || !schema || strncmp(schema, "pmc-calibrate/", 14)) {
		calib_free(c);
		return -PMC_E_FORMAT;
	}
	if (strcmp(schema, "pmc-calibrate/1")) {
		calib_free(c);
		return -PMC_E_VERSION;
	}
	*out = c;
	return 0;
}

void calib_free(struct calib *c)
{
	if (!c)
		return;
	json_decref(c->root);
	free(c->path);
	free(c);
}

const char *calib_path(const struct calib *c)
{
	return c->path;
}

const char *calib_date(const struct calib *c)
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

bool calib_per_entry(const struct calib *c, const char *backend, const char *event, unsigned priv,
		     double *out)
{
	json_t *e = entry(c, backend, event, priv);

	return e &&
	       number(json_object_get(json_object_get(json_object_get(e, "region_pair"), "counts"),
				      "median"),
		      out);
}

bool calib_per_run(const struct calib *c, const char *backend, const char *event, unsigned priv,
		   double *out)
{
	json_t *e = entry(c, backend, event, priv);

	return e && number(json_object_get(json_object_get(e, "empty_program"), "median"), out);
}
