// SPDX-License-Identifier: MIT
/*
 * Calibration through the public API only (include/pmc): EVENT calibrated on BACKEND with a
 * few samples and two runs of EMPTY, the empty regions in REGIONS (pmc-calibrate-regions),
 * the entry's distributions printed, the calibration file written to OUT. Prints one line a
 * distribution, "NAME n=N min=.. median=.. p90=.. p99=.. max=.. hist=SUM", the numbers as
 * %.17g so that a test compares them with the file; exits 1 on any failure, saying what.
 */
#include <stdio.h>
#include <stdlib.h>
#include <pmc/pmc.h>

static void say(const struct pmc_calibrate_msg *m, void *arg)
{
	(void)arg;
	fprintf(stderr, "api-calibrate: message %d (%s): %s\n", (int)m->kind,
		m->event     ? m->event
		: m->program ? m->program
			     : "",
		pmc_strerror(m->err));
}

static void print(const char *name, const struct pmc_calibrate_dist *d)
{
	unsigned long long sum = 0;

	for (int b = 0; b < PMC_CALIBRATE_BINS; b++)
		sum += d->counts[b];
	printf("%s n=%zu min=%.17g median=%.17g p90=%.17g p99=%.17g max=%.17g hist=%llu\n", name,
	       d->n, d->min, d->median, d->p90, d->p99, d->max, sum);
}

int main(int argc, char **argv)
{
	const struct pmc_calibrate_results *r;
	const struct pmc_calibrate_entry *e;
	struct pmc_calibrate *c;
	char *empty[2] = {NULL, NULL};
	const char *events[1] = {NULL};
	struct pmc_calibrate_opts o = {.sz = sizeof(o),
				       .events = events,
				       .nr_events = 1,
				       .samples = 50,
				       .runs = 2,
				       .empty_argv = empty,
				       .message = say};
	int err;

	if (argc != 6) {
		fprintf(stderr, "usage: api-calibrate BACKEND EVENT REGIONS EMPTY OUT\n");
		return 2;
	}
	events[0] = argv[2];
	empty[0] = argv[4];
	o.regions_program = argv[3];
	o.backend = argv[1];
	err = pmc_calibrate__new(&o, &c);
	if (err) {
		fprintf(stderr, "api-calibrate: %s\n", pmc_strerror(err));
		return 1;
	}
	err = pmc_calibrate__measure(c);
	r = pmc_calibrate__results(c);
	if (!err && r->nr_entries != 1)
		err = -1;
	if (!err) {
		e = &r->entries[0];
		printf("entry: %s %s priv=%u timed=%d runs=%d samples=%zu\n", e->event, e->backend,
		       e->priv, e->timed, e->empty_program.runs, r->samples);
		print("region_pair", &e->pair_counts);
		if (e->timed)
			print("region_pair_ns", &e->pair_ns);
		print("first_entry", &e->id.first_entry);
		print("named_region_pair", &e->named.region_pair);
		printf("empty_program median=%.17g mean=%.17g\n", e->empty_program.median,
		       e->empty_program.mean);
		err = pmc_calibrate__save(c, argv[5]);
	}
	if (err)
		fprintf(stderr, "api-calibrate: %s\n", pmc_strerror(err));
	pmc_calibrate__delete(c);
	return err ? 1 : 0;
}
