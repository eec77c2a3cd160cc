// SPDX-License-Identifier: MIT
/*
 * One rule for the registers an event programs besides its counter: a core holds one value in
 * each at a time. The load-latency threshold has one register (MSR_PEBS_LD_LAT_THRESHOLD);
 * Intel's offcore response matrix one on Nehalem (MSR_OFFCORE_RSP_0) and two from Westmere on
 * (the kernel moves an event to the free one). Events that need more distinct values than
 * registers go to different passes, each counted with its own values (docs/events.md, "Load
 * latency"; docs/pmus.md, "Offcore response").
 */
#include <string.h>
#include <pmc/error.h>
#include "count/xreg.h"
#include "core/log.h"
#include "event/evsel.h"

static const char *const what[PMC_XREG_NR] = {
	[PMC_XREG_LDLAT] = "load-latency thresholds",
	[PMC_XREG_OFFCORE] = "offcore response values",
};

static bool holds(const struct pmc__xregs *x, int k, uint64_t v)
{
	for (int i = 0; i < x->nr[k]; i++)
		if (x->val[k][i] == v)
			return true;
	return false;
}

/* Adds value v of kind k to x; false when x has no register left for it. */
static bool add_value(struct pmc__xregs *x, int k, uint64_t v)
{
	if (holds(x, k, v))
		return true;
	if (x->nr[k] >= x->cap[k])
		return false;
	x->val[k][x->nr[k]++] = v;
	return true;
}

int pmc__xregs_of_group(const struct pmc_evlist *evlist, const struct pmc_evsel *leader,
			struct pmc__xregs *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = leader->idx; i < evlist->nr && evlist->entries[i]->leader == leader; i++)
		for (int k = 0; k < PMC_XREG_NR; k++) {
			uint64_t v;
			int nr;

			if (!pmc__backend_extra_reg(evlist->backend, evlist->entries[i], k, &v,
						    &nr))
				continue;
			out->cap[k] = nr < PMC_XREG_MAX ? nr : PMC_XREG_MAX;
			if (!add_value(out, k, v)) {
				pr_warn("group led by '%s' needs more %s at once than the %d "
					"register%s a core has for them\n",
					leader->name, what[k], out->cap[k],
					out->cap[k] == 1 ? "" : "s");
				return -PMC_E_TOOMANY;
			}
		}
	return 0;
}

bool pmc__xregs_fit(const struct pmc__xregs *pass, const struct pmc__xregs *need)
{
	for (int k = 0; k < PMC_XREG_NR; k++) {
		int nr = pass->nr[k];

		for (int i = 0; i < need->nr[k]; i++)
			nr += !holds(pass, k, need->val[k][i]);
		if (need->nr[k] && nr > need->cap[k])
			return false;
	}
	return true;
}

void pmc__xregs_add(struct pmc__xregs *pass, const struct pmc__xregs *need)
{
	for (int k = 0; k < PMC_XREG_NR; k++) {
		if (need->cap[k] > pass->cap[k])
			pass->cap[k] = need->cap[k];
		for (int i = 0; i < need->nr[k]; i++)
			add_value(pass, k, need->val[k][i]);
	}
}
