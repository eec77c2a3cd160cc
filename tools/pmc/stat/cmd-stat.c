// SPDX-License-Identifier: MIT
/* pmc stat: run_p5mon's runner — passes, warm-up, repetitions, confidence intervals. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include "common/cli.h"
#include "stat.h"

enum {
	O_NO_WARMUP = CLI_LONG_ONLY,
	O_PLAN,
	O_DRY_RUN,
	O_MULTIPLEX,
	O_NO_MERGE,
	O_CI,
	O_ALL,
	O_USER,
	O_KERNEL,
	O_FORMAT,
	O_CONFIG,
	O_BACKEND,
	O_SUBTRACT,
	O_CALIBRATION,
	O_TRUST,
	O_STRICT,
	O_NO_BIG_NUM,
	O_APPEND_OUT,
	O_LOG_FD,
	O_METRICS_FILE,
	O_TOPDOWN,
	O_TD_LEVEL,
	O_LIKWID_GROUP,
};

static const struct cli_opt options[] = {
	{"event", 'e', "EVENTS", CLI_V_EVENTS, NULL,
	 "events to count, comma-separated (pmc list; docs/events.md); repeatable", CLI_CALL},
	{"metrics", 'M', "METRICS", CLI_V_NONE, NULL,
	 "metrics and metric groups to compute, comma-separated (pmc list metrics), or one "
	 "defined as 'name = expression'; their events are counted too; repeatable",
	 CLI_CALL},
	{"metrics-file", O_METRICS_FILE, "FILE", CLI_V_FILE, NULL,
	 "metric definitions in perf's JSON schema (docs/metrics.md); repeatable", CLI_CALL},
	{"likwid-group", O_LIKWID_GROUP, "FILE|NAME", CLI_V_NONE, NULL,
	 "the metrics of a LIKWID performance group: its file, or its name in the installed "
	 "likwid's folder of this CPU's family (docs/metrics.md); repeatable",
	 CLI_CALL},
	{"topdown", O_TOPDOWN, NULL, CLI_V_NONE, NULL,
	 "the top-down metrics of level 1 (group TopdownL1), or of --td-level",
	 CLI_TRUE(struct stat_opts, metrics.topdown)},
	{"td-level", O_TD_LEVEL, "N", CLI_V_NONE, NULL,
	 "the top-down level of --topdown (group TopdownLN): a level that the metric files hold "
	 "for the backend and CPU ('pmc list metrics topdown' shows them); another is refused "
	 "with the levels that exist",
	 CLI_INT(struct stat_opts, metrics.td_level, 1, 9, "a top-down level, 1 to 9")},
	{"repeat", 'r', "N", CLI_V_NONE, NULL, "repetitions per pass (default 1)",
	 CLI_INT(struct stat_opts, repeat, 1, STAT_MAX_REPEAT,
		 "1 to " STAT_MAX_REPEAT_STR " repetitions")},
	{"no-warmup", O_NO_WARMUP, NULL, CLI_V_NONE, NULL, "skip the warm-up run",
	 CLI_TRUE(struct stat_opts, no_warmup)},
	{"plan", O_PLAN, NULL, CLI_V_NONE, NULL, "print the pass plan and exit",
	 CLI_TRUE(struct stat_opts, plan_only)},
	{"dry-run", O_DRY_RUN, NULL, CLI_V_NONE, NULL,
	 "print each perf_event_open call instead of making it, run nothing (-vv: with the "
	 "attr fields, as perf -vv)",
	 CLI_TRUE(struct stat_opts, dry_run)},
	{"multiplex", O_MULTIPLEX, NULL, CLI_V_NONE, NULL,
	 "count everything in one run, time-shared and scaled",
	 CLI_TRUE(struct stat_opts, multiplex)},
	{"no-merge", O_NO_MERGE, NULL, CLI_V_NONE, NULL,
	 "one line per PMU unit of an event that several units count (uncore_imc/x/: "
	 "uncore_imc_0/x/, ...); by default their values are summed in one line, as perf does",
	 CLI_TRUE(struct stat_opts, no_merge)},
	{"ci", O_CI, "LEVEL", CLI_V_NONE, NULL, "confidence level in percent (default 95)",
	 CLI_CALL},
	{"all-results", O_ALL, NULL, CLI_V_NONE, NULL, "show every repetition's value",
	 CLI_TRUE(struct stat_opts, all_results)},
	{"user", O_USER, NULL, CLI_V_NONE, NULL,
	 "count user level for events without :u/:k (the default; kernel-side events count "
	 "where they happen)",
	 CLI_CALL},
	{"kernel", O_KERNEL, NULL, CLI_V_NONE, NULL,
	 "count kernel level for events without :u/:k (with --user: both)", CLI_CALL},
	{"strict", O_STRICT, NULL, CLI_V_NONE, NULL,
	 "an event named with -e that cannot be counted here is an error (default: shown as "
	 "<not supported>, the rest counted)",
	 CLI_TRUE(struct stat_opts, strict)},
	{"output", 'o', "FILE", CLI_V_FILE, NULL,
	 "write the results to FILE (- for stdout); under an MPI launcher, %r in FILE is the rank, "
	 "%h the host, %p the pid, and a FILE without them is written as FILE.rank-%r "
	 "(docs/mpi.md)",
	 CLI_STR(struct stat_opts, output)},
	{"format", O_FORMAT, "FMT", CLI_V_CHOICES, "text csv json html",
	 "the results file: text (run_p5mon's), csv, json or html (one self-contained page); "
	 "without -o, on stderr",
	 CLI_CALL},
	{"field-separator", 'x', "SEP", CLI_V_NONE, NULL,
	 "print perf stat's CSV lines, fields separated by SEP (\\t: a tab), instead of the "
	 "summary",
	 CLI_CALL},
	{"json-output", 'j', NULL, CLI_V_NONE, NULL,
	 "print perf stat's JSON lines, one object per event, instead of the summary",
	 CLI_TRUE(struct stat_opts, json_lines)},
	{"big-num", 'B', NULL, CLI_V_NONE, NULL,
	 "thousands separators of LC_NUMERIC in the summary (the default)", CLI_CALL},
	{"no-big-num", O_NO_BIG_NUM, NULL, CLI_V_NONE, NULL,
	 "no thousands separators in the summary", CLI_CALL},
	{"append", O_APPEND_OUT, NULL, CLI_V_NONE, NULL,
	 "add -x/-j lines to -o's file instead of replacing it (whole runs, under a lock)",
	 CLI_TRUE(struct stat_opts, append)},
	{"log-fd", O_LOG_FD, "N", CLI_V_NONE, NULL,
	 "write the summary, or the -x/-j lines, to file descriptor N instead of stderr", CLI_CALL},
	{"config", O_CONFIG, "FILE", CLI_V_FILE, NULL,
	 "read 'key = value' options from FILE (the keys are the long options)", CLI_SKIP},
	{"pid", 'p', "PID", CLI_V_PID, NULL,
	 "count a running process until it exits or Ctrl-C; with a COMMAND, for as long as it "
	 "runs",
	 CLI_CALL},
	{"all-cpus", 'a', NULL, CLI_V_NONE, NULL,
	 "count on every CPU (system-wide), until Ctrl-C or for as long as COMMAND runs",
	 CLI_TRUE(struct stat_opts, system_wide)},
	{"cpu", 'C', "LIST", CLI_V_NONE, NULL, "count on these CPUs (\"0,2-3\")",
	 CLI_STR(struct stat_opts, cpus)},
	{"no-inherit", 'i', NULL, CLI_V_NONE, NULL,
	 "do not count the command's children and threads", CLI_TRUE(struct stat_opts, no_inherit)},
	{"tid", 't', "TIDS", CLI_V_NONE, NULL,
	 "count these running threads (comma-separated ids), each alone, until they end or "
	 "Ctrl-C; with a COMMAND, for as long as it runs",
	 CLI_STR(struct stat_opts, tids)},
	{"cgroup", 'G', "CGROUP", CLI_V_NONE, NULL,
	 "count only the tasks of CGROUP (its path under the cgroup2 mount) on the CPUs of -a or "
	 "-C",
	 CLI_STR(struct stat_opts, cgroup)},
	{"per-thread", O_PER_THREAD, NULL, CLI_V_NONE, NULL,
	 "values per thread too: of the command and its children (each found when it ends; "
	 "with -r 1), of -p's process, of -t's threads, or of every thread running (-a)",
	 CLI_CALL},
	{"no-aggr", 'A', NULL, CLI_V_NONE, NULL, "values per CPU too (with -a or -C)", CLI_CALL},
	{"per-core", O_PER_CORE, NULL, CLI_V_NONE, NULL,
	 "values per physical core too, as sysfs's topology groups the CPUs (with -a or -C)",
	 CLI_CALL},
	{"per-socket", O_PER_SOCKET, NULL, CLI_V_NONE, NULL,
	 "values per socket too (with -a or -C)", CLI_CALL},
	{"per-die", O_PER_DIE, NULL, CLI_V_NONE, NULL,
	 "values per die of each socket too (with -a or -C)", CLI_CALL},
	{"hybrid-merge", O_HYBRID_MERGE, NULL, CLI_V_NONE, NULL,
	 "on a hybrid machine, one line per generic event: its core types' counts summed",
	 CLI_TRUE(struct stat_opts, hybrid_merge)},
	{"cputype", O_CPUTYPE, "TYPE", CLI_V_NONE, NULL,
	 "on a hybrid machine, count generic events on core type TYPE only (core, atom, or a "
	 "core PMU's name)",
	 CLI_STR(struct stat_opts, cputype)},
	{"region-per-thread", O_REGION_PER_THREAD, NULL, CLI_V_NONE, NULL,
	 "regions: values per thread too (or PMC_PER_THREAD=1 in the environment)",
	 CLI_TRUE(struct stat_opts, region_per_thread)},
	{"interval-print", 'I', "MS", CLI_V_NONE, NULL,
	 "print what each event counted every MS milliseconds while a run counts, and at its "
	 "end: a run's intervals sum to its values (not with --backend=vpmu)",
	 CLI_INT(struct stat_opts, interval_ms, 1, STAT_MAX_MS, "1 to 3600000 milliseconds")},
	{"delay", 'D', "MS", CLI_V_NONE, NULL,
	 "begin counting MS milliseconds after the command starts; -1: only when --control "
	 "says 'enable'",
	 CLI_INT(struct stat_opts, delay_ms, -1, STAT_MAX_MS, "-1 to 3600000 milliseconds")},
	{"control", O_CONTROL, "fifo:CTL[,ACK]", CLI_V_NONE, NULL,
	 "read 'enable', 'disable', 'enable EVENT', 'disable EVENT' and 'ping' lines from the "
	 "FIFO CTL while a run counts, and answer each with 'ack' on the FIFO ACK; fd:N[,M] "
	 "reads descriptors N and M instead (perf's protocol)",
	 CLI_STR(struct stat_opts, control)},
	{"filter", O_FILTER, "FILTER", CLI_V_NONE, NULL,
	 "count only the hits of the tracepoint of the -e before it that FILTER keeps (the "
	 "kernel's syntax over its fields: 'fd == 1')",
	 CLI_CALL},
	{"detailed", 'd', NULL, CLI_V_NONE, NULL,
	 "add perf's detailed events: L1 and last-level data cache; -dd also the instruction "
	 "cache and TLBs; -ddd also L1 prefetches",
	 CLI_CALL},
	{"null", 'n', NULL, CLI_V_NONE, NULL, "count nothing: run and time the command",
	 CLI_TRUE(struct stat_opts, null_run)},
	{"pre", O_PRE, "CMD", CLI_V_NONE, NULL,
	 "run the shell command CMD before each run, not counted; its failure stops pmc stat",
	 CLI_STR(struct stat_opts, pre)},
	{"post", O_POST, "CMD", CLI_V_NONE, NULL,
	 "run the shell command CMD after each run, not counted; its failure stops pmc stat",
	 CLI_STR(struct stat_opts, post)},
	{"subtract-overhead", O_SUBTRACT, NULL, CLI_V_NONE, NULL,
	 "subtract the calibrated overhead (pmc calibrate): per run from whole-program counts, "
	 "per region entry from region counts",
	 CLI_TRUE(struct stat_opts, subtract_overhead)},
	{"calibration", O_CALIBRATION, "FILE", CLI_V_FILE, NULL,
	 "the calibration file (default: this machine's)", CLI_STR(struct stat_opts, calibration)},
	{"trust", O_TRUST, "FILE", CLI_V_FILE, NULL,
	 "pmc validate's trust file, whose verdict marks each count (default: this machine's, "
	 "when there is one; 'none': no marks)",
	 CLI_STR(struct stat_opts, trust)},
	{"backend", O_BACKEND, "NAME", CLI_V_CHOICES, "perf vpmu", "perf (default) or vpmu",
	 CLI_STR(struct stat_opts, backend)},
	{"verbose", 'v', NULL, CLI_V_NONE, NULL, "progress on stderr (repeat for more)",
	 CLI_COUNT(struct stat_opts, verbose)},
	{"help", 'h', NULL, CLI_V_NONE, NULL, "this text", CLI_SHOW_HELP},
	{0},
};

const struct cli_cmd cmd_stat_doc = {
	.name = "stat",
	.summary = "count events while running a command, with repetitions and statistics",
	.synopsis = "[options] [--] COMMAND [ARGS]\n[options] -p PID | -t TIDS | -a | -C CPUS "
		    "[COMMAND]",
	.about = "Counts events while COMMAND runs: a warm-up run, then -r repetitions of each "
		 "pass; events that cannot be counted together run in separate passes, never "
		 "scaled. Prints the mean of each event with its Student-t confidence interval.",
	.opts = options,
	.operands = CLI_V_PROGRAM,
	.stop_at_operand = true,
};

static int bad_usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "pmc stat: ");
	fprintf(stderr, fmt, cli_show(arg));
	fprintf(stderr, "\nsee 'pmc stat --help'\n");
	return 2;
}

static int set_format(struct stat_opts *o, const char *v)
{
	if (!strcmp(v, "text"))
		o->format = FMT_TEXT;
	else if (!strcmp(v, "csv"))
		o->format = FMT_CSV;
	else if (!strcmp(v, "json"))
		o->format = FMT_JSON;
	else if (!strcmp(v, "html"))
		o->format = FMT_HTML;
	else
		return -EINVAL;
	return 0;
}

static int add_event(struct stat_opts *o, const char *arg)
{
	char **ev = realloc(o->events, (o->nr_events + 1) * sizeof(*ev));

	if (!ev)
		return 1;
	o->events = ev;
	o->events[o->nr_events++] = (char *)arg;
	return 0;
}

static int set_ci(struct stat_opts *o, const char *arg)
{
	if (cli_parse_double(arg, 0, 100, &o->level) || o->level <= 0 || o->level >= 100)
		return bad_usage("--ci takes a level in percent, above 0 and below 100 "
				 "(95, 99), not '%s'",
				 arg);
	o->level /= 100.0;
	/* The quantile 1 - (1 - level)/2 must differ from 1 in a double. */
	if (!(1 - (1 - o->level) / 2 < 1))
		return bad_usage("--ci %s is too close to 100 to compute an interval "
				 "(at most 99.9999999999999)",
				 arg);
	return 0;
}

