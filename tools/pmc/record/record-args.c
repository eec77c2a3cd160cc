// SPDX-License-Identifier: MIT
/* pmc record's options: the usage text, parsing, and the values checked before anything runs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/pmc.h>
#include "common/cli.h"
#include "record.h"

/* --period-jitter without a value: periods from half to one and a half times the mean. */
#define DEFAULT_JITTER_PCT 50

enum {
	O_CALLGRAPH = CLI_LONG_ONLY,
	O_UREGS,
	O_IREGS,
	O_DSRC,
	O_PHYS,
	O_SCPU,
	O_USER,
	O_KERNEL,
	O_BACKEND,
	O_DRY_RUN,
	O_JITTER,
	O_SEED
};

static const struct cli_opt options[] = {
	{"event", 'e', "EVENT", CLI_V_EVENTS, NULL,
	 "event to sample (repeatable; default cycles, or cpu-clock where there is no hardware "
	 "PMU; cycles under vpmu); :p/:pp/:ppp set precision, :P the highest; terms set one "
	 "event's period=, freq=, call-graph=, time=",
	 CLI_CALL},
	{"count", 'c', "N", CLI_V_NONE, NULL,
	 "sample every N events (default 1, every hit, for tracepoints, probes and mem: "
	 "breakpoints)",
	 CLI_CALL},
	{"freq", 'F', "HZ", CLI_V_NONE, NULL,
	 "samples per second (default 4000 for events other than tracepoints, probes and mem: "
	 "breakpoints); -c, -F and an event's period=/freq= term win over the defaults",
	 CLI_CALL},
	{NULL, 'g', NULL, CLI_V_NONE, NULL, "call chains by frame pointer", CLI_CALL},
	{"call-graph", O_CALLGRAPH, "MODE", CLI_V_CHOICES, "fp dwarf",
	 "fp, or dwarf[,BYTES] (copies BYTES of user stack, default 8192, at most 65000)",
	 CLI_CALL},
	{"branch-any", 'b', NULL, CLI_V_NONE, NULL,
	 "sample the branch stack, any branch (needs a PMU with LBR, or --backend=vpmu)", CLI_CALL},
	{"branch-filter", 'j', "FILTER", CLI_V_NONE, NULL,
	 "sample the branch stack of the kinds named, comma-separated as in perf: any, any_call, "
	 "any_ret, ind_call, ind_jmp, call, cond, in_tx, no_tx, abort_tx, stack, save_type, "
	 "priv; levels u, k, hv (alone: any branch at those levels)",
	 CLI_CALL},
	{"user-regs", O_UREGS, "REGS", CLI_V_NONE, NULL,
	 "sample user registers: ax,bx,...,r15, or all", CLI_CALL},
	{"intr-regs", O_IREGS, "REGS", CLI_V_NONE, NULL, "sample registers at the interrupt",
	 CLI_CALL},
	{"data", 'd', NULL, CLI_V_NONE, NULL, "sample data addresses (and record data mmaps)",
	 CLI_TRUE(struct record_cli, ro.data_addr)},
	{"weight", 'W', NULL, CLI_V_NONE, NULL, "sample the weight (latency)",
	 CLI_TRUE(struct record_cli, ro.weight)},
	{"data-src", O_DSRC, NULL, CLI_V_NONE, NULL, "sample the data source",
	 CLI_TRUE(struct record_cli, ro.data_src)},
	{"phys-data", O_PHYS, NULL, CLI_V_NONE, NULL, "sample physical data addresses",
	 CLI_TRUE(struct record_cli, ro.phys_addr)},
	{"sample-cpu", O_SCPU, NULL, CLI_V_NONE, NULL, "record the CPU of each sample",
	 CLI_TRUE(struct record_cli, ro.sample_cpu)},
	{"pid", 'p', "PID", CLI_V_PID, NULL, "sample a running process and its threads", CLI_CALL},
	{"all-cpus", 'a', NULL, CLI_V_NONE, NULL,
	 "sample every CPU (system wide); with a COMMAND, until it exits (else until Ctrl-C)",
	 CLI_CALL},
	{"cpu", 'C', "CPUS", CLI_V_NONE, NULL,
	 "sample these CPUs (\"0,2-3\"), with or without a COMMAND", CLI_CALL},
	{"no-inherit", 'i', NULL, CLI_V_NONE, NULL,
	 "do not follow the command's children and threads",
	 CLI_TRUE(struct record_cli, t.no_inherit)},
	{"user", O_USER, NULL, CLI_V_NONE, NULL,
	 "sample user level for events without :u/:k (the default)", CLI_CALL},
	{"kernel", O_KERNEL, NULL, CLI_V_NONE, NULL,
	 "sample kernel level for events without :u/:k (with --user: both)", CLI_CALL},
	{"mmap-pages", 'm', "N", CLI_V_NONE, NULL, "ring-buffer pages per CPU, a power of 2",
	 CLI_CALL},
	{"no-buildid-cache", 'N', NULL, CLI_V_NONE, NULL,
	 "keep no copy of the sampled objects in the build-id cache (~/.debug, perf's), which "
	 "lets a report name their samples after they are rebuilt; their build ids are written "
	 "either way",
	 CLI_TRUE(struct record_cli, ro.no_buildid_cache)},
	{"output", 'o', "FILE", CLI_V_FILE, NULL,
	 "output file (default perf.data; mode 0600, the file it replaces kept as FILE.old); - or "
	 "a FIFO: perf's pipe-mode stream (docs/sample-file.md); under "
	 "an MPI launcher named per rank as pmc stat -o "
	 "names it (docs/mpi.md)",
	 CLI_STR(struct record_cli, ro.output)},
	{"period-jitter", O_JITTER, "PCT", CLI_V_OPTIONAL, NULL,
	 "draw each sampling period uniformly within PCT percent of the mean period (1 to 90, "
	 "default 50), so that samples do not alias with loops and pmc report's intervals hold; "
	 "vpmu only (the kernel offers no period randomisation for most PMUs)",
	 CLI_CALL},
	{"seed", O_SEED, "N", CLI_V_NONE, NULL,
	 "seed of --period-jitter's generator (default 1, recorded in the file's command line): "
	 "equal seeds give identical files",
	 CLI_CALL},
	{"backend", O_BACKEND, "NAME", CLI_V_CHOICES, "perf vpmu", "perf (default) or vpmu",
	 CLI_STR(struct record_cli, backend)},
	{"dry-run", O_DRY_RUN, NULL, CLI_V_NONE, NULL,
	 "print each perf_event_open call instead of making it; run nothing, write no file "
	 "(-vv: with the attr fields, as perf)",
	 CLI_TRUE(struct record_cli, dry_run)},
	{"verbose", 'v', NULL, CLI_V_NONE, NULL, "more detail (--dry-run -vv: the attr fields)",
	 CLI_COUNT(struct record_cli, verbose)},
	{"quiet", 'q', NULL, CLI_V_NONE, NULL, "no summary line",
	 CLI_TRUE(struct record_cli, quiet)},
	{"help", 'h', NULL, CLI_V_NONE, NULL, "this text", CLI_SHOW_HELP},
	{0},
};

