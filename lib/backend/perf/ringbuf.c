// SPDX-License-Identifier: MIT
/* Draining a perf_event ring buffer (the data_head/data_tail protocol of perf_event_open(2)). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "backend/perf/ringbuf.h"

int pmc__ringbuf_open(struct pmc__ringbuf *rb, int fd, size_t data_pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *p;

	memset(rb, 0, sizeof(*rb));
	rb->fd = -1;
	if (!data_pages || (data_pages & (data_pages - 1)))
		return -EINVAL;
	rb->map_bytes = (1 + data_pages) * page;
	p = mmap(NULL, rb->map_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	/* A record is at most 64 KiB (its size is a u16). */
	rb->scratch = malloc(65536);
	if (!rb->scratch) {
		munmap(p, rb->map_bytes);
		return -ENOMEM;
	}
	rb->fd = fd;
	rb->page = p;
	rb->data = (uint8_t *)p + page;
	rb->data_bytes = data_pages * page;
	return 0;
}

/* The record at tail, contiguous: in place, or copied when it wraps around the end. */
static const void *record_at(struct pmc__ringbuf *rb, uint64_t tail, size_t size)
{
	size_t off = tail & (rb->data_bytes - 1);
	size_t first = rb->data_bytes - off;

	if (size <= first)
		return rb->data + off;
	memcpy(rb->scratch, rb->data + off, first);
	memcpy((uint8_t *)rb->scratch + first, rb->data, size - first);
	return rb->scratch;
}

int pmc__ringbuf_drain(struct pmc__ringbuf *rb, pmc__sample_sink_fn sink, void *arg)
{
	/* Acquire pairs with the kernel's release of data_head: records below it are complete. */
	uint64_t head = __atomic_load_n(&rb->page->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = rb->page->data_tail;
	int n = 0, ret = 0;

	while (tail < head) {
		struct perf_event_header h;
		size_t off = tail & (rb->data_bytes - 1);

		/* Headers are 8-byte aligned and never wrap; their bodies may. */
		memcpy(&h, rb->data + off, sizeof(h));
		if (h.size < sizeof(h) || h.size > head - tail)
			break; /* cannot happen with a sane kernel; stop rather than spin */
		ret = sink(record_at(rb, tail, h.size), h.size, arg);
		if (ret < 0)
			break;
		tail += h.size;
		n++;
	}
	/* Release: our reads of the records happen before the kernel may overwrite them. */
	__atomic_store_n(&rb->page->data_tail, tail, __ATOMIC_RELEASE);
	return ret < 0 ? ret : n;
}

void pmc__ringbuf_close(struct pmc__ringbuf *rb)
{
	if (rb->page)
		munmap(rb->page, rb->map_bytes);
	free(rb->scratch);
	memset(rb, 0, sizeof(*rb));
	rb->fd = -1;
}
