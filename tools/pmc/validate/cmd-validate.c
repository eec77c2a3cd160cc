// SPDX-License-Identifier: MIT
/*
 * pmc validate: the accuracy method of docs/accuracy.md as a command. Each kernel of
 * pmc-kernels runs at several sizes and repetitions through the library's runner, counting
 * the events it predicts; each event's counts are fitted against the predictions and
 * classified (exact, bias, multiplicative, random, unknown, unsupported).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "common/cli.h"
#include "validate.h"

enum {
	O_BACKEND = CLI_LONG_ONLY,
	O_KERNEL,
	O_QUICK,
	O_FORMAT,
	O_TRUST,
	O_MODE,
	O_SEEDS,
	O_SKID,
	O_USER,
	O_KERNEL_LEVEL,
	O_DRY_RUN
};

static const struct cli_opt options[] = {
	{"backend", O_BACKEND, "NAME", CLI_V_CHOICES, "perf vpmu", "perf (default) or vpmu",
	 CLI_STR(struct validate_opts, backend)},
	{"event", 'e', "EVENTS", CLI_V_EVENTS, NULL,
	 "only these of the kernels' events, comma-separated (default: every event a kernel "
	 "predicts); repeatable",
	 CLI_CALL},
	{"kernel", O_KERNEL, "K,...", CLI_V_NONE, NULL,
	 "only these kernels: loop, inline, rep, fp, syscall, breakpoint, array-l1, array-l2, "
	 "array-llc, array-mem (vpmu), chase-l1, chase-l2, chase-llc, chase-mem (perf) "
	 "(default: all of the backend's)",
	 CLI_STR(struct validate_opts, kernels_arg)},
	{"quick", O_QUICK, NULL, CLI_V_NONE, NULL,
	 "the quick plan: fewer sizes, one repetition (docs/accuracy.md)",
	 CLI_TRUE(struct validate_opts, quick)},
	{"repeat", 'r', "N", CLI_V_NONE, NULL, "repetitions at each size (default 3, --quick 1)",
	 CLI_INT(struct validate_opts, repeat, 1, 1000, "1 to 1000 repetitions")},
	{"output", 'o', "FILE", CLI_V_FILE, NULL, "write the results to FILE, whole or not at all",
	 CLI_STR(struct validate_opts, output)},
	{"format", O_FORMAT, "FORMAT", CLI_V_CHOICES, "text csv json",
	 "text (a table, the default), csv or json (schema pmc-validate/1)",
	 CLI_CHOICE(struct validate_opts, fmt)},
	{"trust", O_TRUST, "FILE", CLI_V_FILE, NULL,
	 "merge the verdicts into this trust file, which pmc stat reads (default: this "
	 "machine's; 'none': no file)",
	 CLI_STR(struct validate_opts, trust)},
	{"mode", O_MODE, "MODE", CLI_V_CHOICES, "counting sampling",
	 "counting (the default) or sampling: k*S estimates at several periods against the "
	 "count (default kernel: loop)",
	 CLI_CALL},
	{"seeds", O_SEEDS, "N", CLI_V_NONE, NULL,
	 "sampling: runs a period, seeds 1 to N under vpmu (default 10, --quick 3)",
	 CLI_INT(struct validate_opts, seeds, 1, 1000, "1 to 1000 seeds")},
	{"skid", O_SKID, "N", CLI_V_NONE, NULL,
	 "sampling under vpmu: the imprecise run's skid in instructions (default 3)",
	 CLI_INT(struct validate_opts, skid, 1, 4096, "1 to 4096 instructions")},
	{"user", O_USER, NULL, CLI_V_NONE, NULL,
	 "count user level for events without :u/:k (the default, as pmc stat's)", CLI_CALL},
	{"kernel-level", O_KERNEL_LEVEL, NULL, CLI_V_NONE, NULL,
	 "count kernel level for events without :u/:k (with --user: both, as pmc stat --user "
	 "--kernel); each level's verdicts are kept apart in the trust file",
	 CLI_CALL},
	{"dry-run", O_DRY_RUN, NULL, CLI_V_NONE, NULL,
	 "measure nothing: print each kernel's events and the perf_event_open calls that count "
	 "them, as pmc stat --dry-run does (-vv: with their attrs)",
	 CLI_TRUE(struct validate_opts, dry_run)},
	{"verbose", 'v', NULL, CLI_V_NONE, NULL, "with --dry-run: -vv prints the attrs",
	 CLI_COUNT(struct validate_opts, verbose)},
	{"help", 'h', NULL, CLI_V_NONE, NULL, "this text", CLI_SHOW_HELP},
	{0},
};

const struct cli_cmd cmd_validate_doc = {
	.name = "validate",
	.summary = "check what the counters report against kernels with known counts",
	.synopsis = "[options]",
	.about = "Runs validation kernels whose counts follow from their construction (a loop, "
		 "straight-line code, a REP string instruction, floating point, system calls, "
		 "writes to a watched variable) at several sizes, counts the events each predicts "
		 "on the chosen backend, fits reported = factor x predicted + overhead, and gives "
		 "each event a class: exact, bias, multiplicative, random, unknown or "
		 "unsupported (docs/accuracy.md). With --mode=sampling, it compares k*S "
		 "estimates at several periods with the counted value instead.",
	.opts = options,
	.operands = CLI_V_NONE,
};

static int bad_usage(const char *what, const char *arg)
{
	fprintf(stderr, "pmc validate: %s, not '%s'\nsee 'pmc validate --help'\n", what,
		cli_show(arg));
	return 2;
}

/* The options without a target in the table (cli_parse()'s callback). */
static int apply(void *opts, int c, const char *arg)
{
	struct validate_opts *o = opts;
	char **ev;

	switch (c) {
	case 'e':
		ev = realloc(o->events, (o->nr_events + 1) * sizeof(*ev));
		if (!ev)
			return 1;
		o->events = ev;
		o->events[o->nr_events++] = (char *)arg;
		return 0;
	case O_MODE:
		if (strcmp(arg, "counting") && strcmp(arg, "sampling"))
			return bad_usage("--mode is counting or sampling", arg);
		o->sampling = !strcmp(arg, "sampling");
		return 0;
	case O_USER:
		o->priv |= PMC_PRIV_USER;
		return 0;
	case O_KERNEL_LEVEL:
		o->priv |= PMC_PRIV_KERNEL;
		return 0;
	default:
		return 2;
	}
}

