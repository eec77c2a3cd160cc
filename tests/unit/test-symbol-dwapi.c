// SPDX-License-Identifier: MIT
/* libdw loaded on first use (lib/symbol/dw-api.c): the function table; the dwfl callbacks
 * (lib/symbol/debuginfo.c). */
#include <criterion/criterion.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <pthread.h>
#include "symbol/debuginfo.h"
#include "symbol/dw-api.h"

/* This test links libdw and libelf itself, so dlsym must find the very same functions. */
Test(dw_api, resolves_libdw_and_libelf_functions)
{
	const struct pmc__dw_api *dw = pmc__dw_api();

	cr_assert_not_null(dw, "libdw.so.1 did not load (see the warning above)");
	cr_expect_eq((void *)dw->dwfl_begin, (void *)dwfl_begin);
	cr_expect_eq((void *)dw->dwfl_getthread_frames, (void *)dwfl_getthread_frames);
	/* libelf's functions come through libdw's handle: libelf is its dependency. */
	cr_expect_eq((void *)dw->gelf_getehdr, (void *)gelf_getehdr);
	cr_expect_eq((void *)dw->elf_getdata_rawchunk, (void *)elf_getdata_rawchunk);
	cr_expect_eq(pmc__dw_api(), dw, "a second call hands out the same table");
}

/*
 * dwfl_begin()'s callbacks name libdw's functions: they must be filled once it is loaded.
 * Separate debug files are found by pmc's own search (symbol/debuginfo.h), which opens them as
 * untrusted inputs, not by libdwfl's standard one; the unwinder's (proc) is the variant that
 * declines a debug file without .debug_frame when the object has none either.
 */
Test(dw_api, fills_the_callbacks)
{
	const struct pmc__dwfl_callbacks *cb = pmc__dwfl_callbacks();

	cr_assert_not_null(cb);
	cr_expect_eq((void *)cb->offline.find_debuginfo, (void *)pmc__find_debuginfo);
	cr_expect_eq((void *)cb->offline.section_address, (void *)dwfl_offline_section_address);
	cr_expect_null(cb->offline.find_elf);
	cr_expect_eq((void *)cb->proc.find_elf, (void *)dwfl_build_id_find_elf);
	cr_expect_eq((void *)cb->proc.find_debuginfo, (void *)pmc__find_debuginfo_cfi);
	cr_expect_eq(pmc__dwfl_callbacks(), cb, "a second call hands out the same callbacks");
}

#define NR_THREADS 8

static void *first_use(void *arg)
{
	const struct pmc__dwfl_callbacks *cb = pmc__dwfl_callbacks();
	const struct pmc__dw_api *dw = pmc__dw_api();

	/* What a thread sees once it has the callbacks: filled, and the table with them. */
	*(const void **)arg =
		dw && cb && cb->proc.find_elf && cb->offline.find_debuginfo ? dw : NULL;
	return NULL;
}

/* Threads that load libdw at once all get the one complete table (each test is a process). */
Test(dw_api, first_use_from_many_threads)
{
	pthread_t t[NR_THREADS];
	const void *seen[NR_THREADS];

	for (int i = 0; i < NR_THREADS; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, first_use, &seen[i]), 0);
	for (int i = 0; i < NR_THREADS; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < NR_THREADS; i++)
		cr_expect_eq(seen[i], pmc__dw_api(), "thread %d saw %p", i, seen[i]);
	cr_expect_not_null(pmc__dw_api());
}
