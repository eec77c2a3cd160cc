/* SPDX-License-Identifier: MIT */
/*
 * The perf.data writer's state (write.c) and the calls its files make to each other, each
 * only to files below it: feature-write.c, pipe.c, write.c.
 */
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
	bool pipe; /* out is a pipe, FIFO or terminal: pipe mode (pipe.c), written in order */
	char *buf; /* records not yet written; the last buf_len bytes of data_size */
	size_t buf_len;
};

/* A growing byte buffer (feature-write.c); oom is set, and later bytes dropped, when it cannot
 * grow. */
struct pmc__fbuf {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

void pmc__fput(struct pmc__fbuf *b, const void *v, size_t n);
/* feature-write.c: the feature sections pmc writes, in bit order. */
#define PERFDATA_NR_WFEATS 9
extern const int pmc__perfdata_wfeats[PERFDATA_NR_WFEATS];
/* Appends feature feat's section to b; false when w has nothing for it (not written). */
bool pmc__perfdata_build_feature(struct pmc__perfdata_writer *w, int feat, struct pmc__fbuf *b);
/* feature-write.c: the whole of buf written at fd's position (a pipe); 0 or a negative errno. */
int pmc__perfdata_write_all(int fd, const void *buf, size_t len);
/* pipe.c: the pipe header and the header records (attrs, features), written to w->fd. */
int pmc__perfdata_pipe_begin(struct pmc__perfdata_writer *w);
/* pipe.c: the records known only at the end (build ids), after the last round. */
int pmc__perfdata_pipe_finish(struct pmc__perfdata_writer *w);

#endif /* PMC_LIB_PERFDATA_WRITER_H */