static int parse_args(int argc, char **argv, struct validate_opts *o)
{
	int first, rc;

	*o = (struct validate_opts){0};
	rc = cli_parse(&cmd_validate_doc, argc, argv, o, apply, &first);
	if (rc)
		return rc;
	if (first < argc)
		return bad_usage("takes no operands", argv[first]);
	if (!o->priv)
		o->priv = PMC_PRIV_USER;
	if (!o->repeat)
		o->repeat = o->quick ? 1 : 3;
	if (!o->seeds)
		o->seeds = o->quick ? 3 : 10;
	if (!o->skid)
		o->skid = 3;
	if (o->sampling && !o->kernels_arg)
		o->kernels_arg = "loop";
	return 0;
}

/* Is name one of the comma-separated words of list? (list is not changed) */
static bool in_list(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, name, len) && (p[len] == ',' || !p[len]))
			return true;
	return false;
}

/* Each word of list must name a known kernel (kinds 'k') or event ('e'), else exit 2. */
static int check_names(const struct pmc_validate *v, const char *list, bool kernels)
{
	const char *cands[256];
	size_t nr = 0;
	char *copy = strdup(list), *save = NULL;
	int rc = 0;

	for (size_t i = 0; i < pmc_validate__nr_rows(v) && nr < 256; i++) {
		/* an event is asked for by its name here or by the kernel's quantity */
		for (int q = 0; q < (kernels ? 1 : 2) && nr < 256; q++) {
			const struct pmc_validate_row *r = pmc_validate__row(v, i);
			const char *n = kernels ? r->kernel : q ? r->quantity : r->event;
			bool seen = false;

			for (size_t k = 0; k < nr; k++)
				seen |= !strcmp(cands[k], n);
			if (!seen)
				cands[nr++] = n;
		}
	}
	for (char *w = strtok_r(copy, ",", &save); w && !rc; w = strtok_r(NULL, ",", &save)) {
		struct pmc_parse_error err = {0};
		bool known = false;

		for (size_t k = 0; k < nr; k++)
			known |= !strcmp(cands[k], w);
		if (known)
			continue;
		pmc_suggest_names(&err, w, cands, nr);
		fprintf(stderr, "pmc validate: no %s '%s' in the validation kernels\n",
			kernels ? "kernel" : "event predicted by", cli_show(w));
		for (int s = 0; s < err.nr_suggest; s++)
			fprintf(stderr, "  did you mean '%s'?\n", cli_show(err.suggest[s]));
		fprintf(stderr, "the %s: ", kernels ? "kernels" : "events");
		for (size_t k = 0; k < nr; k++)
			fprintf(stderr, "%s%s", k ? ", " : "", cands[k]);
		fputc('\n', stderr);
		rc = 2;
	}
	free(copy);
	return rc;
}

