/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The --out-fd record stream's writer (docs/vpmu.md, "Output stream"): record headers, the
 * write itself, and the side-band records (begin, comm, mmap, fork, thread, exit). The
 * counters (vpmu-counter.c) and samples (vpmu-sample.c) write their records through it; the
 * run's last records are vpmu-report.c's. The descriptor itself is kept out of the client's
 * reach (vp_out_protect) and handed on across a traced exec (vp_out_exec_rec).
 */
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"
#include "pub_tool_xarray.h"
#include "vpmu.h"

/* Valgrind core functions and settings that the tool headers leave out, defined in the static
 * core the tool links (pub_core_libcfile.h and pub_core_options.h of Valgrind 3.19):
 * safe_fd moves a descriptor to the lowest free number at or above the client's limit of open
 * files, closes the old one and sets FD_CLOEXEC; the core refuses the client any system call
 * on those numbers (EBADF), as it does for its own log and executable descriptors. */
extern Int VG_(safe_fd)(Int oldfd);
extern Int VG_(fcntl)(Int fd, Int cmd, Addr arg);
extern Bool VG_(clo_trace_children);

void vp_hdr_init(struct vpmu_hdr *h, UInt magic, UInt type, UInt size)
{
	h->magic = magic;
	h->version = VPMU_PROTO_VERSION;
	h->type = type;
	h->size = size;
	h->reserved = 0;
}

/* Writes all of rec, retrying short writes; a failing fd is reported once and then ignored so
 * that the client keeps running. */
void vp_out_write(const void *rec, UInt size)
{
	const UChar *p = rec;
	static Bool failed;

	if (vp_clo.out_fd < 0 || failed)
		return;
	while (size) {
		Int n = VG_(write)(vp_clo.out_fd, p, size);

		if (n <= 0) {
			vp_umsg("vpmu: writing to --out-fd=%d failed; no more records are "
				"written\n",
				vp_clo.out_fd);
			failed = True;
			return;
		}
		p += n;
		size -= n;
	}
}

static void out_comm(void)
{
	struct vpmu_rec_comm r;
	const HChar *name = VG_(args_the_exename) ? VG_(args_the_exename) : "?";
	const HChar *slash = VG_(strrchr)(name, '/');

	VG_(memset)(&r, 0, sizeof(r));
	vp_hdr_init(&r.hdr, VPMU_MAGIC_RECORD, VPMU_REC_COMM, sizeof(r));
	r.pid = r.tid = VG_(getpid)();
	VG_(strncpy)(r.comm, slash ? slash + 1 : name, sizeof(r.comm) - 1);
	vp_out_write(&r, sizeof(r));
}

void vp_out_begin(void)
{
	struct vpmu_rec_begin r;
	UInt k;

	if (vp_clo.out_fd < 0)
		return;
	VG_(memset)(&r, 0, sizeof(r));
	vp_hdr_init(&r.hdr, VPMU_MAGIC_RECORD, VPMU_REC_BEGIN, sizeof(r));
	r.model = vp_clo.model;
	r.nr_counters = vp_nr_ctr;
	r.pid = VG_(getpid)();
	r.width_bits = vp_clo.model == VPMU_MODEL_PENTIUM ? VPMU_PENTIUM_WIDTH : VPMU_COREI7_WIDTH;
	for (k = 0; k < vp_nr_ctr; k++) {
		r.config[k] = vp_ctr[k].config;
		r.period[k] = vp_ctr[k].period;
	}
	VG_(strncpy)(r.preset, vp_clo.preset, sizeof(r.preset) - 1);
	vp_out_write(&r, sizeof(r));
	out_comm();
}

void vp_out_task(UInt type, Int pid, Int ppid, Int tid, Int ptid, Int code)
{
	struct vpmu_rec_task r;

	VG_(memset)(&r, 0, sizeof(r));
	vp_hdr_init(&r.hdr, VPMU_MAGIC_RECORD, type, sizeof(r));
	r.pid = pid;
	r.ppid = ppid;
	r.tid = tid;
	r.ptid = ptid;
	r.exit_code = code;
	vp_out_write(&r, sizeof(r));
}

/* The name a mapping's record carries: the file's path, or with --data-maps=yes "//anon"
 * for anonymous memory, as the kernel names it; NULL when the mapping is not written. */
static const HChar *mmap_name(NSegment const *seg, Bool xx)
{
	if (!seg || (!xx && !vp_clo.data_maps))
		return NULL;
	if (seg->kind == SkFileC)
		return VG_(am_get_filename)(seg);
	return seg->kind == SkAnonC && !xx ? "//anon" : NULL;
}

static void out_mmap(Addr a, SizeT len, UInt prot, NSegment const *seg, const HChar *path)
{
	UChar buf[sizeof(struct vpmu_rec_mmap) + 4096 + 8];
	struct vpmu_rec_mmap *r = (struct vpmu_rec_mmap *)buf;
	UInt plen = VG_(strlen)(path), size;

	if (plen > 4096)
		plen = 4096;
	size = (sizeof(*r) + plen + 1 + 7) & ~7u;
	VG_(memset)(buf, 0, size);
	vp_hdr_init(&r->hdr, VPMU_MAGIC_RECORD, VPMU_REC_MMAP, size);
	r->pid = VG_(getpid)();
	r->prot = prot;
	r->addr = a;
	r->len = len;
	r->pgoff = seg->kind == SkFileC ? seg->offset + (a - seg->start) : 0;
	VG_(memcpy)(r->path, path, plen);
	vp_out_write(buf, size);
}

