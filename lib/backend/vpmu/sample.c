// SPDX-License-Identifier: MIT
/*
 * Sampling under vpmu: each event goes onto a counter of the model with its period
 * (--ctrN/--periodN, INT or PMI set), :p levels ask for precise samples (--precise=yes,
 * else imprecise ones, --skid from PMC_VPMU_ARGS), a branch stack turns the LBR on; the
 * command runs under the tool (command.c) and its --out-fd stream is converted record by
 * record into perf records (convert.c) as it arrives. Only a command pmc starts can be
 * sampled: valgrind cannot attach to a running process. Call chains (-g, any --call-graph) are
 * the tool's own unwind of the guest's stack at each sample (--callchain=N).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/caps.h>
#include <pmc/error.h>
#include <pmc/sample.h>
#include "backend/vpmu/sample.h"
#include "backend/vpmu/vpmu.h"
#include "core/log.h"
#include "count/child.h"
#include "event/evsel.h"

/* sample_type bits the converter can fill. */
#define VPMU_SAMPLE_TYPES                                                               \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |  \
	 PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER |        \
	 PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |            \
	 PERF_SAMPLE_CALLCHAIN)
/* The general registers and the segment registers of perf_regs' x86 order. */
#define VPMU_REGS_MASK 0xffffffull
/* Stream bytes taken in one drain, so that a busy guest cannot keep the drain going. */
#define DRAIN_MAX_BYTES (16u << 20)
#define READ_CHUNK (256u << 10)
#define MAX_STREAM_RECORD (1u << 20)

struct vpmu_sampling {
	struct pmc_sampling base;
	int model;
	bool used[VPMU_MAX_COUNTERS];
	uint64_t config[VPMU_MAX_COUNTERS], period[VPMU_MAX_COUNTERS];
	uint64_t freq[VPMU_MAX_COUNTERS]; /* frequency mode: samples per modelled second */
	uint32_t lbr_select;
	unsigned ldlat; /* the load-latency threshold of the events' ldlat= (one: MSR 0x3f6) */
	bool precise, lbr;
	unsigned callchain; /* frames the tool unwinds at each sample, 0: no call chains */
	bool data_addr;	    /* some event samples data addresses: heap blocks are named */
	struct vpmu_conv cv;
	uint64_t *id_store; /* [nr_attrs]: one id per attr, base.ids point into it */
	int rd_fd, wake_fd;
	unsigned char *buf; /* stream bytes not yet converted (at most a partial record) */
	size_t len, alloc;
	bool eof;
	const char *argv0; /* the command's, to name it */
};

static struct vpmu_sampling *to_vs(struct pmc_sampling *s)
{
	return container_of(s, struct vpmu_sampling, base);
}

/* Is everything attr asks for something a vpmu sample holds? */
static int check_attr(const struct perf_event_attr *a, const char *name)
{
	uint64_t extra = a->sample_type & ~(uint64_t)VPMU_SAMPLE_TYPES;

	if (extra || ((a->sample_regs_user | a->sample_regs_intr) & ~VPMU_REGS_MASK)) {
		pr_warn("vpmu: cannot sample '%s' with sample_type 0x%llx (registers 0x%llx): "
			"vpmu samples hold no %s\n",
			name, (unsigned long long)a->sample_type,
			(unsigned long long)(a->sample_regs_user | a->sample_regs_intr),
			extra & PERF_SAMPLE_PHYS_ADDR ? "physical addresses" : "such field");
		return -EOPNOTSUPP;
	}
	return 0;
}

/*
 * A call chain by DWARF (a stack copy for the reader to unwind) becomes the tool's own unwind,
 * which already uses the objects' CFI: the attr asks for the chain and no stack copy, and
 * the file says so. Returns the frames the tool must unwind for a, 0 for none.
 */
static unsigned callchain_of(struct perf_event_attr *a)
{
	if (a->sample_type & PERF_SAMPLE_STACK_USER) {
		a->sample_type = (a->sample_type & ~(uint64_t)PERF_SAMPLE_STACK_USER) |
				 PERF_SAMPLE_CALLCHAIN;
		a->sample_stack_user = 0;
		a->exclude_callchain_user = 0;
	}
	if (!(a->sample_type & PERF_SAMPLE_CALLCHAIN))
		return 0;
	if (a->exclude_callchain_user) {
		a->sample_type &= ~(uint64_t)PERF_SAMPLE_CALLCHAIN;
		return 0; /* vpmu runs user code only: a chain without user frames is empty */
	}
	return a->sample_max_stack && a->sample_max_stack < VPMU_MAX_CALLCHAIN ? a->sample_max_stack
									       : VPMU_MAX_CALLCHAIN;
}

