// SPDX-License-Identifier: MIT
/* pmc annotate: a function's disassembly (capstone) with samples per instruction and source lines.
 */
#include <capstone/capstone.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "report/capstone-api.h"
#include <pmc/bytes.h>
#include "report/report.h"
#include "report/srctext.h"

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

/* One source line of the function: the samples of every instruction it produced. */
struct src_line {
	const char *file; /* interned: the same pointer for the same file */
	int line;
	uint64_t samples;
	bool shown; /* its share and text were printed: a later run of it shows file:line only */
};

/* A source file the function's lines come from: its text, or why it cannot be shown. */
struct src_file {
	const char *file;
	struct pmc__srctext *text; /* NULL when it could not be read */
	int err;
};

struct annotation {
	struct pmc_report *r;
	struct pmc__dso *dso;
	const cs_insn *insn;
	size_t nr_insn;
	uint64_t *samples; /* per instruction */
	uint64_t total;
	struct src_line *lines; /* one per (file, line) of the function */
	size_t nr_lines;
	struct src_file *files;
	size_t nr_files;
	bool source; /* show the source text (not opts.no_source) */
};

static struct src_line *src_line_of(struct annotation *a, const struct pmc__symres *res)
{
	for (size_t i = 0; i < a->nr_lines; i++)
		if (a->lines[i].file == res->srcfile && a->lines[i].line == res->line)
			return &a->lines[i];
	return NULL;
}

/* The file's text, read on first use; NULL (with the reason kept) when it cannot be. */
static struct src_file *src_file_of(struct annotation *a, const char *file)
{
	struct src_file *f;

	for (size_t i = 0; i < a->nr_files; i++)
		if (a->files[i].file == file)
			return &a->files[i];
	f = &a->files[a->nr_files++]; /* room for one per line (gather_lines) */
	f->file = file;
	f->err = pmc__srctext_load(file, &f->text);
	return f;
}

/* Each instruction's samples, their sums per source line, and the source files' text. */
static int gather_lines(struct annotation *a)
{
	a->samples = calloc(a->nr_insn + 1, sizeof(*a->samples));
	a->lines = calloc(a->nr_insn + 1, sizeof(*a->lines));
	a->files = calloc(a->nr_insn + 1, sizeof(*a->files));
	if (!a->samples || !a->lines || !a->files)
		return -ENOMEM;
	for (size_t i = 0; i < a->nr_insn; i++) {
		const struct pmc__symres *res = pmc__dso_resolve(a->dso, a->insn[i].address);
		struct src_line *l;
		a->samples[i] = samples_at(a->r, a->dso, a->insn[i].address);
		a->total += a->samples[i];
		if (!res || !res->srcfile)
			continue;
		l = src_line_of(a, res);
		if (!l) {
			l = &a->lines[a->nr_lines++];
			*l = (struct src_line){res->srcfile, res->line, 0, false};
			if (a->source) /* read here, so that the notes can precede the code */
				src_file_of(a, res->srcfile);
		}
		l->samples += a->samples[i];
	}
	return 0;
}

static double percent(uint64_t k, uint64_t total)
{
	return total ? 100.0 * (double)k / (double)total : 0.0;
}

/* Tabs as spaces to the next multiple of 8, so that columns stay where the file has them. */
static void expand_tabs(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; *s && n + 1 < len; s++) {
		if (*s != '\t') {
			buf[n++] = *s;
			continue;
		}
		do
			buf[n++] = ' ';
		while (n % 8 && n + 1 < len);
	}
	buf[n] = 0;
}

/*
 * The header of a run of instructions from one source line: the line's share of the
 * function's samples (all its instructions, wherever they are), file:line, and the text of
 * the line where the file can be read. The share and the text are the line's, printed once:
 * a later run of the same line (code the compiler interleaved) is headed by file:line alone,
 * so that no sum is shown twice.
 */
