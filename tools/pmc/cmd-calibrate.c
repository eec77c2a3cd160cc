// SPDX-License-Identifier: MIT
/*
 * pmc calibrate: what measuring costs on this machine, per event and backend (the thesis's
 * Appendix D): an empty region pair, a read, a start/stop, and the counts an empty program
 * adds under pmc stat. Results go to this machine's calibration file (docs/accuracy.md).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "calib-measure.h"
#include "cli.h"

static const char *const default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles",     "instructions",	  "branches",	    "branch-misses",
};

struct calib_opts {
	struct calib_params p;
	const char **events;
	size_t nr_events;
	const char *output;
	bool set; /* --set: the events calibrated as one set */
	char *empty_argv[2];
	char *regions_argv[3];
	char *helper;
};

/* Empty regions entered after the first one, in each run of pmc-calibrate-regions. */
#define REGION_ENTRIES "100"

enum { O_EMPTY = CLI_LONG_ONLY, O_USER, O_KERNEL, O_BACKEND, O_SET };

static const struct cli_opt options[] = {
	{"event", 'e', "EVENTS", CLI_V_EVENTS, NULL,
	 "events to calibrate (default: pmc stat's defaults that can be counted here); "
	 "repeatable"},
	{"samples", 'n', "N", CLI_V_NONE, NULL, "timed samples per distribution (default 2000)"},
	{"runs", 'r', "N", CLI_V_NONE, NULL,
	 "runs of the empty program and of the empty-region program (default 20)"},
	{"empty", O_EMPTY, "PROGRAM", CLI_V_PROGRAM, NULL, "the empty program (default: true)"},
	{"user", O_USER, NULL, CLI_V_NONE, NULL,
	 "count user level for events without :u/:k (the default)"},
	{"kernel", O_KERNEL, NULL, CLI_V_NONE, NULL,
	 "count kernel level for events without :u/:k (with --user: both)"},
	{"backend", O_BACKEND, "NAME", CLI_V_CHOICES, "perf vpmu", "perf (default) or vpmu"},
	{"output", 'o', "FILE", CLI_V_FILE, NULL,
	 "calibration file (default: this machine's; - for stdout)"},
	{"set", O_SET, NULL, CLI_V_NONE, NULL,
	 "calibrate the events as one set: each one's region costs as counted beside the "
	 "others, which pmc stat --subtract-overhead uses when it counts exactly these events "
	 "(counts only, no times)"},
	{"help", 'h', NULL, CLI_V_NONE, NULL, "this text"},
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

static int apply(struct calib_opts *o, int c, char *arg)
{
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
	case O_EMPTY:
		o->empty_argv[0] = arg;
		return 0;
	case O_USER:
		o->p.priv |= PMC_PRIV_USER;
		return 0;
	case O_KERNEL:
		o->p.priv |= PMC_PRIV_KERNEL;
		return 0;
	case O_BACKEND:
		o->p.backend = arg;
		return 0;
	case 'o':
		o->output = arg;
		return 0;
	case O_SET:
		o->set = true;
		return 0;
	default:
		return 2;
	}
}

static int parse_args(int argc, char **argv, struct calib_opts *o)
{
	int c, rc;

	*o = (struct calib_opts){.p = {.samples = 2000, .warmup = 200, .runs = 20}};
	o->empty_argv[0] = "true";
	optind = 0;
	while ((c = cli_getopt(&cmd_calibrate_doc, argc, argv)) != -1) {
		if (c == 'h') {
			cli_usage(&cmd_calibrate_doc, stdout);
			return -1;
		}
		if (c == '?')
			return 2;
		rc = apply(o, c, optarg);
		if (rc)
			return rc;
	}
	if (optind < argc)
		return bad_usage("takes no command", argv[optind]);
	o->p.priv = o->p.priv ? o->p.priv : PMC_PRIV_USER;
	o->p.empty_argv = o->empty_argv;
	return 0;
}

/* The events to calibrate: named ones must be countable; defaults are kept if they are. */
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

/* Runs the in-process measurements of event in a child and returns its JSON. */
static json_t *measure_child(const struct calib_params *p, const char *event)
{
	int fd[2], status;
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;
	pid_t pid;
	json_t *j;

	if (pipe(fd))
		return NULL;
	pid = pmc_fork(); /* it does not outlive a killed pmc */
	if (pid == 0) {
		int err;
		json_t *r = calib_measure_inprocess(p, event, &err);
		char *s = r ? json_dumps(r, JSON_COMPACT | JSON_REAL_PRECISION(17)) : NULL;

		close(fd[0]);
		if (!s)
			fprintf(stderr, "pmc calibrate: '%s': %s\n", cli_show(event),
				pmc_strerror(err));
		if (s && write(fd[1], s, strlen(s)) < 0)
			_exit(1);
		_exit(s ? 0 : 1);
	}
	close(fd[1]);
	while (pid > 0) {
		if (len + 4096 > cap) {
			char *b = realloc(buf, cap = cap ? 2 * cap : 65536);

			if (!b)
				break;
			buf = b;
		}
		n = read(fd[0], buf + len, cap - len - 1);
		if (n <= 0 && !(n < 0 && errno == EINTR))
			break;
		len += n > 0 ? (size_t)n : 0;
	}
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, &status, 0);
	j = buf && pid > 0 && WIFEXITED(status) && !WEXITSTATUS(status)
		    ? (buf[len] = '\0', json_loads(buf, 0, NULL))
		    : NULL;
	free(buf);
	return j;
}

