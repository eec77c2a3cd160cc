// SPDX-License-Identifier: MIT
/*
 * SELF under vpmu: a process that already runs under valgrind --tool=vpmu programs and reads
 * the modelled counters of its calling thread with client requests (<valgrind.h>, no-ops
 * natively). A counter that already holds the wanted programming (pmc stat --backend=vpmu
 * programs the command's counters with --ctrN) is shared as it is, never reprogrammed,
 * started, stopped or reset, so that the outer count is left alone; region markers read it
 * as values at begin and end. Counter programmings are global in the tool (values are per
 * thread), so other threads share them too, and closing leaves them programmed.
 */
#include <errno.h>
#include <string.h>
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
/* Without Valgrind's header no request can reach a tool: each returns its default. */
#define VALGRIND_DO_CLIENT_REQUEST_EXPR(dflt, req, a1, a2, a3, a4, a5) (dflt)
#endif
#include <pmc/error.h>
#include "backend/vpmu/vpmu.h"
#include "core/log.h"
#include "event/evsel.h"

static long request(unsigned req, unsigned long a1, unsigned long a2, unsigned long a3,
		    unsigned long a4)
{
	return (long)VALGRIND_DO_CLIENT_REQUEST_EXPR(0, req, a1, a2, a3, a4, 0);
}

bool pmc__vpmu_present(void)
{
	return request(VPMU_REQ_PRESENT, 0, 0, 0, 0) == VPMU_PROTO_VERSION;
}

/* The tool's own model must be the one the events were encoded for. */
static int check_model(struct vpmu_counting *vc)
{
	struct vpmu_info info = {.hdr.size = sizeof(info)};
	long r = request(VPMU_REQ_QUERY, (unsigned long)&info, sizeof(info), 0, 0);

	if (r)
		return (int)r;
	if ((int)info.model != vc->model) {
		pr_warn("vpmu: this process runs the %s model, the events were named for the %s "
			"model (set PMC_VPMU_MODEL)\n",
			pmc__vpmu_model_name((int)info.model), pmc__vpmu_model_name(vc->model));
		return -PMC_E_CONFIG;
	}
	return 0;
}

static int program(unsigned k, uint64_t config)
{
	long r = request(VPMU_REQ_PROGRAM, k, config, 0, 0);
	char why[160] = "";

	if (!r)
		return 0;
	request(VPMU_REQ_STRERROR, (unsigned long)why, sizeof(why), 0, 0);
	pr_warn("vpmu: programming counter %u with 0x%llx failed: %s\n", k,
		(unsigned long long)config, why);
	return r < 0 && r > -4096 ? (int)r : -PMC_E_UNSUPPORTED;
}

/* Reuses a counter holding want (not yet taken), else programs a free one. */
static int place(struct vpmu_counting *vc, const struct vpmu_counts *cur, int lo, int hi,
		 uint64_t want)
{
	for (int k = lo; k < hi; k++)
		if (!vc->ctr_used[k] && cur->config[k] == want) {
			vc->ctr_used[k] = true;
			vc->ctr_config[k] = want;
			return k;
		}
	for (int k = lo; k < hi; k++) {
		if (vc->ctr_used[k] || cur->config[k])
			continue;
		int err = program((unsigned)k, want);

		if (err)
			return err;
		vc->ctr_used[k] = true;
		vc->ctr_config[k] = want;
		vc->self_mask |= 1u << k;
		return k;
	}
	return -PMC_E_TOOMANY;
}

int pmc__vpmu_self_program(struct vpmu_counting *vc)
{
	struct pmc_evlist *evlist = vc->base.evlist;
	struct vpmu_counts cur = {.hdr.size = sizeof(cur)};
	int nr_gp = vc->model == VPMU_MODEL_PENTIUM ? VPMU_PENTIUM_NR : VPMU_COREI7_NR_GP;
	int err = check_model(vc);

	if (!err)
		err = (int)request(VPMU_REQ_READ_ALL, (unsigned long)&cur, sizeof(cur),
				   VPMU_READ_THREAD, 0);
	memset(vc->ctr_used, 0, sizeof(vc->ctr_used));
	for (size_t i = 0; i < evlist->nr && !err; i++) {
		struct vpmu_enc enc;
		char why[256];
		int k = -1;

		if (!vc->base.open[i])
			continue;
		err = pmc__vpmu_encode(evlist->entries[i], vc->model, &enc, why, sizeof(why));
		if (!err && enc.fixed >= 0)
			k = place(vc, &cur, VPMU_COREI7_FIXED_BASE + enc.fixed,
				  VPMU_COREI7_FIXED_BASE + enc.fixed + 1, enc.fixed_ctrl);
		if (!err && k < 0)
			k = place(vc, &cur, 0, nr_gp, enc.config);
		if (!err && k < 0)
			err = k;
		vc->ctr[i] = k;
	}
	return err;
}

int pmc__vpmu_self_ctl(struct vpmu_counting *vc, int op)
{
	if (vc->self_mask)
		request((unsigned)op, vc->self_mask, 0, 0, 0);
	return 0;
}

int pmc__vpmu_self_read(struct vpmu_counting *vc)
{
	for (int k = 0; k < VPMU_MAX_COUNTERS; k++)
		if (vc->ctr_used[k])
			vc->totals[k] = (uint64_t)request(VPMU_REQ_READ, (unsigned)k, 0, 0, 0);
	vc->have_counts = true;
	return 0;
}

int pmc__vpmu_read_group(struct pmc_counting *c, const struct pmc_evsel *leader,
			 struct pmc_count *values, size_t nr)
{
	struct vpmu_counting *vc = to_vpmu(c);
	size_t n = 0;

	if (!vc->self)
		return -EOPNOTSUPP;
	for (size_t i = leader->idx; i < c->evlist->nr && n < nr; i++) {
		const struct pmc_evsel *ev = c->evlist->entries[i];

		if (ev->leader != leader)
			break;
		values[n++] = (struct pmc_count){
			.value = (uint64_t)request(VPMU_REQ_READ, (unsigned)vc->ctr[i], 0, 0, 0),
			.time_enabled_ns = 1,
			.time_running_ns = 1};
	}
	return (int)n;
}
