/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vpmu tool entry: presets and command-line options, start-up programming, thread and
 * process tracking, the client-request "driver" and the final report. */
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_options.h"
#include "pub_tool_transtab.h"
#include "pub_tool_vki.h"
#include "pub_tool_clreq.h"
#include "vpmu.h"

struct vp_config vp_clo;

static ULong clo_ctr[VPMU_MAX_COUNTERS];
static Bool clo_ctr_set[VPMU_MAX_COUNTERS];
static ULong clo_period[VPMU_MAX_COUNTERS];
static ULong clo_period_all;
static Bool clo_precise = True;
static const HChar *clo_model;
static const HChar *clo_regs = "auto";
static HChar last_error[160];

void vp_set_error(const HChar *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	VG_(vsnprintf)(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
}

/* ---- presets (docs/vpmu.md, "Presets") ---- */

static void preset_nehalem(struct vp_config *c)
{
	c->model = VPMU_MODEL_COREI7;
	c->l1i = (struct vp_cache_geom){ 32768, 8, 64, 4 };
	c->l1d = (struct vp_cache_geom){ 32768, 8, 64, 4 };
	c->l2 = (struct vp_cache_geom){ 262144, 8, 64, 10 };
	c->llc = (struct vp_cache_geom){ 8388608, 16, 64, 40 };
	c->itlb = (struct vp_cache_geom){ 128, 4, 4096, 0 };
	c->dtlb = (struct vp_cache_geom){ 64, 4, 4096, 0 };
	c->mem_latency = 200;
	c->tlb_penalty = 30;
	c->split_penalty = 5;
	c->store_miss_penalty = 2;
	c->div_penalty = 20;
	c->misp_penalty = 17;
	c->write_allocate = True;
	c->p5_btb = False;
	c->btb_entries = 512;
	c->btb_ways = 4;
	c->ghist_bits = 14;
	c->ras_depth = 16;
}

static void preset_pentium(struct vp_config *c)
{
	c->model = VPMU_MODEL_PENTIUM;
	/* Thesis Table 5.5: 8 KB 2-way 32-byte write-back L1, 256 KB direct-mapped L2. */
	c->l1i = (struct vp_cache_geom){ 8192, 2, 32, 1 };
	c->l1d = (struct vp_cache_geom){ 8192, 2, 32, 1 };
	c->l2 = (struct vp_cache_geom){ 262144, 1, 32, 8 };
	c->llc = (struct vp_cache_geom){ 0, 0, 32, 0 };
	c->itlb = (struct vp_cache_geom){ 32, 4, 4096, 0 };
	c->dtlb = (struct vp_cache_geom){ 64, 4, 4096, 0 };
	c->mem_latency = 30;
	c->tlb_penalty = 10;
	c->split_penalty = 3;
	c->store_miss_penalty = 3;
	c->div_penalty = 40;
	c->misp_penalty = 4;
	c->write_allocate = False;
	c->p5_btb = True;
	c->btb_entries = 256;
	c->btb_ways = 4;
	c->ghist_bits = 1;
	c->ras_depth = 0;
}

static void preset_pentium4(struct vp_config *c)
{
	preset_nehalem(c);
	c->l1i = (struct vp_cache_geom){ 16384, 8, 64, 2 }; /* stands in for the trace cache */
	c->l1d = (struct vp_cache_geom){ 8192, 4, 64, 2 };
	c->l2 = (struct vp_cache_geom){ 524288, 8, 64, 18 };
	c->llc = (struct vp_cache_geom){ 0, 0, 64, 0 };
	c->mem_latency = 300;
	c->split_penalty = 10;
	c->div_penalty = 40;
	c->misp_penalty = 20;
	c->btb_entries = 4096;
	c->ghist_bits = 16;
}

static Bool apply_preset(const HChar *name)
{
	if (VG_STREQ(name, "nehalem"))
		preset_nehalem(&vp_clo);
	else if (VG_STREQ(name, "pentium"))
		preset_pentium(&vp_clo);
	else if (VG_STREQ(name, "pentium4"))
		preset_pentium4(&vp_clo);
	else
		return False;
	vp_clo.preset = name;
	return True;
}

/* ---- options ---- */

static Bool parse_u64(const HChar *s, ULong *out)
{
	HChar *end;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		*out = VG_(strtoull16)(s + 2, &end);
	else
		*out = VG_(strtoull10)(s, &end);
	return end != s && *end == 0;
}

/* "size,assoc,line[,latency]" as cachegrind's --D1 (assoc 0 = fully associative). */
static Bool parse_geom(const HChar *s, struct vp_cache_geom *g)
{
	ULong v[4] = { 0, 0, 0, g->latency };
	HChar *end;
	Int i;

	for (i = 0; i < 4; i++) {
		v[i] = VG_(strtoull10)(s, &end);
		if (end == s)
			return False;
		if (*end != ',')
			break;
		s = end + 1;
	}
	if (*end || i < 2)
		return False;
	*g = (struct vp_cache_geom){ v[0], v[1], v[2], v[3] };
	return True;
}

/* The value of "--name=value", or NULL when arg is another option. */
static const HChar *opt_val(const HChar *arg, const HChar *name)
{
	SizeT n = VG_(strlen)(name);

	return VG_(strncmp)(arg, name, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

static Bool opt_indexed(const HChar *arg, const HChar *prefix, ULong *vals, Bool *set)
{
	SizeT n = VG_(strlen)(prefix);
	UInt idx;

	if (VG_(strncmp)(arg, prefix, n) || arg[n] < '0' || arg[n] > '7' || arg[n + 1] != '=')
		return False;
	idx = arg[n] - '0';
	if (!parse_u64(arg + n + 2, &vals[idx]))
		VG_(fmsg_bad_option)(arg, "expected a number\n");
	if (set)
		set[idx] = True;
	return True;
}

static Bool opt_num(const HChar *arg, const HChar *name, ULong *v)
{
	const HChar *val = opt_val(arg, name);

	if (!val)
		return False;
	if (!parse_u64(val, v))
		VG_(fmsg_bad_option)(arg, "expected a number\n");
	return True;
}

static Bool opt_u32(const HChar *arg, const HChar *name, UInt *v)
{
	ULong x;

	if (!opt_num(arg, name, &x))
		return False;
	*v = (UInt)x;
	return True;
}

static Bool opt_geom(const HChar *arg, const HChar *name, struct vp_cache_geom *g)
{
	const HChar *val = opt_val(arg, name);

	if (!val)
		return False;
	if (!parse_geom(val, g))
		VG_(fmsg_bad_option)(arg, "expected size,assoc,line[,latency]\n");
	return True;
}

static Bool process_more(const HChar *arg)
{
	ULong v;

	if (opt_geom(arg, "--l1i", &vp_clo.l1i) || opt_geom(arg, "--l1d", &vp_clo.l1d) ||
	    opt_geom(arg, "--l2", &vp_clo.l2) || opt_geom(arg, "--llc", &vp_clo.llc) ||
	    opt_geom(arg, "--itlb", &vp_clo.itlb) || opt_geom(arg, "--dtlb", &vp_clo.dtlb) ||
	    opt_u32(arg, "--mem-latency", &vp_clo.mem_latency) ||
	    opt_u32(arg, "--tlb-penalty", &vp_clo.tlb_penalty) ||
	    opt_u32(arg, "--split-penalty", &vp_clo.split_penalty) ||
	    opt_u32(arg, "--store-miss-penalty", &vp_clo.store_miss_penalty) ||
	    opt_u32(arg, "--div-penalty", &vp_clo.div_penalty) ||
	    opt_u32(arg, "--misp-penalty", &vp_clo.misp_penalty) ||
	    opt_u32(arg, "--ghist-bits", &vp_clo.ghist_bits) ||
	    opt_u32(arg, "--skid", &vp_clo.skid) || opt_u32(arg, "--ld-lat", &vp_clo.ld_lat) ||
	    opt_u32(arg, "--lbr-select", &vp_clo.lbr_select) ||
	    opt_u32(arg, "--sample-buffer", &vp_clo.sample_buf))
		return True;
	if (opt_num(arg, "--out-fd", &v)) {
		vp_clo.out_fd = (Int)v;
		return True;
	}
	if (opt_num(arg, "--cesr", &v)) { /* Pentium: both counters at once */
		clo_ctr[0] = v & 0x1ff;
		clo_ctr[1] = (v >> 16) & 0x1ff;
		clo_ctr_set[0] = clo_ctr_set[1] = True;
		return True;
	}
	if (opt_num(arg, "--fixed-ctrl", &v)) { /* IA32_FIXED_CTR_CTRL */
		clo_ctr[4] = v & 0xf;
		clo_ctr[5] = (v >> 4) & 0xf;
		clo_ctr[6] = (v >> 8) & 0xf;
		clo_ctr_set[4] = clo_ctr_set[5] = clo_ctr_set[6] = True;
		return True;
	}
	return False;
}

static Bool process_option(const HChar *arg)
{
	const HChar *s;

	if (VG_STR_CLO(arg, "--preset", s)) {
		if (!apply_preset(s))
			VG_(fmsg_bad_option)(arg, "presets: nehalem, pentium, pentium4\n");
	} else if (VG_STR_CLO(arg, "--model", clo_model)) {
		if (!VG_STREQ(clo_model, "corei7") && !VG_STREQ(clo_model, "pentium"))
			VG_(fmsg_bad_option)(arg, "models: corei7, pentium\n");
	} else if (VG_STR_CLO(arg, "--precise-regs", clo_regs)) {
	} else if (VG_BOOL_CLO(arg, "--precise", clo_precise)) {
	} else if (VG_BOOL_CLO(arg, "--lbr", vp_clo.lbr_on)) {
	} else if (VG_BOOL_CLO(arg, "--start", vp_clo.start)) {
	} else if (VG_BOOL_CLO(arg, "--p5-errata", vp_clo.p5_errata)) {
	} else if (VG_BOOL_CLO(arg, "--write-allocate", vp_clo.write_allocate)) {
	} else if (opt_indexed(arg, "--ctr", clo_ctr, clo_ctr_set) ||
		   opt_indexed(arg, "--period", clo_period, NULL) ||
		   opt_num(arg, "--period", &clo_period_all)) {
	} else {
		return process_more(arg);
	}
	return True;
}

static void print_usage(void)
{
	VG_(printf)(
"    --preset=nehalem|pentium|pentium4  geometry, penalties and model [nehalem]\n"
"    --model=corei7|pentium    programming model (overrides the preset's)\n"
"    --ctrN=ENC                program counter N at start (PerfEvtSel, fixed\n"
"                              4-bit field for N=4..6, or Pentium ES|CC<<6)\n"
"    --cesr=ENC --fixed-ctrl=ENC  the Pentium CESR / IA32_FIXED_CTR_CTRL at once\n"
"    --period=P --periodN=P    sample every P events (counters with INT/PMI)\n"
"    --precise=yes|no          PEBS-like samples, or --skid=N instructions late [yes]\n"
"    --skid=N                  skid of imprecise samples in instructions [0]\n"
"    --lbr=yes|no --lbr-select=BITS  last-branch record and Table 7 filter\n"
"    --ld-lat=N                latency threshold of the latency event (MSR 0x3f6) [3]\n"
"    --precise-regs=auto|none|mem|insn  register precision in samples [auto]\n"
"    --l1i= --l1d= --l2= --llc=size,assoc,line[,latency]  cache geometry\n"
"    --itlb= --dtlb=entries,assoc,page  TLB geometry\n"
"    --mem-latency= --tlb-penalty= --split-penalty= --store-miss-penalty=\n"
"    --div-penalty= --misp-penalty= --ghist-bits=  timing and predictor knobs\n"
"    --p5-errata=yes|no        Pentium double count of misaligned accesses [no]\n"
"    --start=yes|no            counters run from the first instruction [yes]\n"
"    --out-fd=N                write the binary record stream to fd N\n"
"    --sample-buffer=N         samples buffered before a flush or a drop [1024]\n");
}

static void print_debug_usage(void)
{
	VG_(printf)("    (none)\n");
}

/* ---- initialisation ---- */

static void set_precise_regs(void)
{
	VexRegisterUpdates m;

	if (VG_STREQ(clo_regs, "none") || VG_STREQ(clo_regs, "auto"))
		return;
	m = VG_STREQ(clo_regs, "mem") ? VexRegUpdAllregsAtMemAccess : VexRegUpdAllregsAtEachInsn;
	VG_(clo_vex_control).iropt_register_updates_default = m;
	VG_(clo_px_file_backed) = m;
	VG_(clo_vex_control).iropt_unroll_thresh = 0;
}

static void program_from_options(void)
{
	UInt k;
	Bool sampling = False;

	for (k = 0; k < vp_nr_ctr; k++) {
		ULong period = clo_period[k];
		UInt flags = (clo_precise ? VPMU_PROG_PRECISE : VPMU_PROG_IMPRECISE) |
			     (vp_clo.lbr_on ? VPMU_PROG_LBR : 0);
		HChar why[160];

		if (!clo_ctr_set[k])
			continue;
		if (!period && clo_period_all) {
			Bool intr = vp_clo.model == VPMU_MODEL_PENTIUM ? k == 0
				    : k >= VPMU_COREI7_FIXED_BASE ? (clo_ctr[k] & VPMU_FIXED_PMI) != 0
				    : (clo_ctr[k] & VPMU_EVTSEL_INT) != 0;
			period = intr ? clo_period_all : 0;
		}
		if (vp_counter_program(k, clo_ctr[k], period, flags, why, sizeof(why))) {
			VG_(fmsg)("vpmu: --ctr%u=0x%llx: %s\n", k, clo_ctr[k], why);
			VG_(exit)(1);
		}
		sampling |= period != 0;
	}
	if (sampling && VG_STREQ(clo_regs, "auto"))
		clo_regs = "insn";
}

static void post_clo_init(void)
{
	if (clo_model)
		vp_clo.model = VG_STREQ(clo_model, "pentium") ? VPMU_MODEL_PENTIUM : VPMU_MODEL_COREI7;
	if (!vp_clo.sample_buf)
		vp_clo.sample_buf = 1;
	/* Exact instruction and branch counts need VEX's block chasing off (VPMU-NOTES 2.1). */
	VG_(clo_vex_control).guest_chase = False;
	/* Unrolled self-loops would duplicate IMarks, hide branches inside a block and leave RIP
	 * stale at loop heads (VPMU-NOTES 4.3); REP instructions are such self-loops. */
	VG_(clo_vex_control).iropt_unroll_thresh = 0;
	vp_counters_init();
	vp_caches_init();
	vp_bpred_init();
	vp_samples_init();
	program_from_options();
	set_precise_regs();
	vp_compute_needs();
	if (vp_clo.start)
		vp_counters_start(VPMU_ALL_COUNTERS);
	vp_out_begin();
}

static void on_start_client(ThreadId tid, ULong blocks)
{
	Bool fresh = !vp_threads[tid < VP_MAX_THREADS ? tid : 0].used;

	(void)blocks;
	vp_thread_switch(tid);
	if (fresh && vp_clo.out_fd >= 0 && tid != 1)
		vp_out_task(VPMU_REC_THREAD, VG_(getpid)(), VG_(getppid)(), vp_cur->os_tid,
			    VG_(getpid)(), 0);
}

static void on_mmap(Addr a, SizeT len, Bool rr, Bool ww, Bool xx, ULong di)
{
	(void)di;
	vp_out_mmap(a, len, rr, ww, xx);
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

static void fini(Int exitcode)
{
	UInt k;

	vp_flush_cur();
	vp_out_counts_and_end(exitcode);
	if (VG_(clo_verbosity) < 1)
		return;
	for (k = 0; k < vp_nr_ctr; k++)
		if (vp_ctr[k].programmed)
			VG_(umsg)("vpmu: ctr%u config 0x%llx: %'llu\n", k, vp_ctr[k].config,
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
	if (sampling && !VG_STREQ(clo_regs, "none"))
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
	in->width_bits = vp_clo.model == VPMU_MODEL_PENTIUM ? VPMU_PENTIUM_WIDTH : VPMU_COREI7_WIDTH;
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
		c->value[k] = which == VPMU_READ_TOTAL ? vp_counter_total(k) : vp_counter_read(t, k);
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
	case VPMU_REQ_PRESENT: r = VPMU_PROTO_VERSION; break;
	case VPMU_REQ_QUERY: r = req_query(a[1], a[2]); break;
	case VPMU_REQ_PROGRAM: r = req_program(a); break;
	case VPMU_REQ_START: vp_counters_start(a[1]); break;
	case VPMU_REQ_STOP: vp_counters_stop(a[1]); break;
	case VPMU_REQ_RESET: vp_counters_reset(a[1]); break;
	case VPMU_REQ_READ: r = vp_counter_read(vp_cur, a[1]); break;
	case VPMU_REQ_READ_TOTAL: r = a[1] < vp_nr_ctr ? vp_counter_total(a[1]) : 0; break;
	case VPMU_REQ_READ_ALL: r = req_read_all(tid, a[1], a[2], a[3]); break;
	case VPMU_REQ_DRAIN:
		if (!VG_(am_is_valid_for_client)(a[1], a[2], VKI_PROT_WRITE)) {
			vp_set_error("DRAIN: buffer not writable");
			r = -22;
		} else {
			r = vp_samples_drain((void *)a[1], a[2]);
		}
		break;
	case VPMU_REQ_WRMSR: r = req_wrmsr(a[1], a[2]); break;
	case VPMU_REQ_STRERROR: r = req_strerror(a[1], a[2]); break;
	case VPMU_REQ_READ_LBR: r = req_read_lbr(tid, a[1], a[2]); break;
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
	VG_(needs_command_line_options)(process_option, print_usage, print_debug_usage);
	VG_(needs_client_requests)(handle_request);
	VG_(track_start_client_code)(on_start_client);
	VG_(track_pre_thread_ll_exit)(vp_thread_exit);
	VG_(track_new_mem_startup)(on_mmap);
	VG_(track_new_mem_mmap)(on_mmap);
	VG_(atfork)(on_fork_parent_pre, NULL, on_fork_child);
	tl_assert(VP_SIG_NR <= 64);
	apply_preset("nehalem");
	vp_clo.out_fd = -1;
	vp_clo.start = True;
	vp_clo.ld_lat = 3;
	vp_clo.sample_buf = 1024;
}

VG_DETERMINE_INTERFACE_VERSION(pre_clo_init)