int calib_empty_program(const struct calib_params *p, struct pmc_evlist *l, json_t **out);
json_t *calib_regions(const struct calib_params *p, const char *events);
int calib_check_output(const char *path);
int calib_save(const char *path, json_t *entries, const struct calib_params *p);
void calib_print(FILE *f, json_t *entries, const struct calib_params *p);

/*
 * event's region measurements: in a child of this process where the backend counts it (with
 * times), and in pmc-calibrate-regions under the runner (the first entry; every entry under
 * vpmu). NULL when either failed, said.
 */
static json_t *measure_event(const struct calib_params *p, const char *event)
{
	json_t *all = calib_regions(p, event), *r = json_object_get(all, event), *e;

	e = r && p->in_process ? measure_child(p, event) : json_object();
	if (!e || !r) {
		json_decref(e);
		json_decref(all);
		return NULL;
	}
	if (!json_object_get(e, "region_pair"))
		json_object_set(e, "region_pair", json_object_get(r, "region_pair"));
	json_object_set(e, "first_entry", json_object_get(r, "first_entry"));
	json_object_set(e, "named", json_object_get(r, "named"));
	json_decref(all);
	return e;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * --set: the events the empty program counted, measured together in pmc-calibrate-regions
 * (counts only): {name: {first_entry, region_pair, set}}, set being their names sorted. NULL,
 * said, on failure or when fewer than two can be counted here.
 */
static json_t *measure_set(const struct calib_params *p, struct pmc_evlist *l, json_t *empty)
{
	const char *names[64];
	size_t n = 0, len = 0;
	json_t *all = NULL, *set = json_array(), *v;
	char *list = NULL;
	const char *k;

	for (size_t i = 0; i < pmc_evlist__nr(l) && n < 64; i++)
		if (json_object_get(empty, pmc_evsel__name(pmc_evlist__at(l, i))))
			names[n++] = pmc_evsel__name(pmc_evlist__at(l, i));
	if (n < 2) {
		fprintf(stderr, "pmc calibrate: --set wants two or more events that can be "
				"counted here\n");
		json_decref(set);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		len += strlen(names[i]) + 1;
	list = calloc(1, len);
	for (size_t i = 0; list && i < n; i++)
		strcat(strcat(list, i ? "," : ""), names[i]);
	qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++)
		json_array_append_new(set, json_string(names[i]));
	all = list ? calib_regions(p, list) : NULL;
	json_object_foreach(all, k, v) json_object_set(v, "set", set);
	json_decref(set);
	free(list);
	return all;
}

int cmd_calibrate(int argc, char **argv)
{
	struct calib_opts o;
	struct pmc_evlist *l = NULL;
	json_t *entries = json_array(), *empty = NULL, *set = NULL;
	int rc = parse_args(argc, argv, &o);

	if (!rc)
		rc = calib_check_output(o.output);
	if (!rc)
		rc = build(&o, &l);
	if (!rc && !(o.helper = find_helper()))
		rc = 1;
	o.regions_argv[0] = o.helper;
	o.regions_argv[1] = REGION_ENTRIES;
	o.p.regions_argv = o.regions_argv;
	/* A backend that counts live counts this process; vpmu counts only under Valgrind. */
	o.p.in_process = !rc && pmc_evlist__counts_live(l);
	if (!rc && calib_empty_program(&o.p, l, &empty))
		rc = 1;
	if (!rc && o.set && !(set = measure_set(&o.p, l, empty)))
		rc = 1;
	for (size_t i = 0; !rc && i < pmc_evlist__nr(l); i++) {
		const char *name = pmc_evsel__name(pmc_evlist__at(l, i));
		json_t *e;

		if (!json_object_get(empty, name))
			continue; /* not countable here: said so while running the empty program */
		e = o.set ? json_incref(json_object_get(set, name)) : measure_event(&o.p, name);
		if (!e) {
			rc = 1;
			break;
		}
		json_object_set_new(e, "backend", json_string(pmc_evlist__backend(l)));
		json_object_set_new(e, "event", json_string(name));
		json_object_set_new(e, "priv", json_integer(o.p.priv));
		json_object_set(e, "empty_program", json_object_get(empty, name));
		json_array_append_new(entries, e);
	}
	if (!rc) {
		calib_print(stdout, entries, &o.p);
		rc = calib_save(o.output, entries, &o.p) ? 1 : 0;
	}
	json_decref(entries);
	json_decref(empty);
	json_decref(set);
	pmc_evlist__delete(l);
	free(o.events);
	free(o.helper);
	return rc < 0 ? 0 : rc;
}
