// SPDX-License-Identifier: MIT
/*
 * pmc validate --mode=sampling (docs/accuracy.md, "Sampling mode"): each event a kernel
 * predicts is counted once at the kernel's largest size, then recorded at several periods and
 * seeds; each recording's k·S estimate and interval (libpmc's, pmc_report__event_estimate) is
 * checked against the count (pmc_sampling_check) and the checks of a period summarized
 * (pmc_sampling_summarize): the sampling error, the period's bias and the intervals' coverage.
 * Under vpmu a precise and an imprecise recording of one seed measure the skid exactly
 * (pmc_report__skid).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "cli.h"
#include "validate.h"

/* Expected samples per run at each period: the period is the count over these. */
static const double targets[VALIDATE_NR_PERIODS] = {25, 100, 400};

static bool is_vpmu(const struct validate_opts *o)
{
	return o->backend && !strcmp(o->backend, "vpmu");
}

/* One recording of ev on the kernel at size n into path; 0, or a negative error. */
static int record(const struct validate_opts *o, const struct pmc_validate_row *r, const char *ev,
		  long n, uint64_t period, uint64_t seed, const char *path)
{
	char size[32], *argv[4] = {(char *)pmc_validate_kernels_path(), r->kernel, size, NULL};
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_COMMAND, .argv = argv};
	struct pmc_record_opts ro = {.sz = sizeof(ro),
				     .output = path,
				     .period = period,
				     .period_jitter = is_vpmu(o) ? VALIDATE_JITTER : 0,
				     .seed = is_vpmu(o) ? seed : 0,
				     .argc = 3,
				     .argv = argv};
	struct pmc_evlist_opts eo = {
		.sz = sizeof(eo), .backend = o->backend, .priv = o->priv, .use = PMC_USE_SAMPLE};
	struct pmc_evlist *l = NULL;
	struct pmc_record *rec = NULL;
	int err, status = 0;

	snprintf(size, sizeof(size), "%ld", n);
	err = pmc_evlist__new(&eo, &l);
	if (!err)
		err = pmc_evlist__parse(l, ev, NULL);
	if (!err)
		err = pmc_record__open(l, &t, &ro, &rec);
	if (!err)
		err = pmc_record__start(rec);
	if (!err)
		err = pmc_record__run(rec, &status);
	if (!err)
		err = pmc_record__finish(rec);
	if (!err && (!WIFEXITED(status) || WEXITSTATUS(status)))
		err = -PMC_E_EXEC;
	pmc_record__delete(rec);
	pmc_evlist__delete(l);
	return err;
}

static struct pmc_report *load(const char *path, bool keep, int *err)
{
	struct pmc_report_opts ro = {.sz = sizeof(ro), .keep_samples = keep, .no_callers = true};
	struct pmc_file_error ferr;
	struct pmc_report *rep = NULL;

	*err = pmc_report__new(&ro, &rep);
	if (!*err)
		*err = pmc_report__load(rep, path, &ferr);
	if (*err) {
		pmc_report__delete(rep);
		return NULL;
	}
	return rep;
}

static void fail_row(struct vsampling *s, const char *what, int err)
{
	snprintf(s->why, sizeof(s->why), "%s: %s", what, pmc_strerror(err));
}

/* The runs of one period: seeds 1..o->seeds, each checked against the count. */
static int one_period(const struct validate_opts *o, struct vsampling *s, struct vperiod *p,
		      const char *dir, double level)
{
	char path[PATH_MAX];
	int err = 0;

	p->checks = calloc((size_t)o->seeds, sizeof(*p->checks));
	p->est = calloc((size_t)o->seeds, sizeof(*p->est));
	if (!p->checks || !p->est)
		return -ENOMEM;
	for (int k = 0; k < o->seeds; k++) {
		struct pmc_report *rep;

		snprintf(path, sizeof(path), "%s/s.data", dir);
		err = record(o, s->row, s->row->event, s->size, p->period, (uint64_t)k + 1, path);
		if (err) {
			fail_row(s, "recording failed", err);
			return 0;
		}
		rep = load(path, false, &err);
		if (!err)
			err = pmc_report__event_estimate(rep, 0, level, &p->est[k]);
		pmc_report__delete(rep);
		unlink(path);
		if (!err)
			err = pmc_sampling_check(&p->est[k], (uint64_t)s->counted, &p->checks[k]);
		if (err) {
			fail_row(s, "estimating the count failed", err);
			return 0;
		}
		p->mean_samples += (double)p->est[k].samples / o->seeds;
		p->nr++;
	}
	err = pmc_sampling_summarize(p->checks, (size_t)p->nr, level, &p->sum);
	if (err)
		fail_row(s, "summarizing failed", err);
	return err == -ENOMEM ? err : 0;
}

