// SPDX-License-Identifier: MIT
/* pmc stat's runner: build the event list, plan passes, run warm-up and repetitions. */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "cli.h"
#include "stat.h"

extern char **environ;

static const char *const default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles",     "instructions",	  "branches",	    "branch-misses",
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int parse_one(struct stat_run *run, const char *str, bool user_named)
{
	struct pmc_parse_error perr;
	size_t before = pmc_evlist__nr(run->evlist);
	int err = pmc_evlist__parse(run->evlist, str, &perr);
	struct stat_event *ev;

	if (err == -PMC_E_PARSE || err == -PMC_E_UNKNOWN_EVENT) {
		cli_print_parse_error("pmc stat", str, &perr);
		return 2;
	}
	if (err) {
		fprintf(stderr, "pmc stat: cannot parse '%s': %s\n", str, pmc_strerror(err));
		return 1;
	}
	/* One string may expand to any number of events (groups, globs): size after parsing. */
	ev = realloc(run->ev, (pmc_evlist__nr(run->evlist) + 1) * sizeof(*ev));
	if (!ev)
		return 1;
	run->ev = ev;
	for (size_t i = before; i < pmc_evlist__nr(run->evlist); i++)
		run->ev[i] = (struct stat_event){.user_named = user_named};
	return 0;
}

/* Grows run->ev to the list's size as each string is parsed. */
static int parse_all(struct stat_run *run)
{
	const struct stat_opts *o = run->opts;
	size_t n = o->default_events ? sizeof(default_events) / sizeof(default_events[0])
				     : o->nr_events;
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++)
		rc = parse_one(run, o->default_events ? default_events[i] : o->events[i],
			       !o->default_events);
	return rc;
}

/* Judges every event; a user-named event that cannot be counted stops pmc stat. */
static int check_all(struct stat_run *run)
{
	size_t nr = pmc_evlist__nr(run->evlist);

	for (size_t i = 0; i < nr; i++) {
		struct stat_event *e = &run->ev[i];

		e->evsel = pmc_evlist__at(run->evlist, i);
		e->supported = !pmc_evsel__check(e->evsel, e->why, sizeof(e->why));
		e->values = calloc((size_t)run->opts->repeat, sizeof(double));
		e->ratio = calloc((size_t)run->opts->repeat, sizeof(double));
		if (!e->values || !e->ratio)
			return 1;
		if (!e->supported && e->user_named) {
			fprintf(stderr, "pmc stat: cannot count '%s': %s\n",
				pmc_evsel__name(e->evsel), e->why);
			return 1;
		}
	}
	return 0;
}

/* --dry-run: the library's descriptions are the command's output. */
static void print_dry_run(const char *text, void *arg)
{
	fputs(text, arg);
}

static int build(struct stat_run *run)
{
	struct pmc_evlist_opts eo = {.sz = sizeof(eo),
				     .backend = run->opts->backend,
				     .priv = run->opts->priv,
				     .dry_run = run->opts->dry_run ? print_dry_run : NULL,
				     .dry_run_arg = stdout,
				     .dry_run_attrs = run->opts->verbose >= 2};
	int err = pmc_evlist__new(&eo, &run->evlist);

	if (err) {
		fprintf(stderr, "pmc stat: backend '%s': %s\n",
			run->opts->backend ? run->opts->backend : "perf", pmc_strerror(err));
		return err == -PMC_E_NOBACKEND ? 2 : 1;
	}
	err = parse_all(run);
	if (!err)
		err = check_all(run);
	if (!err) {
		int perr = pmc_evlist__plan(run->evlist, run->opts->multiplex, &run->nr_passes);

		if (run->opts->multiplex && !pmc_evlist__can_multiplex(run->evlist))
			fprintf(stderr,
				"pmc stat: backend %s cannot time-share counters: "
				"--multiplex is ignored, events run in passes\n",
				pmc_evlist__backend(run->evlist));

		if (perr) {
			fprintf(stderr, "pmc stat: cannot plan the passes: %s\n",
				pmc_strerror(perr));
			err = 1;
		}
	}
	return err;
}

static void fill_target(const struct stat_run *run, struct pmc_target *t)
{
	const struct stat_opts *o = run->opts;

	*t = (struct pmc_target){.sz = sizeof(*t), .no_inherit = o->no_inherit};
	if (o->pid) {
		t->kind = PMC_TARGET_PID;
		t->pid = o->pid;
	} else if (o->system_wide || o->cpus) {
		t->kind = PMC_TARGET_CPUS;
		t->cpus = o->cpus;
	} else {
		t->kind = PMC_TARGET_COMMAND;
		t->argv = o->argv;
	}
}

/* Waits for the command, forwarding Ctrl-C to it; returns its wait status or -errno. */
static int wait_command(struct pmc_evlist *evlist, int *status)
{
	bool forwarded = false;
	int err;

	while ((err = pmc_evlist__wait(evlist, status)) == -EINTR)
		if (interrupted && !forwarded) {
			pmc_evlist__kill(evlist, SIGINT);
			forwarded = true;
		}
	return err;
}

