// SPDX-License-Identifier: MIT
/* pmc annotate: disassemble a sampled function with samples per instruction and source lines. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <pmc/pmc.h>
#include "common/cli.h"
#include "common/cmd.h"

/* What the options set. */
struct annotate_args {
	struct pmc_report_opts o;
	const char *input, *dso;
};

static const struct cli_opt options[] = {
	{"input", 'i', "FILE", CLI_V_FILE, NULL, "sample file (default perf.data)",
	 CLI_STR(struct annotate_args, input)},
	{"dso", 'd', "NAME", CLI_V_NONE, NULL,
	 "the DSO whose path contains NAME, when several have SYMBOL",
	 CLI_STR(struct annotate_args, dso)},
	{"no-source", CLI_LONG_ONLY, NULL, CLI_V_NONE, NULL,
	 "the instructions alone: no source lines (file:line, share and text) between them",
	 CLI_TRUE(struct annotate_args, o.no_source)},
	{"help", 'h', NULL, CLI_V_NONE, NULL, "this text", CLI_SHOW_HELP},
	{0},
};

const struct cli_cmd cmd_annotate_doc = {
	.name = "annotate",
	.summary = "disassemble a function with samples per instruction",
	.synopsis = "[options] SYMBOL\n[options] 0xADDR[-0xEND]",
	.about = "Disassembles the sampled function SYMBOL from a sample file and shows the "
		 "samples of each instruction, with the source lines they come from: each line's "
		 "file:line, its share of the function's samples and its text.\n\n"
		 "In an object without symbols (stripped, and no debug file found by build id or "
		 "debug link), name the code by address as the report shows it: 0xADDR is the "
		 "function around it as the object's call-frame information bounds it, "
		 "0xADDR-0xEND a range.",
	.opts = options,
	.operands = CLI_V_NONE,
};

/* What failed: the symbol is missing only on -ENOENT; the rest is said as it is. */
static void annotate_error(const char *symbol, const char *input, int err)
{
	if (err == -ENOENT && !strncmp(symbol, "0x", 2))
		fprintf(stderr, "pmc annotate: no sampled code at %s in %s\n", symbol, input);
	else if (err == -ENOENT)
		fprintf(stderr,
			"pmc annotate: no sampled function '%s' with code in %s (in an object "
			"without symbols, name the code by address as pmc report shows it)\n",
			symbol, input);
	else if (err == -ERANGE)
		fprintf(stderr,
			"pmc annotate: no call-frame information bounds the code at %s: name a "
			"range, 0xSTART-0xEND\n",
			symbol);
	else if (err == -E2BIG)
		fprintf(stderr, "pmc annotate: the range %s is over 1 MiB: name a smaller one\n",
			symbol);
	else if (err == -ENOSYS)
		fprintf(stderr,
			"pmc annotate: cannot disassemble '%s': the capstone library cannot be "
			"loaded\n",
			symbol);
	else if (err == -EIO)
		fprintf(stderr, "pmc annotate: cannot write to stdout: %s\n", pmc_strerror(err));
	else
		fprintf(stderr, "pmc annotate: cannot annotate '%s': %s\n", symbol,
			pmc_strerror(err));
}

int cmd_annotate(int argc, char **argv)
{
	struct annotate_args a = {.o = {.sz = sizeof(a.o), .sort = "srcline", .no_callers = true},
				  .input = "perf.data"};
	struct pmc_file_error ferr = {0};
	struct pmc_report *r;
	const char *input;
	int first, err = cli_parse(&cmd_annotate_doc, argc, argv, &a, NULL, &first);

	if (err)
		return err < 0 ? 0 : err;
	input = a.input;
	if (first != argc - 1) {
		fprintf(stderr, "pmc annotate: name one function; see 'pmc annotate --help'\n");
		return 2;
	}
	if ((err = pmc_report__new(&a.o, &r))) {
		fprintf(stderr, "pmc annotate: %s\n", pmc_strerror(err));
		return 1;
	}
	err = pmc_report__load(r, input, &ferr);
	if (err) {
		fprintf(stderr, "pmc annotate: cannot read %s: at offset %llu: %s (%s)\n", input,
			(unsigned long long)ferr.offset, ferr.msg, pmc_strerror(err));
	} else if ((err = pmc_report__annotate(r, argv[first], a.dso, stdout))) {
		annotate_error(argv[first], input, err);
	}
	pmc_report__delete(r);
	if (!err && fflush(stdout)) {
		fprintf(stderr, "pmc annotate: cannot write to stdout: %s\n", strerror(errno));
		err = 1;
	} else if (!err && ferror(stdout)) {
		fprintf(stderr, "pmc annotate: cannot write to stdout\n");
		err = 1;
	}
	return err ? 1 : 0;
}
