// SPDX-License-Identifier: MIT
/*
 * vpmu stream records (include/vpmu/protocol.h) into the perf records a sample sink
 * takes (docs/sample-file.md): SAMPLE into PERF_RECORD_SAMPLE laid out for the attr's
 * sample_type, MMAP/COMM/FORK/THREAD/EXIT/LOST into their side-band records carrying the
 * sample_id trailer of the first attr. The mapping is documented in docs/vpmu.md
 * ("libpmc's vpmu backend").
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <pmc/error.h>
#include "backend/vpmu/sample.h"
#include "core/log.h"
#include "perfdata/records.h"

/* Linux x86-64 user code and stack segment selectors (vpmu models user code only). */
#define USER_CS 0x33
#define USER_SS 0x2b

/* Record timestamps never go back in stream order (see docs/vpmu.md). */
static uint64_t stamp(struct vpmu_conv *cv, uint64_t t)
{
	if (t > cv->last_time)
		cv->last_time = t;
	return cv->last_time;
}

/*
 * A side-band record with the sample_id trailer of the first attr (pid/tid given, the last
 * time, the side-band id), encoded by the one record codec (lib/perfdata) into the sink.
 */
static int emit(struct vpmu_conv *cv, struct pmc__record *r, uint32_t pid, uint32_t tid)
{
	uint64_t buf[CONV_MAX_RECORD / 8];
	int ret;

	r->sid = (struct pmc__sample_id){.pid = pid,
					 .tid = tid,
					 .time = cv->last_time,
					 .id = cv->side_id,
					 .stream_id = cv->side_id};
	ret = pmc__record_encode(&cv->attrs[0], r, buf, sizeof(buf));
	if (ret >= 0)
		ret = cv->sink(buf, (size_t)ret, cv->arg);
	return ret < 0 ? ret : 1;
}

static int conv_comm(struct vpmu_conv *cv, const struct vpmu_rec_comm *r)
{
	struct pmc__record o = {.type = PERF_RECORD_COMM,
				.misc = PERF_RECORD_MISC_COMM_EXEC,
				.pid = r->pid,
				.tid = r->tid,
				.str = r->comm,
				.str_len = sizeof(r->comm)};

	return emit(cv, &o, r->pid, r->tid);
}

/* MMAP2 with the file's device and inode where it can be looked at (it is on this host); a
 * mapping without execute permission (--data-maps) is a data mapping, as the kernel marks
 * it, and one of no file ("[heap]", "[stack]", "//anon") is anonymous. */
static int conv_mmap(struct vpmu_conv *cv, const struct vpmu_rec_mmap *r, size_t size)
{
	size_t max = size - sizeof(*r);
	char path[CONV_MAX_PATH];
	struct stat st = {0};

	snprintf(path, sizeof(path), "%.*s", (int)strnlen(r->path, max), r->path);
	if (stat(path, &st))
		memset(&st, 0, sizeof(st));
	return emit(cv,
		    &(struct pmc__record){
			    .type = PERF_RECORD_MMAP2,
			    .misc = PERF_RECORD_MISC_USER |
				    (r->prot & PROT_EXEC ? 0 : PERF_RECORD_MISC_MMAP_DATA),
			    .pid = r->pid,
			    .tid = r->pid,
			    .start = r->addr,
			    .len = r->len,
			    .pgoff = r->pgoff,
			    .maj = major(st.st_dev),
			    .min = minor(st.st_dev),
			    .ino = st.st_ino,
			    .prot = r->prot,
			    .flags = MAP_PRIVATE | (st.st_ino ? 0 : MAP_ANONYMOUS),
			    .str = path},
		    r->pid, r->pid);
}

