// SPDX-License-Identifier: MIT
/*
 * Validation's runs: one kernel's events counted at each size by the library's runner (the
 * runner of pmc stat), with page-faults and interrupts alongside where the backend counts them
 * (the known sources of overcounts, which validate_fit() correlates with the residuals).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "validate/validate.h"

struct kernel_run {
	struct pmc_validate *v;
	size_t first, end;
	size_t idx[64];	   /* each row's event in the list; SIZE_MAX: refused while parsing */
	size_t pf_idx;	   /* page-faults, or SIZE_MAX */
	size_t irq_idx[2]; /* VALIDATE_IRQ_EVENTS, or SIZE_MAX */
	enum { IRQ_NONE, IRQ_TP, IRQ_PROC } irq;
};

/*
 * The interrupts of every CPU so far, from /proc/interrupts: each line's per-CPU columns
 * (ERR and MIS, which count errors, left out). NAN when it cannot be read.
 */
static double proc_interrupts(void)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char *line = NULL, *p, *end;
	size_t cap = 0;
	double sum = 0;
	int cpus = 0;

	if (!f)
		return NAN;
	if (getline(&line, &cap, f) > 0)
		for (p = strstr(line, "CPU"); p; p = strstr(p + 3, "CPU"))
			cpus++;
	while (cpus && getline(&line, &cap, f) > 0) {
		p = strchr(line, ':');
		if (!p || !strncmp(line + strspn(line, " "), "ERR:", 4) ||
		    !strncmp(line + strspn(line, " "), "MIS:", 4))
			continue;
		p++;
		for (int c = 0; c < cpus; c++, p = end) {
			double v = strtod(p, &end);

			if (end == p)
				break;
			sum += v;
		}
	}
	free(line);
	fclose(f);
	return cpus ? sum : NAN;
}

static void row_says(struct pmc_validate_row *r, enum pmc_validate_class c, const char *why)
{
	if (r->cls == PMC_VALIDATE_UNSUPPORTED || r->cls == PMC_VALIDATE_UNKNOWN)
		return;
	r->cls = c;
	snprintf(r->why, sizeof(r->why), "%s", why);
}

/* --dry-run: the library's descriptions are the output, as pmc stat's. */
static void print_dry_run(const char *text, void *arg)
{
	fputs(text, arg);
}

/*
 * The kernel's events in one list (dry_run: described to it, not opened); an event the
 * backend cannot parse makes its row unsupported. Returns 0 or the error, with v->why.
 */
static int build(struct kernel_run *k, FILE *dry_run, bool attrs, struct pmc_evlist **out)
{
	struct pmc_evlist_opts eo = {.sz = sizeof(eo),
				     .backend = k->v->opts.backend,
				     .priv = k->v->opts.priv,
				     .dry_run = dry_run ? print_dry_run : NULL,
				     .dry_run_arg = dry_run,
				     .dry_run_attrs = attrs};
	struct pmc_parse_error perr;
	int err = pmc_evlist__new(&eo, out);

	if (err) {
		snprintf(k->v->why, sizeof(k->v->why), "%s", pmc_strerror(err));
		return err;
	}
	for (size_t i = k->first; i < k->end; i++) {
		struct pmc_validate_row *r = &k->v->rows[i];
		size_t before = pmc_evlist__nr(*out);

		if (r->no_event) { /* no event for its quantity on this CPU: said already */
			k->idx[i - k->first] = SIZE_MAX;
			continue;
		}
		perr = (struct pmc_parse_error){0};
		err = pmc_evlist__parse(*out, r->event, &perr);
		k->idx[i - k->first] = err ? SIZE_MAX : before;
		if (!err) { /* the levels it counts at, as pmc stat will look its verdict up */
			struct pmc_evsel *ev = pmc_evlist__at(*out, before);

			pmc_evsel__check(ev, NULL, 0);
			r->priv = pmc_evsel__priv(ev);
		}
		if (err) {
			char why[300];

			snprintf(why, sizeof(why), "%s%s%s", pmc_strerror(err),
				 *perr.msg ? ": " : "", perr.msg);
			row_says(r, PMC_VALIDATE_UNSUPPORTED, why);
		}
	}
	k->pf_idx = pmc_evlist__nr(*out);
	if (pmc_evlist__parse(*out, "page-faults", NULL))
		k->pf_idx = SIZE_MAX;
	for (size_t i = 0; i < 2; i++) {
		static const char *const irq[] = {VALIDATE_IRQ_EVENTS};

		k->irq_idx[i] = pmc_evlist__nr(*out);
		if (pmc_evlist__parse(*out, irq[i], NULL))
			k->irq_idx[i] = SIZE_MAX;
	}
	return 0;
}

