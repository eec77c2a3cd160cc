// SPDX-License-Identifier: MIT
/* The report's sort keys: names, the value each key takes for a sample, and its display text. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "core/log.h"
#include "report/report.h"

static const struct {
	const char *name, *alias;
} key_names[K_NR] = {
	[K_SYM] = {"symbol", "sym"},
	[K_DSO] = {"dso", NULL},
	[K_SRCLINE] = {"srcline", NULL},
	[K_INLINE] = {"inline", NULL},
	[K_IP] = {"ip", "addr"},
	[K_COMM] = {"comm", NULL},
	[K_PID] = {"pid", NULL},
	[K_TID] = {"tid", "thread"},
	[K_RANK] = {"rank", NULL},
	[K_DADDR] = {"daddr", "symbol_daddr"},
	[K_DSYM] = {"dsym", "dso_daddr"},
	[K_DCACHELINE] = {"dcacheline", NULL},
	[K_DPAGE] = {"dpage", NULL},
	[K_DSRC] = {"dsrc", "mem"},
	[K_WEIGHT] = {"weight", "local_weight"},
	[K_SYM_FROM] = {"symbol_from", NULL},
	[K_SYM_TO] = {"symbol_to", NULL},
	[K_DSO_FROM] = {"dso_from", NULL},
	[K_DSO_TO] = {"dso_to", NULL},
	[K_ADDR_FROM] = {"addr_from", NULL},
	[K_ADDR_TO] = {"addr_to", NULL},
	[K_MISPRED] = {"mispredict", NULL},
};

const char *pmc__report_key_name(enum rkey k)
{
	return key_names[k].name;
}

static int find_key(const char *tok)
{
	for (int k = 0; k < K_NR; k++)
		if (!strcmp(tok, key_names[k].name) ||
		    (key_names[k].alias && !strcmp(tok, key_names[k].alias)))
			return k;
	return -1;
}

static int add_key(struct pmc_report *r, int k, const char *tok)
{
	if (k < 0 || r->nr_keys == MAX_KEYS) {
		pr_err("%s sort key '%s'; known: symbol dso srcline inline ip comm pid tid rank "
		       "daddr "
		       "dsym dcacheline dpage dsrc weight, and for branch stacks symbol_from "
		       "symbol_to dso_from dso_to addr_from addr_to mispredict branch\n",
		       k < 0 ? "unknown" : "one too many:", tok);
		return -PMC_E_CONFIG;
	}
	r->keys[r->nr_keys++] = (enum rkey)k;
	r->want_srclines |= k == K_SRCLINE || k == K_INLINE;
	r->want_data |= k >= K_DADDR && k < K_BRANCH_FIRST;
	r->branch_mode |= k >= K_BRANCH_FIRST;
	return 0;
}

int pmc__report_parse_keys(struct pmc_report *r, const char *sort)
{
	/* perf report -b's default keys, without its cycles (no LBR here counts them). */
	const char *dflt = r->opts.branch_stack || r->opts.branch_analysis
				   ? "comm,dso_from,symbol_from,symbol_to"
				   : "symbol";
	char *copy = strdup(sort ? sort : dflt), *save = NULL;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	r->branch_mode = r->opts.branch_stack || r->opts.branch_analysis;
	for (char *t = strtok_r(copy, ",", &save); t && !ret; t = strtok_r(NULL, ",", &save)) {
		if (strcmp(t, "branch")) {
			ret = add_key(r, find_key(t), t);
			continue;
		}
		/* "branch": where from, where to, and whether it was mispredicted. */
		ret = add_key(r, K_ADDR_FROM, t);
		ret = ret ? ret : add_key(r, K_ADDR_TO, t);
		ret = ret ? ret : add_key(r, K_MISPRED, t);
	}
	free(copy);
	if (!ret && r->branch_mode && (r->opts.folded || r->opts.html)) {
		pr_err("branch mode (-b, a branch key, --branch-analysis) writes text, csv or "
		       "json: "
		       "its entries are branches, not call chains\n");
		ret = -PMC_E_CONFIG;
	}
	if (ret)
		return ret;
	return r->nr_keys ? 0 : -PMC_E_CONFIG;
}

