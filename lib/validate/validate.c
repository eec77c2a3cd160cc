// SPDX-License-Identifier: MIT
/*
 * Validation's object (include/pmc/validate.h): the kernels' plan made and selected, the runs
 * kernel by kernel, the verdicts handed to the trust file's writer.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "trust/trust.h"
#include "validate/validate.h"

int pmc_validate__new(const struct pmc_validate_opts *opts, struct pmc_validate **out, char *why,
		      size_t len)
{
	struct pmc_validate *v = calloc(1, sizeof(*v));
	int err;

	if (why && len)
		*why = '\0';
	if (!v)
		return -ENOMEM;
	if (opts)
		memcpy(&v->opts, opts,
		       opts->sz && opts->sz < sizeof(v->opts) ? opts->sz : sizeof(v->opts));
	v->opts.sz = sizeof(v->opts);
	v->opts.priv = v->opts.priv ? v->opts.priv : PMC_PRIV_USER;
	v->opts.level = v->opts.level > 0 && v->opts.level < 1 ? v->opts.level : 0.95;
	v->opts.repeat = v->opts.repeat > 0 ? v->opts.repeat : v->opts.quick ? 1 : 3;
	v->prog = v->opts.kernels ? v->opts.kernels : pmc_validate_kernels_path();
	err = pmc__validate_load(v);
	if (!err && pmc__validate_resolve(v)) {
		err = -ENOMEM;
		snprintf(v->why, sizeof(v->why), "%s", pmc_strerror(err));
	}
	if (err) {
		if (why && len)
			snprintf(why, len, "%s", v->why);
		pmc_validate__delete(v);
		return err;
	}
	*out = v;
	return 0;
}

void pmc_validate__delete(struct pmc_validate *v)
{
	if (!v)
		return;
	pmc__validate_sampling_free(v);
	pmc__validate_rows_free(v->rows, v->nr_rows);
	free(v->rows);
	json_decref(v->provenance);
	free(v->provenance_text);
	free(v);
}

int pmc_validate__select(struct pmc_validate *v,
			 bool (*keep)(const struct pmc_validate_row *r, void *arg), void *arg)
{
	const char *backend = v->opts.backend ? v->opts.backend : "perf";
	size_t kept = 0;

	for (size_t i = 0; i < v->nr_rows; i++) {
		struct pmc_validate_row *r = &v->rows[i];

		if ((!strcmp(r->backend, "any") || !strcmp(r->backend, backend)) &&
		    (!keep || keep(r, arg)))
			v->rows[kept++] = *r;
		else
			pmc__validate_rows_free(r, 1);
	}
	v->nr_rows = kept;
	return 0;
}

size_t pmc_validate__nr_rows(const struct pmc_validate *v)
{
	return v->nr_rows;
}

const struct pmc_validate_row *pmc_validate__row(const struct pmc_validate *v, size_t idx)
{
	return idx < v->nr_rows ? &v->rows[idx] : NULL;
}

double pmc_validate__level(const struct pmc_validate *v)
{
	return v->opts.level;
}

const char *pmc_validate__irq_source(const struct pmc_validate *v)
{
	return v->irq_source;
}

const char *pmc_validate__why(const struct pmc_validate *v)
{
	return v->why;
}

/* The end of the kernel whose rows start at first: a kernel's rows are consecutive. */
static size_t kernel_end(const struct pmc_validate *v, size_t first)
{
	size_t j = first;

	while (j < v->nr_rows && !strcmp(v->rows[j].kernel, v->rows[first].kernel))
		j++;
	return j;
}

int pmc_validate__count(struct pmc_validate *v)
{
	int err = pmc_validate__select(v, NULL, NULL); /* the other backend's rows cannot run */

	for (size_t i = 0, j; !err && i < v->nr_rows; i = j) {
		j = kernel_end(v, i);
		err = pmc__validate_run_kernel(v, i, j);
	}
	return err;
}

int pmc_validate__dry_run(struct pmc_validate *v, FILE *f, bool attrs)
{
	int err = pmc_validate__select(v, NULL, NULL);

	for (size_t i = 0, j; !err && i < v->nr_rows; i = j) {
		j = kernel_end(v, i);
		err = pmc__validate_dry_run_kernel(v, i, j, f, attrs);
	}
	return err;
}

const char *pmc_validate__provenance(const struct pmc_validate *v)
{
	struct pmc_validate *m = (struct pmc_validate *)v; /* the text is made once, on demand */

	if (!m->provenance_text && m->provenance)
		m->provenance_text = json_dumps(m->provenance, JSON_COMPACT);
	return m->provenance_text;
}

int pmc_validate__save_trust(struct pmc_validate *v, const char *path)
{
	struct pmc__trust_entry *e = calloc(v->nr_rows ? v->nr_rows : 1, sizeof(*e));
	size_t n = 0;
	int err;

	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < v->nr_rows; i++) { /* a quantity with no event: nothing to trust */
		const struct pmc_validate_row *r = &v->rows[i];

		if (r->no_event)
			continue;
		e[n++] = (struct pmc__trust_entry){
			.kernel = r->kernel,
			.event = r->event,
			.priv = r->priv ? r->priv : v->opts.priv,
			.cls = r->cls,
			.factor = r->factor,
			.overhead = r->overhead,
			.bias = r->bias,
		};
	}
	err = pmc__trust_save(path, v->opts.backend ? v->opts.backend : "perf", e, n);
	free(e);
	if (err)
		snprintf(v->why, sizeof(v->why), "%s", pmc_strerror(err));
	return err;
}
