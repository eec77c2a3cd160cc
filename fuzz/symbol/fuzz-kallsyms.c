// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: kernel symbol files (pmc report --kallsyms=FILE, /proc/kallsyms of
 * another machine) through the symbol table's loader, then kernel address lookups.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include "symbol/symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uintptr_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	struct pmc__symtab_opts o = {.kallsyms = path};
	struct pmc__symtab *st;
	const struct pmc__symres *r;
	static const uint64_t probes[] = {
		0, 1, 0xffffffff81000000ull, 0xffffffff81000010ull, 0xffffffffffffffffull, 0x1000};

	if (fd < 0 && (fd = memfd_create("fuzz-kallsyms", MFD_CLOEXEC)) < 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	if (pmc__symtab_new(&o, &st))
		return 0;
	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		r = pmc__dso_resolve(pmc__symtab_kernel(st), probes[i]);
		if (r && r->sym)
			sink += (uintptr_t)r->sym->name;
	}
	pmc__symtab_delete(st);
	return 0;
}