/*
 * How interrupts are counted, from the runner's check of a run planned: the tracepoints where
 * either opens; else, on perf, /proc/interrupts around each repetition (one run each); under
 * vpmu none (the model has no interrupts).
 */
static void decide_irq(struct kernel_run *k, const struct pmc_run_results *res)
{
	const char *backend = k->v->opts.backend;

	k->irq = IRQ_NONE;
	for (size_t i = 0; i < 2; i++)
		if (k->irq_idx[i] != SIZE_MAX && res->events[k->irq_idx[i]].supported)
			k->irq = IRQ_TP;
	if (k->irq == IRQ_NONE && (!backend || !strcmp(backend, "perf")) &&
	    !isnan(proc_interrupts()))
		k->irq = IRQ_PROC;
	k->v->irq_source = k->irq == IRQ_TP	? VALIDATE_IRQ_TP
			   : k->irq == IRQ_PROC ? VALIDATE_IRQ_PROC
						: k->v->irq_source;
}

/* Rows whose events the runner's check refused; false when no row is left to count. */
static bool refusals(struct kernel_run *k, const struct pmc_run_results *res)
{
	bool any = false;

	for (size_t i = k->first; i < k->end; i++) {
		struct pmc_validate_row *r = &k->v->rows[i];
		size_t idx = k->idx[i - k->first];

		if (idx != SIZE_MAX && !res->events[idx].supported)
			row_says(r, PMC_VALIDATE_UNSUPPORTED, res->events[idx].why);
		any |= r->cls != PMC_VALIDATE_UNSUPPORTED && r->cls != PMC_VALIDATE_UNKNOWN;
	}
	return any;
}

static void all_rows(struct kernel_run *k, enum pmc_validate_class c, const char *why)
{
	for (size_t i = k->first; i < k->end; i++)
		row_says(&k->v->rows[i], c, why);
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
	all_rows(k, PMC_VALIDATE_UNKNOWN, why);
	return false;
}

