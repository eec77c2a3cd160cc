// SPDX-License-Identifier: MIT
/* pmc report: summarise a perf.data file (pmc's or perf's) by symbol, line, data address, ... */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/pmc.h>
#include "common/cli.h"
#include "common/cmd.h"

enum {
	O_CHILDREN = CLI_LONG_ONLY,
	O_NOCALLERS,
	O_PCT,
	O_KALLSYMS,
	O_NORECON,
	O_STDIO,
	O_NODEMANGLE,
	O_HIDEUNRES,
	O_BRANCH_AN
};

/* In enum pmc_report_format's order. */
/* The files to read: every -i, then the operands; perf.data when none is named. */
struct inputs {
	const char **v;
	size_t nr;
};

/* What the options set. */
struct report_args {
	struct pmc_report_opts o;
	enum pmc_report_format fmt;
	const char *output;
	struct inputs in;
};

static const struct cli_opt options[] = {
	{"input", 'i', "FILE", CLI_V_FILE, NULL,
	 "sample file (default perf.data); pmc's or perf's; - reads a stream (record -o -) from "
	 "standard input; repeat -i (or name the files after "
	 "the options) to sum several files, such as the ranks of an MPI job",
	 CLI_CALL},
	{"sort", 's', "KEYS", CLI_V_NONE, NULL,
	 "comma-separated: symbol dso srcline inline ip comm pid tid rank, for data samples daddr "
	 "dsym dcacheline dpage dsrc weight, for branch stacks symbol_from symbol_to dso_from "
	 "dso_to addr_from addr_to mispredict, and branch (addr_from,addr_to,mispredict)",
	 CLI_STR(struct report_args, o.sort)},
	{"branch-stack", 'b', NULL, CLI_V_NONE, NULL,
	 "branch mode, as perf report -b: every entry of every sample's branch stack is one "
	 "entry (default keys comm,dso_from,symbol_from,symbol_to); a branch key implies it",
	 CLI_TRUE(struct report_args, o.branch_stack)},
	{"branch-analysis", O_BRANCH_AN, "WHAT", CLI_V_CHOICES, "blocks trips",
	 "from the branch stacks: blocks (estimated execution counts of basic blocks) or trips "
	 "(loop trip counts), as text, csv or json (docs/branches.md)",
	 CLI_CALL},
	{"children", O_CHILDREN, NULL, CLI_V_NONE, NULL,
	 "sort by the period including callees (call chains)",
	 CLI_TRUE(struct report_args, o.children)},
	{"no-callers", O_NOCALLERS, NULL, CLI_V_NONE, NULL, "do not list each entry's callers",
	 CLI_TRUE(struct report_args, o.no_callers)},
	{"format", 'F', "FMT", CLI_V_CHOICES,
	 "text csv json folded html pprof speedscope callgrind",
	 "text (default), csv, json, folded (flame-graph stacks), html (one self-contained page: "
	 "flame graphs, tables, source lines), pprof, speedscope or callgrind",
	 CLI_CHOICE(struct report_args, fmt)},
	{"output", 'o', "FILE", CLI_V_FILE, NULL,
	 "write the report to FILE (written whole or not at all) instead of stdout",
	 CLI_STR(struct report_args, output)},
	{"percent-limit", O_PCT, "P", CLI_V_NONE, NULL, "hide entries under P percent", CLI_CALL},
	{"max-entries", 'n', "N", CLI_V_NONE, NULL, "show at most N entries per event (0: all)",
	 CLI_CALL},
	{"kallsyms", O_KALLSYMS, "FILE", CLI_V_FILE, NULL,
	 "kernel symbols (default /proc/kallsyms)", CLI_STR(struct report_args, o.kallsyms)},
	{"no-reconstruct", O_NORECON, NULL, CLI_V_NONE, NULL,
	 "do not reconstruct data addresses from registers",
	 CLI_TRUE(struct report_args, o.no_reconstruct)},
	{"no-demangle", O_NODEMANGLE, NULL, CLI_V_NONE, NULL,
	 "show C++ and Rust symbols as the object spells them (_ZN...)",
	 CLI_TRUE(struct report_args, o.no_demangle)},
	{"hide-unresolved", O_HIDEUNRES, NULL, CLI_V_NONE, NULL,
	 "leave out samples and callers that no symbol holds",
	 CLI_TRUE(struct report_args, o.hide_unresolved)},
	{"stdio", O_STDIO, NULL, CLI_V_NONE, NULL,
	 "accepted for perf compatibility (text is the default)", CLI_SKIP},
	{"help", 'h', NULL, CLI_V_NONE, NULL, "this text", CLI_SHOW_HELP},
	{0},
};

const struct cli_cmd cmd_report_doc = {
	.name = "report",
	.summary = "summarise a perf.data file by symbol, line, data address, ...",
	.synopsis = "[options] [FILE...]",
	.about = "Reads a sample file written by pmc record or perf record and shows where the "
		 "samples fell, per event: by symbol, source line, call chain or data address. "
		 "Several files (the ranks of an MPI job) are summed into one report; -s rank "
		 "tells their ranks apart.",
	.opts = options,
	.operands = CLI_V_FILE,
};

