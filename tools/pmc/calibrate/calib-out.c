// SPDX-License-Identifier: MIT
/*
 * pmc calibrate's text: the library's messages (include/pmc/calibrate.h), the terminal
 * summary of the entries, and where the calibration file went.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "calib.h"
#include "common/cli.h"

void calib_message(const struct pmc_calibrate_msg *m, void *arg)
{
	(void)arg;
	switch (m->kind) {
	case PMC_CALIBRATE_MSG_PLAN:
		fprintf(stderr, "pmc calibrate: cannot plan the passes: %s\n",
			pmc_strerror(m->err));
		break;
	case PMC_CALIBRATE_MSG_SKIP:
		fprintf(stderr, "pmc calibrate: skipping '%s': %s\n", m->event, m->why);
		break;
	case PMC_CALIBRATE_MSG_RUN:
		fprintf(stderr, "pmc calibrate: running '%s': %s\n", m->program,
			pmc_strerror(m->err));
		break;
	case PMC_CALIBRATE_MSG_NO_REGION:
		fprintf(stderr, "pmc calibrate: '%s': no empty region was counted\n",
			cli_show(m->event));
		break;
	case PMC_CALIBRATE_MSG_MEASURE:
		fprintf(stderr, "pmc calibrate: '%s': %s\n", cli_show(m->event),
			pmc_strerror(m->err));
		break;
	case PMC_CALIBRATE_MSG_SET_SIZE:
		fprintf(stderr, "pmc calibrate: --set wants two or more events that can be "
				"counted here\n");
		break;
	}
}

static void print_dist(FILE *f, const char *what, const struct pmc_calibrate_dist *d)
{
	fprintf(f, "  %-31s median %.0f  p90 %.0f  p99 %.0f  max %.0f\n", what, d->median, d->p90,
		d->p99, d->max);
}

/* An empty region's time, a read's and a start/stop's, where measured in this process. */
static void print_times(FILE *f, const struct pmc_calibrate_entry *e)
{
	print_dist(f, "empty region, ns per pair:", &e->pair_ns);
	print_dist(f, "read, ns:", &e->read_ns);
	print_dist(f, "start+stop, ns:", &e->start_stop_ns);
}

static void print_entry(FILE *f, const struct pmc_calibrate_entry *e)
{
	const struct pmc_calibrate_dist *pair = &e->pair_counts;

	fprintf(f, "%s (%s):\n", e->event, e->backend);
	fprintf(f, "  empty region, counts per entry: median %.1f  p90 %.1f  p99 %.1f  max %.1f\n",
		pair->median, pair->p90, pair->p99, pair->max);
	fprintf(f,
		"  first region entry, counts:     median %.1f  (the process's first entry: "
		"lazy binding)\n",
		e->id.first_entry.median);
	fprintf(f,
		"  named markers, counts:          per entry %.1f  first entry %.1f  "
		"(pmc_region_begin(name))\n",
		e->named.region_pair.median, e->named.first_entry.median);
	if (!e->timed)
		fprintf(f,
			"  times:                          not measured (%s counts only a program "
			"under the runner)\n",
			e->backend);
	else
		print_times(f, e);
	fprintf(f, "  empty program under pmc stat:   %.1f +/- %.1f (%.3f%%)  [median %.1f]\n",
		e->empty_program.mean, e->empty_program.ci, e->empty_program.ci_pct,
		e->empty_program.median);
	if (!e->timed || !e->pair_ns.n)
		return;
	fprintf(f, "  histogram, ns per pair:        ");
	for (size_t b = 0; b < PMC_CALIBRATE_BINS; b++)
		fprintf(f, " %s%.0f:%lld", b == 8 ? ">" : "", e->pair_ns.edges[b],
			(long long)e->pair_ns.counts[b]);
	fputc('\n', f);
}

void calib_print(FILE *f, const struct pmc_calibrate_results *r)
{
	fprintf(f, "# pmc calibrate: %zu samples per distribution, %d empty-program runs ('%s')\n",
		r->samples, r->runs, r->empty_program);
	for (size_t i = 0; i < r->nr_entries; i++)
		print_entry(f, &r->entries[i]);
}

/*
 * The calibration file (-o, else this machine's) made ready before anything is measured: its
 * folder made and checked, a file made there and removed (pmc_data_file_prepare()).
 */
int calib_check_output(const char *path)
{
	char *def = path ? NULL : pmc_calibration_default_path(), why[512];
	int err =
		path || def ? pmc_data_file_prepare(path ? path : def, why, sizeof(why)) : -ENOMEM;

	if (err)
		fprintf(stderr, "pmc calibrate: %s; nothing was measured\n",
			*why ? why : pmc_strerror(err));
	free(def);
	return err ? 1 : 0;
}

/* The calibration file, through libpmc's writer (pmc_calibrate__save()), said on stderr. */
int calib_save(const char *path, const struct pmc_calibrate *c)
{
	char *def = path ? NULL : pmc_calibration_default_path();
	const char *target = path ? path : def;
	int err = target ? pmc_calibrate__save(c, target) : -ENOMEM;

	if (err)
		cli_say_unwritable("calibrate", target ? target : "(this machine's)", err);
	else if (strcmp(target, "-"))
		fprintf(stderr, "pmc calibrate: calibration written to %s\n", target);
	free(def);
	return err;
}