/* A data mapping over a sampled heap block, named for its allocation site (heap.c). */
static int conv_block_mmap(struct vpmu_conv *cv, const struct vpmu_rec_sample *r, const char *name)
{
	return emit(
		cv,
		&(struct pmc__record){.type = PERF_RECORD_MMAP2,
				      .misc = PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA,
				      .pid = r->pid,
				      .tid = r->pid,
				      .start = r->block_addr,
				      .len = r->block_size ? r->block_size : 1,
				      /* no device, no inode: no file */
				      .prot = PROT_READ | PROT_WRITE,
				      .flags = MAP_PRIVATE | MAP_ANONYMOUS,
				      .str = name,
				      .str_len = CONV_MAX_PATH - 1},
		r->pid, r->pid);
}

/* FORK (a process), THREAD (a thread: perf's FORK with pid == ppid) and EXIT. */
static int conv_task(struct vpmu_conv *cv, const struct vpmu_rec_task *r, uint16_t type)
{
	uint32_t ppid = r->ppid, ptid = r->ptid, tid = r->tid ? r->tid : r->pid;

	if (type == VPMU_REC_THREAD) {
		ppid = r->pid;
		ptid = r->ptid ? r->ptid : r->pid;
	} else if (type == VPMU_REC_FORK) {
		ptid = r->ptid ? r->ptid : r->ppid;
	}
	return emit(cv,
		    &(struct pmc__record){.type = type == VPMU_REC_EXIT ? PERF_RECORD_EXIT
									: PERF_RECORD_FORK,
					  .pid = r->pid,
					  .ppid = ppid,
					  .tid = tid,
					  .ptid = ptid,
					  .time = cv->last_time},
		    r->pid, tid);
}

static int conv_lost(struct vpmu_conv *cv, const struct vpmu_rec_lost *r)
{
	return emit(
		cv,
		&(struct pmc__record){.type = PERF_RECORD_LOST, .id = cv->side_id, .lost = r->lost},
		cv->pid, cv->pid);
}

/* The guide's Table 5 data source as perf's union perf_mem_data_src (what Linux's PEBS
 * table gives for the same encodings: a load hitting that level, no snoop). */
static uint64_t vpmu_data_src(const struct vpmu_rec_sample *r)
{
	uint64_t lvl = PERF_MEM_LVL_NA, num = PERF_MEM_LVLNUM_NA;

	if (!(r->flags & VPMU_SAMPLE_HAS_ADDR))
		return PERF_MEM_S(OP, NA) | PERF_MEM_S(LVL, NA) | PERF_MEM_S(SNOOP, NA) |
		       PERF_MEM_S(LOCK, NA) | PERF_MEM_S(TLB, NA);
	switch (r->data_src) {
	case VPMU_DSRC_L1_HIT:
		lvl = PERF_MEM_LVL_L1 | PERF_MEM_LVL_HIT, num = PERF_MEM_LVLNUM_L1;
		break;
	case VPMU_DSRC_L2_HIT:
		lvl = PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT, num = PERF_MEM_LVLNUM_L2;
		break;
	case VPMU_DSRC_L3_HIT:
		lvl = PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT, num = PERF_MEM_LVLNUM_L3;
		break;
	case VPMU_DSRC_LOCAL_DRAM:
		lvl = PERF_MEM_LVL_LOC_RAM | PERF_MEM_LVL_HIT, num = PERF_MEM_LVLNUM_RAM;
		break;
	}
	return PERF_MEM_S(OP, LOAD) | (lvl << PERF_MEM_LVL_SHIFT) | (num << PERF_MEM_LVLNUM_SHIFT) |
	       PERF_MEM_S(SNOOP, NONE) | PERF_MEM_S(LOCK, NA) | PERF_MEM_S(TLB, NA);
}

/* perf_regs x86 order (PERF_REG_X86_*: ax bx cx dx si di bp sp ip flags cs ss ds es fs gs
 * r8..r15) -> vpmu_reg; -1: a segment register, -2: not a general register. */
static const int8_t reg_of_perf[24] = {
	VPMU_REG_RAX, VPMU_REG_RBX, VPMU_REG_RCX, VPMU_REG_RDX, VPMU_REG_RSI,
	VPMU_REG_RDI, VPMU_REG_RBP, VPMU_REG_RSP, VPMU_REG_RIP, VPMU_REG_RFLAGS,
	-1,	      -1,	    -1,		  -1,		-1,
	-1,	      VPMU_REG_R8,  VPMU_REG_R9,  VPMU_REG_R10, VPMU_REG_R11,
	VPMU_REG_R12, VPMU_REG_R13, VPMU_REG_R14, VPMU_REG_R15,
};