static void print_source(struct annotation *a, const struct pmc__symres *res, FILE *out)
{
	struct src_line *l = src_line_of(a, res);
	const struct src_file *f = a->source ? src_file_of(a, res->srcfile) : NULL;
	const char *text = f ? pmc__srctext_line(f->text, res->line) : NULL;
	char buf[8 * PMC__SRCTEXT_MAX_COLS + 1];

	if (l->shown) {
		fprintf(out, "%18s", "");
		pmc_fput_printable(out, res->srcline);
		fputs("  (continued)\n", out);
		return;
	}
	l->shown = true;
	fprintf(out, "%7.2f%% %8" PRIu64 "  ", percent(l->samples, a->total), l->samples);
	pmc_fput_printable(out, res->srcline);
	if (res->inlined) {
		fputs("  [inlined ", out);
		pmc_fput_printable(out, res->inlined);
		fputc(']', out);
	}
	if (text) {
		expand_tabs(text, buf, sizeof(buf));
		fputs("  | ", out);
		pmc_fput_printable(out, buf);
	}
	fputc('\n', out);
}

static void print_insns(struct annotation *a, FILE *out)
{
	const char *last_line = NULL;
	char target[512];

	for (size_t i = 0; i < a->nr_insn; i++) {
		const cs_insn *in = &a->insn[i];
		const struct pmc__symres *res = pmc__dso_resolve(a->dso, in->address);
		if (a->source && res && res->srcline && res->srcline != last_line) {
			print_source(a, res, out);
			last_line = res->srcline;
		}
		branch_target(a->dso, in, target, sizeof(target));
		fprintf(out, "%7.2f%% %8" PRIu64 "  %8" PRIx64 ":  %-8s %s%s\n",
			percent(a->samples[i], a->total), a->samples[i], in->address, in->mnemonic,
			in->op_str, target);
	}
}

/* A note for each source file whose text is not shown, saying why. */
static void print_notes(const struct annotation *a, FILE *out)
{
	for (size_t i = 0; i < a->nr_files; i++) {
		if (!a->files[i].err)
			continue;
		fputs("# note: ", out);
		pmc_fput_printable(out, a->files[i].file);
		fprintf(out, ": %s; its lines are shown as file:line only\n",
			pmc__srctext_why(a->files[i].err));
	}
}

static void annotation_free(struct annotation *a)
{
	for (size_t i = 0; a->files && i < a->nr_files; i++)
		pmc__srctext_free(a->files[i].text);
	free(a->files);
	free(a->lines);
	free(a->samples);
}

/* What to disassemble: a function's bytes, or an address range of an object without symbols. */
struct target {
	struct pmc__dso *dso;
	const char *name;
	uint64_t start, size;
};

#define MAX_RANGE (1u << 20) /* bytes of a range given by address */

/* "0xSTART" or "0xSTART-0xEND" (hex, file virtual addresses as the report shows them). */
static bool parse_range(const char *s, uint64_t *lo, uint64_t *hi)
{
	char *end;

	*hi = 0;
	if (strncmp(s, "0x", 2))
		return false;
	*lo = strtoull(s, &end, 16);
	if (*end == '-') {
		if (strncmp(end + 1, "0x", 2))
			return false;
		*hi = strtoull(end + 1, &end, 16);
		if (*hi <= *lo)
			return false;
	}
	return !*end;
}

/* Whether dso has a sample in [lo, hi). */
static bool sampled_in(const struct pmc_report *r, const struct pmc__dso *dso, uint64_t lo,
		       uint64_t hi)
{
	for (size_t i = 0; i < r->ip_hist.cap; i++) {
		const struct ip_count *ic = r->ip_hist.vals[i];
		if (ic && ic->dso == dso && ic->res->addr >= lo && ic->res->addr < hi)
			return true;
	}
	return false;
}

#define MAX_DSOS 32 /* sampled objects tried for an address */

