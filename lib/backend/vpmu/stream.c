// SPDX-License-Identifier: MIT
/*
 * The tool's --out-fd stream (include/vpmu/protocol.h, docs/vpmu.md): a thread reads it
 * while the command runs, so that a command with many mappings, threads or samples never
 * blocks on a full pipe; once the command has exited, the thread drains what is left and
 * the COUNTS totals of every process image (or only the command's, without inherit) are
 * summed: the images a process runs one after the other through exec count together, as
 * perf counts a task across exec.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/error.h>
#include "backend/vpmu/vpmu.h"
#include "core/grow.h"
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

/*
 * The count of a process image is the last COUNTS total (tid 0) it wrote: a process writes
 * one at exit and one before each exec, and after an exec that failed it goes on and writes
 * larger ones. An image ends at its EXIT, or when its pid starts again: a BEGIN (the exec'd
 * image, under --trace-children) or a FORK (a new process that got a reused pid). Images
 * still open here are the processes alive at a time: their totals wait in this list.
 */
struct open_image {
	uint32_t pid;
	uint64_t value[VPMU_MAX_COUNTERS];
};

struct image_list {
	struct open_image *v;
	size_t nr, alloc;
};

static void add_image(struct vpmu_counting *vc, const struct open_image *im)
{
	for (uint32_t k = 0; k < VPMU_MAX_COUNTERS; k++)
		vc->totals[k] += im->value[k];
}

/* Adds the image of pid to the totals, and forgets it. */
static void close_image(struct vpmu_counting *vc, struct image_list *l, uint32_t pid)
{
	for (size_t i = 0; i < l->nr; i++) {
		if (l->v[i].pid != pid)
			continue;
		add_image(vc, &l->v[i]);
		l->v[i] = l->v[--l->nr];
		return;
	}
}

static int image_counts(struct vpmu_counting *vc, struct image_list *l,
			const struct vpmu_rec_counts *r)
{
	const struct pmc_target *t = &vc->base.target;
	struct open_image *im = NULL;

	if (r->tid != 0)
		return 0; /* per-thread records; the total (tid 0) of each image follows them */
	if (t->no_inherit && vc->base.child && (pid_t)r->pid != vc->base.child->pid)
		return 0;
	for (size_t i = 0; i < l->nr && !im; i++)
		if (l->v[i].pid == r->pid)
			im = &l->v[i];
	if (!im && PMC_ENSURE(l->v, l->alloc, l->nr + 1))
		return -ENOMEM;
	if (!im)
		im = &l->v[l->nr++];
	memset(im, 0, sizeof(*im));
	im->pid = r->pid;
	for (uint32_t k = 0; k < r->nr && k < VPMU_MAX_COUNTERS; k++) {
		if (vc->ctr_used[k] && r->config[k] != vc->ctr_config[k])
			pr_warn("vpmu: counter %u was reprogrammed (0x%llx, not 0x%llx)\n", k,
				(unsigned long long)r->config[k],
				(unsigned long long)vc->ctr_config[k]);
		im->value[k] = r->value[k];
	}
	vc->have_counts = true;
	return 0;
}

/* An exec the tool does not follow (--trace-children=no in PMC_VPMU_ARGS) runs natively. */
static void exec_seen(const struct vpmu_hdr *h)
{
	const struct vpmu_rec_exec *r = (const void *)h;
	size_t max = h->size - sizeof(*r);

	if (r->flags & VPMU_EXEC_FOLLOWED)
		return;
	pr_warn("vpmu: process %u exec'd '%.*s' without the tool (--trace-children=no): what "
		"it ran is not counted\n",
		r->pid, (int)strnlen(r->path, max), r->path);
}

void pmc__vpmu_say_refused_clone(const char *argv0, uint64_t flags)
{
	pr_err("vpmu: Valgrind cannot run '%s': it made a process that shares its memory without "
	       "being a thread (clone flags 0x%llx: CLONE_VM without CLONE_THREAD, as a "
	       "posix_spawn emulation or a runtime's own spawn does); Valgrind runs only threads, "
	       "fork and vfork, and ended it (its 'Unsupported clone() flags' above). Measure it "
	       "with the perf backend\n",
	       argv0, (unsigned long long)flags);
}

/* One record of the stream, checked to be whole and framed. */
static int stream_record(struct vpmu_counting *vc, struct image_list *l, const struct vpmu_hdr *h)
{
	switch (h->type) {
	case VPMU_REC_COUNTS:
		if (h->size >= sizeof(struct vpmu_rec_counts))
			return image_counts(vc, l, (const void *)h);
		break;
	case VPMU_REC_BEGIN:
		if (h->size >= sizeof(struct vpmu_rec_begin))
			close_image(vc, l, ((const struct vpmu_rec_begin *)h)->pid);
		break;
	case VPMU_REC_FORK:
	case VPMU_REC_EXIT:
		if (h->size >= sizeof(struct vpmu_rec_task))
			close_image(vc, l, ((const struct vpmu_rec_task *)h)->pid);
		break;
	case VPMU_REC_EXEC:
		if (h->size >= sizeof(struct vpmu_rec_exec) + 8)
			exec_seen(h);
		break;
	case VPMU_REC_REFUSED:
		if (h->size >= sizeof(struct vpmu_rec_refused) &&
		    ((const struct vpmu_rec_refused *)h)->what == VPMU_REFUSED_CLONE)
			vc->refused_clone = ((const struct vpmu_rec_refused *)h)->flags;
		break;
	case VPMU_REC_LOST:
		if (h->size >= sizeof(struct vpmu_rec_lost))
			pr_debug("vpmu: the tool dropped %llu samples\n",
				 (unsigned long long)((const struct vpmu_rec_lost *)h)->lost);
		break;
	default:
		break;
	}
	return 0;
}

int pmc__vpmu_stream_finish(struct vpmu_counting *vc)
{
	struct image_list images = {0};
	size_t off = 0;
	int err = 0;

	stop_reader(vc);
	memset(vc->totals, 0, sizeof(vc->totals));
	vc->have_counts = false;
	vc->refused_clone = 0;
	while (!err && off + sizeof(struct vpmu_hdr) <= vc->stream_len) {
		const struct vpmu_hdr *h = (const void *)(vc->stream + off);

		if (h->size > vc->stream_len - off) {
			pr_debug("vpmu: the stream ends inside a record (command killed?)\n");
			break;
		}
		if (h->magic != VPMU_MAGIC_RECORD || h->version != VPMU_PROTO_VERSION ||
		    h->size < sizeof(*h) || h->size % 8) {
			pr_warn("vpmu: malformed stream record at offset %zu\n", off);
			err = -PMC_E_PROTOCOL;
			break;
		}
		err = stream_record(vc, &images, h);
		off += h->size;
	}
	for (size_t i = 0; i < images.nr; i++)
		add_image(vc, &images.v[i]);
	free(images.v);
	return err;
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
