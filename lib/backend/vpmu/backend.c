// SPDX-License-Identifier: MIT
/* The vpmu backend's ops table: counting under valgrind --tool=vpmu, a modelled PMU. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/caps.h>
#include <pmc/error.h>
#include "core/backend.h"
#include "backend/vpmu/sample.h"
#include "backend/vpmu/vpmu.h"
#include "event/evsel.h"

static int vpmu_probe(char *why, size_t len)
{
	const struct vpmu_machine *caps = pmc__vpmu_machine();

	if (caps->ok || pmc__vpmu_present())
		return 0;
	if (why && len)
		snprintf(why, len, "%s", caps->why);
	return -PMC_E_NOVPMU;
}

/* PMC_VPMU_MODEL and PMC_VPMU_PRESET take the values the tool's --model and --preset do. */
static int config_ok(char *why, size_t len)
{
	const char *m = secure_getenv("PMC_VPMU_MODEL"), *p = secure_getenv("PMC_VPMU_PRESET");

	if (m && *m && strcmp(m, "corei7") && strcmp(m, "pentium")) {
		snprintf(why, len, "PMC_VPMU_MODEL=%s: the models are corei7 and pentium", m);
		return -PMC_E_CONFIG;
	}
	if (p && *p && strcmp(p, "nehalem") && strcmp(p, "pentium") && strcmp(p, "pentium4")) {
		snprintf(why, len,
			 "PMC_VPMU_PRESET=%s: the presets are nehalem, pentium and "
			 "pentium4",
			 p);
		return -PMC_E_CONFIG;
	}
	return 0;
}

static int vpmu_check(struct pmc_evsel *evsel, char *why, size_t len)
{
	struct vpmu_enc enc;
	int err = config_ok(why, len);

	if (!err)
		err = pmc__vpmu_encode(evsel, pmc__vpmu_model(), &enc, why, len);
	if (err)
		return err;
	/* :P: the model's samples are exact (no skid), perf's level 3. */
	if (evsel->mods & PMC_MOD_PMAX)
		evsel->attr.precise_ip = 3;
	/* A process already running under the tool can count itself (SELF). */
	if (!pmc__vpmu_machine()->ok && !pmc__vpmu_present()) {
		snprintf(why, len, "%s", pmc__vpmu_machine()->why);
		return -PMC_E_NOVPMU;
	}
	return 0;
}

static enum pmc_slot_class vpmu_classify(const struct pmc_evsel *evsel)
{
	int model = pmc__vpmu_model();
	struct vpmu_enc enc;
	char why[8];

	if (pmc__vpmu_encode(evsel, model, &enc, why, sizeof(why)))
		return PMC_SLOT_NONE; /* not countable: check() keeps it out of every pass */
	return enc.fixed >= 0 ? PMC_SLOT_FIXED0 + enc.fixed : PMC_SLOT_GENERAL;
}

static int vpmu_budget(enum pmc_slot_class cls)
{
	bool p5 = pmc__vpmu_model() == VPMU_MODEL_PENTIUM;

	switch (cls) {
	case PMC_SLOT_GENERAL:
		return p5 ? VPMU_PENTIUM_NR : VPMU_COREI7_NR_GP;
	case PMC_SLOT_FIXED0:
	case PMC_SLOT_FIXED1:
	case PMC_SLOT_FIXED2:
		return p5 ? 0 : (int)(cls - PMC_SLOT_FIXED0) < VPMU_COREI7_NR_FIXED;
	case PMC_SLOT_DEBUGREG:
		return 0;
	default:
		return INT_MAX;
	}
}

static int vpmu_stop(struct pmc_counting *c)
{
	struct vpmu_counting *vc = to_vpmu(c);

	return vc->self ? pmc__vpmu_self_ctl(vc, VPMU_REQ_STOP) : -EOPNOTSUPP;
}

static int vpmu_reset(struct pmc_counting *c)
{
	struct vpmu_counting *vc = to_vpmu(c);

	return vc->self ? pmc__vpmu_self_ctl(vc, VPMU_REQ_RESET) : -EOPNOTSUPP;
}

/* The preset table has a column for the Core i7 model (PAPI's Nehalem definitions); the
 * Pentium model takes the generic column, through its map of perf's generic events. */
static const char *vpmu_preset_model(void)
{
	return pmc__vpmu_model() == VPMU_MODEL_COREI7 ? "corei7" : NULL;
}

/* The metric files have a row for each programming model. */
static const char *vpmu_cpu_model(void)
{
	return pmc__vpmu_model() == VPMU_MODEL_COREI7 ? "corei7" : "pentium";
}

const struct pmc_backend_ops pmc__vpmu_ops = {
	.name = "vpmu",
	.desc = "the vpmu Valgrind tool: a modelled Core i7 or Pentium PMU, exact and "
		"deterministic",
	.regions_reuse_counters = true,	 /* self.c reuses what --ctrN programmed */
	.issue_width = VPMU_ISSUE_WIDTH, /* the models' declaration (vpmu/protocol.h) */
	.probe = vpmu_probe,
	.resolve = pmc__vpmu_resolve,
	.check = vpmu_check,
	.probe_caps = pmc__vpmu_probe_caps,
	.classify = vpmu_classify,
	.budget = vpmu_budget,
	.for_each_known = pmc__vpmu_for_each,
	.preset_model = vpmu_preset_model,
	.cpu_model = vpmu_cpu_model,
	.sample_default = NULL, /* "cycles": the model's cycles, its modelled time */
	.open = pmc__vpmu_open,
	.start = pmc__vpmu_start,
	.stop = vpmu_stop,
	.reset = vpmu_reset,
	.reap = pmc__vpmu_reap,
	.read = pmc__vpmu_read,
	.read_group = pmc__vpmu_read_group,
	.close = pmc__vpmu_close,
	.sample_open = pmc__vpmu_sample_open,
	.sample_spawns = true, /* the command runs under valgrind: this backend starts it */
	.sample_enable = pmc__vpmu_sample_enable,
	.sample_disable = pmc__vpmu_sample_disable,
	.sample_poll = pmc__vpmu_sample_poll,
	.sample_drain = pmc__vpmu_sample_drain,
	.sample_close = pmc__vpmu_sample_close,
};
