/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The --out-fd record stream's writer (docs/vpmu.md, "Output stream"): record headers, the
 * write itself, and the side-band records (begin, comm, mmap, fork, thread, exit). The
 * counters (vpmu-counter.c) and samples (vpmu-sample.c) write their records through it; the
 * run's last records are vpmu-report.c's.
 */
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_clientstate.h"
#include "vpmu.h"

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

/* Only file-backed executable mappings matter to a symboliser. */
void vp_out_mmap(Addr a, SizeT len, Bool rr, Bool ww, Bool xx)
{
	UChar buf[sizeof(struct vpmu_rec_mmap) + 4096 + 8];
	struct vpmu_rec_mmap *r = (struct vpmu_rec_mmap *)buf;
	NSegment const *seg;
	const HChar *path;
	UInt plen, size;

	if (vp_clo.out_fd < 0 || !xx)
		return;
	seg = VG_(am_find_nsegment)(a);
	if (!seg || seg->kind != SkFileC)
		return;
	path = VG_(am_get_filename)(seg);
	if (!path)
		return;
	plen = VG_(strlen)(path);
	if (plen > 4096)
		plen = 4096;
	size = (sizeof(*r) + plen + 1 + 7) & ~7u;
	VG_(memset)(buf, 0, size);
	vp_hdr_init(&r->hdr, VPMU_MAGIC_RECORD, VPMU_REC_MMAP, size);
	r->pid = VG_(getpid)();
	r->prot = (rr ? 1 : 0) | (ww ? 2 : 0) | (xx ? 4 : 0);
	r->addr = a;
	r->len = len;
	r->pgoff = seg->offset + (a - seg->start);
	VG_(memcpy)(r->path, path, plen);
	vp_out_write(buf, size);
}
