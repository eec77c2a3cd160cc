// SPDX-License-Identifier: MIT
/* The metric engine's errors: where, the text around the fault, and what is wrong. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "metric/metric.h"

/* Copies text into err->text; of a longer text, the part around offset (then adjusted). */
static void error_text(struct pmc_metric_error *err, const char *text, int offset)
{
	size_t len = strlen(text), cap = sizeof(err->text) - 1, from = 0;

	if (len > cap && offset > (int)cap / 2)
		from = (size_t)offset - cap / 2;
	if (from + cap > len && len > cap)
		from = len - cap;
	snprintf(err->text, sizeof(err->text), "%s", text + from);
	err->parse.offset = offset < 0 ? -1 : offset - (int)from;
}

void pmc__metric_error(struct pmc_metric_error *err, const char *where, const char *text,
		       int offset, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	memset(err, 0, sizeof(*err));
	snprintf(err->where, sizeof(err->where), "%s", where ? where : "");
	error_text(err, text ? text : "", text ? offset : -1);
	va_start(ap, fmt);
	vsnprintf(err->parse.msg, sizeof(err->parse.msg), fmt, ap);
	va_end(ap);
}

void pmc__metric_error_from(struct pmc_metric_error *err, const char *where, const char *text,
			    const struct pmc_parse_error *perr)
{
	if (!err)
		return;
	pmc__metric_error(err, where, text, perr->offset, "%s", perr->msg);
	err->parse.nr_suggest = perr->nr_suggest;
	memcpy(err->parse.suggest, perr->suggest, sizeof(perr->suggest));
}