uint64_t pmc__report_key(const struct pmc_report *r, enum rkey k, const struct rctx *c)
{
	const struct pmc__symres *res = c->frame.res;

	switch (k) {
	case K_SYM:
		return (uintptr_t)res->sym;
	case K_DSO:
		return (uintptr_t)c->frame.dso;
	case K_SRCLINE:
		return res->srcline ? (uintptr_t)res->srcline : (uintptr_t)res->sym;
	case K_INLINE:
		return res->inlined ? (uintptr_t)res->inlined : (uintptr_t)res->sym->name;
	case K_IP:
		return (uintptr_t)res;
	case K_COMM:
		return (uintptr_t)c->comm;
	case K_PID:
		return c->thread->pid;
	case K_TID:
		return c->thread->tid;
	case K_RANK:
		return c->rank;
	case K_DADDR:
		return c->has_daddr ? c->daddr : UINT64_MAX;
	case K_DSYM:
		if (c->dres)
			return (uintptr_t)c->dres->sym;
		return c->ddso ? (uintptr_t)c->ddso : UINT64_MAX;
	case K_DCACHELINE:
		return c->has_daddr ? c->daddr & ~63ull : UINT64_MAX;
	case K_DPAGE:
		return c->has_daddr ? c->daddr & ~4095ull : UINT64_MAX;
	case K_DSRC:
		return c->data_src;
	case K_WEIGHT:
		return c->weight;
	case K_SYM_FROM:
	case K_SYM_TO:
		return (uintptr_t)(k == K_SYM_FROM ? &c->bfrom : &c->bto)->res->sym;
	case K_DSO_FROM:
		return (uintptr_t)c->bfrom.dso;
	case K_DSO_TO:
		return (uintptr_t)c->bto.dso;
	case K_ADDR_FROM:
		return (uintptr_t)c->bfrom.res;
	case K_ADDR_TO:
		return (uintptr_t)c->bto.res;
	case K_MISPRED:
		return c->bflags & 1;
	case K_NR:
		break;
	}
	return 0;
}

/* perf_mem_data_src's memory level, as "L1 hit", "RAM miss", ... */
static void dsrc_text(uint64_t v, char *buf, size_t len)
{
	static const struct {
		uint64_t bit;
		const char *name;
	} lvls[] = {
		{PERF_MEM_LVL_L1, "L1"},
		{PERF_MEM_LVL_LFB, "LFB"},
		{PERF_MEM_LVL_L2, "L2"},
		{PERF_MEM_LVL_L3, "L3"},
		{PERF_MEM_LVL_LOC_RAM, "Local RAM"},
		{PERF_MEM_LVL_REM_RAM1, "Remote RAM (1 hop)"},
		{PERF_MEM_LVL_REM_RAM2, "Remote RAM (2 hops)"},
		{PERF_MEM_LVL_REM_CCE1, "Remote Cache (1 hop)"},
		{PERF_MEM_LVL_REM_CCE2, "Remote Cache (2 hops)"},
		{PERF_MEM_LVL_IO, "I/O"},
		{PERF_MEM_LVL_UNC, "Uncached"},
	};
	union perf_mem_data_src d = {.val = v};
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(lvls) / sizeof(lvls[0]); i++)
		if (d.mem_lvl & lvls[i].bit)
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s",
					      n ? " or " : "", lvls[i].name);
	if (!n) {
		snprintf(buf, len, v ? "N/A (0x%" PRIx64 ")" : "N/A", v);
		return;
	}
	if (n < len)
		snprintf(buf + n, len - n, "%s",
			 d.mem_lvl & PERF_MEM_LVL_HIT	 ? " hit"
			 : d.mem_lvl & PERF_MEM_LVL_MISS ? " miss"
							 : "");
}

static int sym_text(const struct rframe *f, char *buf, size_t len)
{
	return snprintf(buf, len, "[%c] %s", f->kernel ? 'k' : '.', f->res->sym->name);
}

int pmc__report_addr_text(const struct pmc__symres *res, char *buf, size_t len)
{
	uint64_t off = res->addr - res->sym->start;

	/* Outside every symbol the name is the address already. */
	if (res->sym->unnamed && !off)
		return snprintf(buf, len, "%s", res->sym->name);
	return snprintf(buf, len, "%s+0x%" PRIx64, res->sym->name, off);
}

static int addr_text(const struct rframe *f, char *buf, size_t len)
{
	return pmc__report_addr_text(f->res, buf, len);
}

