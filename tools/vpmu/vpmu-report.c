/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The last records of a process image on the --out-fd stream (docs/vpmu.md, "Output
 * stream"): the samples still buffered, how many were lost, the counts of every live thread
 * and the totals; then, at exit, the exit and the END record, or before an exec the EXEC
 * record.
 */
#include "pub_tool_libcbase.h"
#include "pub_tool_libcproc.h"
#include "vpmu.h"
#include "vpmu-sample.h"

/* LOST records carry the samples dropped since the previous one, so that readers may add
 * them up when an exec that failed wrote one before the exit's. */
static ULong lost_written;

static void out_image_counts(void)
{
	struct vpmu_rec_lost l;
	ULong lost = vp_samples_lost() - lost_written;
	UInt i;

	vp_samples_flush();
	if (lost) {
		vp_hdr_init(&l.hdr, VPMU_MAGIC_RECORD, VPMU_REC_LOST, sizeof(l));
		l.lost = lost;
		vp_out_write(&l, sizeof(l));
		lost_written += lost;
	}
	for (i = 0; i < VP_MAX_THREADS; i++)
		if (vp_threads[i].used)
			vp_out_counts(vp_threads[i].os_tid, &vp_threads[i]);
	vp_out_counts(0, NULL);
}

void vp_out_counts_and_end(Int exitcode)
{
	struct vpmu_hdr end;

	if (vp_clo.out_fd < 0)
		return;
	out_image_counts();
	vp_out_task(VPMU_REC_EXIT, VG_(getpid)(), VG_(getppid)(), VG_(getpid)(), 0, exitcode);
	vp_hdr_init(&end, VPMU_MAGIC_RECORD, VPMU_REC_END, sizeof(end));
	vp_out_write(&end, sizeof(end));
}

/* Before the execve system call: the image ends here if it succeeds, and no fini runs. The
 * counters are only read, so a failed exec goes on counting from where it was. */
void vp_out_exec(Addr path)
{
	if (vp_clo.out_fd < 0)
		return;
	vp_flush_cur();
	out_image_counts();
	vp_out_exec_rec(path);
}