/* The options of the summary's and perf's outputs that need more than a target. */
static int apply_output(struct stat_opts *o, int c, const char *arg)
{
	long n;

	switch (c) {
	case O_FORMAT:
		o->format_set = true;
		return set_format(o, arg)
			       ? bad_usage("--format is text, csv, json or html, not '%s'", arg)
			       : 0;
	case 'x':
		if (!*arg)
			return bad_usage("-x takes a separator, not '%s'", arg);
		o->csv_sep = strcmp(arg, "\\t") ? arg : "\t";
		return 0;
	case 'B':
	case O_NO_BIG_NUM:
		o->big_num = c == 'B';
		return 0;
	case O_LOG_FD:
		if (cli_parse_long(arg, 0, 0x7fffffff, &n) || fcntl((int)n, F_GETFD) < 0)
			return bad_usage("--log-fd takes an open file descriptor, not '%s'", arg);
		o->log_fd = (int)n;
		return 0;
	default:
		return stat_args_apply(o, c, arg);
	}
}

/* The options without a target in the table (cli_parse()'s callback). */
static int apply(void *opts, int c, const char *arg)
{
	struct stat_opts *o = opts;
	long n;

	switch (c) {
	case 'e':
		return add_event(o, arg);
	case 'M':
		return metric_opts__add(&o->metrics.select, &o->metrics.nr_select, arg) ? 1 : 0;
	case O_METRICS_FILE:
		return metric_opts__add(&o->metrics.files, &o->metrics.nr_files, arg) ? 1 : 0;
	case O_LIKWID_GROUP:
		return metric_opts__add(&o->metrics.likwid, &o->metrics.nr_likwid, arg) ? 1 : 0;
	case O_CI:
		return set_ci(o, arg);
	case 'p':
		if (cli_parse_long(arg, 1, 0x7fffffff, &n))
			return bad_usage("-p takes a process id, not '%s'", arg);
		o->pid = (pid_t)n;
		return 0;
	case O_USER:
		o->priv |= PMC_PRIV_USER;
		return 0;
	case O_KERNEL:
		o->priv |= PMC_PRIV_KERNEL;
		return 0;
	default:
		return apply_output(o, c, arg);
	}
}

