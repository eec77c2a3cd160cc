// SPDX-License-Identifier: MIT
/*
 * The runner (include/pmc/run.h): the warm-up run, then each pass repeated; the command
 * started, waited for and its end kept; values stored per repetition and summarised.
 */
#include <errno.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <pmc/error.h>
#include "core/opts.h"
#include "count/counting.h"
#include "run/output.h"
#include "run/regions.h"

extern char **environ;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Units need a target counted so: CPUs for CPU groups, threads for THREAD. */
static bool aggr_fits(const struct pmc_run_opts *o, const struct pmc_target *t)
{
	switch (o->aggr) {
	case PMC_RUN_AGGR_GLOBAL:
		return true;
	case PMC_RUN_AGGR_CPU:
	case PMC_RUN_AGGR_CORE:
	case PMC_RUN_AGGR_SOCKET:
	case PMC_RUN_AGGR_DIE:
		return t->kind == PMC_TARGET_CPUS && !t->per_thread;
	case PMC_RUN_AGGR_THREAD:
		return t->kind == PMC_TARGET_PID || t->kind == PMC_TARGET_TID || t->per_thread;
	default:
		return false;
	}
}

static int check_opts(struct pmc_run *run)
{
	struct pmc_run_opts *o = &run->opts;
	bool live = o->interval_ms > 0 || o->delay_ms || o->ctl_fd > 0;

	if (!o->repeat)
		o->repeat = 1;
	if (o->level == 0)
		o->level = 0.95;
	if (!o->priv)
		o->priv = PMC_PRIV_USER;
	if (!o->who)
		o->who = "libpmc";
	if (live && !pmc_evlist__counts_live(run->evlist))
		return -EOPNOTSUPP;
	return o->repeat < 1 || o->repeat > PMC_RUN_MAX_REPEAT || !(o->level > 0 && o->level < 1) ||
			       o->interval_ms < 0 || o->delay_ms < -1 || !aggr_fits(o, &run->target)
		       ? -EINVAL
		       : 0;
}

/* Checks every event and makes room for its values. */
static int alloc_events(struct pmc_run *run)
{
	size_t nr = pmc_evlist__nr(run->evlist);

	run->res.nr_events = nr;
	run->res.events = calloc(nr + 1, sizeof(*run->res.events));
	run->warned = calloc(nr + 1, sizeof(bool));
	run->res.overhead_entry = calloc(nr + 1, sizeof(double));
	run->res.overhead_from = calloc(nr + 1, 1);
	run->res.overhead_first_entry = calloc(nr + 1, sizeof(double));
	if (!run->res.events || !run->warned || !run->res.overhead_entry ||
	    !run->res.overhead_from || !run->res.overhead_first_entry)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		struct pmc_run_event *e = &run->res.events[i];

		e->evsel = pmc_evlist__at(run->evlist, i);
		e->supported = !pmc_evsel__check(e->evsel, e->why, sizeof(e->why));
		e->values = calloc((size_t)run->opts.repeat, sizeof(double));
		e->ratio = calloc((size_t)run->opts.repeat, sizeof(double));
		if (!e->values || !e->ratio)
			return -ENOMEM;
	}
	return 0;
}

int pmc_run__new(struct pmc_evlist *evlist, const struct pmc_target *target,
		 const struct pmc_run_opts *opts, struct pmc_run **out)
{
	struct pmc_run *run;
	int err;

	*out = NULL;
	if (!evlist || !target || !opts)
		return -EINVAL;
	run = calloc(1, sizeof(*run));
	if (!run)
		return -ENOMEM;
	/* A caller built before on_refusal has none: its fields read as zero. */
	err = PMC_OPTS_COPY(pmc_run_opts, &run->opts, opts, arg);
	if (err) {
		free(run);
		return err;
	}
	/* The target's fields that an older caller lacks read as zero, as the options'. */
	err = PMC_OPTS_COPY(pmc_target, &run->target, target, cpus);
	run->evlist = evlist;
	run->region_fd = -1;
	run->res.wall_pass = -1; /* no run timed yet */
	if (!err)
		err = check_opts(run);
	if (!err)
		err = pmc_evlist__plan(evlist, run->opts.multiplex, &run->res.nr_passes);
	/* No event (perf stat --null): the command still runs, once per repetition, timed. */
	run->null_run = !pmc_evlist__nr(evlist);
	if (!err && !run->res.nr_passes) /* nothing can be counted: the command still runs */
		run->res.nr_passes = 1;
	if (!err)
		err = alloc_events(run);
	if (err) {
		pmc_run__delete(run);
		return err;
	}
	*out = run;
	return 0;
}

