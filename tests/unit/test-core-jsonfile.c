// SPDX-License-Identifier: MIT
/*
 * pmc's versioned JSON files (lib/core/jsonfile.c): the schema checked on read, a write that
 * leaves the file whole or as it was; and the calibration file's writer beside its reader
 * (pmc__calib_save(), lib/run/calib.c), whose schema follows its entries.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <pmc/pmc.h>
#include "core/jsonfile.h"
#include "run/calib.h"

static const char *const versions[] = {"pmc-x/2", "pmc-x/1", NULL};
static const struct pmc__jsonfile_kind kind = {
	.family = "pmc-x",
	.name = "x file",
	.writer = "pmc x",
	.versions = versions,
	.reads = "pmc-x/1 and /2",
};

static char dir[64];

static void setup(void)
{
	strcpy(dir, "/tmp/pmc-jsonfile-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
}

static const struct {
	const char *text;
	int err;
	size_t version;
	const char *why;
} reads[] = {
	{"{\"schema\": \"pmc-x/2\"}", 0, 0, ""},
	{"{\"schema\": \"pmc-x/1\"}", 0, 1, ""},
	{"{\"schema\": \"pmc-x/3\"}", -PMC_E_VERSION, 0,
	 "its schema is pmc-x/3; this pmc reads pmc-x/1 and /2 (run 'pmc x' with this pmc)"},
	{"{\"schema\": \"pmc-xy/1\"}", -PMC_E_FORMAT, 0,
	 "not a x file (no \"schema\": \"pmc-x/N\")"},
	{"{\"entries\": []}", -PMC_E_FORMAT, 0, "not a x file (no \"schema\": \"pmc-x/N\")"},
	{"[1, 2", -PMC_E_FORMAT, 0, NULL},
};

Test(jsonfile, the_schema_is_checked_on_read, .init = setup, .fini = teardown)
{
	char path[128], why[256];

	snprintf(path, sizeof(path), "%s/f.json", dir);
	for (size_t i = 0; i < sizeof(reads) / sizeof(reads[0]); i++) {
		json_t *root = NULL;
		size_t version = 99;
		int err;

		put(path, reads[i].text);
		*why = '\0';
		err = pmc__jsonfile_load(path, false, &kind, &root, &version, why, sizeof(why));
		cr_expect_eq(err, reads[i].err, "%s: %d (%s)", reads[i].text, err, why);
		if (!err)
			cr_expect_eq(version, reads[i].version, "%s", reads[i].text);
		if (reads[i].why)
			cr_expect_str_eq(why, reads[i].why);
		cr_expect_eq(err ? root == NULL : root != NULL, true, "%s", reads[i].text);
		json_decref(root);
	}
}

Test(jsonfile, a_failed_write_leaves_the_file_as_it_was, .init = setup, .fini = teardown)
{
	char path[128], bad[160];
	json_t *root = json_pack("{s:s}", "schema", "pmc-x/2"), *old;

	snprintf(path, sizeof(path), "%s/f.json", dir);
	cr_assert_eq(pmc__jsonfile_write(path, root, 0), 0);
	old = pmc__jsonfile_read_old(path);
	cr_expect(json_equal(old, root));
	json_decref(old);
	snprintf(bad, sizeof(bad), "%s/no-such-folder/f.json", dir);
	cr_expect_neq(pmc__jsonfile_write(bad, root, 0), 0);
	cr_expect_null(pmc__jsonfile_read_old(bad));
	cr_expect_eq(pmc__jsonfile_write(path, NULL, 0), -ENOMEM);
	old = pmc__jsonfile_read_old(path);
	cr_expect(json_equal(old, root), "the file is as it was");
	json_decref(old);
	json_decref(root);
}

/* The entry of event on perf at user level, as pmc calibrate writes it (set: NULL alone). */
static const char *entry(const char *event, const char *set, double median)
{
	static char buf[4][256];
	static int n;
	char *b = buf[n++ % 4];

	snprintf(b, sizeof(buf[0]),
		 "{\"event\": \"%s\", \"backend\": \"perf\", \"priv\": 1%s%s, "
		 "\"empty_program\": {\"median\": %g}}",
		 event, set ? ", \"set\": " : "", set ? set : "", median);
	return b;
}

/* The writer given entries as JSON text (pmc_calibrate__save() hands it its entries). */
static int save(const char *path, const char *text, const char *empty_program)
{
	json_t *entries = json_loads(text, 0, NULL);
	int err = pmc__calib_save(path, entries, empty_program);

	json_decref(entries);
	return err;
}

Test(jsonfile, the_calibration_file_is_written_beside_its_reader, .init = setup, .fini = teardown)
{
	char path[128], why[256], text[1024];
	struct calib *c;
	double v;

	snprintf(path, sizeof(path), "%s/calibration.json", dir);
	cr_expect_eq(save(path, "{}", "true"), -EINVAL);
	snprintf(text, sizeof(text), "[%s, %s]", entry("instructions", NULL, 100),
		 entry("branches", NULL, 20));
	cr_assert_eq(save(path, text, "true"), 0);
	cr_assert_eq(pmc__calib_load(path, &c, why, sizeof(why)), 0, "%s", why);
	cr_expect(pmc__calib_per_run(c, "perf", "instructions", 1, &v) && v == 100);
	pmc__calib_free(c);
	/* a later run of one event replaces its entry and keeps the other's */
	snprintf(text, sizeof(text), "[%s]", entry("instructions", NULL, 50));
	cr_assert_eq(save(path, text, "true"), 0);
	cr_assert_eq(pmc__calib_load(path, &c, why, sizeof(why)), 0, "%s", why);
	cr_expect(pmc__calib_per_run(c, "perf", "instructions", 1, &v) && v == 50);
	cr_expect(pmc__calib_per_run(c, "perf", "branches", 1, &v) && v == 20);
	pmc__calib_free(c);
	{
		json_t *j = pmc__jsonfile_read_old(path);

		cr_expect_str_eq(json_string_value(json_object_get(j, "schema")),
				 "pmc-calibrate/2");
		cr_expect_eq(json_array_size(json_object_get(j, "entries")), 2);
		json_decref(j);
	}
	/* an entry of a set makes it version 3 */
	snprintf(text, sizeof(text), "[%s]",
		 entry("instructions", "[\"branches\", \"instructions\"]", 60));
	cr_assert_eq(save(path, text, "true"), 0);
	{
		json_t *j = pmc__jsonfile_read_old(path);

		cr_expect_str_eq(json_string_value(json_object_get(j, "schema")),
				 "pmc-calibrate/3");
		cr_expect_eq(json_array_size(json_object_get(j, "entries")), 3);
		json_decref(j);
	}
}
