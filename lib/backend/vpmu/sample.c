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
	err = pmc__vpmu_check_branch_filter(vs->model, vs->lbr ? &vs->lbr_select : NULL, a,
					    ev->name);
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
		vs->lbr_select = pmc__vpmu_lbr_select_of(a->branch_sample_type);
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
		unsigned cc = pmc__vpmu_callchain_of(&vs->base.attrs[i]);
		int err = pmc__vpmu_check_attr(&vs->base.attrs[i], ev->name);

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
