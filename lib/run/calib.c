// SPDX-License-Identifier: MIT
/*
 * The calibration file that pmc calibrate writes, read and written (schemas "pmc-calibrate/3",
 * which adds entries of events calibrated as a set, "pmc-calibrate/2", which adds an entry's
 * first_entry, and "pmc-calibrate/1").
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include <pmc/pmc.h>
#include "core/datadir.h"
#include "core/jsonfile.h"
#include "run/calib.h"

struct calib {
	char *path;
	json_t *root;
	json_t *set; /* the run's events (pmc__calib_use_set), or NULL */
};

char *pmc_calibration_default_path(void)
{
	return pmc__data_file("PMC_CALIBRATION", "calibration");
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

/* An entry's "set", where it has one: the events calibrated together, two or more names. */
static int check_set(json_t *e, size_t i, char *why, size_t len)
{
	json_t *set = json_object_get(e, "set"), *n;
	bool ok = !set || (json_is_array(set) && json_array_size(set) >= 2);
	size_t k;

	json_array_foreach(set, k, n) ok &= json_is_string(n);
	if (ok)
		return 0;
	snprintf(why, len, "entries[%zu] (%s): \"set\" is not an array of two or more event names",
		 i, json_string_value(json_object_get(e, "event")) ?: "?");
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

		json_t *named = json_object_get(e, "named");

		err = check_set(e, i, why, len);
		if (!err)
			err = check_median(e, i, "region_pair.counts.median",
					   json_object_get(pair, "median"), why, len);
		for (int k = 0; k < 2 && !err; k++) {
			const char *what = k ? "first_entry" : "region_pair";
			char field[64];

			snprintf(field, sizeof(field), "named.%s.counts.median", what);
			err = check_median(
				e, i, field,
				json_object_get(
					json_object_get(json_object_get(named, what), "counts"),
					"median"),
				why, len);
		}
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

/* The versions of the file this pmc reads (docs/versioning.md), newest first. */
static const char *const versions[] = {"pmc-calibrate/3", "pmc-calibrate/2", "pmc-calibrate/1",
				       NULL};
static const struct pmc__jsonfile_kind kind = {
	.family = "pmc-calibrate",
	.name = "calibration file",
	.writer = "pmc calibrate",
	.versions = versions,
	.reads = "pmc-calibrate/1 to /3",
};

int pmc__calib_load(const char *path, struct calib **out, char *why, size_t len)
{
	struct calib *c = calloc(1, sizeof(*c));
	int err;

	snprintf(why, len, "%s", "");
	if (!c)
		return -ENOMEM;
	c->path = path ? strdup(path) : pmc_calibration_default_path();
	if (!c->path) {
		free(c);
		return -ENOMEM;
	}
	/* the default file is read only from a data folder no one else can write */
	err = pmc__jsonfile_load(c->path, !path, &kind, &c->root, NULL, why, len);
	if (!err)
		err = check_entries(c->root, why, len);
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
	json_decref(c->set);
	free(c->path);
	free(c);
}

int pmc__calib_use_set(struct calib *c, const char *const *names, size_t n)
{
	json_decref(c->set);
	c->set = NULL;
	if (n < 2)
		return 0;
	c->set = json_array();
	for (size_t i = 0; c->set && i < n; i++)
		if (json_array_append_new(c->set, json_string(names[i]))) {
			json_decref(c->set);
			c->set = NULL;
		}
	return c->set ? 0 : -ENOMEM;
}

/* Do a and b (arrays of names) hold the same names, whatever their order? */
static bool same_set(json_t *a, json_t *b)
{
	size_t i, k;
	json_t *x, *y;

	if (json_array_size(a) != json_array_size(b))
		return false;
	json_array_foreach(a, i, x)
	{
		bool found = false;

		json_array_foreach(b, k, y) found |= json_equal(x, y);
		if (!found)
			return false;
	}
	return true;
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

/*
 * event's entry: the one calibrated with the run's set of events (pmc__calib_use_set) where
 * the file has it, else the one calibrated alone (no "set").
 */
static json_t *entry(const struct calib *c, const char *backend, const char *event, unsigned priv)
{
	json_t *entries = json_object_get(c->root, "entries"), *e;
	size_t i;

	for (int pass = c->set ? 0 : 1; pass < 2; pass++)
		json_array_foreach(entries, i, e)
		{
			const char *b = json_string_value(json_object_get(e, "backend"));
			const char *n = json_string_value(json_object_get(e, "event"));
			json_t *set = json_object_get(e, "set");

			if (b && n && !strcmp(b, backend) && !strcmp(n, event) &&
			    json_integer_value(json_object_get(e, "priv")) == (json_int_t)priv &&
			    (pass ? !set : set && same_set(set, c->set)))
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

/* The median of e's measurement what ("region_pair", "first_entry") of the marker form. */
static bool form_median(json_t *e, bool named, const char *what, double *out)
{
	json_t *m = json_object_get(named ? json_object_get(e, "named") : e, what);

	return number(json_object_get(json_object_get(m, "counts"), "median"), out);
}

bool pmc__calib_per_entry(const struct calib *c, const char *backend, const char *event,
			  unsigned priv, bool named, double *out)
{
	json_t *e = entry(c, backend, event, priv);

	return e && form_median(e, named, "region_pair", out);
}

bool pmc__calib_first_entry(const struct calib *c, const char *backend, const char *event,
			    unsigned priv, bool named, double *out)
{
	json_t *e = entry(c, backend, event, priv);

	return e && form_median(e, named, "first_entry", out);
}

bool pmc__calib_per_run(const struct calib *c, const char *backend, const char *event,
			unsigned priv, double *out)
{
	json_t *e = entry(c, backend, event, priv);

	return e && number(json_object_get(json_object_get(e, "empty_program"), "median"), out);
}

/* Earlier entries for other events, backends, privilege levels or sets are kept. */
static json_t *merged(const char *path, json_t *entries)
{
	json_t *old = pmc__jsonfile_read_old(path), *all = json_array(), *e, *n;
	size_t i, k;

	json_array_foreach(json_object_get(old, "entries"), i, e)
	{
		bool replaced = false;

		json_array_foreach(entries, k, n) replaced |=
			json_equal(json_object_get(e, "event"), json_object_get(n, "event")) &&
			json_equal(json_object_get(e, "backend"), json_object_get(n, "backend")) &&
			json_equal(json_object_get(e, "priv"), json_object_get(n, "priv")) &&
			/* sets are written sorted (cmd-calibrate.c): equal sets are equal */
			(json_object_get(e, "set")
				 ? json_equal(json_object_get(e, "set"), json_object_get(n, "set"))
				 : !json_object_get(n, "set"));
		if (!replaced)
			json_array_append(all, e);
	}
	json_array_extend(all, entries);
	json_decref(old);
	return all;
}

int pmc__calib_save(const char *path, json_t *entries, const char *empty_program)
{
	char *def = path ? NULL : pmc_calibration_default_path(), host[256] = "", date[64];
	json_t *root, *all, *e;
	const struct pmc_caps *caps = pmc_caps();
	time_t t = time(NULL);
	bool sets = false;
	size_t i;
	int err;

	path = path ? path : def;
	err = !json_is_array(entries) ? -EINVAL : !path ? -ENOMEM : 0;
	if (err) {
		free(def);
		return err;
	}
	gethostname(host, sizeof(host) - 1);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	all = strcmp(path, "-") ? merged(path, entries) : json_copy(entries);
	/* Entries of a set (--set) make it version 3: a reader of 2 would take them for the
	 * events' costs alone. */
	json_array_foreach(all, i, e) sets |= json_object_get(e, "set") != NULL;
	root = json_pack("{s:s, s:{s:s, s:s, s:s, s:s, s:s, s:s}, s:o}", "schema",
			 versions[sets ? 0 : 1], "machine", "hostname", host, "cpu_model",
			 caps->cpu_model, "kernel", caps->kernel, "date", date, "pmc_version",
			 pmc_version(), "empty_program", empty_program ? empty_program : "",
			 "entries", all);
	err = pmc__jsonfile_write(path, root, 17);
	json_decref(root);
	free(def);
	return err;
}