/* The registers mask asks for, in perf_regs order, into regs; returns the ABI. */
static uint64_t sample_regs(const struct vpmu_rec_sample *r, uint64_t mask, uint64_t *regs)
{
	int n = 0;

	for (int b = 0; b < 24; b++) {
		if (!(mask & (1ull << b)))
			continue;
		if (reg_of_perf[b] >= 0)
			regs[n++] = r->regs[reg_of_perf[b]];
		else
			regs[n++] = b == 10 ? USER_CS : b == 11 ? USER_SS : 0;
	}
	return mask ? PERF_SAMPLE_REGS_ABI_64 : PERF_SAMPLE_REGS_ABI_NONE;
}

/*
 * perf_branch_entry: from, to, then mispred (bit 0), predicted (bit 1), type (bits 20-23;
 * VPMU_BR_* kinds have PERF_BR_*'s values) when the attr asks for types. Returns how many.
 */
static uint32_t sample_branches(const struct vpmu_rec_sample *r, uint64_t bst,
				struct perf_branch_entry *out)
{
	uint32_t nr = r->flags & VPMU_SAMPLE_HAS_LBR ? r->nr_lbr : 0;

	if (nr > VPMU_LBR_DEPTH)
		nr = VPMU_LBR_DEPTH;
	for (uint32_t i = 0; i < nr; i++) {
		const struct vpmu_lbr_entry *e = &r->lbr[i];
		uint64_t f = e->flags & VPMU_BR_MISPRED ? 1 : 2;

		if (bst & PERF_SAMPLE_BRANCH_TYPE_SAVE)
			f |= (uint64_t)(e->flags & VPMU_BR_KIND_MASK) << 20;
		memset(&out[i], 0, sizeof(out[i]));
		out[i].from = e->from;
		out[i].to = e->to;
		memcpy((uint8_t *)&out[i] + 16, &f, 8); /* the flags word of the entry */
	}
	return nr;
}

/* PERF_SAMPLE_CALLCHAIN as the kernel writes a user chain: the context marker, then the
 * sample's ip and the callers' return addresses, at most the attr's sample_max_stack. */
static uint64_t sample_callchain(const struct vpmu_rec_sample *r, size_t size,
				 const struct perf_event_attr *a, uint64_t *out)
{
	uint64_t nr = r->flags & VPMU_SAMPLE_HAS_CALLCHAIN ? r->nr_callchain : 0,
		 max = a->sample_max_stack ? a->sample_max_stack : VPMU_MAX_CALLCHAIN;

	if (nr > (size - sizeof(*r)) / sizeof(uint64_t))
		nr = (size - sizeof(*r)) / sizeof(uint64_t);
	if (nr > max)
		nr = max;
	if (nr > VPMU_MAX_CALLCHAIN)
		nr = VPMU_MAX_CALLCHAIN;
	out[0] = PERF_CONTEXT_USER;
	if (!nr) {
		out[1] = r->ip;
		return 2;
	}
	memcpy(out + 1, r->callchain, nr * sizeof(uint64_t));
	return nr + 1;
}

