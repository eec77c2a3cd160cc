// SPDX-License-Identifier: MIT
/*
 * The runner's side of the runner protocol (docs/regions.md, version 3): before each run, an
 * anonymous results file (memfd) that starts with the pass header, named to the command by
 * PMC_REGION_FD alone. regions.c reads the records after the run.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include "region/arena.h"
#include "region/proto.h"
#include "run/regions.h"

/* The events of pass as an event string, groups in braces, for the command's own counters. */
static char *pass_events(const struct pmc_run *run, int pass)
{
	size_t len = 0, left = 0;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, &len);
	bool first = true;

	if (!f)
		return NULL;
	for (size_t i = 0; i < pmc_evlist__nr(run->evlist); i++) {
		struct pmc_evsel *ev = pmc_evlist__at(run->evlist, i);
		size_t gsz = pmc_evsel__group_size(ev);
		bool opens = pmc_evsel__leader(ev) == ev && gsz > 1;

		if (pmc_evsel__pass(ev) != pass)
			continue;
		fprintf(f, "%s%s%s", first ? "" : ",", opens ? "{" : "", pmc_evsel__name(ev));
		first = false;
		if (opens)
			left = gsz;
		if (left && --left == 0)
			fputc('}', f);
	}
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * The arena's offset, for a header whose body is body bytes without its "arena" line: past
 * the header line (at most 32 bytes) and that line (at most 48).
 */
static uint64_t arena_offset(size_t body)
{
	return (body + 128 + PMC_ARENA_ALIGN - 1) / PMC_ARENA_ALIGN * PMC_ARENA_ALIGN;
}

/*
 * The pass header of runner protocol 3 (docs/regions.md), built once per pass: every
 * repetition of a pass writes the same bytes. With arena, it names the arena, at
 * arena_offset() of its length without that line. NULL for no memory, or for an event
 * string or backend name with a newline in it (neither can be written as a line).
 */
static const char *pass_header(struct pmc_run *run, int pass, bool arena)
{
	const char *be = run->opts.backend && *run->opts.backend ? run->opts.backend : NULL;
	char *events, *buf;

	if (run->pass_header && run->pass_header_of == pass && run->pass_header_arena == arena)
		return run->pass_header;
	free(run->pass_header);
	run->pass_header = NULL;
	events = pass_events(run, pass);
	if (!events)
		return NULL;
	buf = NULL;
	if (!strchr(events, '\n') && !(be && strchr(be, '\n'))) {
		char *body;

		/* asprintf() leaves its pointer undefined when it fails */
		if (asprintf(&body, "events %s\npriv %u\n%s%s%s", events, run->opts.priv,
			     be ? "backend " : "", be ? be : "", be ? "\n" : "") >= 0) {
			size_t n = strlen(body);
			char *all = NULL;

			if (arena && asprintf(&all, "%sarena %" PRIu64 " %llu\n", body,
					      arena_offset(n), PMC_ARENA_SIZE) < 0)
				all = NULL;
			if ((!arena || all) &&
			    asprintf(&buf, PMC_PASS_MAGIC " %d %zu\n%s", PMC_PASS_VERSION,
				     strlen(all ? all : body), all ? all : body) < 0)
				buf = NULL;
			free(all);
			free(body);
		}
	}
	free(events);
	run->pass_header = buf;
	run->pass_header_of = pass;
	run->pass_header_arena = arena;
	return buf;
}

/*
 * The header at offset 0, the offset left after it: the command's records are appended there,
 * at the offset it shares with us.
 */
static int write_all(int fd, const char *buf)
{
	for (const char *p = buf, *end = buf + strlen(buf); p < end;) {
		ssize_t n = write(fd, p, (size_t)(end - p));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
	}
	return 0;
}

/*
 * A fresh file for every run, at the same descriptor number (the command's environment
 * names it, and must not change between runs): a process of an earlier run that still
 * writes (a daemon the command left behind) writes into that run's file, not this one's.
 */
static int fresh_file(struct pmc_run *run)
{
	int fd = memfd_create("pmc-regions", MFD_CLOEXEC);

	if (fd < 0 || run->region_fd < 0) {
		if (fd >= 0)
			run->region_fd = fd;
		return fd < 0 ? -errno : 0;
	}
	if (dup3(fd, run->region_fd, O_CLOEXEC) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	return 0;
}

/*
 * The arena past the header (docs/regions.md, "The arena"), and the file's offset past the
 * arena, where the records go; false when the file cannot grow (a small ulimit -f).
 */
static bool make_arena(int fd, const char *header)
{
	const char *body = strchr(header, '\n') + 1, *line = strstr(body, "\narena ");
	uint64_t off = arena_offset((size_t)(line + 1 - body));
	struct rlimit fsize;

	/* Past the limit, ftruncate() raises SIGXFSZ, which kills by default. */
	if (getrlimit(RLIMIT_FSIZE, &fsize) ||
	    (fsize.rlim_cur != RLIM_INFINITY && fsize.rlim_cur < off + PMC_ARENA_SIZE + (1 << 20)))
		return false;
	return !ftruncate(fd, (off_t)(off + PMC_ARENA_SIZE)) &&
	       !pmc__region_arena_init(fd, off, PMC_ARENA_SIZE) &&
	       lseek(fd, (off_t)(off + PMC_ARENA_SIZE), SEEK_SET) >= 0;
}

int pmc__run_regions_prepare(struct pmc_run *run, int pass, struct pmc_target *t)
{
	const char *header;
	bool any = false;

	for (size_t i = 0; i < pmc_evlist__nr(run->evlist) && !any; i++)
		any = pmc_evsel__pass(pmc_evlist__at(run->evlist, i)) == pass;
	/* Nothing to count in this pass (--null, or no event countable here): no descriptor,
	 * and the command's markers stay off rather than read a header with no events. */
	if (t->kind != PMC_TARGET_COMMAND || !any)
		return 0;
	if (fresh_file(run))
		return 0; /* regions are an extra: whole-program counting goes on without */
	/*
	 * What the command is told goes into the descriptor, not the environment: the
	 * environment's size moves the command's stack, so every pass gets the same one, byte
	 * for byte, and one the same size as without a runner but for PMC_REGION_FD, which only
	 * the child gets (the caller's own environment is never changed).
	 */
	header = pass_header(run, pass, true);
	if (!header)
		return -ENOMEM;
	if (write_all(run->region_fd, header))
		return 0; /* as above: this run's regions go unmeasured */
	if (!make_arena(run->region_fd, header)) {
		/* Regions without an arena: a process that leaves by _exit() loses its own. */
		header = pass_header(run, pass, false);
		if (!header)
			return -ENOMEM;
		if (ftruncate(run->region_fd, 0) || lseek(run->region_fd, 0, SEEK_SET) ||
		    write_all(run->region_fd, header))
			return 0;
	}
	t->child_fd = run->region_fd;
	t->child_fd_env = "PMC_REGION_FD";
	return 0;
}
