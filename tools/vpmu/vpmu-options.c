/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vpmu's configuration: the presets, the command-line options and their usage text, and the
 * start-up programming of counters given with --ctrN/--cesr/--fixed-ctrl/--period. */
#include "pub_tool_libcbase.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_options.h"
#include "vpmu.h"

struct vp_config vp_clo;

static ULong clo_ctr[VPMU_MAX_COUNTERS];
static Bool clo_ctr_set[VPMU_MAX_COUNTERS];
static ULong clo_period[VPMU_MAX_COUNTERS];
static ULong clo_period_all;
static ULong clo_freq[VPMU_MAX_COUNTERS]; /* frequency mode: samples per modelled second */
static ULong clo_freq_all;
static Bool clo_precise = True;
static const HChar *clo_model;
static const HChar *clo_regs = "auto";

/* ---- presets (docs/vpmu.md, "Presets") ---- */

static void preset_nehalem(struct vp_config *c)
{
	c->model = VPMU_MODEL_COREI7;
	c->l1i = (struct vp_cache_geom){32768, 8, 64, 4};
	c->l1d = (struct vp_cache_geom){32768, 8, 64, 4};
	c->l2 = (struct vp_cache_geom){262144, 8, 64, 10};
	c->llc = (struct vp_cache_geom){8388608, 16, 64, 40};
	c->itlb = (struct vp_cache_geom){128, 4, 4096, 0};
	c->dtlb = (struct vp_cache_geom){64, 4, 4096, 0};
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
	c->l1i = (struct vp_cache_geom){8192, 2, 32, 1};
	c->l1d = (struct vp_cache_geom){8192, 2, 32, 1};
	c->l2 = (struct vp_cache_geom){262144, 1, 32, 8};
	c->llc = (struct vp_cache_geom){0, 0, 32, 0};
	c->itlb = (struct vp_cache_geom){32, 4, 4096, 0};
	c->dtlb = (struct vp_cache_geom){64, 4, 4096, 0};
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
	c->l1i = (struct vp_cache_geom){16384, 8, 64, 2}; /* stands in for the trace cache */
	c->l1d = (struct vp_cache_geom){8192, 4, 64, 2};
	c->l2 = (struct vp_cache_geom){524288, 8, 64, 18};
	c->llc = (struct vp_cache_geom){0, 0, 64, 0};
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

/* Digits past the leading zeros: a value of more than 64 bits would wrap silently. */
static Bool fits_u64(const HChar *digits, Bool hex)
{
	SizeT n;

	while (*digits == '0')
		digits++;
	n = VG_(strlen)(digits);
	if (hex)
		return n <= 16;
	return n < 20 || (n == 20 && VG_(strcmp)(digits, "18446744073709551615") <= 0);
}

static Bool parse_u64(const HChar *s, ULong *out)
{
	Bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	HChar *end;

	if (hex)
		*out = VG_(strtoull16)(s + 2, &end);
	else
		*out = VG_(strtoull10)(s, &end);
	return end != s + (hex ? 2 : 0) && *end == 0 && fits_u64(s + (hex ? 2 : 0), hex);
}

/* "size,assoc,line[,latency]" as cachegrind's --D1 (assoc 0 = fully associative). */
static Bool parse_geom(const HChar *s, struct vp_cache_geom *g)
{
	ULong v[4] = {0, 0, 0, g->latency};
	HChar *end;
	Int i;

	for (i = 0; i < 4; i++) {
		v[i] = VG_(strtoull10)(s, &end);
		if (end == s || v[i] > 0xffffffffull) /* the geometry's fields are 32 bits */
			return False;
		if (*end != ',')
			break;
		s = end + 1;
	}
	if (*end || i < 2)
		return False;
	*g = (struct vp_cache_geom){v[0], v[1], v[2], v[3]};
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
		VG_(fmsg_bad_option)(arg, "expected a number of at most 64 bits\n");
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
		VG_(fmsg_bad_option)(arg, "expected a number of at most 64 bits\n");
	return True;
}

/* "--name=N" with N in [min, max], or a message that gives the range. */
static Bool opt_range(const HChar *arg, const HChar *name, UInt min, UInt max, UInt *v)
{
	ULong x;
	HChar msg[96];

	if (!opt_num(arg, name, &x))
		return False;
	if (x < min || x > max) {
		VG_(snprintf)(msg, sizeof(msg), "expected a number from %u to %u\n", min, max);
		VG_(fmsg_bad_option)(arg, "%s", msg);
	}
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
	UInt u;

	/* The pattern history table holds 2^N counters, a byte each. */
	if (opt_range(arg, "--ghist-bits", 1, 24, &vp_clo.ghist_bits))
		return True;
	/*
	 * Penalties are cycles per event (a million keeps every product within a 64-bit count);
	 * the skid is instructions; the load-latency threshold is MSR 0x3f6's 16 bits; the LBR
	 * filter is the nine bits of Table 7; the sample buffer holds at least one sample.
	 */
	if (opt_geom(arg, "--l1i", &vp_clo.l1i) || opt_geom(arg, "--l1d", &vp_clo.l1d) ||
	    opt_geom(arg, "--l2", &vp_clo.l2) || opt_geom(arg, "--llc", &vp_clo.llc) ||
	    opt_geom(arg, "--itlb", &vp_clo.itlb) || opt_geom(arg, "--dtlb", &vp_clo.dtlb) ||
	    opt_range(arg, "--mem-latency", 0, 1000000, &vp_clo.mem_latency) ||
	    opt_range(arg, "--tlb-penalty", 0, 1000000, &vp_clo.tlb_penalty) ||
	    opt_range(arg, "--split-penalty", 0, 1000000, &vp_clo.split_penalty) ||
	    opt_range(arg, "--store-miss-penalty", 0, 1000000, &vp_clo.store_miss_penalty) ||
	    opt_range(arg, "--div-penalty", 0, 1000000, &vp_clo.div_penalty) ||
	    opt_range(arg, "--misp-penalty", 0, 1000000, &vp_clo.misp_penalty) ||
	    opt_range(arg, "--skid", 0, 4096, &vp_clo.skid) ||
	    opt_range(arg, "--period-jitter", 0, 90, &vp_clo.period_jitter) ||
	    opt_range(arg, "--ld-lat", 1, 65535, &vp_clo.ld_lat) ||
	    opt_range(arg, "--lbr-select", 0, 0x1ff, &vp_clo.lbr_select) ||
	    opt_range(arg, "--sample-buffer", 1, 1u << 20, &vp_clo.sample_buf) ||
	    opt_range(arg, "--callchain", 0, VPMU_MAX_CALLCHAIN, &vp_clo.callchain))
		return True;
	if (opt_range(arg, "--out-fd", 0, 0x7fffffff, &u)) {
		/* Checked here: a bad option stops the run only while options are read. */
		if (vp_out_fd_open((Int)u))
			vp_clo.out_fd = (Int)u;
		else
			VG_(fmsg_bad_option)(arg, "file descriptor %u is not open\n", u);
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

/* A frequency is 1 to VPMU_MAX_FREQ samples a second of modelled time (one a cycle). */
static void check_freq(const HChar *arg, ULong f)
{
	HChar msg[64];

	if (f && f <= VPMU_MAX_FREQ)
		return;
	VG_(snprintf)(msg, sizeof(msg), "expected a number from 1 to %llu\n", VPMU_MAX_FREQ);
	VG_(fmsg_bad_option)(arg, "%s", msg);
}

Bool vp_process_option(const HChar *arg)
{
	const HChar *s;

	if (VG_STR_CLO(arg, "--preset", s)) {
		if (!apply_preset(s))
			VG_(fmsg_bad_option)(arg, "presets: nehalem, pentium, pentium4\n");
	} else if (VG_STR_CLO(arg, "--model", clo_model)) {
		if (!VG_STREQ(clo_model, "corei7") && !VG_STREQ(clo_model, "pentium"))
			VG_(fmsg_bad_option)(arg, "models: corei7, pentium\n");
	} else if (VG_STR_CLO(arg, "--precise-regs", clo_regs)) {
		if (!VG_STREQ(clo_regs, "auto") && !VG_STREQ(clo_regs, "none") &&
		    !VG_STREQ(clo_regs, "mem") && !VG_STREQ(clo_regs, "insn"))
			VG_(fmsg_bad_option)(arg, "expected auto, none, mem or insn\n");
	} else if (VG_BOOL_CLO(arg, "--precise", clo_precise)) {
	} else if (VG_BOOL_CLO(arg, "--lbr", vp_clo.lbr_on)) {
	} else if (VG_BOOL_CLO(arg, "--start", vp_clo.start)) {
	} else if (VG_BOOL_CLO(arg, "--data-maps", vp_clo.data_maps)) {
	} else if (VG_BOOL_CLO(arg, "--p5-errata", vp_clo.p5_errata)) {
	} else if (VG_BOOL_CLO(arg, "--write-allocate", vp_clo.write_allocate)) {
	} else if (VG_BOOL_CLO(arg, "--host-vector", vp_clo.host_vector)) {
	} else if (opt_indexed(arg, "--ctr", clo_ctr, clo_ctr_set)) {
	} else if (opt_indexed(arg, "--period", clo_period, NULL)) {
		/* 0 would be "never": leave the option out to count without sampling */
		if (!clo_period[arg[8] - '0'])
			VG_(fmsg_bad_option)
		(arg, "a period is at least 1 (leave it out to count "
		      "without sampling)\n");
	} else if (opt_indexed(arg, "--freq", clo_freq, NULL)) {
		check_freq(arg, clo_freq[arg[6] - '0']);
	} else if (opt_num(arg, "--freq", &clo_freq_all)) {
		check_freq(arg, clo_freq_all);
	} else if (opt_num(arg, "--seed", &vp_clo.seed)) {
	} else if (opt_num(arg, "--period", &clo_period_all)) {
		if (!clo_period_all)
			VG_(fmsg_bad_option)
		(arg, "a period is at least 1 (leave it out to count "
		      "without sampling)\n");
	} else {
		return process_more(arg);
	}
	return True;
}

void vp_print_usage(void)
{
	vp_printf(
		"    --preset=nehalem|pentium|pentium4  geometry, penalties and model [nehalem]\n"
		"    --model=corei7|pentium    programming model (overrides the preset's)\n"
		"    --ctrN=ENC                program counter N at start (PerfEvtSel, fixed\n"
		"                              4-bit field for N=4..6, or Pentium ES|CC<<6)\n"
		"    --cesr=ENC --fixed-ctrl=ENC  the Pentium CESR / IA32_FIXED_CTR_CTRL at once\n"
		"    --period=P --periodN=P    sample every P events (counters with INT/PMI)\n"
		"    --freq=F --freqN=F        sample about F times per second of modelled time,\n"
		"                              the period adapted as Linux's frequency mode\n"
		"    --precise=yes|no          PEBS-like samples, or --skid=N instructions late "
		"[yes]\n"
		"    --skid=N                  skid of imprecise samples in instructions [0]\n"
		"    --period-jitter=PCT       each period drawn uniformly within PCT %% of P [0]\n"
		"    --seed=N                  seed of the period jitter [1]\n"
		"    --lbr=yes|no --lbr-select=BITS  last-branch record and Table 7 filter\n"
		"    --ld-lat=N                latency threshold of the latency event (MSR 0x3f6) "
		"[3]\n"
		"    --precise-regs=auto|none|mem|insn  register precision in samples [auto]\n"
		"    --l1i= --l1d= --l2= --llc=size,assoc,line[,latency]  cache geometry\n"
		"    --itlb= --dtlb=entries,assoc,page  TLB geometry\n"
		"    --mem-latency= --tlb-penalty= --split-penalty= --store-miss-penalty=\n"
		"    --div-penalty= --misp-penalty= --ghist-bits=  timing and predictor knobs\n"
		"    --p5-errata=yes|no        Pentium double count of misaligned accesses [no]\n"
		"    --start=yes|no            counters run from the first instruction [yes]\n"
		"    --out-fd=N                write the binary record stream to fd N\n"
		"    --sample-buffer=N         samples buffered before a flush or a drop [1024]\n"
		"    --data-maps=yes|no        the stream's MMAP records include data mappings "
		"[no]\n"
		"    --callchain=N             each sample holds the guest's call stack, at most\n"
		"                              N frames (0: none, at most 127) [0]\n");
}

void vp_print_debug_usage(void)
{
	vp_printf("    --host-vector=yes|no      look cache sets up with the host's AVX2 where it "
		  "has\n"
		  "                              it (counts are the same either way) [yes]\n");
}

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

/* Does counter k's encoding on the command line raise an interrupt (INT, PMI)? */
static Bool clo_interrupts(UInt k)
{
	if (vp_clo.model == VPMU_MODEL_PENTIUM)
		return k == 0;
	if (k >= VPMU_COREI7_FIXED_BASE)
		return (clo_ctr[k] & VPMU_FIXED_PMI) != 0;
	return (clo_ctr[k] & VPMU_EVTSEL_INT) != 0;
}

/* Counter k's period, or with VPMU_PROG_FREQ in *flags its frequency; 0: it counts only.
 * --periodN/--freqN name the counter, --period/--freq every counter that interrupts. */
static ULong clo_sampling(UInt k, UInt *flags)
{
	if (clo_period[k] && clo_freq[k]) {
		VG_(fmsg)("vpmu: counter %u has both --period%u and --freq%u: give one\n", k, k, k);
		VG_(exit)(1);
	}
	if (clo_period[k])
		return clo_period[k];
	if (clo_freq[k]) {
		*flags |= VPMU_PROG_FREQ;
		return clo_freq[k];
	}
	if (!clo_interrupts(k))
		return 0;
	if (clo_period_all)
		return clo_period_all;
	if (clo_freq_all)
		*flags |= VPMU_PROG_FREQ;
	return clo_freq_all;
}

static void program_from_options(void)
{
	UInt k;
	Bool sampling = False;

	if (clo_period_all && clo_freq_all) {
		VG_(fmsg)("vpmu: --period and --freq: give one\n");
		VG_(exit)(1);
	}
	for (k = 0; k < vp_nr_ctr; k++) {
		UInt flags = (clo_precise ? VPMU_PROG_PRECISE : VPMU_PROG_IMPRECISE) |
			     (vp_clo.lbr_on ? VPMU_PROG_LBR : 0);
		ULong period;
		HChar why[160];

		if (!clo_ctr_set[k])
			continue;
		period = clo_sampling(k, &flags);
		if (vp_counter_program(k, clo_ctr[k], period, flags, why, sizeof(why))) {
			VG_(fmsg)("vpmu: --ctr%u=0x%llx: %s\n", k, clo_ctr[k], why);
			VG_(exit)(1);
		}
		sampling |= period != 0;
	}
	if (sampling && VG_STREQ(clo_regs, "auto"))
		clo_regs = "insn";
}

/* Defaults, before the options are read: the nehalem preset and the documented values. */
void vp_options_init(void)
{
	apply_preset("nehalem");
	vp_clo.out_fd = -1;
	vp_clo.start = True;
	vp_clo.host_vector = True;
	vp_clo.ld_lat = 3;
	vp_clo.sample_buf = 1024;
	vp_clo.seed = 1;
}

/* After the options, before the models are sized: --model overrides the preset's model. */
void vp_options_finish(void)
{
	if (clo_model)
		vp_clo.model =
			VG_STREQ(clo_model, "pentium") ? VPMU_MODEL_PENTIUM : VPMU_MODEL_COREI7;
	if (!vp_clo.sample_buf)
		vp_clo.sample_buf = 1;
}

/* Once the counters exist: programs those given on the command line, and sets VEX's register
 * precision (which depends on whether any of them samples). */
void vp_options_program(void)
{
	program_from_options();
	set_precise_regs();
}

/* --precise-regs=none: samples may carry stale registers, never force exact ones. */
Bool vp_options_regs_none(void)
{
	return VG_STREQ(clo_regs, "none");
}
