// SPDX-License-Identifier: MIT
/* The library version and the scaling of multiplexed counts. */
#include <pmc/common.h>

const char *pmc_version(void)
{
	return PMC_VERSION_STRING;
}

double pmc_count__scaled(const struct pmc_count *c)
{
	if (!c->time_running_ns || c->time_running_ns >= c->time_enabled_ns)
		return (double)c->value;
	return (double)c->value * ((double)c->time_enabled_ns / (double)c->time_running_ns);
}
