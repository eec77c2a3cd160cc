// SPDX-License-Identifier: MIT
/*
 * pmc validate's runs: one kernel's events counted at each size by the library's runner (the
 * runner of pmc stat), with page-faults alongside where the backend counts them.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "cli.h"
#include "validate.h"

struct kernel_run {
	struct vplan *plan;
	size_t first, end;
	size_t idx[64]; /* each row's event in the list; SIZE_MAX: refused while parsing */
	size_t pf_idx;	/* page-faults, or SIZE_MAX */
};

static void row_says(struct vrow *r, enum vclass c, const char *why)
{
	if (r->cls == VCLASS_UNSUPPORTED || r->cls == VCLASS_UNKNOWN)
		return;
	r->cls = c;
	snprintf(r->why, sizeof(r->why), "%s", why);
}

/* The kernel's events in one list; an event the backend cannot parse makes its row unsupported. */
static int build(const struct validate_opts *o, struct kernel_run *k, struct pmc_evlist **out)
{
	struct pmc_evlist_opts eo = {
		.sz = sizeof(eo), .backend = o->backend, .priv = PMC_PRIV_USER | PMC_PRIV_KERNEL};
	struct pmc_parse_error perr;
	int err = pmc_evlist__new(&eo, out);

	if (err) {
		fprintf(stderr, "pmc validate: %s\n", pmc_strerror(err));
		return 1;
	}
	for (size_t i = k->first; i < k->end; i++) {
		struct vrow *r = &k->plan->rows[i];
		size_t before = pmc_evlist__nr(*out);

		perr = (struct pmc_parse_error){0};
		err = pmc_evlist__parse(*out, r->event, &perr);
		k->idx[i - k->first] = err ? SIZE_MAX : before;
		if (err) {
			char why[300];

			snprintf(why, sizeof(why), "%s%s%s", pmc_strerror(err),
				 *perr.msg ? ": " : "", perr.msg);
			row_says(r, VCLASS_UNSUPPORTED, why);
		}
	}
	k->pf_idx = pmc_evlist__nr(*out);
	if (pmc_evlist__parse(*out, "page-faults", NULL))
		k->pf_idx = SIZE_MAX;
	return 0;
}

/* Rows whose events the runner's check refused; false when no row is left to count. */
static bool refusals(struct kernel_run *k, const struct pmc_run_results *res)
{
	bool any = false;

	for (size_t i = k->first; i < k->end; i++) {
		struct vrow *r = &k->plan->rows[i];
		size_t idx = k->idx[i - k->first];

		if (idx != SIZE_MAX && !res->events[idx].supported)
			row_says(r, VCLASS_UNSUPPORTED, res->events[idx].why);
		any |= r->cls != VCLASS_UNSUPPORTED && r->cls != VCLASS_UNKNOWN;
	}
	return any;
}

static void all_rows(struct kernel_run *k, enum vclass c, const char *why)
{
	for (size_t i = k->first; i < k->end; i++)
		row_says(&k->plan->rows[i], c, why);
}

/* A kernel that failed to start, crashed or failed: its rows say so. false if it did. */
static bool kernel_ok(struct kernel_run *k, int err, const struct pmc_run_results *res, long n)
{
	char why[320];

	if (err == -PMC_E_EXEC || res->exec_failed)
		snprintf(why, sizeof(why), "the kernel could not be started: %s",
			 pmc_strerror(-PMC_E_EXEC));
	else if (err)
		snprintf(why, sizeof(why), "counting failed at size %ld: %s%s%s", n,
			 pmc_strerror(err), *res->why_failed ? ": " : "", res->why_failed);
	else if (res->have_status && WIFSIGNALED(res->status))
		snprintf(why, sizeof(why), "the kernel crashed at size %ld (signal %d, %s)", n,
			 WTERMSIG(res->status), strsignal(WTERMSIG(res->status)));
	else if (res->have_status && WEXITSTATUS(res->status))
		snprintf(why, sizeof(why), "the kernel failed at size %ld (exit status %d)", n,
			 WEXITSTATUS(res->status));
	else
		return true;
	all_rows(k, VCLASS_UNKNOWN, why);
	return false;
}

