// SPDX-License-Identifier: MIT
/* The formats of a recording's tracepoints, for perf script and perf report (TRACING_DATA). */
#include <errno.h>
#include <stdlib.h>
#include <pmc/error.h>
#include "core/log.h"
#include "event/evsel.h"
#include "event/parse.h"
#include "record/record.h"

/* A failure is said and the recording goes on: pmc reads its files without the formats. */
int pmc__record_tracepoints(struct pmc_record *rec)
{
	struct pmc_sampling *s = rec->s;
	struct pmc__tp_path *paths = calloc(s->nr_attrs, sizeof(*paths));
	struct pmc_tp **tps = calloc(s->nr_attrs, sizeof(*tps));
	size_t nr = 0;
	int err = paths && tps ? 0 : -ENOMEM;

	for (size_t i = 0; !err && i < s->nr_attrs; i++) {
		if (s->attrs[i].type != PERF_TYPE_TRACEPOINT)
			continue;
		err = pmc__tp_by_id(s->attrs[i].config, rec->evlist->entries[i]->name, &tps[nr]);
		if (!err) {
			paths[nr] = (struct pmc__tp_path){tps[nr]->subsys, tps[nr]->name};
			nr++;
		}
	}
	if (!err && nr)
		err = pmc__perfdata_writer_set_tracepoints(rec->w, paths, nr);
	if (err && err != -ENOMEM)
		pr_warn("cannot read the formats of the tracepoints recorded (%s): perf script "
			"and perf report will not read this recording\n",
			pmc_strerror(err));
	for (size_t i = 0; i < nr; i++)
		pmc__tp_free(tps[i], 1);
	free(tps);
	free(paths);
	return err == -ENOMEM ? err : 0;
}
