// SPDX-License-Identifier: MIT
/*
 * A command counted per thread (pmc_target.per_thread). The kernel keeps an inherited
 * counter per thread and adds it to its parent's when the thread exits; with inherit_stat it
 * first writes a PERF_RECORD_READ with the thread's own values into the parent's ring buffer,
 * which must then be per CPU (the kernel maps no buffer of an inherited per-task counter).
 * So each event is opened on every CPU, each CPU's counters write into one buffer (the first
 * one's, PERF_EVENT_IOC_SET_OUTPUT), and the records name their counter by
 * PERF_SAMPLE_IDENTIFIER. The command's main thread never exits as a child: its values are
 * the total less every thread's. COMM records of the first event name the threads.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include "backend/perf/perf.h"
#include "backend/perf/ringbuf.h"
#include "core/grow.h"
#include "core/log.h"
#include "count/child.h"
#include "event/evsel.h"
#include "perfdata/records.h"

/* Data pages of each CPU's buffer, tried in turn (the locked-memory limit of a user). */
static const size_t try_pages[] = {16, 4, 1};

struct perf_thread {
	pid_t pid, tid;
	char comm[16];
	bool counted;	     /* a READ record came: the thread has ended */
	struct pmc_count *v; /* [evlist->nr] */
};

struct counter_id {
	uint64_t id;
	size_t idx;
};

struct perf_threads {
	int guard[2]; /* the non-inherited counters of the software and hardware contexts, or -1 */
	bool first_set;
	size_t first_idx; /* the event whose counters ask for COMM records */
	int nr_bufs;
	struct pmc__ringbuf *rb; /* [nr_bufs] */
	struct counter_id *ids;
	size_t nr_ids;
	struct perf_thread *t;
	size_t nr, alloc, nr_ev;
	uint64_t lost;
};

struct perf_threads *pmc__perf_threads_new(void)
{
	struct perf_threads *t = calloc(1, sizeof(*t));

	if (t)
		t->guard[0] = t->guard[1] = -1;
	return t;
}

/* The task context an event lives in: 0 software (tracepoints, breakpoints too), 1 hardware. */
static int context_of(const struct pmc_evsel *ev)
{
	switch (ev->attr.type) {
	case PERF_TYPE_SOFTWARE:
	case PERF_TYPE_TRACEPOINT:
	case PERF_TYPE_BREAKPOINT:
		return 0;
	default:
		return 1;
	}
}

/*
 * Where a task context and its clone in a thread hold the same inherited counters, the kernel
 * may swap the two contexts between the tasks at a context switch, values and all: the
 * counters stay right per task, but the original ones then end in another thread, which
 * writes no record, and the main thread writes one. A counter that is not inherited keeps
 * the clones from counting as the same, so each context gets one: disabled, counting
 * nothing, on the command (a dummy for the software context, a copy of ev for the hardware
 * one).
 */
static int guard(struct perf_counting *pc, const struct pmc_evsel *ev)
{
	struct perf_threads *t = pc->threads;
	int k = context_of(ev), fd;
	struct perf_event_attr a = {.size = sizeof(a),
				    .type = PERF_TYPE_SOFTWARE,
				    .config = PERF_COUNT_SW_DUMMY,
				    .disabled = 1,
				    .exclude_kernel = 1,
				    .exclude_hv = 1};

	if (t->guard[k] >= 0)
		return 0;
	if (k) {
		a = ev->attr;
		a.size = sizeof(a);
		a.disabled = 1;
		a.inherit = 0;
		a.sample_period = 0;
	}
	fd = pmc__perf_event_open(&a, pc->base.child->pid, -1, -1, 0);
	if (fd < 0)
		return fd;
	t->guard[k] = fd;
	return 0;
}

void pmc__perf_threads_attr(const struct perf_counting *pc, const struct pmc_evsel *ev,
			    struct perf_event_attr *a)
{
	struct perf_threads *t = pc->threads;

	if (!t->first_set) {
		t->first_set = true;
		t->first_idx = ev->idx;
	}
	a->inherit_stat = 1;
	a->sample_id_all = 1;
	a->sample_type = PERF_SAMPLE_IDENTIFIER;
	a->comm = a->comm_exec = ev->idx == t->first_idx;
}

/* Maps a buffer on fd, as large as the locked-memory limit allows. */
static int map_buffer(struct pmc__ringbuf *rb, int fd)
{
	int err = -EINVAL;

	for (size_t i = 0; i < sizeof(try_pages) / sizeof(try_pages[0]); i++) {
		err = pmc__ringbuf_open(rb, fd, try_pages[i]);
		if (err != -EPERM && err != -ENOMEM)
			break;
	}
	if (err)
		pr_warn("counting per thread needs a ring buffer on each CPU, which the kernel "
			"refuses: %s (the locked memory of perf_event_mlock_kb, or "
			"RLIMIT_MEMLOCK)\n",
			strerror(-err));
	return err;
}