void pmc_run__delete(struct pmc_run *run)
{
	if (!run)
		return;
	for (size_t i = 0; run->res.events && i < run->res.nr_events; i++) {
		free(run->res.events[i].values);
		free(run->res.events[i].ratio);
	}
	pmc__run_regions_free(run);
	pmc__run_units_free(run);
	pmc__run_interval_free(run);
	pmc__run_trust_free(run);
	pmc__run_metrics_free(run);
	pmc__run_times_free(run);
	free(run->res.events);
	free(run->res.overhead_entry);
	free(run->res.overhead_from);
	free(run->res.overhead_first_entry);
	free(run->warned);
	free(run);
}

void pmc_run__stop(struct pmc_run *run, int sig)
{
	run->stop_sig = sig;
}

const struct pmc_run_results *pmc_run__results(const struct pmc_run *run)
{
	return &run->res;
}

static void store(struct pmc_run *run, int pass, int rep)
{
	for (size_t i = 0; i < run->res.nr_events; i++) {
		struct pmc_run_event *e = &run->res.events[i];
		struct pmc_count c;

		if (pmc_evsel__pass(e->evsel) != pass || pmc_evsel__count(e->evsel, &c))
			continue;
		e->ratio[rep] = c.time_enabled_ns
					? (double)c.time_running_ns / (double)c.time_enabled_ns
					: 1.0;
		e->values[rep] = run->opts.multiplex ? pmc_count__scaled(&c) : (double)c.value;
		if (e->ratio[rep] < 1.0)
			e->scaled = true;
		e->nr = rep + 1;
	}
}

/* Whether no event is left in any pass: every one unsupported here, or refused at open. */
static bool nothing_left(const struct pmc_run *run)
{
	for (size_t i = 0; i < run->res.nr_events; i++)
		if (pmc_evsel__pass(run->res.events[i].evsel) >= 0)
			return false;
	return true;
}

/*
 * Whether pass is run (a refusal at open takes an event's group out). With nothing left to
 * count at all, the first pass still runs the command, timed, as perf stat runs it: its
 * rows say why nothing was counted, and its exit status is pmc stat's.
 */
static bool pass_has_events(const struct pmc_run *run, int pass)
{
	if (run->null_run)
		return true;
	for (size_t i = 0; i < run->res.nr_events; i++)
		if (pmc_evsel__pass(run->res.events[i].evsel) == pass)
			return true;
	return pass == 0 && nothing_left(run);
}

/*
 * After a failed open: the events whose verdict the open changed (refused for a reason of
 * their own) are marked unsupported, and the caller's on_refusal hears of each. Returns 1
 * when there were some (open again), 0 when none (the error is the run's), or
 * -PMC_E_UNSUPPORTED when on_refusal stops the run.
 */
static int take_refusals(struct pmc_run *run)
{
	int found = 0;

	for (size_t i = 0; i < run->res.nr_events; i++) {
		struct pmc_run_event *e = &run->res.events[i];

		if (!e->supported || !pmc_evsel__check(e->evsel, e->why, sizeof(e->why)))
			continue;
		e->supported = false;
		found = 1;
		if (run->opts.on_refusal && run->opts.on_refusal(e, run->opts.arg)) {
			snprintf(run->res.why_failed, sizeof(run->res.why_failed),
				 "cannot count '%s': %s", pmc_evsel__name(e->evsel), e->why);
			return -PMC_E_UNSUPPORTED;
		}
	}
	return found;
}

/*
 * Opens pass on t, again without the events the kernel refuses for reasons of their own
 * (each try takes one out at least; the command is held before exec, so it has not run).
 * Returns 0, 1 when no event of the pass is left (nothing to run), or the error.
 */
static int open_pass(struct pmc_run *run, int pass, struct pmc_target *t)
{
	int err, more;

	for (;;) {
		if (!pass_has_events(run, pass))
			return 1;
		*t = run->target;
		/* A delay holds a command's counters at its exec; they are enabled later. */
		t->start_disabled = run->opts.delay_ms != 0;
		err = pmc__run_regions_prepare(run, pass, t);
		if (!err)
			err = pmc_evlist__open(run->evlist, t, pass);
		if (!err)
			return 0;
		more = take_refusals(run);
		if (more <= 0)
			return more < 0 ? more : err;
	}
}

