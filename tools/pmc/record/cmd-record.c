// SPDX-License-Identifier: MIT
/* pmc record: sample events while a command (or a process, or CPUs) runs into a perf.data file. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <pmc/pmc.h>
#include "common/cli.h"
#include "common/cmd.h"
#include "record.h"

/* The seed of --period-jitter when --seed is not given (as vpmu's own default). */
#define DEFAULT_SEED 1

static volatile sig_atomic_t got_signal;
static struct pmc_record *active;

/* Ctrl-C: a command gets SIGINT once (it keeps running its own handlers); else stop. */
static void on_signal(int sig)
{
	if (!active) {
		got_signal = sig; /* before the recording is open: acted on once it is */
		return;
	}
	if (pmc_record__child_pid(active) > 0) {
		if (!got_signal)
			pmc_record__kill(active, sig);
	} else {
		pmc_record__stop(active);
	}
	got_signal = sig;
}

/* --dry-run: the library's descriptions are the command's output. */
static void print_dry_run(const char *text, void *arg)
{
	fputs(text, arg);
}

static int build_evlist(struct record_cli *c, struct pmc_evlist **out)
{
	struct pmc_evlist_opts eo = {.sz = sizeof(eo),
				     .backend = c->backend,
				     .priv = c->priv ? c->priv : PMC_PRIV_USER,
				     .dry_run = c->dry_run ? print_dry_run : NULL,
				     .dry_run_arg = stdout,
				     .dry_run_attrs = c->verbose >= 2,
				     .use = PMC_USE_SAMPLE};
	struct pmc_parse_error perr;
	int err = pmc_evlist__new(&eo, out);
	const char *def;

	if (err) {
		fprintf(stderr, "pmc record: %s\n", pmc_strerror(err));
		return 1;
	}
	def = pmc_evlist__default_event(*out); /* the backend's choice */
	for (size_t i = 0; i < (c->nr_events ? c->nr_events : 1); i++) {
		const char *ev = c->nr_events ? c->events[i] : def;
		err = pmc_evlist__parse(*out, ev, &perr);
		if (err == -PMC_E_PARSE || err == -PMC_E_UNKNOWN_EVENT) {
			cli_print_parse_error("pmc record", ev, &perr);
			return 2;
		}
		if (err) {
			fprintf(stderr, "pmc record: cannot parse '%s': %s\n", cli_show(ev),
				perr.msg[0] ? cli_show(perr.msg) : pmc_strerror(err));
			return 1;
		}
	}
	for (size_t i = 0; i < pmc_evlist__nr(*out); i++) {
		char why[512] = "";
		struct pmc_evsel *e = pmc_evlist__at(*out, i);

		if (pmc_evsel__kind(e) == PMC_EV_TOOL) {
			fprintf(stderr,
				"pmc record: cannot sample '%s': a tool event is a time pmc "
				"measures around each run, with no counter to sample; count it "
				"with pmc stat\n",
				pmc_evsel__name(e));
			return 1;
		}
		if (pmc_evsel__check(e, why, sizeof(why))) {
			fprintf(stderr, "pmc record: cannot sample '%s': %s\n", pmc_evsel__name(e),
				why);
			return 1;
		}
	}
	return 0;
}

static bool has_command(const struct record_cli *c)
{
	return c->t.kind != PMC_TARGET_PID && c->t.argv && c->t.argv[0];
}

/* The exit status: the command's, 128+signal when it was killed (as pmc stat). */
static int exit_status(const struct record_cli *c, int status)
{
	if (!has_command(c))
		return 0;
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		fprintf(stderr, "pmc record: '%s' was killed by %s%s\n", cli_show(c->t.argv[0]),
			cli_signame(sig), WCOREDUMP(status) ? " (core dumped)" : "");
		return 128 + sig;
	}
	return WEXITSTATUS(status);
}

