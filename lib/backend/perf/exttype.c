// SPDX-License-Identifier: MIT
/*
 * Whether the kernel takes a generic event on a core PMU through the extended type: perf
 * 6.6's probe (pmus.c, perf_pmus__supports_extended_type()), an open of PERF_TYPE_HARDWARE
 * cycles with the PMU's type in config[63:32], made once per type (docs/pmus.md, "Hybrid").
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include "backend/perf/perf.h"

#define PROBED_MAX 16

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	uint32_t type;
	int answer;
} probed[PROBED_MAX];
static int nr_probed;

static int probe(uint32_t pmu_type)
{
	struct perf_event_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_HARDWARE;
	a.config = (uint64_t)pmu_type << 32 | PERF_COUNT_HW_CPU_CYCLES;
	a.disabled = 1;
	a.exclude_kernel = 1; /* allowed at every perf_event_paranoid level */
	a.exclude_hv = 1;
	fd = pmc__perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	/* The kernel refuses the type it does not take as one (EINVAL, ENOENT); other refusals
	 * (EACCES, EMFILE, ...) say nothing about it. */
	return fd == -EINVAL || fd == -ENOENT || fd == -EOPNOTSUPP ? 0 : fd;
}

int pmc__perf_extended_type(uint32_t pmu_type)
{
	int answer;

	pthread_mutex_lock(&lock);
	for (int i = 0; i < nr_probed; i++)
		if (probed[i].type == pmu_type) {
			answer = probed[i].answer;
			pthread_mutex_unlock(&lock);
			return answer;
		}
	answer = probe(pmu_type);
	if (answer >= 0 && nr_probed < PROBED_MAX) {
		probed[nr_probed].type = pmu_type;
		probed[nr_probed++].answer = answer;
	}
	pthread_mutex_unlock(&lock);
	return answer;
}