static int count_run(struct pmc_run *run, int pass, int rep, struct pmc_target *t, int *status,
		     bool *have_status)
{
	int err = open_pass(run, pass, t);

	if (err == 1)
		return 1;
	/* Which rule refused, probed now (nothing to say for other errors). */
	if (err && err != -EMFILE && err != -PMC_E_UNSUPPORTED)
		pmc_evlist__explain(run->evlist, t, err, run->res.why_failed,
				    sizeof(run->res.why_failed));
	/* Other targets start by enabling the counters: with a delay, the wait enables them. */
	if (!err && (t->kind == PMC_TARGET_COMMAND || !run->opts.delay_ms))
		err = pmc_evlist__start(run->evlist);
	if (!err && run->opts.delay_ms && run->opts.on_enable)
		run->opts.on_enable(false, NULL, run->opts.arg);
	if (!err)
		err = pmc__run_wait(run, t, pass, rep, status, have_status);
	if (!err && t->kind != PMC_TARGET_COMMAND)
		err = pmc_evlist__stop(run->evlist);
	if (!err)
		err = pmc_evlist__read(run->evlist);
	if (!err && run->opts.interval_ms > 0)
		pmc__run_interval(run, pass, rep, true);
	return err;
}

/*
 * One run of one pass. The warm-up run (rep < 0) stores into repetition 0, which the
 * first repetition overwrites: if the warm-up is the last run (the program crashed or was
 * stopped), what it counted is still what the results hold.
 */
static int one_run(struct pmc_run *run, int pass, int rep)
{
	struct pmc_target t = run->target;
	bool have_status = false;
	int err, status = 0;

	err = count_run(run, pass, rep, &t, &status, &have_status);
	if (err == 1) /* nothing left to count in this pass: not run */
		return 0;
	if (!err) {
		store(run, pass, rep < 0 ? 0 : rep);
		pmc__run_times_store(run, pass, rep < 0 ? 0 : rep);
	}
	if (!err)
		err = pmc__run_units_store(run, pass, rep);
	run->res.in_warmup = rep < 0;
	run->null_reps += (run->null_run || nothing_left(run)) && !err && rep >= 0;
	if (!err)
		pmc__run_regions_collect(run, pass, rep);
	pmc_evlist__close(run->evlist);
	if (err == -PMC_E_EXEC)
		run->res.exec_failed = true;
	if (err)
		return err;
	run->res.status = status;
	run->res.have_status = have_status;
	return 0;
}

/* Whether the last run ended in a way that makes more runs pointless. */
static bool must_stop(const struct pmc_run *run)
{
	return run->stop_sig || (run->res.have_status && WIFSIGNALED(run->res.status));
}

/*
 * Once a run shows that the command counts regions with counters of its own, the passes
 * are planned again with half the counters each, so that the runner's whole-program
 * counts and the command's region counts fit together. Returns true when the plan changed
 * (what was counted so far then belongs to the old plan and is dropped).
 */
static bool replan_for_regions(struct pmc_run *run)
{
	size_t nr = run->res.nr_events;
	int *old = calloc(nr + 1, sizeof(int)), passes;
	bool changed = false;

	run->res.replanned = true;
	if (!old)
		return false;
	for (size_t i = 0; i < nr; i++)
		old[i] = pmc_evsel__pass(run->res.events[i].evsel);
	if (pmc_evlist__plan_shared(run->evlist, run->opts.multiplex, 2, &passes)) {
		pmc_evlist__plan_shared(run->evlist, run->opts.multiplex, 1, &passes);
		free(old);
		return false;
	}
	for (size_t i = 0; i < nr; i++)
		changed |= old[i] != pmc_evsel__pass(run->res.events[i].evsel);
	free(old);
	if (!changed)
		return false;
	pmc__log(PMC_LOG_INFO,
		 "%s: the command counts regions with counters of its own: %d passes now, so "
		 "that both fit\n",
		 run->opts.who, passes);
	run->res.nr_passes = passes;
	for (size_t i = 0; i < nr; i++)
		run->res.events[i].nr = 0, run->res.events[i].scaled = false;
	pmc__run_times_reset(run);
	pmc__run_regions_free(run);
	return true;
}