/* Appends add values to *a (nr so far), or drops *a when this run has none: NULL, -ENOMEM. */
static int append(double **a, int nr, int add, bool have, const double *v, double same)
{
	double *p;

	if (!have || (nr && !*a)) {
		free(*a);
		*a = NULL;
		return 0;
	}
	p = realloc(*a, (size_t)(nr + add) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	*a = p;
	for (int i = 0; i < add; i++)
		p[nr + i] = v ? v[i] : same;
	return 0;
}

/* The interrupt event i of res, when it counted nr values. */
static const struct pmc_run_event *irq_event(const struct kernel_run *k,
					     const struct pmc_run_results *res, size_t i, int nr)
{
	const struct pmc_run_event *e =
		k->irq_idx[i] != SIZE_MAX ? &res->events[k->irq_idx[i]] : NULL;

	return e && e->supported && e->nr == nr ? e : NULL;
}

/*
 * The interrupts of each of nr repetitions into out (when not NULL): the tracepoints' sum, or
 * irq (/proc/interrupts). false when there are none.
 */
static bool irq_values(const struct kernel_run *k, const struct pmc_run_results *res, int nr,
		       double irq, double *out)
{
	bool any = k->irq == IRQ_PROC && !isnan(irq);

	for (int v = 0; out && v < nr; v++)
		out[v] = k->irq == IRQ_PROC ? irq : 0;
	for (size_t i = 0; k->irq == IRQ_TP && i < 2; i++) {
		const struct pmc_run_event *e = irq_event(k, res, i, nr);

		any |= e != NULL;
		for (int v = 0; e && out && v < nr; v++)
			out[v] += e->values[v];
	}
	return any;
}

static int add_points(struct kernel_run *k, const struct pmc_run_results *res, long n, double irq)
{
	const struct pmc_run_event *pf = k->pf_idx != SIZE_MAX && res->events[k->pf_idx].supported
						 ? &res->events[k->pf_idx]
						 : NULL;

	for (size_t i = k->first; i < k->end; i++) {
		struct pmc_validate_row *r = &k->v->rows[i];
		const struct pmc_run_event *e;
		size_t idx = k->idx[i - k->first];
		double *x, *y;

		if (idx == SIZE_MAX || r->cls == PMC_VALIDATE_UNSUPPORTED ||
		    r->cls == PMC_VALIDATE_UNKNOWN)
			continue;
		e = &res->events[idx];
		x = realloc(r->x, (r->nr + e->nr) * sizeof(*x));
		r->x = x ? x : r->x;
		y = x ? realloc(r->y, (r->nr + e->nr) * sizeof(*y)) : NULL;
		r->y = y ? y : r->y;
		if (!x || !y ||
		    append(&r->pf, r->nr, e->nr, pf && pf->nr == e->nr, pf ? pf->values : NULL,
			   0) ||
		    append(&r->irq, r->nr, e->nr, irq_values(k, res, e->nr, irq, NULL), NULL, 0))
			return -ENOMEM;
		if (r->irq)
			irq_values(k, res, e->nr, irq, r->irq + r->nr);
		for (int v = 0; v < e->nr; v++) {
			/* no prediction: the size, so that the largest is still found */
			r->x[r->nr + v] = isnan(r->per_size) ? (double)n : r->per_size * (double)n;
			r->y[r->nr + v] = e->values[v];
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

/* The kernel at size n, as the runner runs it repeat times (argv's strings live in c). */
struct kernel_cmd {
	char size[32];
	char *argv[4];
	struct pmc_target t;
	struct pmc_run_opts ro;
};

static int plan_run(struct kernel_run *k, struct pmc_evlist *l, long n, int repeat,
		    struct kernel_cmd *c, struct pmc_run **run)
{
	struct pmc_validate *v = k->v;
	int err;

	snprintf(c->size, sizeof(c->size), "%ld", n);
	c->argv[0] = (char *)v->prog;
	c->argv[1] = v->rows[k->first].kernel;
	c->argv[2] = c->size;
	c->argv[3] = NULL;
	c->t = (struct pmc_target){.sz = sizeof(c->t), .kind = PMC_TARGET_COMMAND, .argv = c->argv};
	c->ro = (struct pmc_run_opts){.sz = sizeof(c->ro),
				      .repeat = repeat,
				      .no_warmup = true,
				      .level = v->opts.level,
				      .priv = v->opts.priv,
				      .backend = v->opts.backend,
				      .who = "pmc validate"};
	err = pmc_run__new(l, &c->t, &c->ro, run);
	if (err)
		snprintf(v->why, sizeof(v->why), "cannot plan the passes: %s", pmc_strerror(err));
	return err;
}

/*
 * One run of the runner, repeat times (1 when /proc/interrupts is read around each). Returns 0,
 * 1 when the kernel cannot be counted here (its rows say why), or a negative errno.
 */
static int run_once(struct kernel_run *k, struct pmc_evlist *l, long n, int repeat)
{
	const struct pmc_run_results *res;
	struct kernel_cmd c;
	struct pmc_run *run;
	double irq0 = NAN;
	int err = plan_run(k, l, n, repeat, &c, &run);

	if (err)
		return err;
	res = pmc_run__results(run);
	if (!refusals(k, res)) {
		pmc_run__delete(run);
		return 1; /* nothing of this kernel can be counted here */
	}
	if (k->irq == IRQ_PROC)
		irq0 = proc_interrupts();
	err = pmc_run__execute(run);
	if (k->irq == IRQ_PROC)
		irq0 = proc_interrupts() - irq0;
	if (kernel_ok(k, err, res, n)) {
		refusals(k, res); /* the kernel's own refusals, when its pass opened */
		err = add_points(k, res, n, irq0);
		if (!k->v->provenance)
			k->v->provenance = provenance_of(run, k->v->prog);
	} else {
		err = 1;
	}
	pmc_run__delete(run);
	if (err == -ENOMEM)
		snprintf(k->v->why, sizeof(k->v->why), "%s", pmc_strerror(err));
	return err == -ENOMEM ? err : err ? 1 : 0;
}

static int run_size(struct kernel_run *k, struct pmc_evlist *l, long n)
{
	int rc = 0, repeat = k->v->opts.repeat;

	if (k->irq != IRQ_PROC)
		return run_once(k, l, n, repeat);
	for (int i = 0; !rc && i < repeat; i++)
		rc = run_once(k, l, n, 1);
	return rc;
}

/* Plans (does not run) the kernel's first size, to see which interrupt events can open. */
static int plan_irq(struct kernel_run *k, struct pmc_evlist *l, long n)
{
	struct kernel_cmd c;
	struct pmc_run *run;
	int err = plan_run(k, l, n, 1, &c, &run);

	if (err)
		return err;
	decide_irq(k, pmc_run__results(run));
	pmc_run__delete(run);
	return 0;
}

int pmc__validate_run_kernel(struct pmc_validate *v, size_t first, size_t end)
{
	struct kernel_run k = {.v = v, .first = first, .end = end};
	const struct pmc_validate_row *r0 = &v->rows[first];
	const long *sizes = v->opts.quick ? r0->quick : r0->sizes;
	int nr = v->opts.quick ? r0->nr_quick : r0->nr_sizes, rc = 0;
	struct pmc_evlist *l = NULL;

	if (end - first > sizeof(k.idx) / sizeof(k.idx[0])) {
		snprintf(v->why, sizeof(v->why), "kernel %s predicts more than %zu events",
			 r0->kernel, sizeof(k.idx) / sizeof(k.idx[0]));
		return -EINVAL;
	}
	if (v->opts.largest_only && nr) { /* sampling mode: the count at the largest size */
		sizes += nr - 1;
		nr = 1;
	}
	rc = build(&k, NULL, false, &l);
	if (!rc && nr)
		rc = plan_irq(&k, l, sizes[0]);
	for (int s = 0; !rc && s < nr; s++) {
		struct pmc_validate_progress p = {
			.kernel = r0->kernel, .size = sizes[s], .repeat = v->opts.repeat};

		if (v->opts.progress)
			v->opts.progress(&p, v->opts.progress_arg);
		rc = run_size(&k, l, sizes[s]);
	}
	pmc_evlist__delete(l);
	return rc < 0 ? rc : 0;
}

int pmc__validate_dry_run_kernel(struct pmc_validate *v, size_t first, size_t end, FILE *f,
				 bool attrs)
{
	struct kernel_run k = {.v = v, .first = first, .end = end};
	const struct pmc_validate_row *r0 = &v->rows[first];
	const struct pmc_run_results *res;
	struct pmc_evlist *l = NULL;
	struct kernel_cmd c;
	struct pmc_run *run = NULL;
	int err = end - first > sizeof(k.idx) / sizeof(k.idx[0]) ? -EINVAL : 0;

	if (!err)
		err = build(&k, f, attrs, &l);
	if (!err)
		err = plan_run(&k, l, v->opts.quick ? r0->quick[0] : r0->sizes[0], 1, &c, &run);
	if (err) {
		pmc_evlist__delete(l);
		return err;
	}
	res = pmc_run__results(run);
	refusals(&k, res);
	fprintf(f, "# kernel %s %s\n", r0->kernel, c.size);
	for (size_t i = first; i < end; i++) {
		const struct pmc_validate_row *r = &v->rows[i];

		if (r->cls == PMC_VALIDATE_UNSUPPORTED)
			fprintf(f, "# %s: unsupported: %s\n", r->quantity, r->why);
		else if (strcmp(r->quantity, r->event))
			fprintf(f, "# %s: %s\n", r->quantity, r->event);
		else
			fprintf(f, "# %s\n", r->event);
	}
	for (int pass = 0; pass < res->nr_passes && !err; pass++) {
		if (res->nr_passes > 1)
			fprintf(f, "# pass %d/%d\n", pass + 1, res->nr_passes);
		err = pmc_evlist__open(l, &c.t, pass);
	}
	if (err)
		snprintf(v->why, sizeof(v->why), "--dry-run: %s",
			 err == -EOPNOTSUPP ? "the backend cannot describe its calls; only perf can"
					    : pmc_strerror(err));
	pmc_run__delete(run);
	pmc_evlist__delete(l);
	return err;
}
