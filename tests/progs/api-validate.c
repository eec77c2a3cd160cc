// SPDX-License-Identifier: MIT
/*
 * Validation through the public API only (include/pmc): the syscall kernel's getppid
 * tracepoint validated on the perf backend, its verdicts merged into the trust file argv[1],
 * and the verdict read back from that file as pmc stat looks it up. Prints "row: CLASS" and
 * "verdict: MARK"; exits 1 on any failure, saying what failed.
 */
#include <stdio.h>
#include <string.h>
#include <pmc/pmc.h>

static const char event[] = "syscalls:sys_enter_getppid";

static bool only_getppid(const struct pmc_validate_row *r, void *arg)
{
	(void)arg;
	return !strcmp(r->kernel, "syscall") && !strcmp(r->event, event);
}

static int read_back(const char *path, unsigned priv)
{
	enum pmc_validate_class cls;
	struct pmc_trust *t;
	char why[512], mark[64];
	double value;
	int err = pmc_trust__load(path, &t, why, sizeof(why));

	if (err) {
		fprintf(stderr, "api-validate: cannot read %s back: %s\n", path, why);
		return 1;
	}
	if (pmc_trust__stale(t, pmc_caps()->cpu_model, pmc_caps()->kernel, why, sizeof(why)))
		fprintf(stderr, "api-validate: the file is stale: %s\n", why);
	err = pmc_trust__lookup(t, "perf", event, priv, &cls, &value, mark, sizeof(mark));
	printf("verdict: %s (%s, %d)\n", mark, pmc_validate_class_name(cls), err);
	pmc_trust__delete(t);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct pmc_validate_opts o = {.sz = sizeof(o), .quick = true};
	const struct pmc_validate_row *r;
	struct pmc_validate *v;
	char why[512];
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: api-validate TRUST-FILE\n");
		return 2;
	}
	err = pmc_validate__new(&o, &v, why, sizeof(why));
	if (err) {
		fprintf(stderr, "api-validate: %s\n", why);
		return 1;
	}
	pmc_validate__select(v, only_getppid, NULL);
	err = pmc_validate__nr_rows(v) == 1 ? pmc_validate__count(v) : -1;
	if (!err) {
		pmc_validate__fit(v);
		r = pmc_validate__row(v, 0);
		printf("row: %s (%d points)\n", pmc_validate_class_name(r->cls), r->nr);
		err = pmc_validate__save_trust(v, argv[1]);
	}
	if (err)
		fprintf(stderr, "api-validate: %s\n", pmc_validate__why(v));
	else
		err = read_back(argv[1], pmc_validate__row(v, 0)->priv);
	pmc_validate__delete(v);
	return err ? 1 : 0;
}