const struct cli_cmd cmd_record_doc = {
	.name = "record",
	.summary = "sample events while running a command into a perf.data file",
	.synopsis = "[options] [--] COMMAND [ARGS]\n[options] -p PID | -a | -C CPUS\n"
		    "[options] -a | -C CPUS [--] COMMAND [ARGS]",
	.about = "Samples events while COMMAND runs (or a process, or CPUs) and writes the "
		 "samples to a perf.data file that pmc report, pmc annotate and perf read.",
	.opts = options,
	.operands = CLI_V_PROGRAM,
	.stop_at_operand = true,
};

static const char *const reg_names[] = {
	"ax", "bx", "cx", "dx", "si", "di", "bp",  "sp",  "ip",	 "flags", "cs",	 "ss",
	"ds", "es", "fs", "gs", "r8", "r9", "r10", "r11", "r12", "r13",	  "r14", "r15",
};

/* "ax,bx,r8" or "all" into a PERF_REG_X86_* mask; 0 on an unknown name. */
static uint64_t parse_regs(const char *arg)
{
	uint64_t mask = 0;
	char *copy = strdup(arg), *save = NULL;

	if (!strcmp(arg, "all")) {
		free(copy);
		return 0xff0fffull;
	}
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		size_t i = 0;
		while (i < sizeof(reg_names) / sizeof(reg_names[0]) && strcmp(tok, reg_names[i]))
			i++;
		if (i == sizeof(reg_names) / sizeof(reg_names[0])) {
			fprintf(stderr,
				"pmc record: unknown register '%s'; known: ax bx cx dx si "
				"di bp sp ip flags cs ss ds es fs gs r8-r15\n",
				tok);
			free(copy);
			return 0;
		}
		mask |= 1ull << i;
	}
	free(copy);
	return mask;
}

