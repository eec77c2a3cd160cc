// SPDX-License-Identifier: MIT
/* capstone loaded on first use: its function table, resolved by name. */
#include "core/dynlib.h"
#include "report/capstone-api.h"

static struct pmc__cs_api api;
static const char *const names[] = {"cs_open", "cs_option", "cs_disasm", "cs_free", "cs_close"};
_Static_assert(sizeof(names) / sizeof(names[0]) == sizeof(api) / sizeof(void *),
	       "one name per function pointer");
static struct pmc__dynlib lib =
	PMC__DYNLIB_INIT(PMC_CAPSTONE_SONAME, names, &api, sizeof(names) / sizeof(names[0]));

const struct pmc__cs_api *pmc__cs_api(void)
{
	return pmc__dynlib_load(&lib) ? NULL : &api;
}
