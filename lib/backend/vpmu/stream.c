// SPDX-License-Identifier: MIT
/*
 * The tool's --out-fd stream (include/vpmu/protocol.h, docs/vpmu.md): a thread reads it
 * while the command runs, so that a command with many mappings, threads or samples never
 * blocks on a full pipe; once the command has exited, the thread drains what is left and
 * the COUNTS totals of every process (or only the command's, without inherit) are summed.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/error.h>
#include "backend/vpmu/vpmu.h"
#include "core/log.h"
#include "count/child.h"

#define CHUNK_BYTES (64u << 10)

/* Reads what is available; 0 at end of stream, -EAGAIN when nothing is pending. */
static ssize_t read_some(struct vpmu_counting *vc)
{
	ssize_t n;

	if (vc->stream_alloc - vc->stream_len < CHUNK_BYTES) {
		size_t alloc = vc->stream_alloc ? 2 * vc->stream_alloc : 4 * CHUNK_BYTES;
		unsigned char *p = realloc(vc->stream, alloc);

		if (!p)
			return -ENOMEM;
		vc->stream = p;
		vc->stream_alloc = alloc;
	}
	do
		n = read(vc->rd_fd, vc->stream + vc->stream_len, vc->stream_alloc - vc->stream_len);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	vc->stream_len += (size_t)n;
	return n;
}

/* Until end of stream, or until woken: then what is pending is read and the thread ends. */
static void *reader_main(void *arg)
{
	struct vpmu_counting *vc = arg;
	struct pollfd p[2] = {{.fd = vc->rd_fd, .events = POLLIN},
			      {.fd = vc->wake_fd[0], .events = POLLIN}};
	ssize_t n;

	for (;;) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[0].revents) {
			n = read_some(vc);
			if (n == 0 || (n < 0 && n != -EAGAIN))
				break;
			continue;
		}
		if (p[1].revents) {
			while (read_some(vc) > 0)
				;
			break;
		}
	}
	return NULL;
}

int pmc__vpmu_stream_start(struct vpmu_counting *vc)
{
	int fl = fcntl(vc->rd_fd, F_GETFL), err;

	if (fl < 0 || fcntl(vc->rd_fd, F_SETFL, fl | O_NONBLOCK) || pipe2(vc->wake_fd, O_CLOEXEC))
		return -errno;
	err = pthread_create(&vc->reader, NULL, reader_main, vc);
	if (err)
		return -err;
	vc->reader_running = true;
	return 0;
}

static void stop_reader(struct vpmu_counting *vc)
{
	char b = 1;

	if (!vc->reader_running)
		return;
	if (write(vc->wake_fd[1], &b, 1) < 0)
		pr_debug("vpmu: waking the stream reader failed: %s\n", strerror(errno));
	pthread_join(vc->reader, NULL);
	vc->reader_running = false;
}

static void add_counts(struct vpmu_counting *vc, const struct vpmu_rec_counts *r)
{
	const struct pmc_target *t = &vc->base.target;

	if (r->tid != 0)
		return; /* per-thread records; the total (tid 0) of each process follows them */
	if (t->no_inherit && vc->base.child && (pid_t)r->pid != vc->base.child->pid)
		return;
	for (uint32_t k = 0; k < r->nr && k < VPMU_MAX_COUNTERS; k++) {
		if (vc->ctr_used[k] && r->config[k] != vc->ctr_config[k])
			pr_warn("vpmu: counter %u was reprogrammed (0x%llx, not 0x%llx)\n", k,
				(unsigned long long)r->config[k],
				(unsigned long long)vc->ctr_config[k]);
		vc->totals[k] += r->value[k];
	}
	vc->have_counts = true;
}

int pmc__vpmu_stream_finish(struct vpmu_counting *vc)
{
	size_t off = 0;

	stop_reader(vc);
	memset(vc->totals, 0, sizeof(vc->totals));
	vc->have_counts = false;
	while (off + sizeof(struct vpmu_hdr) <= vc->stream_len) {
		const struct vpmu_hdr *h = (const void *)(vc->stream + off);

		if (h->size > vc->stream_len - off) {
			pr_debug("vpmu: the stream ends inside a record (command killed?)\n");
			break;
		}
		if (h->magic != VPMU_MAGIC_RECORD || h->version != VPMU_PROTO_VERSION ||
		    h->size < sizeof(*h) || h->size % 8) {
			pr_warn("vpmu: malformed stream record at offset %zu\n", off);
			return -PMC_E_PROTOCOL;
		}
		if (h->type == VPMU_REC_COUNTS && h->size >= sizeof(struct vpmu_rec_counts))
			add_counts(vc, (const void *)h);
		if (h->type == VPMU_REC_LOST && h->size >= sizeof(struct vpmu_rec_lost))
			pr_debug("vpmu: the tool dropped %llu samples\n",
				 (unsigned long long)((const struct vpmu_rec_lost *)h)->lost);
		off += h->size;
	}
	return 0;
}

void pmc__vpmu_stream_close(struct vpmu_counting *vc)
{
	stop_reader(vc);
	if (vc->rd_fd >= 0)
		close(vc->rd_fd);
	for (int i = 0; i < 2; i++)
		if (vc->wake_fd[i] >= 0)
			close(vc->wake_fd[i]);
	vc->rd_fd = vc->wake_fd[0] = vc->wake_fd[1] = -1;
	free(vc->stream);
	vc->stream = NULL;
	vc->stream_len = vc->stream_alloc = 0;
}
