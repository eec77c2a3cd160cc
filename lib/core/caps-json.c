// SPDX-License-Identifier: MIT
/* pmc doctor's JSON, schema pmc-doctor/1: the checks and backends of pmc_caps(). */
#include <errno.h>
#include <jansson.h>
#include <pmc/caps.h>

static json_t *backends_json(const struct pmc_caps *c)
{
	json_t *arr = json_array();

	for (size_t b = 0; b < c->nr_backends; b++)
		json_array_append_new(arr,
				      json_pack("{s:s, s:b, s:s, s:s}", "name", c->backends[b].name,
						"usable", c->backends[b].usable, "why",
						c->backends[b].why, "where", c->backends[b].where));
	return arr;
}

int pmc_caps__write_json(const struct pmc_caps *caps, const struct pmc_cap_check *const *checks,
			 size_t nr, FILE *f)
{
	json_t *arr = json_array(), *root;
	int err;

	for (size_t i = 0; i < nr; i++)
		json_array_append_new(arr, json_pack("{s:s, s:s, s:b, s:I, s:s, s:s}", "check",
						     checks[i]->name, "key", checks[i]->key, "ok",
						     checks[i]->ok, "value",
						     (json_int_t)checks[i]->value, "detail",
						     checks[i]->detail, "todo", checks[i]->todo));
	root = json_pack("{s:s, s:s, s:s, s:o, s:o}", "schema", "pmc-doctor/1", "cpu_model",
			 caps->cpu_model, "kernel", caps->kernel, "checks", arr, "backends",
			 backends_json(caps));
	err = root ? json_dumpf(root, f, JSON_INDENT(2)) : -1;
	json_decref(root);
	fputc('\n', f);
	return !root ? -ENOMEM : err ? -EIO : 0;
}