/*
 * Values checked before anything runs: the target (-p of a process that is gone, -C of
 * CPUs that are not online) and the results file, checked as it will be written (a FIFO
 * is not opened) so that an unwritable -o is said now and not after the measurement.
 */
static int check_values(const struct stat_opts *o)
{
	const struct pmc_outfile_opts oo = {.sz = sizeof(oo), .append = o->append};
	struct pmc_target t;
	char why[512];
	int err;

	stat_fill_target(o, &t);
	if (t.kind != PMC_TARGET_COMMAND && pmc_target__check(&t, why, sizeof(why))) {
		fprintf(stderr, "pmc stat: %s\n", why);
		return 2;
	}
	if (!o->output)
		return 0;
	err = pmc_outfile__check(o->output, &oo);
	return err ? cli_say_unwritable("stat", o->output, err) : 0;
}

/* The output options that exclude each other, as perf stat's (docs/stat-output.md). */
static int check_outputs(const struct stat_opts *o)
{
	if (o->csv_sep && o->json_lines)
		return bad_usage("%s", "-x and -j are two formats: choose one");
	if ((o->csv_sep || o->json_lines) && o->format_set)
		return bad_usage("%s", "-x and -j replace the summary; --format is the results "
				       "file's: choose one");
	if (o->csv_sep && o->big_num == 1)
		return bad_usage("%s", "-B is for the summary: -x lines have no thousands "
				       "separators");
	if (o->log_fd >= 0 && o->output)
		return bad_usage("%s", "-o and --log-fd are two places for the output: choose one");
	if (o->append && (!o->output || !strcmp(o->output, "-")))
		return bad_usage("%s", "--append adds to -o's file: give -o FILE");
	/* perf's lines append whole; a --format file is one document (docs/stat-output.md) */
	if (o->append && !o->csv_sep && !o->json_lines)
		return bad_usage("%s", "--append adds -x or -j lines; a --format results file is "
				       "one document: write one file per run (-o run-N.json) and "
				       "combine them with 'pmc merge'");
	return 0;
}