/*
 * vpmu: the middle period, seed 1, once precise (:p) and once --skid instructions late. Both
 * runs get the same PMC_VPMU_ARGS (--skid applies to imprecise samples only): the variable
 * reaches the kernel program's environment, and a libc start-up with one variable more
 * executes other instructions before the loop, which would shift every sample of one run
 * against the other's.
 */
static void skid(const struct validate_opts *o, struct vsampling *s, const char *dir)
{
	char pp[PATH_MAX], ip[PATH_MAX], ev[512], args[600];
	const char *old = getenv("PMC_VPMU_ARGS");
	char *saved = old ? strdup(old) : NULL;
	struct pmc_report *a = NULL, *b = NULL;
	uint64_t period = s->periods[VALIDATE_NR_PERIODS / 2].period;
	int err;

	snprintf(pp, sizeof(pp), "%s/p.data", dir);
	snprintf(ip, sizeof(ip), "%s/i.data", dir);
	snprintf(ev, sizeof(ev), "%s:p", s->row->event);
	snprintf(args, sizeof(args), "%s%s--skid=%d", old ? old : "", old ? " " : "", o->skid);
	err = setenv("PMC_VPMU_ARGS", args, 1) ? -errno : 0;
	if (!err)
		err = record(o, s->row, ev, s->size, period, 1, pp);
	if (!err)
		err = record(o, s->row, s->row->event, s->size, period, 1, ip);
	if (saved)
		setenv("PMC_VPMU_ARGS", saved, 1);
	else
		unsetenv("PMC_VPMU_ARGS");
	free(saved);
	if (!err)
		a = load(pp, true, &err);
	if (!err)
		b = load(ip, true, &err);
	if (!err)
		err = pmc_report__skid(a, b, 0, &s->skid);
	s->have_skid = !err;
	if (err)
		snprintf(s->why, sizeof(s->why), "the skid could not be measured: %s",
			 pmc_strerror(err));
	pmc_report__delete(a);
	pmc_report__delete(b);
	unlink(pp);
	unlink(ip);
}

/* The largest size of row r's kernel, where sampling mode counts it (largest_only). */
static long largest(const struct validate_opts *o, const struct pmc_validate_row *r)
{
	return o->quick ? r->quick[r->nr_quick - 1] : r->sizes[r->nr_sizes - 1];
}

int validate_sampling(const struct validate_opts *o, struct pmc_validate *v, struct vsampling **out)
{
	char dir[] = "/tmp/pmc-validate-XXXXXX";
	struct vsampling *s;
	int rc = pmc_validate__count(v);
	size_t nr_rows = pmc_validate__nr_rows(v);

	if (rc) {
		fprintf(stderr, "pmc validate: %s\n", pmc_validate__why(v));
		return 1;
	}
	*out = s = calloc(nr_rows ? nr_rows : 1, sizeof(*s));
	if (!s)
		return 1;
	if (!mkdtemp(dir)) {
		fprintf(stderr, "pmc validate: cannot make a folder for the recordings: %s\n",
			strerror(errno));
		return 1;
	}
	for (size_t i = 0; !rc && i < nr_rows; i++) {
		const struct pmc_validate_row *r = pmc_validate__row(v, i);

		s[i].row = r;
		s[i].size = largest(o, r);
		if (r->cls == PMC_VALIDATE_UNSUPPORTED || r->cls == PMC_VALIDATE_UNKNOWN ||
		    r->nr < 1) {
			snprintf(s[i].why, sizeof(s[i].why), "%s",
				 *r->why ? r->why : "nothing was counted");
			continue;
		}
		s[i].counted = r->y[0];
		if (s[i].counted < targets[0]) {
			snprintf(s[i].why, sizeof(s[i].why),
				 "counted %.0f: too few events to sample at %.0f samples a run",
				 s[i].counted, targets[0]);
			continue;
		}
		fprintf(stderr, "pmc validate: sampling %s on %s %ld (%d seeds x %d periods)\n",
			r->event, r->kernel, s[i].size, o->seeds, VALIDATE_NR_PERIODS);
		for (int p = 0; !rc && !*s[i].why && p < VALIDATE_NR_PERIODS; p++) {
			s[i].periods[p].period = (uint64_t)llround(s[i].counted / targets[p]);
			rc = one_period(o, &s[i], &s[i].periods[p], dir, pmc_validate__level(v))
				     ? 1
				     : 0;
		}
		if (!rc && !*s[i].why && is_vpmu(o))
			skid(o, &s[i], dir);
	}
	rmdir(dir);
	return rc;
}

void validate_sampling_free(struct vsampling *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		for (int p = 0; p < VALIDATE_NR_PERIODS; p++) {
			free(s[i].periods[p].checks);
			free(s[i].periods[p].est);
		}
	free(s);
}
