// SPDX-License-Identifier: MIT
/* One DSO: opened with libdwfl on first use; each address resolved once and cached. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/error.h>
#include <pmc/infile.h>
#include "core/log.h"
#include "symbol/debuginfo.h"
#include "symbol/dw-api.h"
#include "symbol/ehframe.h"
#include "symbol/perfmap.h"
#include "symbol/symindex.h"
#include "symbol/symtab.h"

struct load {
	uint64_t offset, vaddr, filesz, memsz;
};

struct dso_impl {
	const struct pmc__dw_api *dw; /* NULL for the kernel, or when libdw cannot be loaded */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	Elf *elf;
	int fd;
	Dwarf_Addr bias; /* where libdwfl placed the module: its addresses are vaddr + bias */
	struct load *loads;
	size_t nr_loads;
	struct pmc__addrmap cache; /* vaddr → struct pmc__symres */
	struct pmc__addrmap syms;  /* start → struct pmc__sym */
	struct pmc__perfmap *jit;  /* a JIT's map (dso->jitmap), read on the first address */
	bool jit_tried;
	struct pmc__symindex *ix; /* the ELF symbols by address, made on the first address */
	bool ix_tried;
};

static void read_loads(struct dso_impl *im)
{
	size_t n = 0;

	if (im->dw->elf_getphdrnum(im->elf, &n) || !n)
		return;
	im->loads = calloc(n, sizeof(*im->loads));
	for (size_t i = 0; im->loads && i < n; i++) {
		GElf_Phdr ph;
		if (im->dw->gelf_getphdr(im->elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			im->loads[im->nr_loads++] =
				(struct load){ph.p_offset, ph.p_vaddr, ph.p_filesz, ph.p_memsz};
	}
}

/* Opens the file once; a DSO that cannot be opened resolves every address to "0x...". */
static struct dso_impl *dso_open(struct pmc__dso *d)
{
	struct dso_impl *im;
	int fd;

	if (d->tried)
		return d->impl;
	d->tried = true;
	im = d->impl = calloc(1, sizeof(*im));
	if (!im)
		return NULL;
	im->fd = -1;
	if (d->kernel || d->jitmap || d->mismatch)
		return im;
	im->dw = pmc__dw_api(); /* the first DSO opened loads libdw */
	if (!im->dw)
		return im;
	im->dwfl = im->dw->dwfl_begin(&pmc__dwfl_callbacks()->offline);
	if (!im->dwfl)
		return im;
	/*
	 * The path comes from the sample file: only a regular file is read (a FIFO planted
	 * under a mapped object's name would hang the report). On success libdwfl owns fd.
	 */
	fd = pmc_open_input(d->file ? d->file : d->path);
	if (fd == -PMC_E_NOTREG)
		pr_warn("%s, mapped in the recording, is not a regular file: its samples stay "
			"unnamed\n",
			d->path);
	if (fd >= 0) {
		im->mod = im->dw->dwfl_report_offline(im->dwfl, d->short_name,
						      d->file ? d->file : d->path, fd);
		if (!im->mod)
			close(fd);
	}
	im->dw->dwfl_report_end(im->dwfl, NULL, NULL);
	if (!im->mod)
		return im;
	im->elf = im->dw->dwfl_module_getelf(im->mod, &im->bias);
	if (im->elf)
		read_loads(im);
	d->usable = im->elf != NULL;
	return im;
}

uint64_t pmc__dso_offset_to_vaddr(struct pmc__dso *d, uint64_t off)
{
	struct dso_impl *im = dso_open(d);

	for (size_t i = 0; im && i < im->nr_loads; i++) {
		const struct load *l = &im->loads[i];
		if (off >= l->offset && off < l->offset + l->filesz)
			return off - l->offset + l->vaddr;
	}
	return off;
}

int pmc__dso_bss_vaddr(struct pmc__dso *d, uint64_t off, uint64_t *vaddr)
{
	struct dso_impl *im = dso_open(d);

	for (size_t i = 0; im && i < im->nr_loads; i++) {
		const struct load *l = &im->loads[i];
		if (off >= l->offset + l->filesz && off - l->offset < l->memsz) {
			*vaddr = l->vaddr + (off - l->offset);
			return 0;
		}
	}
	return -ENOENT;
}

static struct pmc__sym *get_sym(struct pmc__dso *d, struct dso_impl *im, const char *name,
				uint64_t start, uint64_t size)
{
	struct pmc__sym *s = pmc__addrmap_get(&im->syms, start);

	if (s)
		return s;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	/* The kernel's names are never demangled (perf neither: its Rust code's _R names). */
	*s = (struct pmc__sym){.dso = d,
			       .name = d->kernel ? pmc__symtab_intern(d->st, name)
						 : pmc__symtab_demangle(d->st, name),
			       .start = start,
			       .size = size};
	if (!s->name || pmc__addrmap_put(&im->syms, start, s)) {
		free(s);
		return NULL;
	}
	return s;
}

/* A kernel address's symbol (kallsyms.c), or "0x..." for an address it names no symbol at. */
static struct pmc__sym *kernel_sym(struct pmc__dso *d, struct dso_impl *im, uint64_t addr)
{
	struct ksym *k = pmc__kallsyms_find(d->st, addr);
	struct pmc__sym *sym;
	char buf[32];

	if (!k) {
		snprintf(buf, sizeof(buf), "0x%016" PRIx64, addr);
		sym = get_sym(d, im, buf, addr, 0);
		if (sym)
			sym->unnamed = true;
		return sym;
	}
	if (!k->sym)
		k->sym = get_sym(d, im, k->name, k->addr, 0);
	return k->sym;
}

/* The innermost DW_TAG_inlined_subroutine around addr, by name. */
static const char *inlined_at(struct pmc__dso *d, struct dso_impl *im, uint64_t addr)
{
	const struct pmc__dw_api *dw = im->dw;
	Dwarf_Addr bias;
	Dwarf_Die *cu = dw->dwfl_module_addrdie(im->mod, addr + im->bias, &bias), *scopes = NULL;
	const char *name = NULL;
	int n;

	if (!cu)
		return NULL;
	n = dw->dwarf_getscopes(cu, addr + im->bias - bias, &scopes);
	for (int i = 0; i < n; i++) {
		if (dw->dwarf_tag(&scopes[i]) == DW_TAG_inlined_subroutine) {
			name = dw->dwarf_diename(&scopes[i]);
			break;
		}
		if (dw->dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			break;
	}
	free(scopes);
	return name ? pmc__symtab_intern(d->st, name) : NULL;
}

static void resolve_line(struct pmc__dso *d, struct dso_impl *im, struct pmc__symres *r)
{
	Dwfl_Line *l = im->dw->dwfl_module_getsrc(im->mod, r->addr + im->bias);
	char buf[512];
	const char *file, *base;
	int line = 0;

	if (!l || !(file = im->dw->dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL)))
		return;
	base = strrchr(file, '/');
	base = base ? base + 1 : file;
	snprintf(buf, sizeof(buf), "%s:%d", base, line);
	r->srcline = pmc__symtab_intern(d->st, buf);
	r->srcfile = pmc__symtab_intern(d->st, file);
	r->line = line;
	r->inlined = inlined_at(d, im, r->addr);
}

/*
 * An address no symbol holds: named by itself. In an object that is not the one recorded
 * (buildid.h) addresses mean nothing: one mark holds them all.
 */
static void unnamed(struct pmc__dso *d, struct dso_impl *im, struct pmc__symres *r)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "0x%016" PRIx64, r->addr);
	if (d->mismatch)
		r->sym = get_sym(d, im, "[build id mismatch]", 0, 0);
	else
		r->sym = get_sym(d, im, buf, r->addr, 1);
	if (r->sym)
		r->sym->unnamed = true;
}

