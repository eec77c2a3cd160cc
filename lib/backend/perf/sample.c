// SPDX-License-Identifier: MIT
/* The perf backend's sampling: opening events per CPU and thread, ring buffers, poll, drain. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "backend/perf/perf.h"
#include "core/cpulist.h"
#include "backend/perf/sample.h"
#include "core/log.h"
#include "core/sysfile.h"
#include "event/evsel.h"
#include "event/pmu.h"

static int *fd_at(struct perf_sampling *ps, size_t attr, int thread, int cpu)
{
	return &ps->fds[(attr * (size_t)ps->nr_threads + (size_t)thread) * (size_t)ps->nr_cpus +
			(size_t)cpu];
}

static int add_id(struct pmc_sampling *s, size_t idx, int fd)
{
	uint64_t id, *v;

	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
		return -errno;
	v = realloc(s->ids[idx], (s->nr_ids[idx] + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	v[s->nr_ids[idx]++] = id;
	s->ids[idx] = v;
	return 0;
}

/* Opens one event on one (thread, cpu) and routes it to that CPU's ring buffer. */
static int open_one(struct perf_sampling *ps, size_t idx, int t, int c, size_t pages)
{
	struct perf_event_attr *a = &ps->base.attrs[idx];
	struct pmc__ringbuf *rb = &ps->rbs[c];
	int fd, ret;

	fd = pmc__perf_open_call(&ps->dry, a, ps->threads[t], ps->cpus[c], -1,
				 PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 || ps->dry.fn)
		return fd < 0 ? fd : 0;
	*fd_at(ps, idx, t, c) = fd;
	if (rb->fd < 0) {
		ret = pmc__ringbuf_open(rb, fd, pages);
		if (ret)
			return ret;
	} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, rb->fd) < 0) {
		return -errno;
	}
	return add_id(&ps->base, idx, fd);
}

static void prepare_attr(struct perf_event_attr *a, const struct pmc__sample_params *p,
			 size_t data_bytes)
{
	a->size = sizeof(*a);
	a->disabled = 1;
	a->enable_on_exec = p->enable_on_exec;
	a->inherit = p->inherit;
	/* Wake the reader when a quarter of the buffer is full, not on every sample. */
	a->watermark = 1;
	a->wakeup_watermark = (uint32_t)(data_bytes / 4);
}

static int alloc_state(struct perf_sampling *ps, struct pmc_evlist *evlist,
		       const struct pmc__sample_params *p)
{
	size_t n = evlist->nr, nfd;
	int ret;

	ret = pmc__cpu_list(p->pid < 0 ? p->cpus : NULL, &ps->cpus, NULL, 0);
	if (ret < 0)
		return ret;
	ps->nr_cpus = ret;
	if (p->all_threads && p->pid > 0) {
		ret = pmc__perf_thread_list(p->pid, &ps->threads);
		if (ret < 0)
			return ret;
		ps->nr_threads = ret;
	} else {
		ps->threads = malloc(sizeof(pid_t));
		if (!ps->threads)
			return -ENOMEM;
		ps->threads[0] = p->pid;
		ps->nr_threads = 1;
	}
	nfd = n * (size_t)ps->nr_threads * (size_t)ps->nr_cpus;
	ps->base.nr_attrs = n;
	ps->base.attrs = calloc(n, sizeof(*ps->base.attrs));
	ps->base.ids = calloc(n, sizeof(*ps->base.ids));
	ps->base.nr_ids = calloc(n, sizeof(*ps->base.nr_ids));
	ps->fds = malloc(nfd * sizeof(int));
	ps->rbs = calloc((size_t)ps->nr_cpus, sizeof(*ps->rbs));
	ps->pfds = calloc((size_t)ps->nr_cpus + 1, sizeof(*ps->pfds));
	if (!ps->base.attrs || !ps->base.ids || !ps->base.nr_ids || !ps->fds || !ps->rbs ||
	    !ps->pfds)
		return -ENOMEM;
	for (size_t i = 0; i < nfd; i++)
		ps->fds[i] = -1;
	for (int c = 0; c < ps->nr_cpus; c++)
		ps->rbs[c].fd = -1;
	return 0;
}

/*
 * Why a branch stack could not be opened: x86 kernels list the LBR's depth in the core PMU's
 * caps/branches; without it (no hardware PMU, as in most virtual machines) nothing here
 * records branches.
 */
static void say_branch_refusal(const struct perf_event_attr *a, const char *name, int err)
{
	char depth[32];

	if (!(a->sample_type & PERF_SAMPLE_BRANCH_STACK))
		return;
	if (pmc__sysfs_read("bus/event_source/devices/cpu/caps/branches", depth, sizeof(depth)) < 0)
		pr_warn("perf: cannot sample the branch stack of '%s': this machine's PMU has no "
			"last-branch record (LBR) (no "
			"%s/bus/event_source/devices/cpu/caps/branches: "
			"no hardware PMU here, as in most virtual machines); use --backend=vpmu, "
			"whose Core i7 model has a 16-entry LBR\n",
			name, pmc__sysfs_root());
	else
		pr_warn("perf: cannot sample the branch stack of '%s' with filter 0x%llx (%s): the "
			"LBR here (%s entries) does not take that filter for this event, or the "
			"event is not a hardware event\n",
			name, (unsigned long long)a->branch_sample_type, strerror(-err), depth);
}

