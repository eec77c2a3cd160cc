// SPDX-License-Identifier: MIT
/*
 * The trust file's keys (lib/trust/trust.c): an event's verdicts are filed under its name without
 * the privilege letters, beside the levels it counted at, so that pmc stat finds them however
 * the levels were asked for; and pmc's data folder that holds the file (lib/core/datadir.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <criterion/criterion.h>
#include <pmc/pmc.h>
#include "core/datadir.h"
#include "trust/trust.h"

static const struct {
	const char *name, *key;
} keys[] = {
	{"instructions", "instructions"},
	{"instructions:u", "instructions"},
	{"cycles:uk", "cycles"},
	{"cycles:ukp", "cycles:p"},
	{"cycles:pu", "cycles:p"},
	{"syscalls:sys_enter_getppid", "syscalls:sys_enter_getppid"},
	{"syscalls:sys_enter_getppid:u", "syscalls:sys_enter_getppid"},
	{"mem:0x1000:w", "mem:0x1000:w"},
	{"mem:0x1000:w:u", "mem:0x1000:w"},
	{"cpu/event=0x3c/u", "cpu/event=0x3c/"},
	{"cpu/event=0x3c/", "cpu/event=0x3c/"},
	{"INST_RETIRED.ANY:c=1", "INST_RETIRED.ANY:c=1"},
	{"r01c4:k", "r01c4"},
	{"", ""},
};

Test(trust, the_key_drops_the_privilege_letters_only)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char buf[128];

		pmc__trust_event_key(keys[i].name, buf, sizeof(buf));
		cr_expect_str_eq(buf, keys[i].key, "'%s' gives '%s', not '%s'", keys[i].name, buf,
				 keys[i].key);
	}
}

Test(trust, a_short_buffer_is_cut_not_overrun)
{
	char buf[6] = "zzzzz";

	pmc__trust_event_key("instructions:u", buf, sizeof(buf));
	cr_expect_str_eq(buf, "instr");
}

Test(datadir, xdg_data_home_when_absolute_else_home)
{
	char dir[4096];

	setenv("HOME", "/h", 1);
	setenv("XDG_DATA_HOME", "/x/y", 1);
	cr_assert_eq(pmc__data_dir(dir, sizeof(dir)), 0);
	cr_expect_str_eq(dir, "/x/y/pmc");
	setenv("XDG_DATA_HOME", "relative", 1); /* the XDG spec: ignored */
	cr_assert_eq(pmc__data_dir(dir, sizeof(dir)), 0);
	cr_expect_str_eq(dir, "/h/.local/share/pmc");
	unsetenv("XDG_DATA_HOME");
	cr_assert_eq(pmc__data_dir(dir, sizeof(dir)), 0);
	cr_expect_str_eq(dir, "/h/.local/share/pmc");
	cr_expect_eq(pmc__data_dir(dir, 8), -ENAMETOOLONG);
}

Test(datadir, the_files_are_named_by_host_or_by_the_environment)
{
	char *p;

	setenv("HOME", "/h", 1);
	unsetenv("XDG_DATA_HOME");
	setenv("PMC_TRUST", "/elsewhere/t.json", 1);
	p = pmc__data_file("PMC_TRUST", "trust");
	cr_expect_str_eq(p, "/elsewhere/t.json");
	free(p);
	unsetenv("PMC_TRUST");
	p = pmc__data_file("PMC_TRUST", "trust");
	cr_assert_not_null(p);
	cr_expect_eq(strncmp(p, "/h/.local/share/pmc/trust-", 26), 0, "%s", p);
	cr_expect_eq(strchr(p + 26, '/'), NULL, "a host name makes no folder: %s", p);
	free(p);
}

Test(datadir, prepare_makes_the_folders_0700_and_leaves_no_file)
{
	char tmpl[] = "/tmp/pmc-datadir-XXXXXX", path[4200], why[256], cmd[4200];
	struct stat sb;

	cr_assert_not_null(mkdtemp(tmpl));
	setenv("XDG_DATA_HOME", tmpl, 1);
	snprintf(path, sizeof(path), "%s/pmc/trust-x.json", tmpl);
	cr_assert_eq(pmc_data_file_prepare(path, why, sizeof(why)), 0, "%s", why);
	snprintf(cmd, sizeof(cmd), "%s/pmc", tmpl);
	cr_assert_eq(stat(cmd, &sb), 0);
	cr_expect_eq(sb.st_mode & 07777, 0700);
	cr_expect_neq(stat(path, &sb), 0, "no file is left where the results go");
	chmod(cmd, 0770);
	cr_expect_eq(pmc_data_file_prepare(path, why, sizeof(why)), -EPERM);
	cr_expect_neq(strstr(why, "writable by others than you"), NULL, "%s", why);
	cr_expect_eq(pmc_data_file_prepare("-", why, sizeof(why)), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	cr_expect_eq(system(cmd), 0);
}