/* -p, -a, -C: count until the process ends, the command ends, or Ctrl-C. */
static int wait_other(const struct stat_run *run, int *status)
{
	const struct stat_opts *o = run->opts;
	pid_t child = -1;

	if (*o->argv && posix_spawnp(&child, o->argv[0], NULL, NULL, o->argv, environ)) {
		fprintf(stderr, "pmc stat: cannot run '%s': %s\n", o->argv[0], strerror(errno));
		return -PMC_E_EXEC;
	}
	for (;;) {
		if (child > 0 && waitpid(child, status, 0) == child)
			return 0;
		if (interrupted && child <= 0)
			return 0;
		if (interrupted) {
			kill(child, SIGINT);
			continue;
		}
		if (o->pid && kill(o->pid, 0) && errno == ESRCH)
			return 0;
		usleep(50 * 1000);
	}
}

static void store(struct stat_run *run, int pass, int rep)
{
	for (size_t i = 0; i < pmc_evlist__nr(run->evlist); i++) {
		struct stat_event *e = &run->ev[i];
		struct pmc_count c;

		if (pmc_evsel__pass(e->evsel) != pass || pmc_evsel__count(e->evsel, &c))
			continue;
		e->ratio[rep] = c.time_enabled_ns
					? (double)c.time_running_ns / (double)c.time_enabled_ns
					: 1.0;
		e->values[rep] = run->opts->multiplex ? pmc_count__scaled(&c) : (double)c.value;
		if (e->ratio[rep] < 1.0)
			e->scaled = true;
		e->nr = rep + 1;
	}
}

/*
 * One run of one pass. The warm-up run (rep < 0) stores into repetition 0, which the
 * first repetition overwrites: if the warm-up is the last run (the program crashed or
 * Ctrl-C), what it counted is still what gets shown.
 */
static int one_run(struct stat_run *run, int pass, int rep)
{
	struct pmc_target t;
	char why[1024] = "";
	int err, status = 0;

	fill_target(run, &t);
	err = stat_regions__prepare(run, pass, &t);
	if (!err)
		err = pmc_evlist__open(run->evlist, &t, pass);
	if (err == -EMFILE && cli_raise_nofile())
		err = pmc_evlist__open(run->evlist, &t, pass);
	if (err == -EMFILE)
		cli_say_nofile("pmc stat", pmc_evlist__nr(run->evlist));
	else if (err) /* which rule refused, probed now (nothing for other errors) */
		pmc_evlist__explain(run->evlist, &t, err, why, sizeof(why));
	if (!err)
		err = pmc_evlist__start(run->evlist);
	if (!err)
		err = t.kind == PMC_TARGET_COMMAND ? wait_command(run->evlist, &status)
						   : wait_other(run, &status);
	if (!err && t.kind != PMC_TARGET_COMMAND)
		err = pmc_evlist__stop(run->evlist);
	if (!err)
		err = pmc_evlist__read(run->evlist);
	if (!err)
		store(run, pass, rep < 0 ? 0 : rep);
	run->in_warmup = rep < 0;
	if (!err)
		stat_regions__collect(run, pass, rep);
	pmc_evlist__close(run->evlist);
	if (err == -PMC_E_EXEC) {
		run->exec_failed = true;
		return err;
	}
	if (err) {
		fprintf(stderr, "pmc stat: counting failed: %s\n", pmc_strerror(err));
		if (why[0])
			fprintf(stderr, "pmc stat: %s\n", why);
		return err;
	}
	run->status = status;
	run->have_status = t.kind == PMC_TARGET_COMMAND || *run->opts->argv;
	return 0;
}

static void progress(const struct stat_run *run, int pass, int rep, double t0)
{
	bool tty = isatty(STDERR_FILENO);

	if (run->opts->verbose < 1)
		return;
	if (rep < 0)
		fprintf(stderr, "pmc stat: pass %d/%d, warm-up run, %.2f s%s", pass + 1,
			run->nr_passes, now_s() - t0, tty ? "\033[K\r" : "\n");
	else
		fprintf(stderr, "pmc stat: pass %d/%d, repetition %d/%d, %.2f s%s", pass + 1,
			run->nr_passes, rep + 1, run->opts->repeat, now_s() - t0,
			tty ? "\033[K\r" : "\n");
}

/* Whether the last run ended in a way that makes more runs pointless. */
static bool must_stop(const struct stat_run *run)
{
	return interrupted || (run->have_status && WIFSIGNALED(run->status));
}

/*
 * Once a run shows that the command counts regions with counters of its own, the passes
 * are planned again with half the counters each, so that the runner's whole-program
 * counts and the command's region counts fit together. Returns true when the plan changed
 * (what was counted so far then belongs to the old plan and is dropped).
 */
