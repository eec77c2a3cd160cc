// SPDX-License-Identifier: MIT
/*
 * Validation's sampling mode (docs/accuracy.md, "Sampling mode"): each event a kernel
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
#include "validate/validate.h"

/* Expected samples per run at each period: the period is the count over these. */
static const double targets[PMC_VALIDATE_NR_PERIODS] = {25, 100, 400};

static bool is_vpmu(const struct pmc_validate *v)
{
	return v->opts.backend && !strcmp(v->opts.backend, "vpmu");
}

/* One recording of ev on the kernel at size n into path; 0, or a negative error. */
static int record(const struct pmc_validate *v, const struct pmc_validate_row *r, const char *ev,
		  long n, uint64_t period, uint64_t seed, const char *path)
{
	char size[32], *argv[4] = {(char *)v->prog, r->kernel, size, NULL};
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_COMMAND, .argv = argv};
	struct pmc_record_opts ro = {.sz = sizeof(ro),
				     .output = path,
				     .period = period,
				     .period_jitter = is_vpmu(v) ? PMC_VALIDATE_JITTER : 0,
				     .seed = is_vpmu(v) ? seed : 0,
				     .argc = 3,
				     .argv = argv};
	struct pmc_evlist_opts eo = {.sz = sizeof(eo),
				     .backend = v->opts.backend,
				     .priv = v->opts.priv,
				     .use = PMC_USE_SAMPLE};
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

static void fail_row(struct pmc_validate_sampling *s, const char *what, int err)
{
	snprintf(s->why, sizeof(s->why), "%s: %s", what, pmc_strerror(err));
}

/* The runs of one period: seeds 1..v->seeds, each checked against the count. */
static int one_period(const struct pmc_validate *v, struct pmc_validate_sampling *s,
		      struct pmc_validate_period *p, const char *dir, double level)
{
	char path[PATH_MAX];
	int err = 0;

	p->checks = calloc((size_t)v->seeds, sizeof(*p->checks));
	p->est = calloc((size_t)v->seeds, sizeof(*p->est));
	if (!p->checks || !p->est)
		return -ENOMEM;
	for (int k = 0; k < v->seeds; k++) {
		struct pmc_report *rep;

		snprintf(path, sizeof(path), "%s/s.data", dir);
		err = record(v, s->row, s->row->event, s->size, p->period, (uint64_t)k + 1, path);
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
		p->mean_samples += (double)p->est[k].samples / v->seeds;
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
static void skid(const struct pmc_validate *v, struct pmc_validate_sampling *s, const char *dir)
{
	char pp[PATH_MAX], ip[PATH_MAX], ev[512], args[600];
	const char *old = getenv("PMC_VPMU_ARGS");
	char *saved = old ? strdup(old) : NULL;
	struct pmc_report *a = NULL, *b = NULL;
	uint64_t period = s->periods[PMC_VALIDATE_NR_PERIODS / 2].period;
	int err;

	snprintf(pp, sizeof(pp), "%s/p.data", dir);
	snprintf(ip, sizeof(ip), "%s/i.data", dir);
	snprintf(ev, sizeof(ev), "%s:p", s->row->event);
	snprintf(args, sizeof(args), "%s%s--skid=%d", old ? old : "", old ? " " : "", v->skid);
	err = setenv("PMC_VPMU_ARGS", args, 1) ? -errno : 0;
	if (!err)
		err = record(v, s->row, ev, s->size, period, 1, pp);
	if (!err)
		err = record(v, s->row, s->row->event, s->size, period, 1, ip);
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
static long largest(const struct pmc_validate *v, const struct pmc_validate_row *r)
{
	return v->opts.quick ? r->quick[r->nr_quick - 1] : r->sizes[r->nr_sizes - 1];
}

/* Row r's sampling into s: its periods, then under vpmu the skid. 0, or -ENOMEM. */
static int sample_row(struct pmc_validate *v, const struct pmc_validate_row *r,
		      struct pmc_validate_sampling *s, const char *dir)
{
	int err = 0;

	s->row = r;
	s->size = largest(v, r);
	s->skid_instructions = v->skid;
	if (r->cls == PMC_VALIDATE_UNSUPPORTED || r->cls == PMC_VALIDATE_UNKNOWN || r->nr < 1) {
		snprintf(s->why, sizeof(s->why), "%s", *r->why ? r->why : "nothing was counted");
		return 0;
	}
	s->counted = r->y[0];
	if (s->counted < targets[0]) {
		snprintf(s->why, sizeof(s->why),
			 "counted %.0f: too few events to sample at %.0f samples a run", s->counted,
			 targets[0]);
		return 0;
	}
	if (v->opts.progress) {
		struct pmc_validate_progress p = {.kernel = r->kernel,
						  .size = s->size,
						  .event = r->event,
						  .seeds = v->seeds,
						  .periods = PMC_VALIDATE_NR_PERIODS};

		v->opts.progress(&p, v->opts.progress_arg);
	}
	for (int p = 0; !err && !*s->why && p < PMC_VALIDATE_NR_PERIODS; p++) {
		s->periods[p].period = (uint64_t)llround(s->counted / targets[p]);
		err = one_period(v, s, &s->periods[p], dir, v->opts.level);
	}
	if (!err && !*s->why && is_vpmu(v))
		skid(v, s, dir);
	return err;
}

int pmc_validate__sample(struct pmc_validate *v, const struct pmc_validate_sampling_opts *opts)
{
	char dir[] = "/tmp/pmc-validate-XXXXXX";
	int err = 0;

	v->seeds = opts && opts->seeds > 0 ? opts->seeds : 10;
	v->skid = opts && opts->skid > 0 ? opts->skid : 3;
	pmc__validate_sampling_free(v);
	v->sampling = calloc(v->nr_rows ? v->nr_rows : 1, sizeof(*v->sampling));
	if (!v->sampling) {
		snprintf(v->why, sizeof(v->why), "%s", pmc_strerror(-ENOMEM));
		return -ENOMEM;
	}
	if (!mkdtemp(dir)) {
		err = -errno;
		snprintf(v->why, sizeof(v->why), "cannot make a folder for the recordings: %s",
			 strerror(-err));
		return err;
	}
	for (size_t i = 0; !err && i < v->nr_rows; i++)
		err = sample_row(v, &v->rows[i], &v->sampling[i], dir);
	rmdir(dir);
	if (err)
		snprintf(v->why, sizeof(v->why), "%s", pmc_strerror(err));
	return err;
}

const struct pmc_validate_sampling *pmc_validate__sampling(const struct pmc_validate *v, size_t idx)
{
	return v->sampling && idx < v->nr_rows ? &v->sampling[idx] : NULL;
}

bool pmc_validate_sampling__sampled(const struct pmc_validate_sampling *s)
{
	return !*s->why || s->periods[PMC_VALIDATE_NR_PERIODS - 1].nr > 0;
}

void pmc__validate_sampling_free(struct pmc_validate *v)
{
	for (size_t i = 0; v->sampling && i < v->nr_rows; i++)
		for (int p = 0; p < PMC_VALIDATE_NR_PERIODS; p++) {
			free(v->sampling[i].periods[p].checks);
			free(v->sampling[i].periods[p].est);
		}
	free(v->sampling);
	v->sampling = NULL;
}
