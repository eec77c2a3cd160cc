// SPDX-License-Identifier: MIT
/* libdw loaded on first use: its function table, resolved by name (dlsym on libdw's handle
 * also finds libelf's functions, a dependency of libdw). */
#include "core/dynlib.h"
#include "core/log.h"
#include "symbol/dw-api.h"

static struct pmc__dw_api api;
static const char *const names[] = {
#define PMC__DW_NAME(name) #name,
	PMC__DW_FNS(PMC__DW_NAME)
#undef PMC__DW_NAME
};
_Static_assert(sizeof(names) / sizeof(names[0]) == sizeof(api) / sizeof(void *),
	       "one name per function pointer");
static struct pmc__dynlib lib =
	PMC__DYNLIB_INIT(PMC_DW_SONAME, names, &api, sizeof(names) / sizeof(names[0]));

const struct pmc__dw_api *pmc__dw_api(void)
{
	static int said;

	if (!pmc__dynlib_load(&lib))
		return &api;
	if (!__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
		pr_warn("cannot load %s (%s): symbols stay unnamed and DWARF call chains are not "
			"unwound; install libdw1 (elfutils)\n",
			PMC_DW_SONAME, lib.why);
	return NULL;
}
