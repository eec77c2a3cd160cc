// SPDX-License-Identifier: MIT
/*
 * Counting under vpmu. COMMAND: the events of the pass go onto the model's counters, the
 * command runs under the tool (command.c) and the counts come back in the stream's COUNTS
 * records at exit (docs/vpmu.md). SELF: the calling process must already run under vpmu;
 * it programs the counters by client requests.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/caps.h>
#include <pmc/error.h>
#include "backend/vpmu/vpmu.h"
#include "core/log.h"
#include "count/child.h"
#include "event/evsel.h"

static int take_counter(struct vpmu_counting *vc, const struct vpmu_enc *enc)
{
	int nr_gp = vc->model == VPMU_MODEL_PENTIUM ? VPMU_PENTIUM_NR : VPMU_COREI7_NR_GP;

	if (enc->fixed >= 0 && !vc->ctr_used[VPMU_COREI7_FIXED_BASE + enc->fixed]) {
		int k = VPMU_COREI7_FIXED_BASE + enc->fixed;

		vc->ctr_used[k] = true;
		vc->ctr_config[k] = enc->fixed_ctrl;
		return k;
	}
	for (int k = 0; k < nr_gp; k++) {
		if (vc->ctr_used[k])
			continue;
		vc->ctr_used[k] = true;
		vc->ctr_config[k] = enc->config;
		return k;
	}
	return -PMC_E_TOOMANY;
}

/* Puts each event of the pass on a counter: its fixed one if free, else a general one. */
static int assign(struct vpmu_counting *vc)
{
	struct pmc_evlist *evlist = vc->base.evlist;

	for (size_t i = 0; i < evlist->nr; i++) {
		struct pmc_evsel *ev = evlist->entries[i];
		struct vpmu_enc enc;
		char why[256];
		int err;

		vc->ctr[i] = -1;
		if (!pmc__counting_selects(&vc->base, ev))
			continue;
		err = pmc__vpmu_encode(ev, vc->model, &enc, why, sizeof(why));
		if (err) {
			pr_warn("vpmu: cannot count '%s': %s\n", ev->name, why);
			return err;
		}
		err = take_counter(vc, &enc);
		if (err < 0) {
			pr_warn("vpmu: no counter left for '%s' (the %s model has %d); plan passes "
				"with pmc_evlist__plan()\n",
				ev->name, pmc__vpmu_model_name(vc->model),
				vc->model == VPMU_MODEL_PENTIUM
					? VPMU_PENTIUM_NR
					: VPMU_COREI7_NR_GP + VPMU_COREI7_NR_FIXED);
			return err;
		}
		vc->ctr[i] = err;
		vc->base.open[i] = true;
	}
	return 0;
}

/*
 * The model's one load-latency threshold (MSR 0x3f6, the tool's --ld-lat) as the pass's
 * events ask for it with ldlat=; the planner never puts two thresholds in one pass. 0: the
 * tool's default.
 */
static unsigned pass_ldlat(const struct vpmu_counting *vc)
{
	const struct pmc_evlist *evlist = vc->base.evlist;

	for (size_t i = 0; i < evlist->nr; i++)
		if (vc->base.open[i] && evlist->entries[i]->ldlat)
			return evlist->entries[i]->ldlat;
	return 0;
}

static int spawn(struct vpmu_counting *vc)
{
	const struct pmc_target *t = &vc->base.target;
	char ldlat[32];
	const char *extra[] = {ldlat};
	unsigned lat = pass_ldlat(vc);
	struct vpmu_cmdline cl = {.used = vc->ctr_used,
				  .config = vc->ctr_config,
				  .extra = extra,
				  .nr_extra = lat ? 1 : 0,
				  .argv = t->argv,
				  .keep_fd = t->child_fd,
				  .keep_fd_env = t->child_fd_env};

	snprintf(ldlat, sizeof(ldlat), "--ld-lat=%u", lat);
	return pmc__vpmu_spawn(&cl, &vc->rd_fd, &vc->base.child);
}

