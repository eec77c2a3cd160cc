/* SPDX-License-Identifier: MIT */
/*
 * Libraries loaded on first use. libpfm4 and capstone cost about 3 ms each to map and
 * relocate at start-up (tens of thousands of relocations), yet pmc stat on software
 * events or tracepoints never calls them: they are opened with dlopen(3) when a
 * CPU-specific event name or a disassembly is first needed.
 */
#ifndef PMC_LIB_CORE_DYNLIB_H
#define PMC_LIB_CORE_DYNLIB_H

#include <pthread.h>
#include <stddef.h>

struct pmc__dynlib {
	const char *soname;	    /* e.g. "libpfm.so.4", from the build (PMC_*_SONAME) */
	const char *const *symbols; /* names to resolve, in the order of fns */
	void **fns;		    /* filled on load */
	size_t nr;
	pthread_once_t once;
	int err;       /* 0 once loaded, else -ENOENT/-ENOSYS */
	char why[192]; /* dlerror() of the failure */
};

#define PMC__DYNLIB_INIT(soname_, symbols_, fns_, nr_)                                           \
	{                                                                                        \
		.soname = (soname_), .symbols = (symbols_), .fns = (void **)(fns_), .nr = (nr_), \
		.once = PTHREAD_ONCE_INIT                                                        \
	}

/* Loads the library and its symbols once (thread-safe). Returns 0 or lib->err. */
int pmc__dynlib_load(struct pmc__dynlib *lib);

#endif /* PMC_LIB_CORE_DYNLIB_H */