/*
 * The code of a sampled, user-space object at an address: the range given, or the extent of
 * the function that holds the address as its call-frame information (.eh_frame) says, which
 * even a stripped object keeps; the first object (whose path contains dso_filter) with a
 * sample there. -ENOENT: none; -ERANGE: no extent known where an object has a sample.
 */
static int find_range(struct pmc_report *r, const char *what, const char *dso_filter,
		      struct target *t)
{
	const struct pmc__dso *tried[MAX_DSOS];
	size_t nr_tried = 0;
	uint64_t lo, hi;
	int err = -ENOENT;

	if (!parse_range(what, &lo, &hi))
		return -ENOENT;
	for (size_t i = 0; i < r->ip_hist.cap && nr_tried < MAX_DSOS; i++) {
		const struct ip_count *ic = r->ip_hist.vals[i];
		uint64_t s = lo, e = hi;
		size_t j;
		if (!ic || ic->dso->kernel || (dso_filter && !strstr(ic->dso->path, dso_filter)))
			continue;
		for (j = 0; j < nr_tried && tried[j] != ic->dso; j++)
			;
		if (j < nr_tried)
			continue;
		tried[nr_tried++] = ic->dso;
		if (!e && pmc__dso_code_range(ic->dso, lo, &s, &e)) {
			err = sampled_in(r, ic->dso, lo, lo + 1) ? -ERANGE : err;
			continue;
		}
		if (!sampled_in(r, ic->dso, s, e))
			continue;
		if (e - s > MAX_RANGE)
			return -E2BIG;
		*t = (struct target){ic->dso, "[unknown]", s, e - s};
		return 0;
	}
	return err;
}

static int find_target(struct pmc_report *r, const char *what, const char *dso_filter,
		       struct target *t)
{
	const struct pmc__sym *sym = NULL;
	struct pmc__dso *dso = find_dso(r, what, dso_filter, &sym);

	if (dso && !dso->kernel && !pmc__dso_find_symbol(dso, what, &t->start, &t->size) &&
	    t->size) {
		t->dso = dso;
		t->name = sym->name;
		return 0;
	}
	return find_range(r, what, dso_filter, t);
}

static int annotate(struct pmc_report *r, const struct target *t, const uint8_t *code, size_t len,
		    FILE *out)
{
	const struct pmc__cs_api *cs = pmc__cs_api();
	struct annotation a = {.r = r, .dso = t->dso, .source = !r->opts.no_source};
	cs_insn *insn = NULL;
	csh h;
	int err;

	if (cs->open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
		return -ENOENT;
	a.nr_insn = cs->disasm(h, code, len, t->start, 0, &insn);
	a.insn = insn;
	err = gather_lines(&a);
	if (!err) {
		fputs("# ", out);
		pmc_fput_printable(out, t->name);
		fputs(" (", out);
		pmc_fput_printable(out, t->dso->path);
		fprintf(out, "): %" PRIu64 " samples, %" PRIu64 " bytes at 0x%" PRIx64 "\n",
			a.total, t->size, t->start);
		if (a.source)
			print_notes(&a, out);
		fprintf(out, "# Percent  Samples   Address   Instruction%s\n",
			a.source ? " (source lines: their instructions' sum)" : "");
		print_insns(&a, out);
	}
	annotation_free(&a);
	if (insn)
		cs->free(insn, a.nr_insn);
	cs->close(&h);
	return err;
}

int pmc_report__annotate(struct pmc_report *r, const char *symbol, const char *dso_filter,
			 FILE *out)
{
	struct target t;
	uint8_t *code;
	size_t len;
	int err;

	if (!pmc__cs_api())
		return -ENOSYS; /* capstone cannot be loaded */
	if ((err = find_target(r, symbol, dso_filter, &t)))
		return err;
	code = malloc(t.size);
	if (!code)
		return -ENOMEM;
	len = pmc__dso_read(t.dso, t.start, code, t.size);
	err = len ? annotate(r, &t, code, len, out) : -ENOENT;
	free(code);
	if (err)
		return err;
	return ferror(out) ? -EIO : 0;
}
