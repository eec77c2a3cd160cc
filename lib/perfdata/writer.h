/* SPDX-License-Identifier: MIT */
/* The perf.data writer's state (write.c). */
#ifndef PMC_LIB_PERFDATA_WRITER_H
#define PMC_LIB_PERFDATA_WRITER_H

#include <pmc/outfile.h>
#include "perfdata/perfdata.h"

struct pmc__wattr {
	struct perf_event_attr attr; /* attr.size is the size written to the file */
	char *name;
	uint64_t *ids;
	size_t nr_ids;
	uint64_t ids_offset;
};

struct pmc__perfdata_writer {
	struct pmc_outfile *out; /* written beside the target, renamed into place by finish */
	int fd;			 /* out's descriptor, for pwrite(2) */
	struct pmc__wattr *attrs;
	size_t nr_attrs;
	char **cmdline;
	int cmdline_argc;
	struct pmc__perfdata_build_ids build_ids;
	char *tracing_data; /* the TRACING_DATA feature, or NULL without tracepoints */
	size_t tracing_data_len;
	uint64_t attrs_offset, data_offset, data_size;
	bool begun, finished;
	char *buf; /* records not yet written; the last buf_len bytes of data_size */
	size_t buf_len;
};

#endif /* PMC_LIB_PERFDATA_WRITER_H */
