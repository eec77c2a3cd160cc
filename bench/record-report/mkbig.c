// SPDX-License-Identifier: MIT
/* Builds a large perf.data for the report benchmark: a recording's samples repeated K times. */
#include <stdio.h>
#include <stdlib.h>
#include "sample/perfdata.h"

int main(int argc, char **argv)
{
	struct pmc__perfdata *f;
	struct pmc__perfdata_writer *w;
	struct pmc__perfdata_event ev;
	struct pmc_file_error err;
	long k = argc > 3 ? atol(argv[3]) : 0;

	if (argc < 4 || pmc__perfdata_open(argv[1], &f, &err)) {
		fprintf(stderr, "usage: mkbig IN OUT K (one event per file)\n");
		return 2;
	}
	if (pmc__perfdata_writer_new(argv[2], &w) ||
	    pmc__perfdata_writer_add_attr(w, pmc__perfdata_attr(f, 0), pmc__perfdata_attr_name(f, 0),
					  NULL, 0) ||
	    pmc__perfdata_writer_begin(w))
		return 1;
	for (long pass = 0; pass < k; pass++) {
		pmc__perfdata_close(f);
		if (pmc__perfdata_open(argv[1], &f, &err))
			return 1;
		while (pmc__perfdata_next(f, &ev, &err) == 1)
			if ((pass == 0 || ev.hdr->type == PERF_RECORD_SAMPLE) &&
			    pmc__perfdata_writer_write(w, ev.hdr, ev.hdr->size))
				return 1;
	}
	if (pmc__perfdata_writer_finish(w))
		return 1;
	pmc__perfdata_writer_delete(w);
	pmc__perfdata_close(f);
	return 0;
}
