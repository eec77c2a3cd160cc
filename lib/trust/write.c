// SPDX-License-Identifier: MIT
/*
 * Writing the trust file (schema "pmc-trust/1", docs/accuracy.md "The trust file"): this
 * machine's verdicts, beside the calibration file, read by the runner to mark each count.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include <pmc/pmc.h>
#include "core/jsonfile.h"
#include "trust/trust.h"

static json_t *num(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

/*
 * An entry's verdict, keyed by the levels its event counted at, so that pmc stat finds it
 * however the levels were asked for. Only a class that has them keeps its numbers.
 */
static json_t *entry(const struct pmc__trust_entry *e, const char *backend)
{
	bool fitted = e->cls <= PMC_VALIDATE_RANDOM;

	return json_pack("{s:s, s:s, s:s, s:i, s:s, s:o, s:o, s:o}", "backend", backend, "kernel",
			 e->kernel, "event", e->event, "priv", e->priv, "class",
			 pmc_validate_class_name(e->cls), "factor", num(fitted ? e->factor : NAN),
			 "overhead", num(fitted ? e->overhead : NAN), "bias",
			 num(e->cls == PMC_VALIDATE_BIAS ? e->bias : NAN));
}

static bool same_key(json_t *a, json_t *b)
{
	static const char *const keys[] = {"backend", "kernel", "event", "priv"};

	for (size_t k = 0; k < 4; k++)
		if (!json_equal(json_object_get(a, keys[k]), json_object_get(b, keys[k])))
			return false;
	return true;
}

/*
 * Earlier entries of this machine for other backends, kernels or events are kept; a file made
 * on another CPU or kernel is replaced whole.
 */
static json_t *merged(const char *path, json_t *entries, json_t *machine)
{
	json_t *old = pmc__jsonfile_read_old(path), *all = json_array(), *e, *n, *m;
	size_t i, k;

	m = json_object_get(old, "machine");
	if (json_equal(json_object_get(m, "cpu_model"), json_object_get(machine, "cpu_model")) &&
	    json_equal(json_object_get(m, "kernel"), json_object_get(machine, "kernel"))) {
		json_array_foreach(json_object_get(old, "entries"), i, e)
		{
			bool replaced = false;

			json_array_foreach(entries, k, n) replaced |= same_key(e, n);
			if (!replaced && json_is_object(e))
				json_array_append(all, e);
		}
	}
	json_array_extend(all, entries);
	json_decref(old);
	return all;
}

int pmc__trust_save(const char *path, const char *backend, const struct pmc__trust_entry *entries,
		    size_t n)
{
	char *def = path ? NULL : pmc_trust_default_path(), host[256] = "", date[64];
	const struct pmc_caps *caps = pmc_caps();
	json_t *all, *machine, *root;
	time_t t = time(NULL);
	int err;

	path = path ? path : def;
	if (!path)
		return -ENOMEM;
	all = json_array();
	gethostname(host, sizeof(host) - 1);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	for (size_t i = 0; i < n; i++)
		json_array_append_new(all, entry(&entries[i], backend));
	machine = json_pack("{s:s, s:s, s:s, s:s, s:s}", "hostname", host, "cpu_model",
			    caps->cpu_model, "kernel", caps->kernel, "date", date, "pmc_version",
			    pmc_version());
	root = json_pack("{s:s, s:O, s:o}", "schema", pmc__trust_kind()->versions[0], "machine",
			 machine, "entries", merged(path, all, machine));
	json_decref(machine);
	json_decref(all);
	err = pmc__jsonfile_write(path, root, 0);
	json_decref(root);
	free(def);
	return err;
}
