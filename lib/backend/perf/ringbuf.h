/* SPDX-License-Identifier: MIT */
/* A perf_event mmap ring buffer: mapping, and draining records with the head/tail protocol. */
#ifndef PMC_LIB_BACKEND_PERF_RINGBUF_H
#define PMC_LIB_BACKEND_PERF_RINGBUF_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include "core/backend.h"

struct pmc__ringbuf {
	int fd;
	struct perf_event_mmap_page *page; /* the control page; data follows it */
	uint8_t *data;
	size_t data_bytes; /* a power of 2 */
	size_t map_bytes;
	uint64_t *scratch; /* a record that wraps the end is copied here */
};

/* Maps 1 + data_pages pages of fd (data_pages a power of 2). Returns 0 or -errno. */
int pmc__ringbuf_open(struct pmc__ringbuf *rb, int fd, size_t data_pages);
/*
 * Hands every complete record between tail and head to sink, then publishes the new
 * tail so the kernel can reuse the space. Returns the number of records or the sink's
 * negative return (records handed over before it are consumed).
 */
int pmc__ringbuf_drain(struct pmc__ringbuf *rb, pmc__sample_sink_fn sink, void *arg);
void pmc__ringbuf_close(struct pmc__ringbuf *rb);

#endif /* PMC_LIB_BACKEND_PERF_RINGBUF_H */
