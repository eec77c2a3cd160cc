/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vpmu tool entry: initialisation, thread and process tracking, the client-request "driver"
 * and the final report (options and presets are in vpmu-options.c). */
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_options.h"
#include "pub_tool_transtab.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"
#include "pub_tool_clreq.h"
#include "vpmu.h"
#include "vpmu-lbr.h"
#include "vpmu-sample.h"

static HChar last_error[160];

void vp_set_error(const HChar *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	VG_(vsnprintf)(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
}

/* ---- initialisation ---- */

static void post_clo_init(void)
{
	vp_options_finish();
	/* Exact instruction and branch counts need VEX's block chasing off (VPMU-NOTES 2.1). */
	VG_(clo_vex_control).guest_chase = False;
	/* Unrolled self-loops would duplicate IMarks, hide branches inside a block and leave RIP
	 * stale at loop heads (VPMU-NOTES 4.3); REP instructions are such self-loops. */
	VG_(clo_vex_control).iropt_unroll_thresh = 0;
	vp_counters_init();
	vp_caches_init();
	vp_bpred_init();
	vp_samples_init();
	vp_options_program();
	vp_compute_needs();
	if (vp_clo.start)
		vp_counters_start(VPMU_ALL_COUNTERS);
	vp_out_protect();
	vp_out_begin();
}

static void on_start_client(ThreadId tid, ULong blocks)
{
	Bool fresh = !vp_threads[tid < VP_MAX_THREADS ? tid : 0].used;

	(void)blocks;
	vp_thread_switch(tid);
	if (fresh && tid == 1)
		vp_out_stack();
	if (fresh && vp_clo.out_fd >= 0 && tid != 1)
		vp_out_task(VPMU_REC_THREAD, VG_(getpid)(), VG_(getppid)(), vp_cur->os_tid,
			    VG_(getpid)(), 0);
}

static void on_mmap(Addr a, SizeT len, Bool rr, Bool ww, Bool xx, ULong di)
{
	(void)di;
	vp_out_mmap(a, len, rr, ww, xx);
}

static void on_brk(Addr a, SizeT len, ThreadId tid)
{
	(void)tid;
	vp_out_brk(a, len);
}

static void on_fork_parent_pre(ThreadId tid)
{
	(void)tid;
	vp_samples_flush();
}

static void on_fork_child(ThreadId tid)
{
	(void)tid;
	vp_out_task(VPMU_REC_FORK, VG_(getpid)(), VG_(getppid)(), VG_(getpid)(), VG_(getppid)(), 0);
	vp_counters_reset(VPMU_ALL_COUNTERS); /* the child counts its own events, as perf inherit */
}

/* An exec replaces the image without a fini: its records are written before the system call
 * (Valgrind's own checks of the file may still fail it, and then the post hook runs). */
static Bool is_exec(UInt sysno)
{
	return sysno == __NR_execve || sysno == __NR_execveat;
}

/*
 * A clone that shares memory without being a thread (CLONE_VM without the flags of
 * pthread_create, nor vfork's): Valgrind's wrapper, after this hook, says "Unsupported clone()
 * flags" on stderr and ends the process with no fini, so the stream says why first.
 */
static void refused_clone(UInt sysno, UWord *args, UInt nargs)
{
	struct vpmu_rec_refused r;
	UWord f;

	if (sysno != __NR_clone || vp_clo.out_fd < 0 || nargs < 1)
		return;
	f = args[0] & (VKI_CLONE_VM | VKI_CLONE_FS | VKI_CLONE_FILES | VKI_CLONE_VFORK);
	if (!(f & VKI_CLONE_VM) || f == (VKI_CLONE_VM | VKI_CLONE_FS | VKI_CLONE_FILES) ||
	    f == (VKI_CLONE_VM | VKI_CLONE_VFORK))
		return;
	VG_(memset)(&r, 0, sizeof(r));
	vp_hdr_init(&r.hdr, VPMU_MAGIC_RECORD, VPMU_REC_REFUSED, sizeof(r));
	r.pid = (UInt)VG_(getpid)();
	r.what = VPMU_REFUSED_CLONE;
	r.flags = args[0];
	vp_out_write(&r, sizeof(r));
}

static void pre_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs)
{
	refused_clone(sysno, args, nargs);
	if (!is_exec(sysno) || vp_clo.out_fd < 0 || nargs < 2)
		return;
	vp_thread_switch(tid);
	vp_out_exec(sysno == __NR_execve ? args[0] : args[1]);
}

