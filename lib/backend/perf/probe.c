// SPDX-License-Identifier: MIT
/*
 * The perf backend's probes of this machine, made once: perf_event_open, what this user may
 * count, the hardware PMU, rdpmc, debug registers (caps.c describes what they found for pmc
 * doctor).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <linux/hw_breakpoint.h>
#include <pthread.h>
#include "backend/perf/perf.h"
#include "backend/perf/pfm-api.h"
#include "core/sysfile.h"

static int try_open(__u32 type, __u64 config)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = type,
		.config = config,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};

	return pmc__perf_event_open(&a, 0, -1, -1, 0);
}

int pmc__perf_probe_open(enum perf_probe_scope scope, pid_t pid, int cpu)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_SOFTWARE,
		.config = scope == PERF_PROBE_CPU ? PERF_COUNT_SW_CPU_CLOCK
						  : PERF_COUNT_SW_TASK_CLOCK,
		.disabled = 1,
		.exclude_kernel = scope != PERF_PROBE_KERNEL,
		.exclude_hv = 1,
	};
	int fd;

	if (scope == PERF_PROBE_CPU)
		pid = -1;
	else
		cpu = -1;
	/* pmc itself at user level: the probe is task-clock's pin (pin.c), kept. */
	if (scope == PERF_PROBE_USER && pid == 0)
		return pmc__perf_pin(a.type, a.config);
	fd = pmc__perf_event_open(&a, pid, cpu, -1, 0);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int pmc__perf_probe_cpu(void)
{
	int cpu = sched_getcpu();

	return cpu < 0 ? 0 : cpu;
}

static void probe_hw(struct perf_machine *m)
{
	int fd = try_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	void *page;

	if (fd < 0) {
		snprintf(m->hw_pmu_why, sizeof(m->hw_pmu_why),
			 fd == -ENOENT || fd == -EOPNOTSUPP || fd == -ENODEV
				 ? "no hardware PMU on this machine (virtual machine?)"
				 : "opening the cycles event failed: %s",
			 strerror(-fd));
		return;
	}
	m->hw_pmu = true;
	page = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	if (page != MAP_FAILED) {
		m->rdpmc = ((struct perf_event_mmap_page *)page)->cap_user_rdpmc;
		munmap(page, (size_t)sysconf(_SC_PAGESIZE));
	}
	close(fd);
}

/* libpfm4 knows the core PMU's name and its counters; only meaningful with a PMU. */
static void probe_pfm(struct perf_machine *m)
{
	const struct pmc__pfm_api *pfm = pmc__pfm_api();
	pfm_pmu_info_t info;
	int pmu;

	if (!pfm)
		return;
	pfm_for_all_pmus(pmu)
	{
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm->get_pmu_info(pmu, &info) != PFM_SUCCESS || !info.is_present ||
		    info.type != PFM_PMU_TYPE_CORE)
			continue;
		snprintf(m->pmu_name, sizeof(m->pmu_name), "%s", info.name);
		m->nr_gp_counters = info.num_cntrs;
		m->nr_fixed_counters = info.num_fixed_cntrs;
		break;
	}
}

/* Debug registers: open data breakpoints on ourselves until the kernel says ENOSPC. */
static int count_breakpoints(void)
{
	static long target[16];
	int fds[16], n = 0;

	for (; n < 16; n++) {
		struct perf_event_attr a = {
			.size = sizeof(a),
			.type = PERF_TYPE_BREAKPOINT,
			.disabled = 1,
			.bp_type = HW_BREAKPOINT_W,
			.bp_addr = (unsigned long)&target[n],
			.bp_len = HW_BREAKPOINT_LEN_8,
			.exclude_kernel = 1,
			.exclude_hv = 1,
		};

		fds[n] = pmc__perf_event_open(&a, 0, -1, -1, 0);
		if (fds[n] < 0)
			break;
	}
	for (int i = 0; i < n; i++)
		close(fds[i]);
	return n;
}

/* Whether a data breakpoint counts: some hypervisors let the kernel program the debug
 * registers but never deliver the debug exceptions, and every mem: event then reads 0. */
static bool breakpoints_fire(void)
{
	static volatile long watched;
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_BREAKPOINT,
		.bp_type = HW_BREAKPOINT_W,
		.bp_addr = (unsigned long)&watched,
		.bp_len = HW_BREAKPOINT_LEN_8,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	int fd = pmc__perf_event_open(&a, 0, -1, -1, 0);
	unsigned long long n = 0;

	if (fd < 0)
		return false;
	for (int i = 0; i < 4; i++)
		watched = i;
	if (read(fd, &n, sizeof(n)) != sizeof(n))
		n = 0;
	close(fd);
	return n == 4;
}

/*
 * Why nothing opens, in the room of hw_pmu_why: an enforced level above 2 (deny.c says the
 * whole of it when an open fails), a seccomp filter, or the kernel's error.
 */
static void say_refusal(struct perf_machine *m)
{
	long level = 0;
	bool denied = m->user_err == -EACCES || m->user_err == -EPERM;

	if (denied && !pmc__sysfile_read_long("/proc/sys/kernel/perf_event_paranoid", &level) &&
	    level > 2)
		snprintf(m->hw_pmu_why, sizeof(m->hw_pmu_why),
			 "perf_event_open(2) is refused: perf_event_paranoid is %ld and this "
			 "kernel enforces levels above 2",
			 level);
	else
		snprintf(m->hw_pmu_why, sizeof(m->hw_pmu_why), "perf_event_open(2) fails: %s%s",
			 strerror(-m->user_err),
			 denied && pmc__sysfile_status_field("Seccomp") > 0
				 ? " (a seccomp filter is active)"
				 : "");
}

static struct perf_machine machine;
static pthread_once_t machine_once = PTHREAD_ONCE_INIT;

static void probe_all(void)
{
	struct perf_machine *m = &machine;

	/* What this user may count is tried, not deduced from perf_event_paranoid. */
	m->user_err = pmc__perf_probe_open(PERF_PROBE_USER, 0, -1);
	m->kernel_err = pmc__perf_probe_open(PERF_PROBE_KERNEL, 0, -1);
	m->cpu_err = pmc__perf_probe_open(PERF_PROBE_CPU, -1, pmc__perf_probe_cpu());
	m->perf_event = !m->user_err;
	if (!m->perf_event) {
		say_refusal(m);
		return;
	}
	probe_hw(m);
	if (m->hw_pmu)
		probe_pfm(m);
}

const struct perf_machine *pmc__perf_machine(void)
{
	pthread_once(&machine_once, probe_all);
	return &machine;
}

static struct perf_breakpoints breakpoints;
static pthread_once_t breakpoints_once = PTHREAD_ONCE_INIT;

static void probe_breakpoints(void)
{
	if (!pmc__perf_machine()->perf_event)
		return;
	breakpoints.nr = count_breakpoints();
	breakpoints.fire = breakpoints.nr > 0 && breakpoints_fire();
}

const struct perf_breakpoints *pmc__perf_breakpoints(void)
{
	pthread_once(&breakpoints_once, probe_breakpoints);
	return &breakpoints;
}