/*
 * The symbol libdwfl names addr by: from the index (symindex.h) where it answers, else from
 * dwfl_module_addrinfo, which reads the table for each address.
 */
static const char *elf_symbol(struct dso_impl *im, uint64_t addr, GElf_Off *off, GElf_Sym *sym)
{
	uint64_t value, size;
	const char *name;

	if (!im->ix_tried) {
		im->ix_tried = true;
		(void)pmc__symindex_new(im->dw, im->mod, im->elf, &im->ix); /* NULL: no index */
	}
	if (im->ix && !pmc__symindex_find(im->ix, addr, &name, &value, &size)) {
		*off = addr - value;
		sym->st_size = size;
		return name;
	}
	return im->dw->dwfl_module_addrinfo(im->mod, addr, off, sym, NULL, NULL, NULL);
}

static void resolve_elf(struct pmc__dso *d, struct dso_impl *im, struct pmc__symres *r)
{
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *name = NULL;

	if (im->mod)
		name = elf_symbol(im, r->addr + im->bias, &off, &sym);
	if (name) {
		r->sym = get_sym(d, im, name, r->addr - off, sym.st_size);
		if (d->st->opts.srclines)
			resolve_line(d, im, r);
		return;
	}
	unnamed(d, im, r);
}

/* Why a JIT's map was not read, for a warning (perfmap.h says which codes). */
static const char *perfmap_refusal(int err)
{
	switch (err) {
	case -ELOOP:
		return "it is a symbolic link, which pmc does not follow in a shared folder";
	case -EPERM:
		return "it is owned by neither this user nor root, so anyone could have written it";
	case -EFBIG:
		return "it is larger than 256 MiB";
	default:
		return pmc_strerror(err);
	}
}

