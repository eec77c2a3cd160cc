// SPDX-License-Identifier: MIT
/* libdw loaded on first use: its function table, resolved by name (dlsym on libdw's handle
 * also finds libelf's functions, a dependency of libdw), and dwfl_begin()'s callbacks. */
#include <pthread.h>
#include <stddef.h>
#include "core/dynlib.h"
#include "core/log.h"
#include "symbol/debuginfo.h"
#include "symbol/dw-api.h"

static struct pmc__dw_api api;
static const char *const names[] = {
#define PMC__DW_NAME(name) #name,
	PMC__DW_FNS(PMC__DW_NAME)
#undef PMC__DW_NAME
};
#define NR_FNS (sizeof(names) / sizeof(names[0]))
/* dynlib fills the first NR_FNS pointers of api; the callbacks follow them. */
_Static_assert(offsetof(struct pmc__dw_api, offline_cb) == NR_FNS * sizeof(void *),
	       "one name per function pointer, the callbacks after them");
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
	api.offline_cb = (Dwfl_Callbacks){.find_debuginfo = pmc__find_debuginfo,
					  .section_address = api.dwfl_offline_section_address};
	api.proc_cb = (Dwfl_Callbacks){.find_elf = api.dwfl_build_id_find_elf,
				       .find_debuginfo = pmc__find_debuginfo_cfi};
	ready = &api;
}

const struct pmc__dw_api *pmc__dw_api(void)
{
	pthread_once(&init_once, init);
	return ready;
}