static int open_target(struct vpmu_counting *vc)
{
	const struct pmc_target *t = &vc->base.target;

	switch (t->kind) {
	case PMC_TARGET_COMMAND:
		if (t->per_thread || t->start_disabled) {
			pr_warn("vpmu: the model counts the command whole, from its exec: values "
				"per thread and a delayed start are perf's\n");
			return -EOPNOTSUPP;
		}
		if (!pmc__vpmu_machine()->ok) {
			pr_warn("vpmu: %s\n", pmc__vpmu_machine()->why);
			return -PMC_E_NOVPMU;
		}
		return spawn(vc);
	case PMC_TARGET_SELF:
		if (!pmc__vpmu_present()) {
			pr_warn("vpmu: counting the calling thread needs the process to run under "
				"valgrind --tool=vpmu\n");
			return -EOPNOTSUPP;
		}
		vc->self = true;
		return pmc__vpmu_self_program(vc);
	default:
		pr_warn("vpmu: only a command started by pmc (or the calling process under vpmu) "
			"can be counted; not a running process or CPUs\n");
		return -EOPNOTSUPP;
	}
}

int pmc__vpmu_open(struct pmc_evlist *evlist, const struct pmc_target *target, int pass,
		   struct pmc_counting **out)
{
	struct vpmu_counting *vc = calloc(1, sizeof(*vc));
	int err;

	if (!vc)
		return -ENOMEM;
	vc->rd_fd = vc->wake_fd[0] = vc->wake_fd[1] = -1;
	vc->model = pmc__vpmu_model();
	err = pmc__counting_init(&vc->base, evlist, target, pass);
	vc->ctr = err ? NULL : calloc(evlist->nr ? evlist->nr : 1, sizeof(*vc->ctr));
	if (!err && !vc->ctr)
		err = -ENOMEM;
	if (!err)
		err = assign(vc);
	if (!err)
		err = open_target(vc);
	if (err) {
		pmc__vpmu_close(&vc->base);
		return err;
	}
	*out = &vc->base;
	return 0;
}

int pmc__vpmu_start(struct pmc_counting *c)
{
	struct vpmu_counting *vc = to_vpmu(c);
	int exec_errno = 0, err;

	if (vc->self)
		return pmc__vpmu_self_ctl(vc, VPMU_REQ_START);
	err = pmc__vpmu_runnable(c->target.argv[0]);
	if (err) {
		pr_err("cannot run '%s': %s\n", c->target.argv[0], strerror(-err));
		return -PMC_E_EXEC;
	}
	err = pmc__vpmu_stream_start(vc);
	if (!err)
		err = pmc__child_start(c->child, &exec_errno);
	if (err == -PMC_E_EXEC)
		pr_err("cannot run valgrind for '%s': %s\n", c->target.argv[0],
		       strerror(exec_errno));
	return err;
}

int pmc__vpmu_reap(struct pmc_counting *c)
{
	struct vpmu_counting *vc = to_vpmu(c);

	return vc->self ? 0 : pmc__vpmu_stream_finish(vc);
}

int pmc__vpmu_read(struct pmc_counting *c)
{
	struct vpmu_counting *vc = to_vpmu(c);
	int err = vc->self ? pmc__vpmu_self_read(vc) : 0;

	if (err)
		return err;
	if (!vc->self && c->child && !c->child->reaped)
		return -EBUSY; /* counts arrive when the command exits */
	if (!vc->self && !vc->have_counts && vc->refused_clone) {
		pmc__vpmu_say_refused_clone(c->target.argv[0], vc->refused_clone);
		return -ENOSYS;
	}
	if (!vc->self && !vc->have_counts) {
		pr_warn("vpmu: the tool sent no counts for '%s' (did valgrind start it?)\n",
			c->target.argv[0]);
		return -PMC_E_PROTOCOL;
	}
	for (size_t i = 0; i < c->evlist->nr; i++) {
		if (!c->open[i] || vc->ctr[i] < 0)
			continue;
		c->values[i] = (struct pmc_count){.value = vc->totals[vc->ctr[i]],
						  .time_enabled_ns = 1,
						  .time_running_ns = 1};
	}
	return 0;
}

void pmc__vpmu_close(struct pmc_counting *c)
{
	struct vpmu_counting *vc = to_vpmu(c);

	pmc__vpmu_stream_close(vc);
	pmc__counting_fini(c);
	free(vc->ctr);
	free(vc);
}