/* A JIT-compiled address: named by the JIT's /tmp/perf-PID.map, read on first use. */
static void resolve_jit(struct pmc__dso *d, struct dso_impl *im, struct pmc__symres *r)
{
	const char *name;
	uint64_t start, size;

	if (!im->jit_tried) {
		int err = pmc__perfmap_load(d->st, d->path, &im->jit);
		im->jit_tried = true;
		if (err && err != -ENOENT)
			pr_warn("%s not read: %s; the JIT code's samples stay unnamed\n", d->path,
				perfmap_refusal(err));
	}
	if (im->jit && !pmc__perfmap_find(im->jit, r->addr, &name, &start, &size))
		r->sym = get_sym(d, im, name, start, size);
	else
		unnamed(d, im, r);
}

const struct pmc__symres *pmc__dso_resolve(struct pmc__dso *d, uint64_t vaddr)
{
	struct dso_impl *im = dso_open(d);
	struct pmc__symres *r;

	if (!im)
		return NULL;
	r = pmc__addrmap_get(&im->cache, vaddr);
	if (r)
		return r;
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	r->addr = vaddr;
	if (d->mismatch)
		unnamed(d, im, r);
	else if (d->kernel)
		r->sym = kernel_sym(d, im, vaddr);
	else if (d->jitmap)
		resolve_jit(d, im, r);
	else
		resolve_elf(d, im, r);
	if (!r->sym || pmc__addrmap_put(&im->cache, vaddr, r)) {
		free(r);
		return NULL;
	}
	return r;
}

void *pmc__dso_elf(struct pmc__dso *d)
{
	struct dso_impl *im = dso_open(d);

	return im ? im->elf : NULL;
}

size_t pmc__dso_build_id(struct pmc__dso *d, char *buf, size_t len)
{
	struct dso_impl *im = dso_open(d);
	const unsigned char *bits;
	GElf_Addr at;
	int n;

	buf[0] = 0;
	if (!im || !im->mod || (n = im->dw->dwfl_module_build_id(im->mod, &bits, &at)) <= 0)
		return 0;
	for (int i = 0; i < n && 2 * (size_t)i + 2 < len; i++)
		snprintf(buf + 2 * i, len - 2 * (size_t)i, "%02x", bits[i]);
	return strlen(buf);
}

size_t pmc__dso_read(struct pmc__dso *d, uint64_t vaddr, void *buf, size_t len)
{
	struct dso_impl *im = dso_open(d);
	size_t n = 0;
	Elf_Data *data;

	for (size_t i = 0; im && i < im->nr_loads; i++) {
		const struct load *l = &im->loads[i];
		if (vaddr < l->vaddr || vaddr >= l->vaddr + l->filesz)
			continue;
		n = l->vaddr + l->filesz - vaddr < len ? l->vaddr + l->filesz - vaddr : len;
		data = im->dw->elf_getdata_rawchunk(
			im->elf, (int64_t)(vaddr - l->vaddr + l->offset), n, ELF_T_BYTE);
		if (!data || !data->d_buf)
			return 0;
		memcpy(buf, data->d_buf, n);
		return n;
	}
	return 0;
}

int pmc__dso_code_range(struct pmc__dso *d, uint64_t vaddr, uint64_t *start, uint64_t *end)
{
	struct dso_impl *im = dso_open(d);

	return im && im->elf ? pmc__ehframe_range(im->dw, im->elf, vaddr, start, end) : -ENOENT;
}

int pmc__dso_find_symbol(struct pmc__dso *d, const char *name, uint64_t *start, uint64_t *size)
{
	struct dso_impl *im = dso_open(d);
	int n = im && im->mod ? im->dw->dwfl_module_getsymtab(im->mod) : 0;

	for (int i = 0; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *s =
			im->dw->dwfl_module_getsym_info(im->mod, i, &sym, &addr, NULL, NULL, NULL);
		const char *shown;
		if (!s || GELF_ST_TYPE(sym.st_info) != STT_FUNC)
			continue;
		/* The name as the object spells it, or as the report shows it. */
		shown = strcmp(s, name) ? pmc__symtab_demangle(d->st, s) : s;
		if (shown && !strcmp(shown, name)) {
			*start = addr - im->bias;
			*size = sym.st_size;
			return 0;
		}
	}
	return -ENOENT;
}

void pmc__dso_free(struct pmc__dso *d)
{
	struct dso_impl *im = d->impl;

	if (im) {
		for (size_t i = 0; i < im->cache.cap; i++)
			free(im->cache.vals[i]);
		for (size_t i = 0; i < im->syms.cap; i++)
			free(im->syms.vals[i]);
		pmc__addrmap_free(&im->cache);
		pmc__addrmap_free(&im->syms);
		pmc__perfmap_free(im->jit);
		pmc__symindex_delete(im->ix);
		if (im->dwfl)
			im->dw->dwfl_end(im->dwfl);
		free(im->loads);
		free(im);
	}
	free(d);
}
