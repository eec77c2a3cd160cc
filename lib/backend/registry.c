// SPDX-License-Identifier: MIT
/* The backend registry: every backend's ops table, looked up by name. */
#include <string.h>
#include "backend/backend.h"

extern const struct pmc_backend_ops pmc__perf_ops;
extern const struct pmc_backend_ops pmc__vpmu_ops;

static const struct pmc_backend_ops *const backends[] = {
	&pmc__perf_ops,
	&pmc__vpmu_ops,
};

const struct pmc_backend_ops *pmc__backend_at(size_t i)
{
	return i < sizeof(backends) / sizeof(backends[0]) ? backends[i] : NULL;
}

const struct pmc_backend_ops *pmc__backend_find(const char *name)
{
	for (size_t i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (!strcmp(backends[i]->name, name))
			return backends[i];
	return NULL;
}