static int open_all(struct perf_sampling *ps, const struct pmc__sample_params *p,
		    struct pmc_evlist *evlist)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int ret;

	for (size_t i = 0; i < ps->base.nr_attrs; i++) {
		ps->base.attrs[i] = p->attrs[i];
		prepare_attr(&ps->base.attrs[i], p, p->mmap_pages * page);
		for (int t = 0; t < ps->nr_threads; t++) {
			for (int c = 0; c < ps->nr_cpus; c++) {
				/* a core PMU samples on its `cpus` only (docs/pmus.md) */
				if (!pmc__pmu_cpu_in(evlist->entries[i]->pmu, ps->cpus[c]))
					continue;
				ret = open_one(ps, i, t, c, p->mmap_pages);
				if (ret) {
					pr_debug("sampling %s on cpu %d, pid %d: %s\n",
						 evlist->entries[i]->name, ps->cpus[c],
						 (int)ps->threads[t], strerror(-ret));
					say_branch_refusal(&ps->base.attrs[i],
							   evlist->entries[i]->name, ret);
					return ret;
				}
			}
		}
	}
	return 0;
}

int pmc__perf_sample_open(struct pmc_evlist *evlist, const struct pmc__sample_params *p,
			  struct pmc_sampling **out)
{
	struct perf_sampling *ps = calloc(1, sizeof(*ps));
	int ret;

	if (!ps)
		return -ENOMEM;
	if (p->period_jitter) {
		pr_warn("perf: cannot randomise sampling periods: the kernel loads each counter "
			"with the same period (no period randomisation for most PMUs); use "
			"--backend=vpmu\n");
		free(ps);
		return -EOPNOTSUPP;
	}
	pmc__perf_dry_run_init(&ps->dry, evlist);
	ret = alloc_state(ps, evlist, p);
	if (!ret)
		ret = open_all(ps, p, evlist);
	if (ret || ps->dry.fn) {
		pmc__perf_sample_close(&ps->base);
		return ret;
	}
	for (int c = 0; c < ps->nr_cpus; c++)
		ps->pfds[ps->nr_pfds++] = (struct pollfd){.fd = ps->rbs[c].fd, .events = POLLIN};
	if (p->wake_fd >= 0)
		ps->pfds[ps->nr_pfds++] = (struct pollfd){.fd = p->wake_fd, .events = POLLIN};
	*out = &ps->base;
	return 0;
}

static int ioctl_all(struct pmc_sampling *s, unsigned long req)
{
	struct perf_sampling *ps = (struct perf_sampling *)s;
	size_t nfd = s->nr_attrs * (size_t)ps->nr_threads * (size_t)ps->nr_cpus;

	for (size_t i = 0; i < nfd; i++)
		if (ps->fds[i] >= 0 && ioctl(ps->fds[i], req, 0) < 0)
			return -errno;
	return 0;
}

int pmc__perf_sample_enable(struct pmc_sampling *s)
{
	return ioctl_all(s, PERF_EVENT_IOC_ENABLE);
}

int pmc__perf_sample_disable(struct pmc_sampling *s)
{
	return ioctl_all(s, PERF_EVENT_IOC_DISABLE);
}

int pmc__perf_sample_poll(struct pmc_sampling *s, int timeout_ms)
{
	struct perf_sampling *ps = (struct perf_sampling *)s;
	int hup = 0;

	if (poll(ps->pfds, (nfds_t)ps->nr_pfds, timeout_ms) < 0)
		return -errno;
	for (int c = 0; c < ps->nr_cpus; c++)
		hup += !!(ps->pfds[c].revents & (POLLHUP | POLLERR));
	/* Every buffer hung up: the target and all that inherited its events are gone. */
	if (ps->nr_cpus && hup == ps->nr_cpus)
		s->target_exited = true;
	return 0;
}

int pmc__perf_sample_drain(struct pmc_sampling *s, pmc__sample_sink_fn sink, void *arg)
{
	struct perf_sampling *ps = (struct perf_sampling *)s;
	int total = 0;

	for (int c = 0; c < ps->nr_cpus; c++) {
		int n;
		if (ps->rbs[c].fd < 0)
			continue;
		n = pmc__ringbuf_drain(&ps->rbs[c], sink, arg);
		if (n < 0)
			return n;
		total += n;
	}
	return total;
}

void pmc__perf_sample_close(struct pmc_sampling *s)
{
	struct perf_sampling *ps = (struct perf_sampling *)s;

	if (!s)
		return;
	for (int c = 0; ps->rbs && c < ps->nr_cpus; c++)
		pmc__ringbuf_close(&ps->rbs[c]);
	if (ps->fds) {
		size_t nfd = s->nr_attrs * (size_t)ps->nr_threads * (size_t)ps->nr_cpus;
		for (size_t i = 0; i < nfd; i++)
			if (ps->fds[i] >= 0)
				close(ps->fds[i]);
	}
	for (size_t i = 0; s->ids && i < s->nr_attrs; i++)
		free(s->ids[i]);
	free(s->ids);
	free(s->nr_ids);
	free(s->attrs);
	free(ps->fds);
	free(ps->rbs);
	free(ps->pfds);
	free(ps->cpus);
	free(ps->threads);
	free(ps);
}
