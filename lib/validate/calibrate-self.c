// SPDX-License-Identifier: MIT
/*
 * Calibration's measurements in this process, in a forked child so that each event gets a
 * fresh region session: an empty begin/end pair (time and counts), a group read, a
 * start/stop pair; each as a distribution (median, p90, p99, max, histogram).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "validate/calibrate.h"

/* What the child hands back through its pipe. */
struct self_result {
	int err;
	struct pmc_calibrate_dist pair_counts, pair_ns, read_ns, start_stop_ns;
};

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The cost of taking the time itself, subtracted from every timed sample. */
static double timer_cost(void)
{
	struct pmc_calibrate_dist d;
	double v[201];

	for (int i = 0; i < 201; i++) {
		double t0 = now_ns();

		v[i] = now_ns() - t0;
	}
	pmc__calibrate_dist(v, 201, &d);
	return d.median;
}

/* An empty region: ns per pair and counts per entry, from the library's own totals. */
static int measure_pair(const struct pmc_calibrate_opts *p, int id, struct self_result *r)
{
	double *ns = calloc(p->samples, sizeof(double)),
	       *counts = calloc(p->samples, sizeof(double));
	uint64_t before[1], after[1];
	double tc = timer_cost();
	int err = ns && counts ? 0 : -ENOMEM;

	for (size_t i = 0; !err && i < p->warmup + p->samples; i++) {
		double t0, t1;

		pmc_region_get((unsigned)id, NULL, NULL, before, 1);
		t0 = now_ns();
		pmc_region_begin_n((unsigned)id);
		pmc_region_end_n((unsigned)id);
		t1 = now_ns();
		pmc_region_get((unsigned)id, NULL, NULL, after, 1);
		if (i < p->warmup)
			continue;
		ns[i - p->warmup] = fmax(0, t1 - t0 - tc);
		counts[i - p->warmup] = (double)(after[0] - before[0]);
	}
	if (!err) {
		pmc__calibrate_dist(counts, p->samples, &r->pair_counts);
		pmc__calibrate_dist(ns, p->samples, &r->pair_ns);
	}
	free(ns);
	free(counts);
	return err;
}

/* A bare group read and an enable/disable pair through libpmc on the calling thread. */
static int measure_read_start(const struct pmc_calibrate_opts *p, struct pmc_evlist *l,
			      struct self_result *r)
{
	struct pmc_evsel *leader = pmc_evlist__at(l, 0);
	double *rd = calloc(p->samples, sizeof(double)), *ss = calloc(p->samples, sizeof(double));
	double tc = timer_cost();
	struct pmc_count c[8];
	int err = rd && ss ? 0 : -ENOMEM;

	for (size_t i = 0; !err && i < p->warmup + p->samples; i++) {
		double t0 = now_ns(), t1, t2;

		pmc_evsel__read_group(leader, c, 8);
		t1 = now_ns();
		pmc_evlist__stop(l);
		pmc_evlist__start(l);
		t2 = now_ns();
		if (i < p->warmup)
			continue;
		rd[i - p->warmup] = fmax(0, t1 - t0 - tc);
		ss[i - p->warmup] = fmax(0, t2 - t1 - tc);
	}
	if (!err) {
		pmc__calibrate_dist(rd, p->samples, &r->read_ns);
		pmc__calibrate_dist(ss, p->samples, &r->start_stop_ns);
	}
	free(rd);
	free(ss);
	return err;
}

static int open_self(const struct pmc_calibrate_opts *p, const char *event, struct pmc_evlist **out)
{
	struct pmc_evlist_opts o = {.sz = sizeof(o), .backend = p->backend, .priv = p->priv};
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_SELF, .no_inherit = true};
	int passes, err = pmc_evlist__new(&o, out);

	if (!err)
		err = pmc_evlist__parse(*out, event, NULL);
	if (!err)
		err = pmc_evlist__plan(*out, false, &passes);
	if (!err)
		err = pmc_evlist__open(*out, &t, 0);
	if (!err)
		err = pmc_evlist__start(*out);
	return err;
}

/* Runs in the child: every in-process measurement of event (it sets up regions once). */
static void measure_inprocess(const struct pmc_calibrate_opts *p, const char *event,
			      struct self_result *r)
{
	struct pmc_region_opts ro = {.sz = sizeof(ro),
				     .events = event,
				     .backend = p->backend,
				     .priv = p->priv,
				     .sink = PMC_REGION_SINK_NONE};
	struct pmc_evlist *l = NULL;
	int id;

	r->err = pmc_region_setup(&ro);
	id = r->err ? r->err : pmc_region_register("pmc-calibrate");
	if (id < 0) {
		r->err = id;
		return;
	}
	r->err = measure_pair(p, id, r);
	if (!r->err)
		r->err = open_self(p, event, &l);
	if (!r->err)
		r->err = measure_read_start(p, l, r);
	pmc_evlist__delete(l);
}

/* Reads the child's whole result; false when it ended before writing it. */
static bool read_result(int fd, struct self_result *r)
{
	size_t len = 0;

	while (len < sizeof(*r)) {
		ssize_t n = read(fd, (char *)r + len, sizeof(*r) - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		len += (size_t)n;
	}
	return true;
}

int pmc__calibrate_self(const struct pmc_calibrate *c, struct pmc_calibrate_entry *e)
{
	struct self_result r = {.err = -EIO};
	int fd[2], status = 0;
	bool got;
	pid_t pid;

	if (pipe(fd))
		return -errno;
	pid = pmc_fork(); /* it does not outlive a killed caller */
	if (pid == 0) {
		close(fd[0]);
		measure_inprocess(&c->o, e->event, &r);
		_exit(write(fd[1], &r, sizeof(r)) == (ssize_t)sizeof(r) ? 0 : 1);
	}
	close(fd[1]);
	got = pid > 0 && read_result(fd[0], &r);
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	if (pid < 0)
		return pid;
	if (!got || !WIFEXITED(status) || WEXITSTATUS(status))
		return -EIO;
	if (r.err) {
		struct pmc_calibrate_msg m = {
			.kind = PMC_CALIBRATE_MSG_MEASURE, .event = e->event, .err = r.err};

		pmc__calibrate_say(c, &m);
		return r.err;
	}
	e->timed = true;
	e->pair_counts = r.pair_counts;
	e->pair_ns = r.pair_ns;
	e->read_ns = r.read_ns;
	e->start_stop_ns = r.start_stop_ns;
	return 0;
}
