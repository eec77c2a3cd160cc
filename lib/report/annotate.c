// SPDX-License-Identifier: MIT
/* pmc annotate: a function's disassembly (capstone) with samples per instruction and source lines.
 */
#include <capstone/capstone.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "report/capstone-api.h"
#include "report/report.h"

/*
 * The sampled DSO holding symbol (in a DSO whose path contains dso_filter, if given); symbol
 * is a name as the report shows it, or as the object spells it (demangled here to compare).
 */
static struct pmc__dso *find_dso(struct pmc_report *r, const char *symbol, const char *dso_filter,
				 const struct pmc__sym **sym)
{
	const char *shown = pmc__symtab_demangle(r->st, symbol);

	for (size_t i = 0; shown && i < r->ip_hist.cap; i++) {
		const struct ip_count *ic = r->ip_hist.vals[i];
		if (!ic || ic->res->sym->name != shown)
			continue;
		if (dso_filter && !strstr(ic->dso->path, dso_filter))
			continue;
		*sym = ic->res->sym;
		return ic->dso;
	}
	return NULL;
}

static uint64_t samples_at(struct pmc_report *r, struct pmc__dso *dso, uint64_t addr)
{
	const struct pmc__symres *res = pmc__dso_resolve(dso, addr);
	const struct ip_count *ic = res ? pmc__addrmap_get(&r->ip_hist, (uintptr_t)res) : NULL;

	return ic ? ic->samples : 0;
}

/*
 * " <sym+0xoff>" for a direct jump or call whose target a symbol of the DSO holds (as
 * objdump and perf annotate show it), else "".
 */
static void branch_target(struct pmc__dso *dso, const cs_insn *in, char *buf, size_t len)
{
	const struct pmc__symres *res;
	char *end;
	uint64_t t;

	buf[0] = 0;
	if ((in->mnemonic[0] != 'j' && strncmp(in->mnemonic, "call", 4) &&
	     strncmp(in->mnemonic, "loop", 4)) ||
	    strncmp(in->op_str, "0x", 2))
		return;
	t = strtoull(in->op_str, &end, 16);
	if (*end || !(res = pmc__dso_resolve(dso, t)) || res->sym->unnamed)
		return;
	snprintf(buf, len, " <%s+0x%" PRIx64 ">", res->sym->name, t - res->sym->start);
}

static void print_insns(struct pmc_report *r, struct pmc__dso *dso, const cs_insn *insn, size_t n,
			uint64_t total, FILE *out)
{
	const char *last_line = NULL;
	char target[512];

	for (size_t i = 0; i < n; i++) {
		const struct pmc__symres *res = pmc__dso_resolve(dso, insn[i].address);
		uint64_t k = samples_at(r, dso, insn[i].address);
		if (res && res->srcline && res->srcline != last_line) {
			fprintf(out, "%28s%s%s%s\n", "", res->srcline,
				res->inlined ? "  (inlined " : "",
				res->inlined ? res->inlined : "");
			if (res->inlined)
				fputs(")\n", out);
			last_line = res->srcline;
		}
		branch_target(dso, &insn[i], target, sizeof(target));
		fprintf(out, "%7.2f%% %8" PRIu64 "  %8" PRIx64 ":  %-8s %s%s\n",
			total ? 100.0 * (double)k / (double)total : 0.0, k, insn[i].address,
			insn[i].mnemonic, insn[i].op_str, target);
	}
}

int pmc_report__annotate(struct pmc_report *r, const char *symbol, const char *dso_filter,
			 FILE *out)
{
	const struct pmc__sym *sym = NULL;
	struct pmc__dso *dso = find_dso(r, symbol, dso_filter, &sym);
	uint64_t start, size, total = 0;
	uint8_t *code;
	const struct pmc__cs_api *cs = pmc__cs_api();
	cs_insn *insn = NULL;
	csh h;
	size_t n, len;

	if (!cs)
		return -ENOSYS; /* capstone cannot be loaded */
	if (!dso || dso->kernel || pmc__dso_find_symbol(dso, symbol, &start, &size) || !size)
		return -ENOENT;
	code = malloc(size);
	if (!code)
		return -ENOMEM;
	len = pmc__dso_read(dso, start, code, size);
	if (!len || cs->open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK) {
		free(code);
		return -ENOENT;
	}
	n = cs->disasm(h, code, len, start, 0, &insn);
	for (size_t i = 0; i < n; i++)
		total += samples_at(r, dso, insn[i].address);
	fprintf(out, "# %s (%s): %" PRIu64 " samples, %" PRIu64 " bytes at 0x%" PRIx64 "\n",
		sym->name, dso->path, total, size, start);
	fprintf(out, "# Percent  Samples   Address   Instruction\n");
	print_insns(r, dso, insn, n, total, out);
	if (insn)
		cs->free(insn, n);
	cs->close(&h);
	free(code);
	(void)sym;
	return ferror(out) ? -EIO : 0;
}
