// SPDX-License-Identifier: MIT
/*
 * pmc calibrate: what measuring costs on this machine, per event and backend (the thesis's
 * Appendix D): an empty region pair, a read, a start/stop, and the counts an empty program
 * adds under pmc stat. Results go to this machine's calibration file (docs/accuracy.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "calib.h"
#include "common/cli.h"

static const char *const default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles",     "instructions",	  "branches",	    "branch-misses",
};

struct calib_opts {
	struct pmc_calibrate_opts p;
	const char **events;
	size_t nr_events;
	const char *output;
	char *empty_argv[2];
	char *helper;
};

/* Empty regions entered after the first one, in each run of pmc-calibrate-regions. */
#define REGION_ENTRIES 100

enum { O_EMPTY = CLI_LONG_ONLY, O_USER, O_KERNEL, O_BACKEND, O_SET };

static const struct cli_opt options[] = {
	{"event", 'e', "EVENTS", CLI_V_EVENTS, NULL,
	 "events to calibrate (default: pmc stat's defaults that can be counted here); "
	 "repeatable",
	 CLI_CALL},
	{"samples", 'n', "N", CLI_V_NONE, NULL, "timed samples per distribution (default 2000)",
	 CLI_CALL},
	{"runs", 'r', "N", CLI_V_NONE, NULL,
	 "runs of the empty program and of the empty-region program (default 20)", CLI_CALL},
	{"empty", O_EMPTY, "PROGRAM", CLI_V_PROGRAM, NULL, "the empty program (default: true)",
	 CLI_STR(struct calib_opts, empty_argv[0])},
	{"user", O_USER, NULL, CLI_V_NONE, NULL,
	 "count user level for events without :u/:k (the default)", CLI_CALL},
	{"kernel", O_KERNEL, NULL, CLI_V_NONE, NULL,
	 "count kernel level for events without :u/:k (with --user: both)", CLI_CALL},
	{"backend", O_BACKEND, "NAME", CLI_V_CHOICES, "perf vpmu", "perf (default) or vpmu",
	 CLI_STR(struct calib_opts, p.backend)},
	{"output", 'o', "FILE", CLI_V_FILE, NULL,
	 "calibration file (default: this machine's; - for stdout)",
	 CLI_STR(struct calib_opts, output)},
	{"set", O_SET, NULL, CLI_V_NONE, NULL,
	 "calibrate the events as one set: each one's region costs as counted beside the "
	 "others, which pmc stat --subtract-overhead uses when it counts exactly these events "
	 "(counts only, no times)",
	 CLI_TRUE(struct calib_opts, p.set)},
	{"help", 'h', NULL, CLI_V_NONE, NULL, "this text", CLI_SHOW_HELP},
	{0},
};

const struct cli_cmd cmd_calibrate_doc = {
	.name = "calibrate",
	.summary = "measure what measuring costs on this machine",
	.synopsis = "[options]",
	.about = "Measures what measuring costs, per event: an empty region (begin/end pair) in "
		 "counts and nanoseconds, a process's first region entry, a counter read, a "
		 "start/stop, and the counts an empty "
		 "program adds under pmc stat. Writes this machine's calibration file, used by "
		 "'pmc stat --subtract-overhead'.",
	.opts = options,
	.operands = CLI_V_NONE,
	.stop_at_operand = true,
};

static int bad_usage(const char *what, const char *arg)
{
	fprintf(stderr, "pmc calibrate: %s, not '%s'\nsee 'pmc calibrate --help'\n", what,
		cli_show(arg));
	return 2;
}

/* The options without a target in the table (cli_parse()'s callback). */
static int apply(void *opts, int c, const char *arg)
{
	struct calib_opts *o = opts;
	char *end;
	long n;

	switch (c) {
	case 'e': {
		const char **ev = realloc(o->events, (o->nr_events + 1) * sizeof(*ev));

		if (!ev)
			return 1;
		o->events = ev;
		o->events[o->nr_events++] = arg;
		return 0;
	}
	case 'n':
	case 'r':
		n = strtol(arg, &end, 10);
		if (*end || n < 1 || n > 10000000)
			return bad_usage("-n and -r want a number >= 1", arg);
		if (c == 'n')
			o->p.samples = (size_t)n;
		else
			o->p.runs = (int)n;
		return 0;
	case O_USER:
		o->p.priv |= PMC_PRIV_USER;
		return 0;
	case O_KERNEL:
		o->p.priv |= PMC_PRIV_KERNEL;
		return 0;
	default:
		return 2;
	}
}