/* Buffer u takes every counter of CPU unit u; each counter's id is noted. */
static int open_unit(struct perf_counting *pc, int u)
{
	struct perf_threads *t = pc->threads;
	struct pmc__ringbuf *rb = &t->rb[u];

	for (size_t i = 0; i < pc->base.evlist->nr; i++) {
		int fd = *perf_fd(pc, i, u), err;
		uint64_t id;

		if (!pc->base.open[i] || fd < 0)
			continue;
		if (!u && (err = guard(pc, pc->base.evlist->entries[i])))
			return err;
		if (!rb->page) {
			err = map_buffer(rb, fd);
			if (err)
				return err;
		} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, rb->fd)) {
			return -errno;
		}
		if (ioctl(fd, PERF_EVENT_IOC_ID, &id))
			return -errno;
		t->ids[t->nr_ids++] = (struct counter_id){id, i};
	}
	return 0;
}

int pmc__perf_threads_open(struct perf_counting *pc)
{
	struct perf_threads *t = pc->threads;
	int err = 0;

	t->nr_ev = pc->base.evlist->nr;
	t->rb = calloc((size_t)pc->nr_units, sizeof(*t->rb));
	t->ids = calloc((t->nr_ev ? t->nr_ev : 1) * (size_t)pc->nr_units, sizeof(*t->ids));
	if (!t->rb || !t->ids)
		return -ENOMEM;
	t->nr_bufs = pc->nr_units;
	for (int u = 0; u < pc->nr_units && !err; u++)
		err = open_unit(pc, u);
	return err;
}

static struct perf_thread *thread_of(struct perf_threads *t, uint32_t pid, uint32_t tid)
{
	struct perf_thread *th;

	for (size_t i = t->nr; i-- > 0;)
		if (t->t[i].tid == (pid_t)tid && t->t[i].pid == (pid_t)pid)
			return &t->t[i];
	if (PMC_ENSURE(t->t, t->alloc, t->nr + 1))
		return NULL;
	th = &t->t[t->nr];
	*th = (struct perf_thread){.pid = (pid_t)pid, .tid = (pid_t)tid};
	th->v = calloc(t->nr_ev ? t->nr_ev : 1, sizeof(*th->v));
	if (!th->v)
		return NULL;
	t->nr++;
	return th;
}

/* PERF_RECORD_READ with read_format enabled|running and an identifier: pid, tid, 3 values, id. */
static int on_read(struct perf_threads *t, const uint32_t *body, size_t len)
{
	uint64_t v[4];
	struct perf_thread *th;

	if (len < 8 + sizeof(v))
		return 0;
	memcpy(v, body + 2, sizeof(v));
	for (size_t i = 0; i < t->nr_ids; i++) {
		if (t->ids[i].id != v[3])
			continue;
		th = thread_of(t, body[0], body[1]);
		if (!th)
			return -ENOMEM;
		pr_debug("per-thread: thread %u of %u ended: counter %zu read %llu, "
			 "enabled %llu ns, running %llu ns\n",
			 body[1], body[0], t->ids[i].idx, (unsigned long long)v[0],
			 (unsigned long long)v[1], (unsigned long long)v[2]);
		th->counted = true;
		th->v[t->ids[i].idx].value += v[0];
		th->v[t->ids[i].idx].time_enabled_ns += v[1];
		th->v[t->ids[i].idx].time_running_ns += v[2];
		return 0;
	}
	return 0;
}

/* The side-band records of the threads' buffers (pmc__perf_threads_attr's layout). */
static int side_band(struct perf_threads *t, const void *rec, size_t len)
{
	static const struct perf_event_attr layout = {.sample_id_all = 1,
						      .sample_type = PERF_SAMPLE_IDENTIFIER};
	struct perf_thread *th;
	struct pmc__record r;

	/* The record codec checks the record's size; a short one is skipped. */
	if (pmc__record_decode(&layout, rec, len, &r, NULL))
		return 0;
	if (r.type == PERF_RECORD_LOST) {
		t->lost += r.lost;
		return 0;
	}
	th = thread_of(t, r.pid, r.tid);
	if (!th)
		return -ENOMEM;
	snprintf(th->comm, sizeof(th->comm), "%.*s", (int)r.str_len, r.str);
	return 0;
}

