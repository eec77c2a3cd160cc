// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness: metric expressions (docs/metrics.md) through pmc_metrics__define(), then
 * their events and their value from counts that include zeros and missing events.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include <pmc/metric.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Counts by the name's length: a third are 0, a third missing. */
static int input(const char *event, struct pmc_metric_input *in, char *why, size_t len, void *arg)
{
	size_t n = strlen(event);

	(void)why, (void)len, (void)arg;
	in->value = (double)(n % 3) * 1e3;
	in->nr_sources = (double)(n % 4);
	return n % 3 == 2 ? -ENOENT : 0;
}

static int event(const struct pmc_metric_event *ev, void *arg)
{
	return ev->event[0] ? 0 : (abort(), 0); /* an event has a name */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmc_metrics_opts o = {.sz = sizeof(o), .no_shipped = true, .runtime = 7};
	struct pmc_metric_eval_opts e = {.sz = sizeof(e), .input = input};
	struct pmc_metric_value v = {.sz = sizeof(v)};
	struct pmc_metric_error err;
	struct pmc_metrics *m;
	char *def = malloc(size + 5);

	if (!def || size > 8192 || pmc_metrics__new(&o, NULL, &m))
		return free(def), 0;
	memcpy(def, "f = ", 4);
	memcpy(def + 4, data, size);
	def[size + 4] = 0;
	if (pmc_metrics__define(m, def, &err) == 0) {
		/* A second metric refers to the first: references, cycles and their events. */
		pmc_metrics__define(m, "g = f * 2 + d_ratio(f, f) if f > 0 else -f", NULL);
		pmc_metrics__for_each_event(m, event, NULL);
		for (size_t i = 0; i < pmc_metrics__nr_selected(m); i++)
			if (pmc_metric__eval(pmc_metrics__selected(m, i), &e, &v) ||
			    (v.status == PMC_METRIC_OK && !isfinite(v.value)) ||
			    (v.status != PMC_METRIC_OK && !v.why[0]))
				abort(); /* never an infinity, never n/a without a reason */
	} else if (err.parse.offset > (int)strlen(err.text)) {
		abort(); /* the caret falls within the text */
	}
	pmc_metrics__delete(m);
	free(def);
	return 0;
}
