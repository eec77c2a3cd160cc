// SPDX-License-Identifier: MIT
/* pmc report: summarise a perf.data file (pmc's or perf's) by symbol, line, data address, ... */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/pmc.h>
#include "cli.h"
#include "cmd.h"

static const char usage_text[] =
	"usage: pmc report [OPTIONS]\n"
	"\n"
	"  -i, --input=FILE         sample file (default perf.data); pmc's or perf's\n"
	"  -s, --sort=KEYS          comma-separated: symbol dso srcline inline ip comm pid tid,\n"
	"                           and for data samples daddr dsym dcacheline dpage dsrc weight\n"
	"      --children           sort by the period including callees (call chains)\n"
	"      --no-callers         do not list each entry's callers\n"
	"  -F, --format=FMT         text (default), csv, json, or folded (flame-graph stacks)\n"
	"      --percent-limit=P    hide entries under P percent\n"
	"  -n, --max-entries=N      show at most N entries per event\n"
	"      --kallsyms=FILE      kernel symbols (default /proc/kallsyms)\n"
	"      --no-reconstruct     do not reconstruct data addresses from registers\n"
	"      --stdio              accepted for perf compatibility (text is the default)\n"
	"  -h, --help               this text\n";

enum { O_CHILDREN = 256, O_NOCALLERS, O_PCT, O_KALLSYMS, O_NORECON, O_STDIO };

static const struct option options[] = {
	{"input", required_argument, NULL, 'i'},
	{"sort", required_argument, NULL, 's'},
	{"children", no_argument, NULL, O_CHILDREN},
	{"no-callers", no_argument, NULL, O_NOCALLERS},
	{"format", required_argument, NULL, 'F'},
	{"percent-limit", required_argument, NULL, O_PCT},
	{"max-entries", required_argument, NULL, 'n'},
	{"kallsyms", required_argument, NULL, O_KALLSYMS},
	{"no-reconstruct", no_argument, NULL, O_NORECON},
	{"stdio", no_argument, NULL, O_STDIO},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static int parse_format(const char *s, enum pmc_report_format *f)
{
	static const char *const names[] = {"text", "csv", "json", "folded"};

	for (int i = 0; i < 4; i++)
		if (!strcmp(s, names[i])) {
			*f = (enum pmc_report_format)i;
			return 0;
		}
	fprintf(stderr, "pmc report: --format is text, csv, json or folded, not '%s'\n",
		cli_show(s));
	return 2;
}

static int bad_value(const char *opt, const char *val, const char *want)
{
	fprintf(stderr, "pmc report: %s takes %s, not '%s'\n", opt, want, cli_show(val));
	return 2;
}

static int parse_args(int argc, char **argv, struct pmc_report_opts *o, const char **input,
		      enum pmc_report_format *fmt)
{
	int c;

	optind = 1;
	while ((c = cli_getopt("pmc report", argc, argv, "i:s:F:n:h", options)) != -1) {
		switch (c) {
		case 'i':
			*input = optarg;
			break;
		case 's':
			o->sort = optarg;
			break;
		case O_CHILDREN:
			o->children = true;
			break;
		case O_NOCALLERS:
			o->no_callers = true;
			break;
		case 'F':
			if (parse_format(optarg, fmt))
				return 2;
			break;
		case O_PCT:
			if (cli_parse_double(optarg, 0, 100, &o->min_percent))
				return bad_value("--percent-limit", optarg,
						 "a percentage, 0 to 100");
			break;
		case 'n': {
			uint64_t n;

			if (cli_parse_u64(optarg, 0, SIZE_MAX, &n))
				return bad_value("-n", optarg, "a number of entries (0: all)");
			o->max_entries = (size_t)n;
			break;
		}
		case O_KALLSYMS:
			o->kallsyms = optarg;
			break;
		case O_NORECON:
			o->no_reconstruct = true;
			break;
		case O_STDIO:
			break;
		case 'h':
			fputs(usage_text, stdout);
			return -1;
		default:
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "pmc report: unexpected argument '%s'; see 'pmc report --help'\n",
			cli_show(argv[optind]));
		return 2;
	}
	o->folded = *fmt == PMC_REPORT_FOLDED;
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct pmc_report_opts o = {.sz = sizeof(o)};
	enum pmc_report_format fmt = PMC_REPORT_TEXT;
	const char *input = "perf.data";
	struct pmc_file_error ferr = {0};
	struct pmc_report *r;
	int rc = parse_args(argc, argv, &o, &input, &fmt), err;

	if (rc)
		return rc < 0 ? 0 : rc;
	err = pmc_report__new(&o, &r);
	if (err) {
		fprintf(stderr, "pmc report: %s\n", pmc_strerror(err));
		return err == -PMC_E_CONFIG ? 2 : 1;
	}
	err = pmc_report__load(r, input, &ferr);
	if (err) {
		/* A system error (the open) has no offset; a text that names the error is not
		 * followed by it again. */
		fprintf(stderr, "pmc report: cannot read %s: ", cli_show(input));
		if (-err >= PMC_E_BASE)
			fprintf(stderr, "at offset %llu: ", (unsigned long long)ferr.offset);
		fprintf(stderr, "%s", ferr.msg[0] ? ferr.msg : pmc_strerror(err));
		if (ferr.msg[0] && !strstr(ferr.msg, pmc_strerror(err)))
			fprintf(stderr, " (%s)", pmc_strerror(err));
		fputc('\n', stderr);
		pmc_report__delete(r);
		return 1;
	}
	err = pmc_report__write(r, fmt, stdout);
	pmc_report__delete(r);
	if (!err && fflush(stdout))
		err = -errno;
	if (err || ferror(stdout)) {
		fprintf(stderr, "pmc report: cannot write the report to stdout: %s\n",
			pmc_strerror(err ? err : -EIO));
		return 1;
	}
	return 0;
}
