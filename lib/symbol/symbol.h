/* SPDX-License-Identifier: MIT */
/* Symbolization: DSOs resolved with libdwfl (cached per address), kernel symbols, process maps. */
#ifndef PMC_LIB_SYMBOL_SYMBOL_H
#define PMC_LIB_SYMBOL_SYMBOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pmc__symtab;
struct pmc__dso;

/* A function (or data object): one per (DSO, start address), so pointers compare as keys. */
struct pmc__sym {
	struct pmc__dso *dso;
	const char *name; /* interned; "0x..." for an address without a symbol */
	uint64_t start;	  /* file virtual address of the symbol (or of the address) */
	uint64_t size;
	bool unnamed; /* no symbol holds the address: name is the address (or "[unknown]") */
};

/* What one address resolves to; computed once per (DSO, address) and cached. */
struct pmc__symres {
	uint64_t addr; /* file virtual address */
	struct pmc__sym *sym;
	const char *inlined; /* innermost inlined function at addr (interned), or NULL */
	const char *srcline; /* "file.c:42" (interned), or NULL without line info */
	const char *srcfile; /* the file alone, or NULL */
	int line;
};

struct pmc__dso {
	struct pmc__symtab *st;
	const char *path;	/* interned */
	const char *short_name; /* basename, interned */
	bool kernel;		/* [kernel.kallsyms] */
	bool jitmap;		/* /tmp/perf-PID.map: a JIT's symbols (perfmap.h) */
	bool tried, usable;	/* opened yet; opened successfully */
	/* the file read for path: a copy with the recorded build id (buildid.h), or NULL */
	const char *file;
	bool bid_checked;      /* pmc__dso_expect_build_id() was asked */
	bool mismatch;	       /* path is not the recorded object, and no copy is: not read */
	struct dso_impl *impl; /* libdwfl state (dso.c) */
};

struct pmc__symtab_opts {
	bool srclines;	      /* resolve source lines and inlines (costlier) */
	const char *kallsyms; /* kernel symbol file; NULL: /proc/kallsyms */
	bool no_demangle;     /* keep C++ and Rust names as the object spells them */
};

int pmc__symtab_new(const struct pmc__symtab_opts *opts, struct pmc__symtab **out);
void pmc__symtab_delete(struct pmc__symtab *st);
/* Interns a string in the table's pool; the pointer identifies the string. NULL on ENOMEM. */
const char *pmc__symtab_intern(struct pmc__symtab *st, const char *s);
/*
 * The name of a symbol as people read it: C++ and Rust names demangled (unless
 * opts.no_demangle), interned. NULL on ENOMEM.
 */
const char *pmc__symtab_demangle(struct pmc__symtab *st, const char *name);
/* The DSO for path (created on first use; opened lazily). NULL on ENOMEM. */
struct pmc__dso *pmc__symtab_dso(struct pmc__symtab *st, const char *path);
/* The kernel pseudo-DSO. */
struct pmc__dso *pmc__symtab_kernel(struct pmc__symtab *st);

/*
 * File virtual address of a byte at file offset off (via the PT_LOAD headers), or
 * off itself when the DSO cannot be opened.
 */
uint64_t pmc__dso_offset_to_vaddr(struct pmc__dso *dso, uint64_t off);
/*
 * The file virtual address of what would be file offset off, where that lies past a
 * segment's file bytes in its zero-filled tail (.bss, mapped anonymously or in the last
 * file page beyond the file's bytes). 0, or -ENOENT.
 */
int pmc__dso_bss_vaddr(struct pmc__dso *dso, uint64_t off, uint64_t *vaddr);
/* Resolves vaddr (a file virtual address; kernel: a kernel address). Never NULL but on ENOMEM. */
const struct pmc__symres *pmc__dso_resolve(struct pmc__dso *dso, uint64_t vaddr);
/* The ELF file of an opened DSO (libelf Elf *), for disassembly; NULL if none. */
void *pmc__dso_elf(struct pmc__dso *dso);
/*
 * The DSO's GNU build id as lower-case hex in buf (len bytes, NUL-terminated); returns its
 * length, 0 when the object has none or cannot be opened.
 */
size_t pmc__dso_build_id(struct pmc__dso *dso, char *buf, size_t len);
/*
 * Copies up to len bytes of the DSO's code at file virtual address vaddr into buf.
 * Returns the number copied (0 when unavailable).
 */
size_t pmc__dso_read(struct pmc__dso *dso, uint64_t vaddr, void *buf, size_t len);
/*
 * The extent [*start, *end) of the function holding vaddr, as the object's call-frame
 * information says (.eh_frame, which a stripped object keeps): for code that no symbol
 * names. 0, or -ENOENT.
 */
int pmc__dso_code_range(struct pmc__dso *dso, uint64_t vaddr, uint64_t *start, uint64_t *end);
/* Looks a symbol up by name: its start and size. 0, or -ENOENT. */
int pmc__dso_find_symbol(struct pmc__dso *dso, const char *name, uint64_t *start, uint64_t *size);

#endif /* PMC_LIB_SYMBOL_SYMBOL_H */
