// SPDX-License-Identifier: MIT
/* Libraries loaded on first use with dlopen(3) (see dynlib.h for why). */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include "core/dynlib.h"
#include "core/log.h"

/* pthread_once takes no argument: the library being loaded is handed over here. */
static __thread struct pmc__dynlib *loading;

static void load_once(void)
{
	struct pmc__dynlib *lib = loading;
	void *h = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);

	if (!h) {
		snprintf(lib->why, sizeof(lib->why), "%s", dlerror());
		lib->err = -ENOENT;
		pr_debug("cannot load %s: %s\n", lib->soname, lib->why);
		return;
	}
	for (size_t i = 0; i < lib->nr; i++) {
		lib->fns[i] = dlsym(h, lib->symbols[i]);
		if (!lib->fns[i]) {
			snprintf(lib->why, sizeof(lib->why), "%s lacks %s", lib->soname,
				 lib->symbols[i]);
			lib->err = -ENOSYS;
			pr_debug("%s\n", lib->why);
			return; /* the handle stays open: it is process-lifetime anyway */
		}
	}
}

int pmc__dynlib_load(struct pmc__dynlib *lib)
{
	loading = lib;
	pthread_once(&lib->once, load_once);
	loading = NULL;
	return lib->err;
}