/*
 * LBR_SELECT bits (a set bit excludes a kind, guide Table 7) for perf's branch filter: the
 * kinds asked for, at the privilege levels asked for (none named: both, as the kernel
 * takes the event's). The model's code all runs at ring 3, so "k" alone records nothing.
 */
static uint32_t lbr_select_of(uint64_t bst)
{
	uint32_t keep = 0,
		 all = VPMU_LBR_JCC | VPMU_LBR_NEAR_REL_CALL | VPMU_LBR_NEAR_IND_CALL |
		       VPMU_LBR_NEAR_RET | VPMU_LBR_NEAR_IND_JMP | VPMU_LBR_NEAR_REL_JMP,
		 sel;
	uint64_t priv = bst & (PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL);

	if (bst & PERF_SAMPLE_BRANCH_ANY_CALL)
		keep |= VPMU_LBR_NEAR_REL_CALL | VPMU_LBR_NEAR_IND_CALL;
	if (bst & PERF_SAMPLE_BRANCH_CALL)
		keep |= VPMU_LBR_NEAR_REL_CALL;
	if (bst & PERF_SAMPLE_BRANCH_IND_CALL)
		keep |= VPMU_LBR_NEAR_IND_CALL;
	if (bst & PERF_SAMPLE_BRANCH_ANY_RETURN)
		keep |= VPMU_LBR_NEAR_RET;
	if (bst & PERF_SAMPLE_BRANCH_COND)
		keep |= VPMU_LBR_JCC;
	if (bst & PERF_SAMPLE_BRANCH_IND_JUMP)
		keep |= VPMU_LBR_NEAR_IND_JMP;
	sel = bst & PERF_SAMPLE_BRANCH_ANY || !keep ? 0 : (all | VPMU_LBR_FAR_BRANCH) & ~keep;
	if (priv == PERF_SAMPLE_BRANCH_USER)
		sel |= VPMU_LBR_CPL_EQ_0;
	else if (priv == PERF_SAMPLE_BRANCH_KERNEL)
		sel |= VPMU_LBR_CPL_NEQ_0;
	return sel;
}

/*
 * Filters the model's LBR cannot apply, with why: it has the Core i7 guide's LBR_SELECT
 * (Table 7), no transactional memory, no call-stack mode, no hypervisor level.
 */
static const struct {
	uint64_t bit;
	const char *why;
} lbr_refused[] = {
	{PERF_SAMPLE_BRANCH_IN_TX, "the model has no transactional memory (TSX)"},
	{PERF_SAMPLE_BRANCH_ABORT_TX, "the model has no transactional memory (TSX)"},
	{PERF_SAMPLE_BRANCH_CALL_STACK,
	 "the Core i7 LBR has no call-stack mode (LBR_SELECT has no such bit; it came with later "
	 "CPUs)"},
	{PERF_SAMPLE_BRANCH_HV, "the model has no hypervisor level (LBR_SELECT filters ring 0 "
				"and ring 3 only)"},
	{PERF_SAMPLE_BRANCH_PRIV_SAVE, "vpmu's LBR entries carry no privilege level"},
	{PERF_SAMPLE_BRANCH_HW_INDEX, "vpmu's LBR has no hardware index"},
	{PERF_SAMPLE_BRANCH_NO_FLAGS, "vpmu's LBR entries always carry their flags"},
	{PERF_SAMPLE_BRANCH_NO_CYCLES, "vpmu's LBR entries always carry their flags"},
};

