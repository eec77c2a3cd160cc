// SPDX-License-Identifier: MIT
/*
 * pmc validate's trust file (schema "pmc-trust/1", docs/accuracy.md "The trust file"): this
 * machine's verdicts, beside pmc calibrate's file, read by pmc stat to mark each count.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "validate.h"

/*
 * A row's verdict, keyed by the levels its event counted at (an event the backend could not
 * parse: the run's default), so that pmc stat finds it however the levels were asked for.
 */
static json_t *entry(const struct vrow *r, const char *backend, unsigned priv)
{
	return json_pack("{s:s, s:s, s:s, s:i, s:s, s:o, s:o, s:o}", "backend", backend, "kernel",
			 r->kernel, "event", r->event, "priv", r->priv ? r->priv : priv, "class",
			 vclass_name(r->cls), "factor",
			 validate_json_num(r->cls <= VCLASS_RANDOM ? r->factor : NAN), "overhead",
			 validate_json_num(r->cls <= VCLASS_RANDOM ? r->overhead : NAN), "bias",
			 validate_json_num(r->cls == VCLASS_BIAS ? r->bias : NAN));
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
	json_t *old = NULL, *all = json_array(), *e, *n, *m;
	size_t i, k;
	FILE *f;

	if (!pmc_fopen_input(path, &f)) {
		old = json_loadf(f, 0, NULL);
		fclose(f);
	}
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

int validate_check_trust(const struct validate_opts *o)
{
	char *def = o->trust ? NULL : pmc_trust_default_path(), why[512];
	int err;

	if (o->trust && !strcmp(o->trust, "none"))
		return 0;
	err = o->trust || def ? pmc_data_file_prepare(o->trust ? o->trust : def, why, sizeof(why))
			      : -ENOMEM;
	if (err)
		fprintf(stderr, "pmc validate: the trust file: %s; nothing was measured\n",
			*why ? why : pmc_strerror(err));
	free(def);
	return err ? 1 : 0;
}

int validate_save_trust(const struct validate_opts *o, const struct vplan *plan)
{
	char *def = o->trust ? NULL : pmc_trust_default_path(), host[256] = "", date[64];
	const char *path = o->trust ? o->trust : def;
	const struct pmc_caps *caps = pmc_caps();
	struct pmc_outfile *out;
	json_t *entries, *machine, *root;
	time_t t = time(NULL);
	int err;

	if (o->trust && !strcmp(o->trust, "none"))
		return 0;
	if (!path)
		return 1;
	entries = json_array();
	gethostname(host, sizeof(host) - 1);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	for (size_t i = 0; i < plan->nr_rows; i++) /* a quantity with no event: nothing to trust */
		if (!plan->rows[i].no_event)
			json_array_append_new(
				entries,
				entry(&plan->rows[i], o->backend ? o->backend : "perf", o->priv));
	machine = json_pack("{s:s, s:s, s:s, s:s, s:s}", "hostname", host, "cpu_model",
			    caps->cpu_model, "kernel", caps->kernel, "date", date, "pmc_version",
			    pmc_version());
	root = json_pack("{s:s, s:O, s:o}", "schema", "pmc-trust/1", "machine", machine, "entries",
			 merged(path, entries, machine));
	json_decref(machine);
	json_decref(entries);
	err = root ? pmc_outfile__open(path, &out) : -ENOMEM;
	if (!err && json_dumpf(root, pmc_outfile__stream(out), JSON_INDENT(2))) {
		err = pmc_outfile__fail(out, -EIO);
	} else if (!err) {
		fputc('\n', pmc_outfile__stream(out));
		err = pmc_outfile__commit(out);
	}
	if (err == -ENOSPC)
		fprintf(stderr,
			"pmc validate: no space left on the trust file's %s; it is left as "
			"it was\n",
			path);
	else if (err)
		fprintf(stderr, "pmc validate: cannot write the trust file %s: %s\n", path,
			pmc_strerror(err));
	else
		fprintf(stderr, "pmc validate: verdicts written to the trust file %s\n", path);
	json_decref(root);
	free(def);
	return err ? 1 : 0;
}
