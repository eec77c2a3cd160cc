// SPDX-License-Identifier: MIT
/* pmc's versioned JSON files: schema checks on read, whole-or-absent writes (jsonfile.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <pmc/pmc.h>
#include "core/datadir.h"
#include "core/jsonfile.h"

static int check_schema(json_t *root, const struct pmc__jsonfile_kind *kind, size_t *version,
			char *why, size_t len)
{
	const char *schema = json_string_value(json_object_get(root, "schema"));
	size_t flen = strlen(kind->family);

	if (!schema || strncmp(schema, kind->family, flen) || schema[flen] != '/') {
		snprintf(why, len, "not a %s (no \"schema\": \"%s/N\")", kind->name, kind->family);
		return -PMC_E_FORMAT;
	}
	for (size_t i = 0; kind->versions[i]; i++)
		if (!strcmp(schema, kind->versions[i])) {
			if (version)
				*version = i;
			return 0;
		}
	snprintf(why, len, "its schema is %.40s; this pmc reads %s (run '%s' with this pmc)",
		 schema, kind->reads, kind->writer);
	return -PMC_E_VERSION;
}

int pmc__jsonfile_load(const char *path, bool is_default, const struct pmc__jsonfile_kind *kind,
		       json_t **root, size_t *version, char *why, size_t len)
{
	int err = pmc__data_json_load(path, is_default, root, why, len);

	if (!err) {
		err = check_schema(*root, kind, version, why, len);
		if (err) {
			json_decref(*root);
			*root = NULL;
		}
	}
	return err;
}

json_t *pmc__jsonfile_read_old(const char *path)
{
	json_t *old = NULL;
	FILE *f;

	if (!pmc_fopen_input(path, &f)) {
		old = json_loadf(f, 0, NULL);
		fclose(f);
	}
	return old;
}

int pmc__jsonfile_write(const char *path, json_t *root, int precision)
{
	size_t flags = JSON_INDENT(2) | (precision ? JSON_REAL_PRECISION(precision) : 0);
	struct pmc_outfile *out;
	int err = root ? pmc_outfile__open(path, &out) : -ENOMEM;

	if (err)
		return err;
	if (json_dumpf(root, pmc_outfile__stream(out), flags))
		return pmc_outfile__fail(out, -EIO);
	fputc('\n', pmc_outfile__stream(out));
	return pmc_outfile__commit(out);
}
