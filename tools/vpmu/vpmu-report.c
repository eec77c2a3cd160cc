/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The run's final report on the --out-fd stream (docs/vpmu.md, "Output stream"): the samples
 * still buffered, how many were lost, the counts of every live thread and the totals, the
 * exit, and the END record.
 */
#include "pub_tool_libcbase.h"
#include "pub_tool_libcproc.h"
#include "vpmu.h"
#include "vpmu-sample.h"

void vp_out_counts_and_end(Int exitcode)
{
	struct vpmu_rec_lost l;
	struct vpmu_hdr end;
	UInt i;

	if (vp_clo.out_fd < 0)
		return;
	vp_samples_flush();
	if (vp_samples_lost()) {
		vp_hdr_init(&l.hdr, VPMU_MAGIC_RECORD, VPMU_REC_LOST, sizeof(l));
		l.lost = vp_samples_lost();
		vp_out_write(&l, sizeof(l));
	}
	for (i = 0; i < VP_MAX_THREADS; i++)
		if (vp_threads[i].used)
			vp_out_counts(vp_threads[i].os_tid, &vp_threads[i]);
	vp_out_counts(0, NULL);
	vp_out_task(VPMU_REC_EXIT, VG_(getpid)(), VG_(getppid)(), VG_(getpid)(), 0, exitcode);
	vp_hdr_init(&end, VPMU_MAGIC_RECORD, VPMU_REC_END, sizeof(end));
	vp_out_write(&end, sizeof(end));
}