static int parse_args(int argc, char **argv, struct calib_opts *o)
{
	int first, rc;

	*o = (struct calib_opts){.p = {.sz = sizeof(o->p),
				       .samples = 2000,
				       .warmup = 200,
				       .runs = 20,
				       .region_entries = REGION_ENTRIES,
				       .message = calib_message}};
	o->empty_argv[0] = "true";
	rc = cli_parse(&cmd_calibrate_doc, argc, argv, o, apply, &first);
	if (rc)
		return rc;
	if (first < argc)
		return bad_usage("takes no command", argv[first]);
	o->p.priv = o->p.priv ? o->p.priv : PMC_PRIV_USER;
	o->p.empty_argv = o->empty_argv;
	return 0;
}

/*
 * The events to calibrate, parsed here first so that one that does not parse is said with
 * its place (exit 2); the library parses them again and skips those that cannot be counted.
 */
static int build(const struct calib_opts *o, struct pmc_evlist **out)
{
	struct pmc_evlist_opts eo = {.sz = sizeof(eo), .backend = o->p.backend, .priv = o->p.priv};
	struct pmc_parse_error perr;
	size_t n = o->nr_events ? o->nr_events : sizeof(default_events) / sizeof(*default_events);
	int err = pmc_evlist__new(&eo, out);

	for (size_t i = 0; i < n && !err; i++) {
		const char *s = o->nr_events ? o->events[i] : default_events[i];

		err = pmc_evlist__parse(*out, s, &perr);
		if (err == -PMC_E_PARSE || err == -PMC_E_UNKNOWN_EVENT) {
			cli_print_parse_error("pmc calibrate", s, &perr);
			return 2;
		}
	}
	if (err) {
		fprintf(stderr, "pmc calibrate: %s\n", pmc_strerror(err));
		return 1;
	}
	return 0;
}

#ifndef PMC_CALIB_HELPER_BUILD
#define PMC_CALIB_HELPER_BUILD ""
#define PMC_CALIB_HELPER_FROM_BINDIR ""
#endif

/*
 * pmc-calibrate-regions: in the install tree, relative to this program's folder (any prefix,
 * a moved tree), else in the build tree. NULL with a message when neither has it.
 */
static char *find_helper(void)
{
	char self[4096], *slash, *path = NULL;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n > 0 && *PMC_CALIB_HELPER_FROM_BINDIR) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash)
			*slash = '\0';
		if (asprintf(&path, "%s/%s", self, PMC_CALIB_HELPER_FROM_BINDIR) < 0)
			path = NULL;
		if (path && access(path, X_OK) == 0)
			return path;
		free(path);
	}
	if (*PMC_CALIB_HELPER_BUILD && access(PMC_CALIB_HELPER_BUILD, X_OK) == 0)
		return strdup(PMC_CALIB_HELPER_BUILD);
	fprintf(stderr, "pmc calibrate: pmc-calibrate-regions, the program empty regions are "
			"measured in, is not installed beside this pmc (libexec/pmc) nor built; "
			"reinstall pmc\n");
	return NULL;
}

int cmd_calibrate(int argc, char **argv)
{
	struct calib_opts o;
	struct pmc_evlist *l = NULL;
	struct pmc_calibrate *c = NULL;
	int rc = parse_args(argc, argv, &o), err;

	if (!rc)
		rc = calib_check_output(o.output);
	if (!rc)
		rc = build(&o, &l);
	if (!rc && !(o.helper = find_helper()))
		rc = 1;
	o.p.regions_program = o.helper;
	o.p.events = o.nr_events ? o.events : default_events;
	o.p.nr_events =
		o.nr_events ? o.nr_events : sizeof(default_events) / sizeof(*default_events);
	if (!rc) {
		err = pmc_calibrate__new(&o.p, &c);
		if (err)
			fprintf(stderr, "pmc calibrate: %s\n", pmc_strerror(err));
		rc = err ? 1 : pmc_calibrate__measure(c) ? 1 : 0;
	}
	if (!rc) {
		calib_print(stdout, pmc_calibrate__results(c));
		rc = calib_save(o.output, c) ? 1 : 0;
	}
	pmc_calibrate__delete(c);
	pmc_evlist__delete(l);
	free(o.events);
	free(o.helper);
	return rc < 0 ? 0 : rc;
}