static int sink(const void *rec, size_t len, void *arg)
{
	struct perf_threads *t = arg;
	const struct perf_event_header *h = rec;

	switch (h->type) {
	case PERF_RECORD_READ:
		return on_read(t, (const void *)(h + 1), len - sizeof(*h));
	case PERF_RECORD_COMM:
	case PERF_RECORD_LOST:
		return side_band(t, rec, len);
	default:
		return 0;
	}
}

/* The name of a thread that never said its own: its process's, else the program's. */
static void name_of(const struct perf_counting *pc, const struct perf_thread *th, char *comm)
{
	const struct perf_threads *t = pc->threads;
	const char *prog = pc->base.target.argv[0], *slash = strrchr(prog, '/');

	if (th && th->comm[0]) {
		memcpy(comm, th->comm, 16);
		return;
	}
	for (size_t i = 0; th && i < t->nr; i++)
		if (t->t[i].tid == th->pid && t->t[i].comm[0]) {
			memcpy(comm, t->t[i].comm, 16);
			return;
		}
	snprintf(comm, 16, "%s", slash ? slash + 1 : prog);
}

/* The main thread: the total less every ended thread's values. */
static void main_unit(struct perf_counting *pc, struct pmc__unit *un, struct pmc_count *v,
		      const struct perf_thread *self)
{
	const struct perf_threads *t = pc->threads;
	pid_t child = pc->base.child->pid;

	*un = (struct pmc__unit){.cpu = -1, .pid = child, .tid = child};
	name_of(pc, self, un->comm);
	for (size_t i = 0; i < t->nr_ev; i++) {
		uint64_t sum = 0;

		for (size_t k = 0; k < t->nr; k++)
			if (t->t[k].counted && t->t[k].tid != child)
				sum += t->t[k].v[i].value;
		v[i] = pc->base.values[i];
		v[i].value = v[i].value > sum ? v[i].value - sum : 0;
	}
}

/*
 * Each counter of a task is enabled on every CPU while the task runs and runs on one: summed
 * over the CPUs, the enabled time is nr_cpus times the task's. Divided, a value that was
 * never time-shared reads as counted all the time; the CPUs' clocks are updated at moments a
 * little apart, so that the quotient can come out a few percent short of the running time,
 * which it then is.
 */
static void per_task_times(struct pmc_count *v, size_t nr, int nr_cpus)
{
	for (size_t i = 0; i < nr && nr_cpus > 1; i++) {
		v[i].time_enabled_ns /= (uint64_t)nr_cpus;
		if (v[i].time_enabled_ns < v[i].time_running_ns)
			v[i].time_enabled_ns = v[i].time_running_ns;
	}
}

int pmc__perf_threads_read(struct perf_counting *pc)
{
	struct perf_threads *t = pc->threads;
	struct pmc_counting *c = &pc->base;
	const struct perf_thread *self = NULL;
	int n = 1, u = 1, err = 0;

	for (int b = 0; b < t->nr_bufs && err >= 0; b++)
		if (t->rb[b].page)
			err = pmc__ringbuf_drain(&t->rb[b], sink, t);
	if (err < 0)
		return err;
	per_task_times(c->values, t->nr_ev, pc->nr_units);
	for (size_t k = 0; k < t->nr; k++) {
		if (t->t[k].tid == c->child->pid)
			self = &t->t[k];
		else
			n += t->t[k].counted;
	}
	err = pmc__counting_units(c, n);
	if (err)
		return err;
	main_unit(pc, &c->units[0], c->unit_values, self);
	for (size_t k = 0; k < t->nr; k++) {
		const struct perf_thread *th = &t->t[k];

		if (!th->counted || th->tid == c->child->pid)
			continue;
		c->units[u] = (struct pmc__unit){.cpu = -1, .pid = th->pid, .tid = th->tid};
		name_of(pc, th, c->units[u].comm);
		memcpy(&c->unit_values[(size_t)u * t->nr_ev], th->v, t->nr_ev * sizeof(*th->v));
		per_task_times(&c->unit_values[(size_t)u * t->nr_ev], t->nr_ev, pc->nr_units);
		u++;
	}
	c->units_live = false;
	c->lost_units = t->lost;
	return 0;
}

void pmc__perf_threads_close(struct perf_counting *pc)
{
	struct perf_threads *t = pc->threads;

	if (!t)
		return;
	for (int b = 0; b < t->nr_bufs; b++)
		pmc__ringbuf_close(&t->rb[b]);
	for (int k = 0; k < 2; k++)
		if (t->guard[k] >= 0)
			close(t->guard[k]);
	for (size_t k = 0; k < t->nr; k++)
		free(t->t[k].v);
	free(t->t);
	free(t->rb);
	free(t->ids);
	free(t);
	pc->threads = NULL;
}