static bool replan_for_regions(struct stat_run *run)
{
	size_t nr = pmc_evlist__nr(run->evlist);
	int *old = calloc(nr + 1, sizeof(int)), passes;
	bool changed = false;

	run->replanned = true;
	if (!old)
		return false;
	for (size_t i = 0; i < nr; i++)
		old[i] = pmc_evsel__pass(run->ev[i].evsel);
	if (pmc_evlist__plan_shared(run->evlist, run->opts->multiplex, 2, &passes)) {
		pmc_evlist__plan_shared(run->evlist, run->opts->multiplex, 1, &passes);
		free(old);
		return false;
	}
	for (size_t i = 0; i < nr; i++)
		changed |= old[i] != pmc_evsel__pass(run->ev[i].evsel);
	free(old);
	if (!changed)
		return false;
	if (run->opts->verbose)
		fprintf(stderr,
			"pmc stat: the command counts regions with counters of its own: "
			"%d passes now, so that both fit\n",
			passes);
	run->nr_passes = passes;
	for (size_t i = 0; i < nr; i++)
		run->ev[i].nr = 0, run->ev[i].scaled = false;
	stat_regions__free(run);
	return true;
}

int stat_run__execute(struct stat_run *run)
{
	struct sigaction sa = {.sa_handler = on_signal}, old_int, old_term;
	int err = 0;
	double t0 = now_s();
	bool warm = !run->opts->no_warmup && !run->opts->pid;

	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	for (int pass = 0; pass < run->nr_passes && !err && !must_stop(run); pass++) {
		int first = warm && pass == 0 ? -1 : 0,
		    reps = run->opts->pid ? 1 : run->opts->repeat;

		for (int rep = first; rep < reps && !err && !must_stop(run); rep++) {
			progress(run, pass, rep, t0);
			err = one_run(run, pass, rep);
			if (!err && run->regions_seen && !run->replanned &&
			    replan_for_regions(run)) {
				pass = -1; /* start over with the new plan, the warm-up done */
				warm = false;
				break;
			}
		}
	}
	if (run->opts->verbose && isatty(STDERR_FILENO))
		fprintf(stderr, "\033[K");
	run->elapsed_s = now_s() - t0;
	run->interrupted = interrupted;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return err;
}

void stat_run__summarize(struct stat_run *run)
{
	stat_regions__summarize(run); /* first: it may subtract overhead from the values */
	for (size_t i = 0; i < pmc_evlist__nr(run->evlist); i++)
		if (run->ev[i].nr)
			pmc_summarize(run->ev[i].values, (size_t)run->ev[i].nr, run->opts->level,
				      &run->ev[i].sum);
}

/* The exit status of pmc stat: the command's, 128+signal when it was killed. */
static int exit_status(const struct stat_run *run)
{
	if (run->exec_failed)
		return 127;
	if (!run->have_status)
		return run->interrupted ? 128 + SIGINT : 0;
	if (WIFSIGNALED(run->status)) {
		int sig = WTERMSIG(run->status);

		fprintf(stderr, "pmc stat: '%s' was killed by %s%s\n", run->opts->argv[0],
			cli_signame(sig), WCOREDUMP(run->status) ? " (core dumped)" : "");
		return 128 + sig;
	}
	return WEXITSTATUS(run->status);
}

static void free_run(struct stat_run *run)
{
	for (size_t i = 0; run->ev && i < pmc_evlist__nr(run->evlist); i++) {
		free(run->ev[i].values);
		free(run->ev[i].ratio);
	}
	free(run->ev);
	stat_regions__free(run);
	pmc_evlist__delete(run->evlist);
}

/*
 * --dry-run: each pass opened as a dry run, which describes its perf_event_open calls on
 * stdout and leaves the list closed; no command runs, no region descriptor is made.
 */
static int dry_run(const struct stat_run *run)
{
	struct pmc_target t;
	int err = 0;

	fill_target(run, &t);
	for (int pass = 0; pass < run->nr_passes && !err; pass++) {
		if (run->nr_passes > 1)
			printf("# pass %d/%d\n", pass + 1, run->nr_passes);
		err = pmc_evlist__open(run->evlist, &t, pass);
	}
	if (err == -EOPNOTSUPP)
		fprintf(stderr,
			"pmc stat: --dry-run: backend %s cannot describe its calls; only perf "
			"can\n",
			pmc_evlist__backend(run->evlist));
	else if (err)
		fprintf(stderr, "pmc stat: --dry-run: %s\n", pmc_strerror(err));
	return err || fflush(stdout) || ferror(stdout) ? 1 : 0;
}

int cmd_stat_run(const struct stat_opts *opts)
{
	struct stat_run run = {.opts = opts};
	int rc = build(&run), err;

	if (!rc && opts->dry_run) {
		rc = dry_run(&run);
	} else if (!rc && opts->plan_only) {
		stat_print_plan(stdout, &run);
		rc = fflush(stdout) || ferror(stdout) ? 1 : 0;
	} else if (!rc) {
		err = stat_run__execute(&run);
		stat_run__summarize(&run);
		if (run.exec_failed) {
			rc = 127;
		} else {
			rc = stat_write(&run) ? 1 : exit_status(&run);
			if (err && !rc)
				rc = 1;
		}
	}
	free_run(&run);
	return rc;
}