static int branch_text(enum rkey k, const struct rctx *c, char *buf, size_t len)
{
	switch (k) {
	case K_SYM_FROM:
		return sym_text(&c->bfrom, buf, len);
	case K_SYM_TO:
		return sym_text(&c->bto, buf, len);
	case K_DSO_FROM:
		return snprintf(buf, len, "%s", c->bfrom.dso->short_name);
	case K_DSO_TO:
		return snprintf(buf, len, "%s", c->bto.dso->short_name);
	case K_ADDR_FROM:
		return addr_text(&c->bfrom, buf, len);
	case K_ADDR_TO:
		return addr_text(&c->bto, buf, len);
	default: /* K_MISPRED: perf report's "Branch Mispredicted" column */
		return snprintf(buf, len, "%s", c->bflags & 1 ? "Y" : "N");
	}
}

static int data_text(enum rkey k, const struct rctx *c, char *buf, size_t len)
{
	const char *mark = c->reconstructed ? "*" : "";

	if (!c->has_daddr && k != K_DSRC && k != K_WEIGHT)
		return snprintf(buf, len, "[no data address]");
	switch (k) {
	case K_DADDR:
		return snprintf(buf, len, "0x%016" PRIx64 "%s", c->daddr, mark);
	case K_DSYM:
		if (c->dres)
			return snprintf(buf, len, "%s (%s)", c->dres->sym->name,
					c->ddso->short_name);
		/* [heap] and [stack] are named so by the kernel already; //anon is [anon]. */
		if (c->ddso && c->ddso->short_name[0] == '[')
			return snprintf(buf, len, "%s", c->ddso->short_name);
		return snprintf(buf, len, "[%s]", c->ddso ? c->ddso->short_name : "unknown");
	case K_DCACHELINE:
		return snprintf(buf, len, "0x%016" PRIx64, c->daddr & ~(uint64_t)63);
	case K_DPAGE:
		return snprintf(buf, len, "0x%016" PRIx64, c->daddr & ~(uint64_t)4095);
	case K_DSRC:
		dsrc_text(c->data_src, buf, len);
		return (int)strlen(buf);
	case K_WEIGHT:
		return snprintf(buf, len, "%" PRIu64, c->weight);
	default:
		return 0;
	}
}

int pmc__report_one_text(enum rkey k, const struct rctx *c, char *buf, size_t len)
{
	const struct pmc__symres *res = c->frame.res;

	switch (k) {
	case K_SYM:
		return sym_text(&c->frame, buf, len);
	case K_DSO:
		return snprintf(buf, len, "%s", c->frame.dso->short_name);
	case K_SRCLINE:
		return res->srcline ? snprintf(buf, len, "%s", res->srcline)
				    : snprintf(buf, len, "%s (no line)", res->sym->name);
	case K_INLINE:
		return snprintf(buf, len, "%s%s", res->inlined ? res->inlined : res->sym->name,
				res->inlined ? " (inlined)" : "");
	case K_IP:
		return snprintf(buf, len, "%s+0x%" PRIx64 " (%s)", res->sym->name,
				res->addr - res->sym->start, c->frame.dso->short_name);
	case K_COMM:
		return snprintf(buf, len, "%s", c->comm);
	case K_PID:
		return snprintf(buf, len, "%u:%s", c->thread->pid, c->comm);
	case K_TID:
		return snprintf(buf, len, "%u:%s", c->thread->tid, c->comm);
	case K_RANK:
		return snprintf(buf, len, "%" PRIu64, c->rank);
	default:
		return k >= K_BRANCH_FIRST ? branch_text(k, c, buf, len)
					   : data_text(k, c, buf, len);
	}
}

int pmc__report_key_text(const struct pmc_report *r, const struct hent *e, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < r->nr_keys && n < len; i++) {
		/* A source followed by its target reads "from -> to". */
		bool arrow = i && ((r->keys[i] == K_SYM_TO && r->keys[i - 1] == K_SYM_FROM) ||
				   (r->keys[i] == K_ADDR_TO && r->keys[i - 1] == K_ADDR_FROM));

		if (i)
			n += (size_t)snprintf(buf + n, len - n, arrow ? " -> " : "  ");
		if (n < len)
			n += (size_t)pmc__report_one_text(r->keys[i], &e->rep, buf + n, len - n);
	}
	return (int)n;
}