/* A kernel asked for that is another backend's (array-* under vpmu, chase-* on perf): exit 2. */
static int other_backend(const struct pmc_validate *v, const struct validate_opts *o)
{
	char *copy = strdup(o->kernels_arg), *save = NULL;
	int rc = copy ? 0 : 1;

	for (char *w = strtok_r(copy, ",", &save); w && !rc; w = strtok_r(NULL, ",", &save)) {
		bool kept = false;

		for (size_t i = 0; i < pmc_validate__nr_rows(v); i++)
			kept |= !strcmp(pmc_validate__row(v, i)->kernel, w);
		if (!kept) {
			fprintf(stderr,
				"pmc validate: kernel '%s' is not for the %s backend (array-* are "
				"vpmu's, chase-* perf's)\nsee 'pmc validate --help'\n",
				cli_show(w), o->backend ? o->backend : "perf");
			rc = 2;
		}
	}
	free(copy);
	return rc;
}

/* Is row r of a kernel and an event asked for? */
static bool asked_for(const struct pmc_validate_row *r, void *arg)
{
	const struct validate_opts *o = arg;
	bool ev = !o->nr_events;

	for (size_t k = 0; k < o->nr_events; k++)
		ev |= in_list(o->events[k], r->event) || in_list(o->events[k], r->quantity);
	return ev && (!o->kernels_arg || in_list(o->kernels_arg, r->kernel));
}

/* Keeps the rows of the kernels and events asked for, for the backend in use. */
static int select_rows(struct pmc_validate *v, struct validate_opts *o)
{
	int rc = o->kernels_arg ? check_names(v, o->kernels_arg, true) : 0;

	for (size_t i = 0; !rc && i < o->nr_events; i++)
		rc = check_names(v, o->events[i], false);
	if (rc)
		return rc;
	pmc_validate__select(v, asked_for, o);
	return o->kernels_arg ? other_backend(v, o) : 0;
}

/*
 * -o FILE, opened (a temporary file beside it) only when the results are there to write, so
 * that a run stopped by a signal (SIGTERM, Ctrl-C) leaves none behind; stdout otherwise.
 */
static int open_output(const struct validate_opts *o, struct pmc_outfile **out, FILE **f)
{
	int err;

	*out = NULL;
	*f = stdout;
	if (!o->output || !strcmp(o->output, "-"))
		return 0;
	err = pmc_outfile__open(o->output, out);
	if (err)
		return cli_say_unwritable("validate", o->output, err);
	*f = pmc_outfile__stream(*out);
	return 0;
}

/*
 * Whether -o FILE can be written, said before the runs rather than after them, without
 * opening it (a FIFO's reader would see an end of file).
 */
static int probe_output(const struct validate_opts *o)
{
	int err;

	if (!o->output || !strcmp(o->output, "-"))
		return 0;
	err = pmc_outfile__check(o->output, NULL);
	return err ? cli_say_unwritable("validate", o->output, err) : 0;
}

/*
 * -o's file committed, or abandoned when rc says the run failed (1) or its writing did
 * (-EIO: the reason is the file's own error where it had one, ENOSPC). Returns the exit code.
 */
static int finish_output(struct pmc_outfile *out, const char *output, int rc)
{
	if (rc == -EIO)
		return out ? cli_say_unwritable("validate", output, pmc_outfile__fail(out, rc)) : 1;
	if (rc) {
		pmc_outfile__abort(out);
		return rc;
	}
	rc = out ? pmc_outfile__commit(out) : 0;
	return rc ? cli_say_unwritable("validate", output, rc) : 0;
}

static void progress(const struct pmc_validate_progress *p, void *arg)
{
	(void)arg;
	if (p->event)
		fprintf(stderr, "pmc validate: sampling %s on %s %ld (%d seeds x %d periods)\n",
			p->event, p->kernel, p->size, p->seeds, p->periods);
	else
		fprintf(stderr, "pmc validate: %s %ld (%d repetition%s)\n", p->kernel, p->size,
			p->repeat, p->repeat > 1 ? "s" : "");
}

/* Sampling mode: each row counted at its kernel's largest size, then recorded. 0 or 1. */
static int sampling(const struct validate_opts *o, struct pmc_validate *v)
{
	struct pmc_validate_sampling_opts so = {
		.sz = sizeof(so), .seeds = o->seeds, .skid = o->skid};
	int err = pmc_validate__count(v);

	if (!err)
		err = pmc_validate__sample(v, &so);
	if (err)
		fprintf(stderr, "pmc validate: %s\n", pmc_validate__why(v));
	return err ? 1 : 0;
}