static int add_points(struct kernel_run *k, const struct pmc_run_results *res, long n)
{
	const struct pmc_run_event *pf = k->pf_idx != SIZE_MAX && res->events[k->pf_idx].supported
						 ? &res->events[k->pf_idx]
						 : NULL;

	for (size_t i = k->first; i < k->end; i++) {
		struct vrow *r = &k->plan->rows[i];
		const struct pmc_run_event *e;
		size_t idx = k->idx[i - k->first];
		double *x, *y, *p;

		if (idx == SIZE_MAX || r->cls == VCLASS_UNSUPPORTED || r->cls == VCLASS_UNKNOWN)
			continue;
		e = &res->events[idx];
		x = realloc(r->x, (r->nr + e->nr) * sizeof(*x));
		r->x = x ? x : r->x;
		y = x ? realloc(r->y, (r->nr + e->nr) * sizeof(*y)) : NULL;
		r->y = y ? y : r->y;
		p = y && pf && pf->nr == e->nr ? realloc(r->pf, (r->nr + e->nr) * sizeof(*p))
					       : NULL;
		if (!x || !y)
			return -ENOMEM;
		if (!p) {
			free(r->pf);
			r->pf = NULL;
		}
		r->pf = p;
		for (int v = 0; v < e->nr; v++) {
			/* no prediction: the size, so that the largest is still found */
			r->x[r->nr + v] = isnan(r->per_size) ? (double)n : r->per_size * (double)n;
			r->y[r->nr + v] = e->values[v];
			if (p)
				p[r->nr + v] = pf->values[v];
		}
		r->nr += e->nr;
	}
	return 0;
}

/* pmc stat's JSON provenance of run, with the kernels program for its command. */
static json_t *provenance_of(const struct pmc_run *run, const char *prog)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	json_t *root = NULL, *p = NULL;

	if (m && !pmc_run__write(run, m, PMC_RUN_FORMAT_JSON, 0) && !fclose(m))
		root = json_loads(buf, 0, NULL);
	else if (m)
		fclose(m);
	p = json_incref(json_object_get(root, "provenance"));
	if (p) {
		json_object_set_new(p, "command", json_pack("[s]", prog));
		json_object_del(p, "elapsed_s");
		json_object_del(p, "passes");
	}
	json_decref(root);
	free(buf);
	return p;
}

static int run_size(const struct validate_opts *o, const char *prog, struct kernel_run *k,
		    struct pmc_evlist *l, long n, json_t **provenance)
{
	char size[32], *argv[4] = {(char *)prog, k->plan->rows[k->first].kernel, size, NULL};
	struct pmc_target t = {.sz = sizeof(t), .kind = PMC_TARGET_COMMAND, .argv = argv};
	struct pmc_run_opts ro = {.sz = sizeof(ro),
				  .repeat = o->repeat,
				  .no_warmup = true,
				  .level = k->plan->level,
				  .priv = VALIDATE_PRIV,
				  .backend = o->backend,
				  .who = "pmc validate"};
	const struct pmc_run_results *res;
	struct pmc_run *run;
	int err;

	snprintf(size, sizeof(size), "%ld", n);
	err = pmc_run__new(l, &t, &ro, &run);
	if (err) {
		fprintf(stderr, "pmc validate: cannot plan the passes: %s\n", pmc_strerror(err));
		return 1;
	}
	res = pmc_run__results(run);
	if (!refusals(k, res)) {
		pmc_run__delete(run);
		return -1; /* nothing of this kernel can be counted here */
	}
	err = pmc_run__execute(run);
	if (kernel_ok(k, err, res, n)) {
		refusals(k, res); /* the kernel's own refusals, when its pass opened */
		err = add_points(k, res, n);
		if (!*provenance)
			*provenance = provenance_of(run, prog);
	} else {
		err = -1;
	}
	pmc_run__delete(run);
	return err == -ENOMEM ? 1 : err ? -1 : 0;
}

int validate_run_kernel(const struct validate_opts *o, const char *prog, struct vplan *plan,
			size_t first, size_t end, json_t **provenance)
{
	struct kernel_run k = {.plan = plan, .first = first, .end = end};
	const struct vrow *r0 = &plan->rows[first];
	const long *sizes = o->quick ? r0->quick : r0->sizes;
	int nr = o->quick ? r0->nr_quick : r0->nr_sizes, rc = 0;
	struct pmc_evlist *l = NULL;

	if (end - first > sizeof(k.idx) / sizeof(k.idx[0])) {
		fprintf(stderr, "pmc validate: kernel %s predicts more than %zu events\n",
			r0->kernel, sizeof(k.idx) / sizeof(k.idx[0]));
		return 1;
	}
	rc = build(o, &k, &l);
	for (int s = 0; !rc && s < nr; s++) {
		fprintf(stderr, "pmc validate: %s %ld (%d repetition%s)\n", r0->kernel, sizes[s],
			o->repeat, o->repeat > 1 ? "s" : "");
		rc = run_size(o, prog, &k, l, sizes[s], provenance);
	}
	pmc_evlist__delete(l);
	return rc > 0 ? rc : 0;
}