/* A vpmu sample as pmc's decoded sample, encoded by the one sample encoder (lib/perfdata). */
static int conv_sample(struct vpmu_conv *cv, const struct vpmu_rec_sample *r, size_t size)
{
	int idx = r->counter < VPMU_MAX_COUNTERS ? cv->attr_of_ctr[r->counter] : -1;
	uint64_t uregs[24], iregs[24], rec[CONV_MAX_RECORD / 8], cc[VPMU_MAX_CALLCHAIN + 1];
	struct perf_branch_entry br[VPMU_LBR_DEPTH];
	const struct perf_event_attr *a;
	struct pmc__sample s;
	int len;

	if (idx < 0)
		return 0; /* a counter libpmc did not program for sampling */
	a = &cv->attrs[idx];
	if ((r->flags & VPMU_SAMPLE_HAS_BLOCK) && (a->sample_type & PERF_SAMPLE_ADDR)) {
		const char *name = pmc__vpmu_heap_block_name(cv, r, &len);

		len = len ? len : name ? conv_block_mmap(cv, r, name) : 0;
		if (len < 0)
			return len;
	}
	s = (struct pmc__sample){
		.sample_type = a->sample_type,
		.misc = PERF_RECORD_MISC_USER |
			(r->flags & VPMU_SAMPLE_PRECISE ? PERF_RECORD_MISC_EXACT_IP : 0),
		.id = cv->ids[idx],
		.stream_id = cv->ids[idx],
		.ip = r->ip,
		.pid = r->pid,
		.tid = r->tid,
		.time = stamp(cv, r->time),
		.addr = r->flags & VPMU_SAMPLE_HAS_ADDR ? r->addr : 0,
		.period = r->period,
		.branch_hw_idx = ~0ull, /* no hardware index: the whole stack is given */
		.callchain = cc,
		.branch = br,
		.weight = r->flags & VPMU_SAMPLE_HAS_ADDR ? r->latency : 0,
		.data_src = vpmu_data_src(r),
		.user_regs_mask = a->sample_regs_user,
		.user_regs = uregs,
		.intr_regs_mask = a->sample_regs_intr,
		.intr_regs = iregs,
	};
	s.nr_branch = sample_branches(r, a->branch_sample_type, br);
	if (a->sample_type & PERF_SAMPLE_CALLCHAIN)
		s.nr_callchain = sample_callchain(r, size, a, cc);
	s.user_regs_abi = sample_regs(r, a->sample_regs_user, uregs);
	s.intr_regs_abi = sample_regs(r, a->sample_regs_intr, iregs);
	len = pmc__sample_encode(a, &s, rec, sizeof(rec));
	if (len < 0) {
		pr_warn("vpmu: a sample cannot be written for attr %d: %s\n", idx,
			pmc_strerror(len));
		return len;
	}
	cv->nr_samples++;
	len = cv->sink(rec, (size_t)len, cv->arg);
	return len < 0 ? len : 1;
}

static bool fits(const struct vpmu_hdr *h, size_t need)
{
	return h->size >= need;
}

int pmc__vpmu_convert(struct vpmu_conv *cv, const struct vpmu_hdr *h)
{
	switch (h->type) {
	case VPMU_REC_BEGIN:
		if (fits(h, sizeof(struct vpmu_rec_begin)) && !cv->pid)
			cv->pid = ((const struct vpmu_rec_begin *)h)->pid;
		return 0;
	case VPMU_REC_COMM:
		return fits(h, sizeof(struct vpmu_rec_comm)) ? conv_comm(cv, (const void *)h) : 0;
	case VPMU_REC_MMAP:
		return fits(h, sizeof(struct vpmu_rec_mmap) + 8)
			       ? conv_mmap(cv, (const void *)h, h->size)
			       : 0;
	case VPMU_REC_FORK:
	case VPMU_REC_THREAD:
	case VPMU_REC_EXIT:
		return fits(h, sizeof(struct vpmu_rec_task))
			       ? conv_task(cv, (const void *)h, h->type)
			       : 0;
	case VPMU_REC_SAMPLE:
		return fits(h, sizeof(struct vpmu_rec_sample))
			       ? conv_sample(cv, (const void *)h, h->size)
			       : 0;
	case VPMU_REC_SITE:
		return fits(h, sizeof(struct vpmu_rec_site) + 8)
			       ? pmc__vpmu_heap_site(cv, (const void *)h, h->size)
			       : 0;
	case VPMU_REC_LOST:
		return fits(h, sizeof(struct vpmu_rec_lost)) ? conv_lost(cv, (const void *)h) : 0;
	default:
		return 0; /* COUNTS, END and types of later versions */
	}
}