static void post_syscall(ThreadId tid, UInt sysno, UWord *args, UInt nargs, SysRes res)
{
	(void)tid;
	(void)args;
	(void)nargs;
	(void)res;
	if (is_exec(sysno))
		vp_out_exec_failed();
}

static void fini(Int exitcode)
{
	UInt k;

	vp_flush_cur();
	vp_out_counts_and_end(exitcode);
	if (VG_(clo_verbosity) < 1)
		return;
	for (k = 0; k < vp_nr_ctr; k++)
		if (vp_ctr[k].programmed)
			vp_umsg("vpmu: ctr%u config 0x%llx: %'llu\n", k, vp_ctr[k].config,
				vp_counter_total(k));
}

/* ---- client requests (docs/vpmu.md, "Request protocol") ---- */

static Bool guest_buf_ok(Addr a, UWord size, UWord need)
{
	return size >= need && VG_(am_is_valid_for_client)(a, size, VKI_PROT_WRITE);
}

static void reinstrument(void)
{
	UInt k;
	Bool sampling = False;

	for (k = 0; k < vp_nr_ctr; k++)
		sampling |= vp_ctr[k].programmed && vp_ctr[k].period;
	/* Samples need exact registers; file-backed code reads this setting per translation. */
	if (sampling && !vp_options_regs_none())
		VG_(clo_px_file_backed) = VexRegUpdAllregsAtEachInsn;
	vp_compute_needs();
	VG_(discard_translations_safely)((Addr)0, ~(SizeT)0, "vpmu-program");
}

static Word req_program(UWord *a)
{
	HChar why[160];
	Int err = vp_counter_program(a[1], a[2], a[3], a[4], why, sizeof(why));

	if (err) {
		vp_set_error("PROGRAM ctr%lu config 0x%lx: %s", a[1], a[2], why);
		return err;
	}
	reinstrument();
	return 0;
}

static Word req_wrmsr(UWord msr, UWord val)
{
	switch (msr) {
	case VPMU_MSR_PEBS_LD_LAT:
		vp_clo.ld_lat = val & 0xffff;
		return 0;
	case VPMU_MSR_LBR_SELECT:
		vp_clo.lbr_select = val & 0x1ff;
		return 0;
	case VPMU_MSR_DEBUGCTL:
		vp_clo.lbr_on = val & 1;
		reinstrument();
		return 0;
	default:
		vp_set_error("WRMSR: MSR 0x%lx is not modelled", msr);
		return -22;
	}
}

static Word req_query(Addr a, UWord size)
{
	struct vpmu_info *in = (struct vpmu_info *)a;
	UInt i, nthr = 0;

	if (!guest_buf_ok(a, size, sizeof(*in))) {
		vp_set_error("QUERY: buffer too small or not writable");
		return -22;
	}
	for (i = 0; i < VP_MAX_THREADS; i++)
		nthr += vp_threads[i].used;
	VG_(memset)(in, 0, sizeof(*in));
	vp_hdr_init(&in->hdr, VPMU_MAGIC_INFO, 0, sizeof(*in));
	in->model = vp_clo.model;
	in->nr_counters = vp_nr_ctr;
	in->nr_fixed = vp_clo.model == VPMU_MODEL_PENTIUM ? 0 : VPMU_COREI7_NR_FIXED;
	in->width_bits =
		vp_clo.model == VPMU_MODEL_PENTIUM ? VPMU_PENTIUM_WIDTH : VPMU_COREI7_WIDTH;
	in->nr_threads = nthr;
	in->dropped_samples = vp_samples_lost();
	VG_(strncpy)(in->preset, vp_clo.preset, sizeof(in->preset) - 1);
	return 0;
}

static Word req_read_all(ThreadId tid, Addr a, UWord size, UWord which)
{
	struct vpmu_counts *c = (struct vpmu_counts *)a;
	struct vp_thread *t = vp_thread_get(tid);
	UInt k;

	if (!guest_buf_ok(a, size, sizeof(*c))) {
		vp_set_error("READ_ALL: buffer too small or not writable");
		return -22;
	}
	VG_(memset)(c, 0, sizeof(*c));
	vp_hdr_init(&c->hdr, VPMU_MAGIC_COUNTS, 0, sizeof(*c));
	c->nr = vp_nr_ctr;
	c->tid = which == VPMU_READ_TOTAL ? 0 : t->os_tid;
	for (k = 0; k < vp_nr_ctr; k++) {
		c->config[k] = vp_ctr[k].config;
		c->value[k] =
			which == VPMU_READ_TOTAL ? vp_counter_total(k) : vp_counter_read(t, k);
	}
	return 0;
}