static struct pmc_run_progress where(const struct pmc_run *run, int pass, int rep, double t0)
{
	return (struct pmc_run_progress){.pass = pass,
					 .nr_passes = run->res.nr_passes,
					 .rep = rep,
					 .repeat = run->opts.repeat,
					 .elapsed_s = now_s() - t0};
}

/*
 * One run with the caller's hooks around it (perf stat's --pre and --post): before_run
 * before the counters open, after_run after they close; either can stop the runner.
 */
static int hooked_run(struct pmc_run *run, int pass, int rep, double t0)
{
	struct pmc_run_progress p = where(run, pass, rep, t0);
	int err;

	if (run->opts.progress)
		run->opts.progress(&p, run->opts.arg);
	if (run->opts.before_run && run->opts.before_run(&p, run->opts.arg)) {
		snprintf(run->res.why_failed, sizeof(run->res.why_failed),
			 "stopped before a run by the caller's hook");
		return -ECANCELED;
	}
	if (run->stop_sig) /* stopped during the hook: no command is started after it */
		return 0;
	err = one_run(run, pass, rep);
	p = where(run, pass, rep, t0);
	if (!err && run->opts.after_run && run->opts.after_run(&p, run->opts.arg)) {
		snprintf(run->res.why_failed, sizeof(run->res.why_failed),
			 "stopped after a run by the caller's hook");
		return -ECANCELED;
	}
	return err;
}

static void summarize(struct pmc_run *run)
{
	run->res.nr_reps = run->res.nr_region_reps = 0;
	pmc__run_trust(run);		 /* first: a validated bias may be subtracted */
	pmc__run_regions_summarize(run); /* then: it may subtract overhead from the values */
	for (size_t i = 0; i < run->res.nr_events; i++) {
		struct pmc_run_event *e = &run->res.events[i];

		if (e->nr)
			pmc_summarize(e->values, (size_t)e->nr, run->opts.level, &e->sum);
		if (e->nr > run->res.nr_reps)
			run->res.nr_reps = e->nr;
	}
	pmc__run_times_summarize(run);
	if (run->null_run || nothing_left(run))
		run->res.nr_reps = run->null_reps;
	pmc__run_units_summarize(run);
}

int pmc_run__execute(struct pmc_run *run)
{
	double t0 = now_s();
	/* A process, threads or CPUs without a command are counted once, until they end or a
	 * signal: there is nothing to warm up or repeat. With a command, they are counted for
	 * as long as it runs, each run of it. */
	bool once =
		run->target.kind != PMC_TARGET_COMMAND && !(run->target.argv && *run->target.argv);
	bool warm = !run->opts.no_warmup && !once;
	int err = 0, rc;

	for (int pass = 0; pass < run->res.nr_passes && !err && !must_stop(run); pass++) {
		int first = warm && pass == 0 ? -1 : 0, reps = once ? 1 : run->opts.repeat;

		for (int rep = first; rep < reps && !err && !must_stop(run); rep++) {
			err = hooked_run(run, pass, rep, t0);
			if (!err && run->res.regions_seen && !run->res.replanned &&
			    replan_for_regions(run)) {
				pass = -1; /* start over with the new plan, the warm-up done */
				warm = false;
				break;
			}
		}
	}
	run->res.elapsed_s = now_s() - t0;
	run->res.stop_signal = run->stop_sig;
	/* A stop no command received (in --pre, --post, between runs) is the run's end, and its
	 * status: not the exit status of a command that ended before it. */
	if (run->stop_sig && !run->stop_passed)
		run->res.have_status = false;
	summarize(run);
	rc = pmc__run_metrics_compute(run);
	return err ? err : rc;
}

int pmc_run__write(const struct pmc_run *run, FILE *f, enum pmc_run_format fmt, unsigned flags)
{
	int err;

	switch (fmt) {
	case PMC_RUN_FORMAT_JSON:
		err = pmc__run_write_json(run, f);
		break;
	case PMC_RUN_FORMAT_HTML:
		err = pmc__run_write_html(run, f);
		break;
	case PMC_RUN_FORMAT_CSV:
		err = pmc__run_write_csv(run, f);
		break;
	case PMC_RUN_FORMAT_TEXT:
		err = pmc__run_write_text(run, f, flags);
		break;
	default:
		return -EINVAL;
	}
	if (!err && ferror(f))
		err = -EIO;
	return err;
}
