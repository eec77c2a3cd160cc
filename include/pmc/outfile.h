/* SPDX-License-Identifier: MIT */
/* Results files written whole or not at all: a temporary file beside the target, renamed. */
#ifndef PMC_OUTFILE_H
#define PMC_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <pmc/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pmc_outfile;

/*
 * Recipe:
 *
 *	pmc_outfile__open("out.json", &o);
 *	fprintf(pmc_outfile__stream(o), ...);   // or write(2) to pmc_outfile__fd(o)
 *	err = pmc_outfile__commit(o);           // renames into place; or pmc_outfile__abort(o)
 *
 * A regular file (or a new one) is written to "NAME.pmc-tmp-XXXXXX" (six random hex
 * digits) in the target's folder and renamed over the target on commit, so readers never
 * see half a file and a failed run leaves the old file untouched. A symbolic link is
 * followed and its target replaced, the link kept, except where the kernel's rule for
 * sticky folders says not to: in a sticky, world-writable folder such as /tmp, a link owned
 * by neither the caller nor the folder's owner is refused (-PMC_E_UNSAFELINK), so no one
 * can point root's results at a file of their choosing. A target that exists and is not a
 * regular file (/dev/null, a FIFO, a terminal) is written in place, as it cannot be
 * replaced; a FIFO waits up to 10 seconds for a process to open it for reading, then
 * fails (-PMC_E_NOREADER) rather than block for ever. So is an open descriptor named
 * through /proc (/dev/stdout, /dev/fd/N, a shell's >(cmd)) written in place: pmc's own
 * through a dup, at its offset. A folder is refused (-EISDIR). Missing folders are not
 * created (-ENOENT). In a sticky folder, a file that neither the caller nor the folder's
 * owner owns cannot be replaced (-EPERM, said at the open rather than at the commit).
 * "-" means standard output, which must be open for writing (-EBADF). Write errors are
 * kept: the commit returns the first (-ENOSPC, -EFBIG; a file size limit gives -EFBIG, not
 * SIGXFSZ).
 * Returns 0, or a negative errno or PMC_E_* code.
 */
PMC_API int pmc_outfile__open(const char *path, struct pmc_outfile **out);

/* How pmc_outfile__open_opts() writes a file; NULL or zeroed fields mean the defaults. */
struct pmc_outfile_opts {
	size_t sz; /* sizeof(struct pmc_outfile_opts) */
	/*
	 * The new file's mode before the umask; 0 means 0666. Files that hold the measured
	 * program's memory (a recording's stacks and registers) use 0600, as perf does.
	 */
	unsigned int mode;
	/*
	 * A regular, non-empty target that the commit replaces is first kept as "PATH.old"
	 * (an older "PATH.old" is removed), as perf record keeps perf.data.old. Nothing is
	 * renamed when the file is aborted. A "PATH.old" that is a folder fails the open
	 * (-PMC_E_OLDDIR).
	 */
	bool keep_old;
	/*
	 * Appends to the target instead of replacing it: what is written is kept in memory and
	 * written by the commit at the file's end with one write(2), under flock(2), so that
	 * concurrent appenders never interleave inside a commit; a write that fails is cut
	 * back (ftruncate) to where the file ended. Devices and FIFOs get the same one write.
	 */
	bool append;
};

/*
 * pmc_outfile__open() with options (opts may be NULL). Returns 0, or a negative errno or
 * PMC_E_* code.
 */
PMC_API int pmc_outfile__open_opts(const char *path, const struct pmc_outfile_opts *opts,
				   struct pmc_outfile **out);

/*
 * Whether path can be written as pmc_outfile__open_opts() would write it, before any work:
 * the folder takes a temporary file (made and removed), a file may be replaced or appended
 * to; a device, FIFO or descriptor is not opened (a FIFO's reader would see an end of
 * file), only its permissions checked. Returns 0, or the error the open would give.
 */
PMC_API int pmc_outfile__check(const char *path, const struct pmc_outfile_opts *opts);

/* The file descriptor to write to (for pwrite(2)-style writers). */
PMC_API int pmc_outfile__fd(const struct pmc_outfile *o);

/* A stdio stream over the file, created on first use; owned by the outfile. */
PMC_API FILE *pmc_outfile__stream(struct pmc_outfile *o);

/*
 * Flushes, checks for write errors and renames the file into place (keeping the file it
 * replaces as "PATH.old" where keep_old asked for it), then frees o.
 * Returns 0, or a negative errno, in which case the temporary file is removed and the
 * target is left as it was.
 */
PMC_API int pmc_outfile__commit(struct pmc_outfile *o);

/*
 * Abandons o after the caller's own writing failed (a json_dumpf(3) that returned -1):
 * returns the write error o met (-ENOSPC, ...) when there was one, else err; then as
 * pmc_outfile__abort(). Accepts NULL (returns err).
 */
PMC_API int pmc_outfile__fail(struct pmc_outfile *o, int err);

/* Removes the temporary file and frees o. Accepts NULL. */
PMC_API void pmc_outfile__abort(struct pmc_outfile *o);

#ifdef __cplusplus
}
#endif
#endif /* PMC_OUTFILE_H */