static int bad_value(const char *opt, const char *val, const char *want)
{
	fprintf(stderr, "pmc report: %s takes %s, not '%s'\nsee 'pmc report --help'\n", opt, want,
		cli_show(val));
	return 2;
}

static int add_input(struct inputs *in, const char *path)
{
	const char **v = realloc(in->v, (in->nr + 1) * sizeof(*v));

	if (!v) {
		fprintf(stderr, "pmc report: out of memory\n");
		return 1;
	}
	in->v = v;
	v[in->nr++] = path;
	return 0;
}

/* The options without a target in the table (cli_parse()'s callback). */
static int apply(void *opts, int c, const char *arg)
{
	struct report_args *a = opts;
	uint64_t n;

	switch (c) {
	case 'i':
		return add_input(&a->in, arg);
	case O_PCT:
		if (cli_parse_double(arg, 0, 100, &a->o.min_percent))
			return bad_value("--percent-limit", arg, "a percentage, 0 to 100");
		return 0;
	case 'n':
		if (cli_parse_u64(arg, 0, SIZE_MAX, &n))
			return bad_value("-n", arg, "a number of entries (0: all)");
		a->o.max_entries = (size_t)n;
		return 0;
	case O_BRANCH_AN:
		if (strcmp(arg, "blocks") && strcmp(arg, "trips"))
			return bad_value("--branch-analysis", arg, "blocks or trips");
		a->o.branch_analysis = !strcmp(arg, "blocks") ? PMC_BRANCH_ANALYSIS_BLOCKS
							      : PMC_BRANCH_ANALYSIS_TRIPS;
		return 0;
	default:
		return 2;
	}
}

static int parse_args(int argc, char **argv, struct report_args *a)
{
	int first, rc = cli_parse(&cmd_report_doc, argc, argv, a, apply, &first);

	if (rc)
		return rc;
	for (; first < argc; first++)
		if (add_input(&a->in, argv[first]))
			return 1;
	if (!a->in.nr && add_input(&a->in, "perf.data"))
		return 1;
	/* The stack formats need whole chains; pprof and callgrind give costs per source line. */
	a->o.folded = a->fmt >= PMC_REPORT_FOLDED && a->fmt != PMC_REPORT_HTML;
	a->o.html = a->fmt == PMC_REPORT_HTML;
	a->o.srclines = a->fmt == PMC_REPORT_PPROF || a->fmt == PMC_REPORT_CALLGRIND;
	return 0;
}

/* Writes the report to output ("-": stdout), whole or not at all; frees r. */
static int write_report(struct pmc_report *r, enum pmc_report_format fmt, const char *output)
{
	struct pmc_outfile *of;
	FILE *f;
	int err = pmc_outfile__open(output, &of);

	if (err) {
		pmc_report__delete(r);
		return cli_say_unwritable("report", output, err);
	}
	f = pmc_outfile__stream(of);
	err = f ? pmc_report__write(r, fmt, f) : -ENOMEM;
	pmc_report__delete(r);
	err = err ? pmc_outfile__fail(of, err) : pmc_outfile__commit(of);
	return err ? cli_say_unwritable("report", output, err) : 0;
}

/* Adds input's samples to r; 1 (named on stderr) when it cannot be read. */
static int load(struct pmc_report *r, const char *input)
{
	struct pmc_file_error ferr = {0};
	int err = pmc_report__load(r, input, &ferr);

	if (!err)
		return 0;
	/* A later file of other events than the first's: the message says which. */
	if (err == -PMC_E_CONFIG) {
		fprintf(stderr, "pmc report: cannot add %s: %s\n", cli_show(input), ferr.msg);
		return 1;
	}
	/* A system error (the open) has no offset; a text that names the error is not
	 * followed by it again. */
	fprintf(stderr, "pmc report: cannot read %s: ", cli_show(input));
	if (-err >= PMC_E_BASE)
		fprintf(stderr, "at offset %llu: ", (unsigned long long)ferr.offset);
	fprintf(stderr, "%s", ferr.msg[0] ? ferr.msg : pmc_strerror(err));
	if (ferr.msg[0] && !strstr(ferr.msg, pmc_strerror(err)))
		fprintf(stderr, " (%s)", pmc_strerror(err));
	fputc('\n', stderr);
	return 1;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = {.o = {.sz = sizeof(a.o)}, .fmt = PMC_REPORT_TEXT, .output = "-"};
	struct pmc_report *r = NULL;
	int rc = parse_args(argc, argv, &a), err;

	if (!rc) {
		err = pmc_report__new(&a.o, &r);
		if (err) {
			fprintf(stderr, "pmc report: %s\n", pmc_strerror(err));
			rc = err == -PMC_E_CONFIG ? 2 : 1;
		}
	}
	for (size_t i = 0; !rc && i < a.in.nr; i++)
		rc = load(r, a.in.v[i]);
	free(a.in.v);
	if (rc) {
		pmc_report__delete(r);
		return rc < 0 ? 0 : rc;
	}
	return write_report(r, a.fmt, a.output);
}