/* 0, or -EOPNOTSUPP with the filter vpmu cannot apply to attr's branch stack named. */
static int check_branch_filter(const struct vpmu_sampling *vs, const struct perf_event_attr *a,
			       const char *name)
{
	uint64_t bst = a->branch_sample_type;

	if (!(a->sample_type & PERF_SAMPLE_BRANCH_STACK))
		return 0;
	if (vs->model == VPMU_MODEL_PENTIUM) {
		pr_warn("vpmu: cannot sample the branch stack of '%s': the Pentium model has no "
			"last-branch record (use the Core i7 model)\n",
			name);
		return -EOPNOTSUPP;
	}
	for (size_t i = 0; i < sizeof(lbr_refused) / sizeof(lbr_refused[0]); i++) {
		const char *f = pmc_branch_filter_name(lbr_refused[i].bit);

		if (!(bst & lbr_refused[i].bit))
			continue;
		pr_warn("vpmu: cannot filter the branch stack of '%s' by %s%s%s: %s\n", name,
			f ? "'" : "bit ", f ? f : "", f ? "'" : "", lbr_refused[i].why);
		return -EOPNOTSUPP;
	}
	if (vs->lbr && vs->lbr_select != lbr_select_of(bst)) {
		pr_warn("vpmu: cannot sample '%s' with its own branch filter: the model has one "
			"LBR_SELECT for every counter; give the events the same filter\n",
			name);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* Puts attr idx's event on a counter with its interrupt bit and period. */
static int place(struct vpmu_sampling *vs, const struct pmc_evsel *ev, size_t idx)
{
	struct perf_event_attr *a = &vs->base.attrs[idx];
	int nr_gp = vs->model == VPMU_MODEL_PENTIUM ? VPMU_PENTIUM_NR : VPMU_COREI7_NR_GP;
	struct vpmu_enc enc;
	char why[256];
	int err = pmc__vpmu_encode(ev, vs->model, &enc, why, sizeof(why)), k = -1;

	if (err) {
		pr_warn("vpmu: cannot sample '%s': %s\n", ev->name, why);
		return err;
	}
	err = check_branch_filter(vs, a, ev->name);
	if (err)
		return err;
	if (enc.fixed >= 0 && !vs->used[VPMU_COREI7_FIXED_BASE + enc.fixed]) {
		k = VPMU_COREI7_FIXED_BASE + enc.fixed;
		vs->config[k] = enc.fixed_ctrl | VPMU_FIXED_PMI;
	}
	for (int g = 0; k < 0 && g < nr_gp; g++) {
		if (vs->used[g])
			continue;
		k = g;
		vs->config[k] = enc.config | (vs->model == VPMU_MODEL_COREI7 ? VPMU_EVTSEL_INT : 0);
	}
	if (k < 0) {
		pr_warn("vpmu: no counter left to sample '%s' (sample fewer events at once)\n",
			ev->name);
		return -PMC_E_TOOMANY;
	}
	/* A frequency is the tool's frequency mode (docs/vpmu.md): the attr keeps freq and
	 * sample_freq, as perf writes them, and each sample carries the period it ended. */
	if (a->freq && (!a->sample_freq || a->sample_freq > VPMU_MAX_FREQ)) {
		pr_warn("vpmu: cannot sample '%s' at %llu samples a second: the model takes 1 to "
			"%llu (one a modelled cycle)\n",
			ev->name, (unsigned long long)a->sample_freq, VPMU_MAX_FREQ);
		return -EINVAL;
	}
	/* One threshold register: a recording cannot hold two (pmc stat plans passes). */
	if (ev->ldlat && vs->ldlat && ev->ldlat != vs->ldlat) {
		pr_warn("vpmu: '%s' asks for ldlat=%u, another event for ldlat=%u: the model has "
			"one load-latency threshold; record them one at a time\n",
			ev->name, ev->ldlat, vs->ldlat);
		return -PMC_E_UNSUPPORTED;
	}
	if (ev->ldlat)
		vs->ldlat = ev->ldlat;
	vs->used[k] = true;
	vs->period[k] = a->freq ? 0 : a->sample_period;
	vs->freq[k] = a->freq ? a->sample_freq : 0;
	vs->cv.attr_of_ctr[k] = (int)idx;
	vs->precise |= a->precise_ip > 0;
	if (a->sample_type & PERF_SAMPLE_BRANCH_STACK) {
		vs->lbr = true;
		vs->lbr_select = lbr_select_of(a->branch_sample_type);
	}
	return 0;
}

static int alloc_state(struct vpmu_sampling *vs, struct pmc_evlist *evlist,
		       const struct pmc__sample_params *p)
{
	size_t n = evlist->nr;

	vs->base.nr_attrs = n;
	vs->base.attrs = calloc(n, sizeof(*vs->base.attrs));
	vs->base.ids = calloc(n, sizeof(*vs->base.ids));
	vs->base.nr_ids = calloc(n, sizeof(*vs->base.nr_ids));
	vs->id_store = calloc(n, sizeof(*vs->id_store));
	if (!vs->base.attrs || !vs->base.ids || !vs->base.nr_ids || !vs->id_store)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		vs->base.attrs[i] = p->attrs[i];
		vs->base.attrs[i].size = sizeof(struct perf_event_attr);
		vs->base.attrs[i].inherit = p->inherit;
		vs->id_store[i] = i + 1;
		vs->base.ids[i] = &vs->id_store[i];
		vs->base.nr_ids[i] = 1;
	}
	for (int k = 0; k < VPMU_MAX_COUNTERS; k++)
		vs->cv.attr_of_ctr[k] = -1;
	vs->cv.attrs = vs->base.attrs;
	vs->cv.ids = vs->id_store;
	vs->cv.side_id = vs->id_store[0];
	return 0;
}

static int program(struct vpmu_sampling *vs, struct pmc_evlist *evlist)
{
	for (size_t i = 0; i < evlist->nr; i++) {
		struct pmc_evsel *ev = evlist->entries[i];
		unsigned cc = callchain_of(&vs->base.attrs[i]);
		int err = check_attr(&vs->base.attrs[i], ev->name);

		if (cc > vs->callchain)
			vs->callchain = cc;
		vs->data_addr |= (vs->base.attrs[i].sample_type & PERF_SAMPLE_ADDR) != 0;
		if (!err)
			err = place(vs, ev, i);
		if (err)
			return err;
	}
	return 0;
}

/* Samples with data addresses run under the tool's name vpmuheap, whose preload replaces the
 * client's allocator so that heap blocks are named by their allocation site; a folder without
 * it (an older install) runs vpmu, and the blocks stay unnamed. */
static const char *heap_tool(void)
{
	char path[sizeof(pmc__vpmu_machine()->path) + 64];

	snprintf(path, sizeof(path), "%s/vgpreload_vpmuheap-amd64-linux.so",
		 pmc__vpmu_machine()->path);
	if (access(path, R_OK)) {
		pr_warn("vpmu: %s is missing: heap blocks are not named by their allocation "
			"site\n",
			path);
		return NULL;
	}
	return "vpmuheap";
}

static int spawn(struct vpmu_sampling *vs, const struct pmc__sample_params *p)
{
	char sel[32], jit[32], seed[40], cc[32], lat[32];
	const char *extra[8] = {vs->precise ? "--precise=yes" : "--precise=no"};
	struct vpmu_cmdline cl = {.used = vs->used,
				  .config = vs->config,
				  .period = vs->period,
				  .freq = vs->freq,
				  .extra = extra,
				  .nr_extra = 1,
				  .argv = p->argv,
				  .keep_fd = p->keep_fd,
				  .keep_fd_env = p->keep_fd_env,
				  .stdout_to_stderr = p->stdout_to_stderr};
	int fl, err;

	vs->argv0 = p->argv[0];
	if (vs->lbr) {
		snprintf(sel, sizeof(sel), "--lbr-select=%u", vs->lbr_select);
		extra[cl.nr_extra++] = "--lbr=yes";
		extra[cl.nr_extra++] = sel;
	}
	if (p->period_jitter) {
		snprintf(jit, sizeof(jit), "--period-jitter=%u", p->period_jitter);
		snprintf(seed, sizeof(seed), "--seed=%llu", (unsigned long long)p->seed);
		extra[cl.nr_extra++] = jit;
		extra[cl.nr_extra++] = seed;
	}
	if (vs->callchain) {
		snprintf(cc, sizeof(cc), "--callchain=%u", vs->callchain);
		extra[cl.nr_extra++] = cc;
	}
	if (vs->ldlat) {
		snprintf(lat, sizeof(lat), "--ld-lat=%u", vs->ldlat);
		extra[cl.nr_extra++] = lat;
	}
	if (vs->data_addr) {
		cl.tool = heap_tool();
		extra[cl.nr_extra++] = "--data-maps=yes";
	}
	err = pmc__vpmu_spawn(&cl, &vs->rd_fd, p->child);
	if (err)
		return err;
	fl = fcntl(vs->rd_fd, F_GETFL);
	if (fl < 0 || fcntl(vs->rd_fd, F_SETFL, fl | O_NONBLOCK))
		return -errno;
	return 0;
}

static int check_target(const struct pmc__sample_params *p)
{
	if (!p->argv || !p->child || p->pid) {
		pr_warn("vpmu: only a command pmc starts can be sampled (valgrind cannot attach "
			"to a running process or watch CPUs)\n");
		return -EOPNOTSUPP;
	}
	if (!pmc__vpmu_machine()->ok) {
		pr_warn("vpmu: %s\n", pmc__vpmu_machine()->why);
		return -PMC_E_NOVPMU;
	}
	if (pmc__vpmu_runnable(p->argv[0])) {
		pr_err("cannot run '%s': %s\n", p->argv[0],
		       strerror(-pmc__vpmu_runnable(p->argv[0])));
		return -PMC_E_EXEC;
	}
	return 0;
}

int pmc__vpmu_sample_open(struct pmc_evlist *evlist, const struct pmc__sample_params *p,
			  struct pmc_sampling **out)
{
	struct vpmu_sampling *vs = calloc(1, sizeof(*vs));
	int err;

	if (!vs)
		return -ENOMEM;
	vs->rd_fd = -1;
	vs->wake_fd = p->wake_fd;
	vs->model = pmc__vpmu_model();
	err = check_target(p);
	err = err ? err : alloc_state(vs, evlist, p);
	err = err ? err : program(vs, evlist);
	err = err ? err : spawn(vs, p);
	if (err) {
		pmc__vpmu_sample_close(&vs->base);
		return err;
	}
	*out = &vs->base;
	return 0;
}

/* The tool starts the counters at the command's first instruction (as enable_on_exec). */
int pmc__vpmu_sample_enable(struct pmc_sampling *s)
{
	return 0;
}

int pmc__vpmu_sample_disable(struct pmc_sampling *s)
{
	return 0;
}

int pmc__vpmu_sample_poll(struct pmc_sampling *s, int timeout_ms)
{
	struct vpmu_sampling *vs = to_vs(s);
	struct pollfd p[2] = {{.fd = vs->rd_fd, .events = POLLIN},
			      {.fd = vs->wake_fd, .events = POLLIN}};

	if (vs->eof || vs->rd_fd < 0) {
		s->target_exited = true;
		return 0;
	}
	if (poll(p, vs->wake_fd >= 0 ? 2 : 1, timeout_ms) < 0)
		return -errno;
	return 0;
}

/* Reads what the stream holds now, up to DRAIN_MAX_BYTES; sets eof at its end. */
static int read_stream(struct vpmu_sampling *vs)
{
	size_t got = 0;
	ssize_t n;

	while (!vs->eof && got < DRAIN_MAX_BYTES) {
		if (vs->alloc - vs->len < READ_CHUNK) {
			size_t alloc = vs->alloc ? 2 * vs->alloc : 4 * READ_CHUNK;
			unsigned char *b = realloc(vs->buf, alloc);

			if (!b)
				return -ENOMEM;
			vs->buf = b;
			vs->alloc = alloc;
		}
		n = read(vs->rd_fd, vs->buf + vs->len, vs->alloc - vs->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN ? 0 : -errno;
		vs->eof = n == 0;
		vs->len += (size_t)n;
		got += (size_t)n;
	}
	return 0;
}

/* Converts the whole records in the buffer and keeps a partial one for later. */
static int convert_buffered(struct vpmu_sampling *vs)
{
	size_t off = 0;
	int total = 0, n = 0;

	while (vs->len - off >= sizeof(struct vpmu_hdr)) {
		const struct vpmu_hdr *h = (const void *)(vs->buf + off);

		if (h->magic != VPMU_MAGIC_RECORD || h->version != VPMU_PROTO_VERSION ||
		    h->size < sizeof(*h) || h->size % 8 || h->size > MAX_STREAM_RECORD) {
			pr_warn("vpmu: malformed stream record at offset %zu\n", off);
			return -PMC_E_PROTOCOL;
		}
		if (h->size > vs->len - off)
			break;
		if (h->type == VPMU_REC_REFUSED && h->size >= sizeof(struct vpmu_rec_refused) &&
		    ((const struct vpmu_rec_refused *)h)->what == VPMU_REFUSED_CLONE)
			pmc__vpmu_say_refused_clone(vs->argv0,
						    ((const struct vpmu_rec_refused *)h)->flags);
		n = pmc__vpmu_convert(&vs->cv, h);
		if (n < 0)
			return n;
		total += n;
		off += h->size;
	}
	memmove(vs->buf, vs->buf + off, vs->len - off);
	vs->len -= off;
	if (vs->eof && vs->len)
		pr_debug("vpmu: the stream ends inside a record (command killed?)\n");
	return total;
}

int pmc__vpmu_sample_drain(struct pmc_sampling *s, pmc__sample_sink_fn sink, void *arg)
{
	struct vpmu_sampling *vs = to_vs(s);
	int err;

	if (vs->rd_fd < 0)
		return 0;
	vs->cv.sink = sink;
	vs->cv.arg = arg;
	err = read_stream(vs);
	if (err)
		return err;
	if (vs->eof)
		s->target_exited = true;
	return convert_buffered(vs);
}

void pmc__vpmu_sample_close(struct pmc_sampling *s)
{
	struct vpmu_sampling *vs;

	if (!s)
		return;
	vs = to_vs(s);
	if (vs->rd_fd >= 0)
		close(vs->rd_fd);
	free(vs->buf);
	pmc__vpmu_heap_free(&vs->cv);
	free(s->attrs);
	free(s->ids);
	free(s->nr_ids);
	free(vs->id_store);
	free(vs);
}
