// SPDX-License-Identifier: MIT
/* pmc list: every event pmc knows, by kind, and whether it can be counted here. */
#include <fnmatch.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "cli.h"

struct list_ctx {
	struct pmc_evlist *probe; /* a scratch list: each name is parsed and judged in it */
	const struct pmc_evlist_opts *eo;
	const char *pattern;
	json_t *json; /* --json: the array being built */
	int last_kind;
	size_t nr, nr_ok;
};

/* Parses and judges one name in a fresh list so verdicts never share state. */
static int judge(struct list_ctx *ctx, const struct pmc_event_info *info, char *why, size_t len)
{
	const char *name = info->name;
	struct pmc_evlist *l;
	int err = pmc_evlist__new(ctx->eo, &l);

	if (err)
		return err;
	err = pmc_evlist__parse(l, name, NULL);
	if (err && info->kind == PMC_EV_SYMBOLIC)
		snprintf(why, len,
			 "in libpfm4's tables, but the kernel exposes no PMU for it here");
	else if (err)
		snprintf(why, len, "does not resolve: %s", pmc_strerror(err));
	else
		err = pmc_evsel__check(pmc_evlist__at(l, 0), why, len);
	pmc_evlist__delete(l);
	return err;
}

static int on_event(const struct pmc_event_info *info, void *arg)
{
	struct list_ctx *ctx = arg;
	char why[512] = "";
	bool ok;

	if (ctx->pattern && fnmatch(ctx->pattern, info->name, FNM_CASEFOLD) &&
	    strcmp(ctx->pattern, pmc_event_kind__name(info->kind)))
		return 0;
	ok = !judge(ctx, info, why, sizeof(why));
	ctx->nr++;
	ctx->nr_ok += ok;
	if (ctx->json) {
		json_t *j = json_pack("{s:s, s:s, s:b}", "name", info->name, "kind",
				      pmc_event_kind__name(info->kind), "supported", ok);

		if (info->pmu)
			json_object_set_new(j, "pmu", json_string(info->pmu));
		if (info->desc)
			json_object_set_new(j, "description", json_string(info->desc));
		if (!ok)
			json_object_set_new(j, "reason", json_string(why));
		return json_array_append_new(ctx->json, j);
	}
	if ((int)info->kind != ctx->last_kind)
		printf("\n%s events:\n", pmc_event_kind__name(info->kind));
	ctx->last_kind = (int)info->kind;
	printf("  %-44s %s%s\n", info->name, ok ? "yes" : "no: ", ok ? "" : why);
	return 0;
}

enum { O_BACKEND = CLI_LONG_ONLY };

static const struct cli_opt options[] = {
	{"json", 'j', NULL, CLI_V_NONE, NULL, "print the list as JSON (schema pmc-list/1)"},
	{"backend", O_BACKEND, "NAME", CLI_V_CHOICES, "perf vpmu",
	 "the events of this backend: perf (default) or vpmu"},
	{"help", 'h', NULL, CLI_V_NONE, NULL, "this text"},
	{0},
};

const struct cli_cmd cmd_list_doc = {
	.name = "list",
	.summary = "list the events pmc knows and whether they can be counted here",
	.synopsis = "[options] [KIND|PATTERN]",
	.about = "Lists every event pmc knows, by kind, marked with whether it can be counted "
		 "on this machine and, if not, why. KIND is one of hardware, software, cache, "
		 "tracepoint, pmu, cpu; PATTERN a shell glob, matched without regard to case.",
	.opts = options,
	.operands = CLI_V_EVENTS,
};

int cmd_list(int argc, char **argv)
{
	struct pmc_evlist_opts eo = {.sz = sizeof(eo)};
	struct list_ctx ctx = {.eo = &eo, .last_kind = -1};
	struct pmc_evlist *l;
	int ch, err;

	while ((ch = cli_getopt(&cmd_list_doc, argc, argv)) != -1) {
		if (ch == 'h') {
			cli_usage(&cmd_list_doc, stdout);
			return 0;
		}
		if (ch == 'j')
			ctx.json = json_array();
		else if (ch == O_BACKEND)
			eo.backend = optarg;
		else
			return 2;
	}
	ctx.pattern = optind < argc ? argv[optind] : NULL;
	err = pmc_evlist__new(&eo, &l);
	if (err) {
		fprintf(stderr, "pmc list: backend '%s': %s\n", eo.backend, pmc_strerror(err));
		return 2;
	}
	err = pmc_evlist__for_each_known(l, on_event, &ctx);
	pmc_evlist__delete(l);
	if (ctx.json) {
		json_t *root = json_pack("{s:s, s:s, s:o}", "schema", "pmc-list/1", "backend",
					 eo.backend ? eo.backend : "perf", "events", ctx.json);

		json_dumpf(root, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(root);
	} else {
		printf("\n%zu events, %zu countable here\n", ctx.nr, ctx.nr_ok);
	}
	if (err)
		fprintf(stderr, "pmc list: %s\n", pmc_strerror(err));
	return err ? 1 : fflush(stdout) || ferror(stdout) ? 1 : 0;
}
