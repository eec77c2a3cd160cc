// SPDX-License-Identifier: MIT
/* libdw loaded on first use: its function table, resolved by name (dlsym on libdw's handle
 * also finds libelf's functions, a dependency of libdw). */
#include <pthread.h>
#include "core/dynlib.h"
#include "core/log.h"
#include "symbol/dw-api.h"

static struct pmc__dw_api api;
static const char *const names[] = {
#define PMC__DW_NAME(name) #name,
	PMC__DW_FNS(PMC__DW_NAME)
#undef PMC__DW_NAME
};
#define NR_FNS (sizeof(names) / sizeof(names[0]))
/* dynlib fills the NR_FNS pointers of api. */
_Static_assert(sizeof(struct pmc__dw_api) == NR_FNS * sizeof(void *),
	       "one name per function pointer");
static struct pmc__dynlib lib = PMC__DYNLIB_INIT(PMC_DW_SONAME, names, &api, NR_FNS);
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static const struct pmc__dw_api *ready;

/* Filled before ready is published (pthread_once orders it for every caller). */
static void init(void)
{
	if (pmc__dynlib_load(&lib)) {
		pr_warn("cannot load %s (%s): symbols stay unnamed and DWARF call chains are not "
			"unwound; install libdw1 (elfutils)\n",
			PMC_DW_SONAME, lib.why);
		return;
	}
	ready = &api;
}

const struct pmc__dw_api *pmc__dw_api(void)
{
	pthread_once(&init_once, init);
	return ready;
}