static int parse_u64(const char *opt, const char *arg, uint64_t *out)
{
	if (cli_parse_u64(arg, 1, UINT64_MAX, out)) {
		fprintf(stderr,
			"pmc record: %s needs a positive number, not '%s'\nsee 'pmc record "
			"--help'\n",
			opt, cli_show(arg));
		return 2;
	}
	return 0;
}

/*
 * The output can be written, asked before anything runs, as pmc stat asks (the same check,
 * the same words): as the recording writes it (lib/perfdata/write.c: the file it replaces kept
 * as FILE.old, so a folder there is refused now). A FIFO or device is not opened, only its
 * permissions checked: a FIFO's reader would see the end of the stream when a probe closed it
 * (the recording opens it once, before the command starts, and waits there for a reader).
 */
static int check_output(const char *path)
{
	const struct pmc_outfile_opts oo = {.sz = sizeof(oo), .mode = 0600, .keep_old = true};
	int err = pmc_outfile__check(path, &oo);

	return err ? cli_say_unwritable("record", path, err) : 0;
}

/*
 * The output file (perf.data by default), named for this rank under an MPI launcher as pmc
 * stat's -o is (pmc_launcher_path(), docs/mpi.md), so that no rank's file is another's.
 */
static int rank_output(struct record_cli *c)
{
	const char *path = c->ro.output ? c->ro.output : "perf.data";
	struct pmc_launcher l;
	int err;

	if (pmc_launcher_detect(&l) != 1) {
		c->ro.output = path;
		return 0;
	}
	err = pmc_launcher_path(&l, path, (int)getpid(), c->rank_output, sizeof(c->rank_output));
	if (err) {
		fprintf(stderr,
			"pmc record: -o %s: %s; %%r is the rank, %%h the host, %%p the pid, %%%% a "
			"%%\n",
			path, pmc_strerror(err));
		return 2;
	}
	c->ro.output = c->rank_output;
	return 0;
}

/*
 * Values checked before anything runs: -F against the kernel's maximum sample rate (the
 * perf backend; perf_event_open would refuse it with EINVAL), and the target (-p, -C).
 */
static int check_values(struct record_cli *c)
{
	char why[256];
	long max_rate;
	FILE *f;

	if (c->ro.freq && (!c->backend || strcmp(c->backend, "vpmu")) &&
	    (f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "re"))) {
		if (fscanf(f, "%ld", &max_rate) == 1 && max_rate > 0 &&
		    c->ro.freq > (uint64_t)max_rate) {
			fprintf(stderr,
				"pmc record: -F %llu is above the kernel's maximum sample rate, "
				"%ld "
				"(/proc/sys/kernel/perf_event_max_sample_rate): use -F %ld or "
				"less\n",
				(unsigned long long)c->ro.freq, max_rate, max_rate);
			fclose(f);
			return 2;
		}
		fclose(f);
	}
	if (!c->dry_run && pmc_target__check(&c->t, why, sizeof(why))) {
		fprintf(stderr, "pmc record: %s\n", why);
		return 2;
	}
	return c->dry_run ? 0 : rank_output(c) ?: check_output(c->ro.output);
}

static int parse_call_graph(struct record_cli *c, const char *arg)
{
	uint64_t n;

	if (!strcmp(arg, "fp")) {
		c->ro.call_graph = PMC_CALL_GRAPH_FP;
		return 0;
	}
	if (strncmp(arg, "dwarf", 5) || (arg[5] && arg[5] != ',')) {
		fprintf(stderr, "pmc record: --call-graph is fp or dwarf[,BYTES], not '%s'\n",
			cli_show(arg));
		return 2;
	}
	c->ro.call_graph = PMC_CALL_GRAPH_DWARF;
	if (!arg[5])
		return 0;
	if (parse_u64("--call-graph dwarf", arg + 6, &n))
		return 2;
	/* The kernel wants a multiple of 8 below 64 KiB, leaving room for the rest of the
	 * sample: a larger size is refused, as perf refuses one above 65528. */
	if (n > 65000) {
		fprintf(stderr,
			"pmc record: --call-graph dwarf copies at most 65000 bytes of stack "
			"(a sample must fit in 64 KiB), not %llu\n",
			(unsigned long long)n);
		return 2;
	}
	c->ro.stack_bytes = (uint32_t)(n & ~7ull);
	return 0;
}