/* File-backed executable mappings, which a symboliser needs; with --data-maps=yes the data
 * mappings too, which name data addresses (globals, heap, stack). */
void vp_out_mmap(Addr a, SizeT len, Bool rr, Bool ww, Bool xx)
{
	NSegment const *seg;
	const HChar *path;

	if (vp_clo.out_fd < 0)
		return;
	seg = VG_(am_find_nsegment)(a);
	path = mmap_name(seg, xx);
	if (path)
		out_mmap(a, len, (rr ? 1 : 0) | (ww ? 2 : 0) | (xx ? 4 : 0), seg, path);
}

/* With --data-maps=yes: the brk heap grew by [a, a + len); its record covers the heap's
 * segment from its start, named "[heap]" as the kernel names it (the segment was written as
 * anonymous memory at start-up; the later record replaces it). */
void vp_out_brk(Addr a, SizeT len)
{
	NSegment const *seg = VG_(am_find_nsegment)(a);

	if (vp_clo.out_fd < 0 || !vp_clo.data_maps || !seg || seg->kind != SkAnonC)
		return;
	out_mmap(seg->start, a + len - seg->start, 3, seg, "[heap]");
}

/* The main thread's stack is announced as anonymous memory at start-up, before the thread's
 * stack is known; once the thread first runs, its segment is written again as "[stack]". */
void vp_out_stack(void)
{
	NSegment const *seg = VG_(am_find_nsegment)(VG_(get_SP)(1));

	if (vp_clo.out_fd < 0 || !vp_clo.data_maps || !seg || seg->kind != SkAnonC)
		return;
	out_mmap(seg->start, seg->end + 1 - seg->start, 3, seg, "[stack]");
}

/* The options Valgrind passes on to a traced exec are VG_(args_for_valgrind): the new image's
 * tool must be told the descriptor's new number. */
static void rename_out_fd_option(Int fd)
{
	HChar opt[32];
	Word i, n = VG_(sizeXA)(VG_(args_for_valgrind));

	VG_(snprintf)(opt, sizeof(opt), "--out-fd=%d", fd);
	for (i = 0; i < n; i++) {
		HChar **a = VG_(indexXA)(VG_(args_for_valgrind), i);

		if (VG_(strncmp)(*a, "--out-fd=", 9) == 0)
			*a = VG_(strdup)("vpmu.out-fd", opt);
	}
}

Bool vp_out_fd_open(Int fd)
{
	return VG_(fcntl)(fd, VKI_F_GETFD, 0) >= 0;
}

/* Moves the --out-fd descriptor out of the client's reach: the number the client knew is
 * closed (it may open something else there; its write or close of that number never touches
 * the stream), and the stream's number is above the client's limit of open files. A standard
 * stream (0 to 2) is the client's too: it is copied, and the client keeps it. */
void vp_out_protect(void)
{
	Int fd = vp_clo.out_fd;

	if (fd < 0)
		return;
	if (fd <= 2) {
		SysRes r = VG_(dup)(fd);

		if (sr_isError(r)) {
			vp_umsg("vpmu: cannot copy --out-fd=%d; no records are written\n", fd);
			vp_clo.out_fd = -1;
			return;
		}
		fd = (Int)sr_Res(r);
	}
	vp_clo.out_fd = VG_(safe_fd)(fd);
	rename_out_fd_option(vp_clo.out_fd);
}

/* The EXEC record, with the path the client passed (read only where the client's memory is
 * readable). Leaves the descriptor open across the exec when Valgrind follows it, so the new
 * image's tool writes on; vp_out_exec_failed closes it on exec again. */
void vp_out_exec_rec(Addr path)
{
	UChar buf[sizeof(struct vpmu_rec_exec) + VP_EXEC_PATH_MAX + 8];
	struct vpmu_rec_exec *r = (struct vpmu_rec_exec *)buf;
	UInt plen = 0, size;

	if (vp_clo.out_fd < 0)
		return;
	while (plen < VP_EXEC_PATH_MAX && path &&
	       VG_(am_is_valid_for_client)(path + plen, 1, VKI_PROT_READ) &&
	       ((const HChar *)path)[plen])
		plen++;
	size = (sizeof(*r) + plen + 1 + 7) & ~7u;
	VG_(memset)(buf, 0, size);
	vp_hdr_init(&r->hdr, VPMU_MAGIC_RECORD, VPMU_REC_EXEC, size);
	r->pid = VG_(getpid)();
	r->tid = VG_(gettid)();
	r->flags = VG_(clo_trace_children) ? VPMU_EXEC_FOLLOWED : 0;
	if (plen)
		VG_(memcpy)(r->path, (const void *)path, plen);
	vp_out_write(buf, size);
	if (VG_(clo_trace_children))
		VG_(fcntl)(vp_clo.out_fd, VKI_F_SETFD, 0);
}

/* An exec returned, so it failed: the process goes on with its stream. */
void vp_out_exec_failed(void)
{
	if (vp_clo.out_fd >= 0)
		VG_(fcntl)(vp_clo.out_fd, VKI_F_SETFD, VKI_FD_CLOEXEC);
}
