// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: LIKWID group files (docs/metrics.md, "LIKWID groups") through
 * pmc_metrics__load_likwid() on the vpmu backend (its event table names the counters'
 * events), then the selection's events and every value.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <pmc/metric.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int input(const char *event, struct pmc_metric_input *in, char *why, size_t len, void *arg)
{
	(void)why, (void)len, (void)arg;
	in->value = (double)(event[0] % 5) * 10;
	return event[0] % 7 ? 0 : -ENOENT;
}

static int event(const struct pmc_metric_event *ev, void *arg)
{
	(void)arg;
	return ev->metric ? 0 : (abort(), 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1; /* the file lives in memory: the reader opens it by path */
	struct pmc_metrics_opts o = {.sz = sizeof(o), .backend = "vpmu", .no_shipped = true};
	struct pmc_metric_eval_opts e = {.sz = sizeof(e), .input = input};
	struct pmc_metric_value v = {.sz = sizeof(v)};
	struct pmc_metric_error err;
	struct pmc_metrics *m;
	char path[64];

	if (fd < 0 && (fd = memfd_create("fuzz-likwid-group", MFD_CLOEXEC)) < 0)
		abort();
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (pmc_metrics__new(&o, NULL, &m))
		return 0;
	if (pmc_metrics__load_likwid(m, path, &err)) {
		if (!err.parse.msg[0] || pmc_metrics__nr(m))
			abort(); /* every refusal says why, and adds nothing */
	} else {
		if (!pmc_metrics__nr_selected(m))
			abort(); /* a group that loads has a metric, selected */
		pmc_metrics__for_each_event(m, event, NULL);
		for (size_t i = 0; i < pmc_metrics__nr_selected(m); i++)
			if (pmc_metric__eval(pmc_metrics__selected(m, i), &e, &v) ||
			    (v.status == PMC_METRIC_OK && !isfinite(v.value)))
				abort();
	}
	pmc_metrics__delete(m);
	return 0;
}