static int parse_args(int argc, char **argv, struct stat_opts *o)
{
	int first, rc;

	*o = (struct stat_opts){
		.repeat = 1, .level = 0.95, .format = FMT_TEXT, .big_num = -1, .log_fd = -1};
	rc = cli_parse(&cmd_stat_doc, argc, argv, o, apply, &first);
	if (rc)
		return rc;
	if (o->verbose)
		cli_log_level = PMC_LOG_INFO;
	o->priv = o->priv ? o->priv : PMC_PRIV_USER;
	o->argv = argv + first;
	o->default_events = !o->nr_events && !metric_opts__any(&o->metrics);
	o->metrics.level = o->level;
	if (!*o->argv && !o->pid && !o->tids && !o->system_wide && !o->cpus && !o->plan_only)
		return bad_usage("%s", "no command to run (or -p PID, -t TIDS, -a, -C CPUS)");
	if (o->metrics.td_level && !o->metrics.topdown)
		return bad_usage("%s", "--td-level is the level of --topdown: give --topdown too");
	if (o->pid && (o->system_wide || o->cpus))
		return bad_usage("%s", "-p cannot be combined with -a or -C");
	rc = stat_args_check(o);
	if (!rc)
		rc = check_outputs(o);
	if (!rc && !o->dry_run && !o->plan_only)
		rc = stat_mpi_apply(o);
	if (rc)
		return rc;
	if (o->repeat > 1 && !*o->argv && (o->pid || o->tids || o->system_wide || o->cpus))
		fprintf(stderr,
			"pmc stat: -r %d ignored: without a command, %s counted once, "
			"until %s or Ctrl-C\n",
			o->repeat,
			o->pid	  ? "a process is"
			: o->tids ? "threads are"
				  : "CPUs are",
			o->pid || o->tids ? "it ends" : "a signal");
	return o->dry_run || o->plan_only ? 0 : check_values(o);
}

int cmd_stat(int argc, char **argv)
{
	const char *config = cli_option_value(&cmd_stat_doc, argc, argv, O_CONFIG);
	struct stat_opts opts;
	char **cargv = argv;
	struct cli_config_error cerr;
	int cargc = argc, rc;

	if (config) {
		rc = cli_config_merge(config, &cmd_stat_doc, argc, argv, &cargc, &cargv, &cerr);
		if (rc) {
			if (cerr.line)
				fprintf(stderr, "pmc stat: %s:%d: %s\n", config, cerr.line,
					cerr.msg);
			else
				fprintf(stderr, "pmc stat: cannot read %s: %s\n", config,
					pmc_strerror(rc));
			return 2;
		}
	}
	rc = parse_args(cargc, cargv, &opts);
	if (!rc)
		rc = cmd_stat_run(&opts);
	stat_args_free(&opts);
	free(opts.events);
	free(opts.metrics.select);
	free(opts.metrics.files);
	free(opts.metrics.likwid);
	if (cargv != argv) {
		for (int i = 1; i < cargc - (argc - 1); i++)
			free(cargv[i]);
		free(cargv);
	}
	return rc < 0 ? 0 : rc;
}