/* The kernels' plan for o, selected. Returns 0, or the exit code with a message. */
static int plan(struct validate_opts *o, struct pmc_validate **v)
{
	struct pmc_validate_opts vo = {.sz = sizeof(vo),
				       .backend = o->backend,
				       .priv = o->priv,
				       .level = 0.95,
				       .repeat = o->sampling ? 1 : o->repeat,
				       .quick = o->quick,
				       .largest_only = o->sampling,
				       .progress = progress};
	char why[512];
	int err = pmc_validate__new(&vo, v, why, sizeof(why));

	if (err) {
		fprintf(stderr, "pmc validate: %s\n", *why ? why : pmc_strerror(err));
		return 1;
	}
	return select_rows(*v, o);
}

/* The trust file (--trust, else this machine's) made ready before anything runs. */
static int check_trust(const struct validate_opts *o)
{
	char *def = o->trust ? NULL : pmc_trust_default_path(), why[512] = "";
	int err;

	if (o->trust && !strcmp(o->trust, "none"))
		return 0;
	err = o->trust || def ? pmc_data_file_prepare(o->trust ? o->trust : def, why, sizeof(why))
			      : -ENOMEM;
	if (err)
		fprintf(stderr, "pmc validate: the trust file: %s; nothing was measured\n",
			*why ? why : pmc_strerror(err));
	free(def);
	return err ? 1 : 0;
}

/* Merges the verdicts into the trust file (--trust, else this machine's), said on stderr. */
static int save_trust(const struct validate_opts *o, struct pmc_validate *v)
{
	char *def = o->trust ? NULL : pmc_trust_default_path();
	const char *path = o->trust ? o->trust : def;
	int err;

	if (o->trust && !strcmp(o->trust, "none"))
		return 0;
	err = path ? pmc_validate__save_trust(v, path) : -ENOMEM;
	if (err == -ENOSPC)
		fprintf(stderr,
			"pmc validate: no space left on the trust file's %s; it is left as it "
			"was\n",
			path);
	else if (err)
		fprintf(stderr, "pmc validate: cannot write the trust file %s: %s\n",
			path ? path : "(this machine's)", pmc_strerror(err));
	else
		fprintf(stderr, "pmc validate: verdicts written to the trust file %s\n", path);
	free(def);
	return err ? 1 : 0;
}

/* Counting mode's runs and fit; the results to f. Returns 0, 1, or -EIO. */
static int counting(const struct validate_opts *o, struct pmc_validate *v, struct pmc_outfile **out,
		    FILE **f)
{
	int rc = pmc_validate__count(v);

	if (rc) {
		fprintf(stderr, "pmc validate: %s\n", pmc_validate__why(v));
		return 1;
	}
	pmc_validate__fit(v);
	rc = open_output(o, out, f);
	if (rc)
		return rc;
	if (o->fmt == VALIDATE_TEXT)
		return validate_write_text(*f, v) ? -EIO : 0;
	return pmc_validate__write(v, *f,
				   o->fmt == VALIDATE_CSV ? PMC_VALIDATE_FORMAT_CSV
							  : PMC_VALIDATE_FORMAT_JSON)
		       ? -EIO
		       : 0;
}

int cmd_validate(int argc, char **argv)
{
	struct validate_opts o;
	struct pmc_validate *v = NULL;
	struct pmc_outfile *out = NULL;
	FILE *f = stdout;
	int rc = parse_args(argc, argv, &o);

	if (!rc)
		rc = plan(&o, &v);
	if (!rc && o.dry_run) {
		rc = pmc_validate__dry_run(v, stdout, o.verbose >= 2);
		if (rc)
			fprintf(stderr, "pmc validate: %s\n", pmc_validate__why(v));
		rc = rc || fflush(stdout) || ferror(stdout) ? 1 : 0;
		pmc_validate__delete(v);
		free(o.events);
		return rc;
	}
	if (!rc && !o.sampling)
		rc = check_trust(&o);
	if (!rc)
		rc = probe_output(&o);
	if (!rc && o.sampling) {
		rc = sampling(&o, v);
		if (!rc)
			rc = open_output(&o, &out, &f);
		if (!rc && validate_sampling_write(f, &o, v))
			rc = -EIO;
	} else if (!rc) {
		rc = counting(&o, v, &out, &f);
	}
	rc = finish_output(out, o.output, rc);
	if (!out && !rc && (fflush(stdout) || ferror(stdout)))
		rc = 1;
	if (!rc && !o.sampling)
		rc = save_trust(&o, v);
	pmc_validate__delete(v);
	free(o.events);
	return rc < 0 ? 0 : rc;
}