static void summary(const struct record_cli *c, struct pmc_record *rec)
{
	uint64_t lost = pmc_record__nr_lost(rec);

	if (lost)
		fprintf(stderr,
			"pmc record: warning: %llu samples were lost (ring buffer full); "
			"try a larger -m or a lower -F\n",
			(unsigned long long)lost);
	if (!c->quiet)
		fprintf(stderr, "[ pmc record: wrote %llu samples (%llu lost), %.3f MB to %s ]\n",
			(unsigned long long)pmc_record__nr_samples(rec), (unsigned long long)lost,
			(double)pmc_record__bytes(rec) / 1e6, pmc_record__output(rec));
}

/*
 * Errors that writing the output gives (a full disk, a file size limit, a FIFO nobody reads,
 * ...): said as every command says them (cli_say_unwritable). ENOSPC is also the kernel's
 * answer when no breakpoint slot is left: an open that the probes explain is theirs.
 */
static bool output_error(int err)
{
	return err == -ENOSPC || err == -EFBIG || err == -EDQUOT || err == -EIO || err == -EBADF ||
	       err == -PMC_E_NOREADER || err == -PMC_E_OLDDIR || err == -PMC_E_UNSAFELINK;
}

/*
 * A refusal is said with the rule that refused, as the backend's probes find it now; an error
 * they do not reproduce is said as it is, blaming nothing else, the output's as the output's.
 */
static int record_open_error(const struct record_cli *c, struct pmc_evlist *el, int err)
{
	char why[1024];
	bool explained = !pmc_evlist__explain(el, &c->t, err, why, sizeof(why));

	if (!explained && output_error(err))
		return cli_say_unwritable("record", c->ro.output, err);
	fprintf(stderr, "pmc record: cannot start sampling: %s\n", pmc_strerror(err));
	if (explained)
		fprintf(stderr, "pmc record: %s; see 'pmc doctor'\n", why);
	if (err == -EOPNOTSUPP && !c->ro.period_jitter) /* else the backend said why */
		fprintf(stderr, "pmc record: a requested sample field (branch stack, precise ip, "
				"...) is not supported by this event here\n");
	return 1;
}

/*
 * Opens the recording (or, under --dry-run, describes its calls). Returns -1 with *rec open,
 * or the exit status (the failure said).
 */
static int open_recording(struct record_cli *c, struct pmc_evlist *el, struct pmc_record **rec)
{
	int err = pmc_record__open(el, &c->t, &c->ro, rec);

	if (err == -EMFILE && cli_raise_nofile())
		err = pmc_record__open(el, &c->t, &c->ro, rec);
	if (err == -EMFILE)
		cli_say_nofile("pmc record", pmc_evlist__nr(el));
	if (!err && c->dry_run) /* the calls are described; nothing is open */
		return fflush(stdout) || ferror(stdout) ? 1 : 0;
	if (err == -EOPNOTSUPP && c->dry_run && !c->ro.period_jitter) {
		fprintf(stderr,
			"pmc record: --dry-run: backend %s cannot describe its calls; only perf "
			"can\n",
			pmc_evlist__backend(el));
		return 1;
	}
	if (err == -PMC_E_EXEC) /* the command cannot be started: said by libpmc */
		return 127;
	if (err == -EPIPE)
		fprintf(stderr, "pmc record: cannot write %s: its reader closed it (broken pipe)\n",
			cli_show(c->ro.output));
	if (err)
		return err == -EPIPE ? 1 : record_open_error(c, el, err);
	return -1;
}

/* Says why a started recording failed. */
static void say_run_error(struct pmc_record *rec, int err)
{
	if (err == -EPIPE) /* the command was ended (libpmc): said below, with its status */
		fprintf(stderr, "pmc record: cannot write %s: its reader closed it (broken pipe)\n",
			cli_show(pmc_record__output(rec)));
	else if (output_error(err))
		cli_say_unwritable("record", pmc_record__output(rec), err);
	else
		fprintf(stderr, "pmc record: %s\n", pmc_strerror(err));
}

