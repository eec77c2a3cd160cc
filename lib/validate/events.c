// SPDX-License-Identifier: MIT
/*
 * Validation's events per CPU: the kernels predict quantities (loads, stores, conditional
 * branches, ...), and data/validate/events.tsv, compiled in, names the event that counts each
 * on each CPU model (docs/accuracy.md, "Events per CPU"). A name the table has no row for is
 * an event itself (instructions, branches, a tracepoint, a breakpoint).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "validate/validate.h"

static const char table[] =
#include "validate/events.inc"
	;

/*
 * The event of quantity on model into out: 1; 0 when the table has no row for quantity (it is
 * an event); -1 when it has rows for quantity but none for model (nor '*' on perf).
 */
static int lookup(const char *quantity, const char *model, bool perf, char *out, size_t len)
{
	size_t qlen = strlen(quantity);
	bool known = false, any = false;

	for (const char *l = table; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		const char *m = l + qlen + 1, *ev = strchr(m, '\t'), *eol = strchr(l, '\n');
		size_t mlen = ev ? (size_t)(ev - m) : 0;

		if (*l == '#' || strncmp(l, quantity, qlen) || l[qlen] != '\t' || !ev)
			continue;
		known = true;
		if ((model && mlen == strlen(model) && !strncmp(m, model, mlen)) ||
		    (perf && !any && mlen == 1 && *m == '*')) {
			snprintf(out, len, "%.*s", (int)((eol ? eol : ev + strlen(ev)) - ev - 1),
				 ev + 1);
			if (mlen != 1 || *m != '*')
				return 1;
			any = true;
		}
	}
	return any ? 1 : known ? -1 : 0;
}

int pmc__validate_resolve(struct pmc_validate *v)
{
	const char *backend = v->opts.backend;
	bool vpmu = backend && !strcmp(backend, "vpmu");
	const char *model = vpmu ? "vpmu" : pmc_caps__cpu_model(backend ? backend : "perf");

	for (size_t i = 0; i < v->nr_rows; i++) {
		struct pmc_validate_row *r = &v->rows[i];
		char ev[256];
		int found = lookup(r->event, model, !vpmu, ev, sizeof(ev));

		r->quantity = strdup(r->event);
		if (!r->quantity)
			return -ENOMEM;
		if (found > 0) {
			free(r->event);
			r->event = strdup(ev);
			if (!r->event)
				return -ENOMEM;
		} else if (found < 0) {
			r->no_event = true;
			r->cls = PMC_VALIDATE_UNSUPPORTED;
			snprintf(r->why, sizeof(r->why), "no event for %s on this CPU (%s)",
				 r->quantity, model ? model : "a model pmc does not know");
		}
	}
	return 0;
}
