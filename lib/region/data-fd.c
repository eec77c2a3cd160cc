// SPDX-License-Identifier: MIT
/*
 * Reading a runner's results file from its descriptor (pmc_region_data__read_fd()): what was
 * written, skipping holes, and of the arena only its chunks (docs/regions.md).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <pmc/error.h>
#include "region/arena.h"
#include "region/data.h"
#include "region/proto.h"

/* Appends fd's bytes [from, to) to *buf; a read that ends early ends the extent. */
static int read_extent(int fd, uint64_t from, uint64_t to, char **buf, size_t *len, bool *eof)
{
	char *p;

	if (to - from > SIZE_MAX - *len - 1)
		return -ENOMEM;
	p = realloc(*buf, *len + (size_t)(to - from) + 1);
	if (!p)
		return -ENOMEM;
	*buf = p;
	while (from < to) {
		ssize_t n = pread(fd, p + *len, (size_t)(to - from), (off_t)from);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0) {
			*eof = true;
			break;
		}
		*len += (size_t)n;
		from += (uint64_t)n;
	}
	return 0;
}

/*
 * fd's bytes from off to off + max (or its end) that were written: a hole (what ftruncate()
 * added and nobody wrote) is skipped (skip_holes) or ends the read, and never read as zeros,
 * so a results file made huge by its command costs what was written, not what its size
 * claims. *out is NULL when nothing was read.
 */
static int read_from(int fd, uint64_t off, uint64_t max, bool skip_holes, char **out,
		     size_t *out_len)
{
	uint64_t end = max > UINT64_MAX - off ? UINT64_MAX : off + max, pos = off;
	size_t len = 0;
	char *buf = NULL;
	bool eof = false;
	int err = 0;

	while (!err && !eof && pos < end) {
		off_t data = lseek(fd, (off_t)pos, SEEK_DATA), hole;

		if (data < 0 && errno == ENXIO)
			break; /* no data after pos */
		if (data < 0)  /* no holes to tell (a pipe, a file system without): read on */
			data = (off_t)pos, hole = -1;
		else if ((uint64_t)data != pos && !skip_holes)
			break;
		else
			hole = lseek(fd, data, SEEK_HOLE);
		if ((uint64_t)data >= end)
			break;
		if (hole < 0) /* a step at a time, to the end of the file */
			hole = (off_t)((uint64_t)data + (1u << 20));
		err = read_extent(fd, (uint64_t)data, (uint64_t)hole < end ? (uint64_t)hole : end,
				  &buf, &len, &eof);
		pos = (uint64_t)hole;
	}
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	*out_len = len;
	return 0;
}

/*
 * A runner's file with an arena: the arena up to its first free byte, and the records after
 * it, without reading the arena's untouched (sparse) gigabyte.
 */
static int read_arena_file(struct pmc_region_data *d, int fd, const struct pmc__region_pass *pass)
{
	struct pmc__arena_head h = {0};
	struct pmc__rd_parts parts = {0};
	char *arena = NULL, *rec = NULL;
	int err = -PMC_E_TRUNCATED;

	if (pread(fd, &h, sizeof(h), (off_t)pass->arena_off) == (ssize_t)sizeof(h)) {
		uint64_t used = h.next < pass->arena_size ? h.next : pass->arena_size;

		if (used < sizeof(h))
			used = sizeof(h);
		/* A hole ends the arena: every chunk's bytes are written when it is taken. */
		err = read_from(fd, pass->arena_off, used, false, &arena, &parts.arena_len);
	}
	if (!err)
		err = read_from(fd, pass->arena_off + pass->arena_size, UINT64_MAX, true, &rec,
				&parts.rec_len);
	parts.arena = arena;
	parts.rec = rec ? rec : "";
	if (!err)
		err = pmc__rd_parse_parts(d, &parts);
	free(arena);
	free(rec);
	return err;
}

int pmc_region_data__read_fd(struct pmc_region_data *d, int fd)
{
	struct pmc__region_pass pass;
	char *buf = NULL;
	size_t len = 0;
	int err;

	if (!pmc__region_pass_read(fd, &pass)) {
		bool arena = pass.arena_size;

		err = arena ? read_arena_file(d, fd, &pass) : 0;
		pmc__region_pass_free(&pass);
		if (arena)
			return err;
	}
	err = read_from(fd, 0, UINT64_MAX, true, &buf, &len);
	if (!err)
		err = pmc_region_data__parse(d, buf ? buf : "", len);
	free(buf);
	return err;
}