static int run(struct record_cli *c, struct pmc_evlist *el)
{
	struct pmc_record *rec;
	int err, status = 0, rc = open_recording(c, el, &rec);

	if (rc >= 0)
		return rc;
	active = rec;
	err = pmc_record__start(rec);
	if (err == -PMC_E_EXEC) {
		rc = 127;
		goto out;
	}
	/* Under -v, a script that starts a workload after pmc knows when sampling began. */
	if (!err && c->verbose)
		fprintf(stderr, "pmc record: sampling started\n");
	if (got_signal && pmc_record__child_pid(rec) > 0)
		pmc_record__kill(rec, got_signal);
	else if (got_signal)
		pmc_record__stop(rec);
	if (!err)
		err = pmc_record__run(rec, &status);
	if (!err)
		err = pmc_record__finish(rec);
	if (err) {
		say_run_error(rec, err);
		if (has_command(c) && WIFSIGNALED(status))
			exit_status(c, status);
		rc = 1;
		goto out;
	}
	summary(c, rec);
	if (got_signal && (has_command(c) || got_signal != SIGINT))
		fprintf(stderr, "pmc record: stopped early: %s\n", cli_signame(got_signal));
	rc = exit_status(c, status);
	if (!has_command(c) && got_signal)
		rc = 0; /* Ctrl-C is how -p/-a recordings without a command end */
out:
	active = NULL;
	pmc_record__delete(rec);
	return rc;
}

static int cmd_record_run(struct record_cli *c)
{
	struct sigaction sa = {.sa_handler = on_signal};
	struct pmc_evlist *el = NULL;
	int rc;

	/*
	 * Handlers first: a Ctrl-C while pmc starts up (-a synthesizes every process from /proc)
	 * ends the recording as soon as it is open, rather than killing pmc before it writes.
	 * They stay until pmc exits: a second SIGINT (a terminal's to the process group, as
	 * timeout(1) sends too) must not turn a finished recording's exit status into 130.
	 */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/*
	 * A hang-up (the terminal closed) ends the recording the same way, so that the file is
	 * finished and the command does not run on re-parented; pmc's own messages may then find
	 * no terminal, which is no reason to stop.
	 */
	sigaction(SIGHUP, &sa, NULL);
	/* A reader of -o - or a FIFO that goes away is a write error (EPIPE), said as such. */
	signal(SIGPIPE, SIG_IGN);
	rc = build_evlist(c, &el);
	if (!rc)
		rc = run(c, el);
	pmc_evlist__delete(el);
	return rc;
}

/*
 * Jittered periods depend on the seed: the file's command line names it even when it was left
 * to its default, so that the recording says how to repeat it. *stored is NULL or the argv
 * made (its strings but the seed's are argv's).
 */
static int provenance(struct record_cli *c, int argc, char **argv, char ***stored)
{
	char **v;

	*stored = NULL;
	if (!c->ro.period_jitter || c->ro.seed)
		return 0;
	c->ro.seed = DEFAULT_SEED;
	v = calloc((size_t)argc + 2, sizeof(*v));
	if (!v || asprintf(&v[1], "--seed=%d", DEFAULT_SEED) < 0) {
		free(v);
		return 1;
	}
	v[0] = argv[0];
	memcpy(v + 2, argv + 1, (size_t)(argc - 1) * sizeof(*v));
	c->ro.argc = argc + 1;
	c->ro.argv = v;
	*stored = v;
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct record_cli c = {
		.ro = {.sz = sizeof(c.ro), .argc = argc, .argv = argv},
		.t = {.sz = sizeof(c.t), .kind = PMC_TARGET_COMMAND, .child_fd = -1},
	};
	char **stored = NULL;
	int rc = record_parse_args(&c, argc, argv);

	if (!rc)
		rc = provenance(&c, argc, argv, &stored);
	/* record_parse_args() may have taken events before a later value was refused. */
	if (!rc)
		rc = cmd_record_run(&c);
	if (stored)
		free(stored[1]);
	free(stored);
	free(c.events);
	return rc < 0 ? 0 : rc;
}