static int add_event(struct record_cli *c, char *arg)
{
	char **v = realloc(c->events, (c->nr_events + 1) * sizeof(*v));

	if (!v)
		return 1;
	v[c->nr_events++] = arg;
	c->events = v;
	return 0;
}

static int apply2(struct record_cli *c, int opt, const char *arg)
{
	uint64_t n;

	switch (opt) {
	case 'p':
		if (parse_u64("-p", arg, &n))
			return 2;
		c->t.kind = PMC_TARGET_PID;
		c->t.pid = (pid_t)n;
		return 0;
	case 'a':
		c->t.kind = PMC_TARGET_CPUS;
		c->system_wide = true;
		return 0;
	case 'C':
		c->t.kind = PMC_TARGET_CPUS;
		c->t.cpus = arg;
		return 0;
	case O_USER:
		c->priv |= PMC_PRIV_USER;
		return 0;
	case O_KERNEL:
		c->priv |= PMC_PRIV_KERNEL;
		return 0;
	case 'm':
		if (parse_u64("-m", arg, &n) || (n & (n - 1))) {
			fprintf(stderr, "pmc record: -m needs a power of 2\n");
			return 2;
		}
		c->ro.mmap_pages = (size_t)n;
		return 0;
	case O_JITTER:
		if (!arg) {
			c->ro.period_jitter = DEFAULT_JITTER_PCT;
			return 0;
		}
		if (cli_parse_u64(arg, 1, 90, &n)) {
			fprintf(stderr,
				"pmc record: --period-jitter is a percentage from 1 "
				"to 90, not '%s'\n",
				cli_show(arg));
			return 2;
		}
		c->ro.period_jitter = (unsigned)n;
		return 0;
	case O_SEED:
		return parse_u64("--seed", arg, &c->ro.seed);
	}
	return 2;
}

/* -b or -j FILTER; as in perf, not both. */
static int branch_option(struct record_cli *c, int opt, const char *arg)
{
	struct pmc_parse_error err;

	if (c->ro.branch_stack || c->ro.branch_filter) {
		fprintf(stderr, "pmc record: -b and -j set the branch filter once: use one of "
				"them, once (-b is -j any)\n");
		return 2;
	}
	if (opt == 'b') {
		c->ro.branch_stack = true;
		return 0;
	}
	if (pmc_branch_filter_parse(arg, &c->ro.branch_filter, &err)) {
		cli_print_parse_error_hint("pmc record", arg, &err,
					   "see 'pmc record --help' for the filter names");
		return 2;
	}
	return 0;
}

/* The options without a target in the table (cli_parse()'s callback). */
static int apply(void *opts, int opt, const char *arg)
{
	struct record_cli *c = opts;

	switch (opt) {
	case 'e':
		return add_event(c, (char *)arg);
	case 'c':
		return parse_u64("-c", arg, &c->ro.period);
	case 'F':
		return parse_u64("-F", arg, &c->ro.freq);
	case 'g':
		c->ro.call_graph = PMC_CALL_GRAPH_FP;
		return 0;
	case O_CALLGRAPH:
		return parse_call_graph(c, arg);
	case 'b':
	case 'j':
		return branch_option(c, opt, arg);
	case O_UREGS:
		return (c->ro.user_regs = parse_regs(arg)) ? 0 : 2;
	case O_IREGS:
		return (c->ro.intr_regs = parse_regs(arg)) ? 0 : 2;
	}
	return apply2(c, opt, arg);
}

int record_parse_args(struct record_cli *c, int argc, char **argv)
{
	int first, rc = cli_parse(&cmd_record_doc, argc, argv, c, apply, &first);

	if (rc)
		return rc;
	c->t.argv = argv + first;
	if (c->t.kind == PMC_TARGET_COMMAND && first >= argc) {
		fprintf(stderr, "pmc record: no command to run; see 'pmc record --help'\n");
		return 2;
	}
	if (c->t.kind == PMC_TARGET_PID && first < argc) {
		fprintf(stderr, "pmc record: a command cannot be combined with -p\n");
		return 2;
	}
	if (c->ro.seed && !c->ro.period_jitter) {
		fprintf(stderr, "pmc record: --seed seeds --period-jitter; give both\n");
		return 2;
	}
	if (c->ro.period && c->ro.freq) {
		fprintf(stderr, "pmc record: -c and -F exclude each other\n");
		return 2;
	}
	return check_values(c);
}