static Word req_read_lbr(ThreadId tid, Addr a, UWord size)
{
	struct vpmu_lbr_stack *l = (struct vpmu_lbr_stack *)a;

	if (!guest_buf_ok(a, size, sizeof(*l))) {
		vp_set_error("READ_LBR: buffer too small or not writable");
		return -22;
	}
	VG_(memset)(l, 0, sizeof(*l));
	vp_hdr_init(&l->hdr, VPMU_MAGIC_LBR, 0, sizeof(*l));
	vp_lbr_copy(vp_thread_get(tid), l->e, &l->nr);
	return 0;
}

static Word req_strerror(Addr a, UWord size)
{
	UWord n = VG_(strlen)(last_error);

	if (size && VG_(am_is_valid_for_client)(a, size, VKI_PROT_WRITE)) {
		VG_(strncpy)((HChar *)a, last_error, size - 1);
		((HChar *)a)[size - 1] = 0;
	}
	return n;
}

static Bool handle_request(ThreadId tid, UWord *a, UWord *ret)
{
	Word r = 0;

	if (!VG_IS_TOOL_USERREQ('V', 'P', a[0]))
		return False;
	vp_thread_switch(tid);
	switch (a[0]) {
	case VPMU_REQ_PRESENT:
		r = VPMU_PROTO_VERSION;
		break;
	case VPMU_REQ_QUERY:
		r = req_query(a[1], a[2]);
		break;
	case VPMU_REQ_PROGRAM:
		r = req_program(a);
		break;
	case VPMU_REQ_START:
		vp_counters_start(a[1]);
		break;
	case VPMU_REQ_STOP:
		vp_counters_stop(a[1]);
		break;
	case VPMU_REQ_RESET:
		vp_counters_reset(a[1]);
		break;
	case VPMU_REQ_READ:
		r = vp_counter_read(vp_cur, a[1]);
		break;
	case VPMU_REQ_READ_TOTAL:
		r = a[1] < vp_nr_ctr ? vp_counter_total(a[1]) : 0;
		break;
	case VPMU_REQ_READ_ALL:
		r = req_read_all(tid, a[1], a[2], a[3]);
		break;
	case VPMU_REQ_DRAIN:
		if (!VG_(am_is_valid_for_client)(a[1], a[2], VKI_PROT_WRITE)) {
			vp_set_error("DRAIN: buffer not writable");
			r = -22;
		} else {
			r = vp_samples_drain((void *)a[1], a[2]);
		}
		break;
	case VPMU_REQ_WRMSR:
		r = req_wrmsr(a[1], a[2]);
		break;
	case VPMU_REQ_STRERROR:
		r = req_strerror(a[1], a[2]);
		break;
	case VPMU_REQ_READ_LBR:
		r = req_read_lbr(tid, a[1], a[2]);
		break;
	default:
		vp_set_error("unknown request 0x%lx", a[0]);
		r = -38; /* ENOSYS */
	}
	*ret = (UWord)r;
	return True;
}

static void pre_clo_init(void)
{
	VG_(details_name)("vpmu");
	VG_(details_version)("1");
	VG_(details_description)("a modelled performance-monitoring unit");
	VG_(details_copyright_author)("Copyright (C) the pmc authors; GPL-2.0-or-later.");
	VG_(details_bug_reports_to)("the pmc project");
	VG_(basic_tool_funcs)(post_clo_init, vp_instrument, fini);
	VG_(needs_command_line_options)(vp_process_option, vp_print_usage, vp_print_debug_usage);
	VG_(needs_client_requests)(handle_request);
	VG_(needs_syscall_wrapper)(pre_syscall, post_syscall);
	VG_(track_start_client_code)(on_start_client);
	VG_(track_pre_thread_ll_exit)(vp_thread_exit);
	VG_(track_new_mem_startup)(on_mmap);
	VG_(track_new_mem_mmap)(on_mmap);
	VG_(track_new_mem_brk)(on_brk);
	vp_heap_pre_clo_init();
	VG_(atfork)(on_fork_parent_pre, NULL, on_fork_child);
	tl_assert(VP_SIG_NR <= 64);
	vp_options_init();
}

VG_DETERMINE_INTERFACE_VERSION(pre_clo_init)
