// SPDX-License-Identifier: MIT
/* DWARF unwinding (lib/symbol/unwind.c) of this process's own stack, captured as perf would. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <pmc/report.h>
#include "report/report.h"

#define REGS_MASK 0xff0fffull /* perf's x86-64 user registers: ax..ss, r8..r15 */
#define STACK_BYTES 8192

static uint64_t regs_by_perf[24]; /* indexed by PERF_REG_X86_* */
static uint8_t stack_copy[STACK_BYTES];
static uint64_t stack_len;

/* The end of the mapping holding addr (the stack may belong to a thread). */
static uint64_t map_end(uint64_t addr)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi, end = 0;
	char line[4352];

	cr_assert(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && addr >= lo && addr < hi)
			end = hi;
	fclose(f);
	return end;
}

/* Byte by byte: the callers' frames hold sanitizer redzones that memcpy would report. */
__attribute__((no_sanitize_address, noinline)) static void copy_stack(uint64_t sp)
{
	uint64_t end = map_end(sp);
	volatile const uint8_t *p = (const uint8_t *)(uintptr_t)sp;

	stack_len = end - sp < STACK_BYTES ? end - sp : STACK_BYTES;
	for (uint64_t i = 0; i < stack_len; i++)
		stack_copy[i] = p[i];
}

/* The registers the kernel would sample here, then the stack above them. */
__attribute__((noinline)) void unwind_capture(void)
{
#ifdef __x86_64__
	uint64_t *r = regs_by_perf;

	__asm__ volatile("movq %%rbx, 8(%0)\n\t"
			 "movq %%rbp, 48(%0)\n\t"
			 "movq %%rsp, 56(%0)\n\t"
			 "leaq 0(%%rip), %%rax\n\t"
			 "movq %%rax, 64(%0)\n\t"
			 "movq %%r12, 160(%0)\n\t"
			 "movq %%r13, 168(%0)\n\t"
			 "movq %%r14, 176(%0)\n\t"
			 "movq %%r15, 184(%0)\n\t"
			 :
			 : "r"(r)
			 : "rax", "memory");
	copy_stack(r[7]);
#endif
}

static volatile int depth;

/* A known chain; the work after each call keeps it from becoming a tail call. */
__attribute__((noinline)) void unwind_c(void)
{
	unwind_capture();
	depth++;
}
__attribute__((noinline)) void unwind_b(void)
{
	unwind_c();
	depth++;
}
__attribute__((noinline)) void unwind_a(void)
{
	unwind_b();
	depth++;
}

/* Every r-x and r-- file mapping of this process, as MMAP2 records would give them. */
static void load_maps(struct pmc_report *r, uint32_t pid)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi, pgoff;
	char line[4352], perms[8], path[4096];

	cr_assert(f);
	while (fgets(line, sizeof(line), f)) {
		int n = sscanf(line, "%lx-%lx %7s %lx %*s %*s %4095s", &lo, &hi, perms, &pgoff,
			       path);
		if (n == 5 && path[0] == '/' && perms[3] == 'p')
			cr_assert_eq(pmc__machine_mmap(r->m, pid, lo, hi - lo, pgoff, path, 0), 0);
	}
	fclose(f);
}

static void make_sample(struct pmc__sample *s, uint64_t *regs)
{
	size_t n = 0;

	for (int i = 0; i < 24; i++)
		if (REGS_MASK >> i & 1)
			regs[n++] = regs_by_perf[i];
	*s = (struct pmc__sample){
		.sample_type = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER,
		.misc = PERF_RECORD_MISC_USER,
		.ip = regs_by_perf[8],
		.pid = (uint32_t)getpid(),
		.tid = (uint32_t)getpid(),
		.time = 1,
		.period = 1,
		.user_regs_abi = PERF_SAMPLE_REGS_ABI_64,
		.user_regs_mask = REGS_MASK,
		.user_regs = regs,
		.user_stack_size = STACK_BYTES,
		.user_stack = stack_copy,
		.user_stack_dyn_size = stack_len,
	};
}

/* The function at pc (a return address after the first), as the report resolves it. */
static const char *name_at(struct pmc_report *r, uint32_t pid, uint64_t pc)
{
	const struct pmc__map *map = pmc__machine_find(r->m, pid, pc, 1);
	const struct pmc__symres *res;

	if (!map)
		return "?";
	res = pmc__dso_resolve(map->dso,
			       pmc__dso_offset_to_vaddr(map->dso, pc - map->start + map->pgoff));
	return res ? res->sym->name : "?";
}

static void expect_chain(struct pmc_report *r, const struct pmc__sample *s)
{
	static const char *const want[] = {"unwind_capture", "unwind_c", "unwind_b", "unwind_a"};
	uint64_t pcs[64];
	size_t n = pmc__unwind_user(&r->unwind, r->m, s, pcs, 64);

	cr_assert_geq(n, 5, "only %zu frames unwound", n);
	cr_expect_eq(pcs[0], s->ip, "the first pc is the sampled ip");
	for (size_t i = 0; i < 4; i++)
		cr_expect_str_eq(name_at(r, s->pid, i ? pcs[i] - 1 : pcs[i]), want[i], "frame %zu",
				 i);
}

Test(unwind, own_stack_through_known_chain)
{
	struct pmc_report *r;
	struct pmc__sample s;
	uint64_t regs[24];

#ifndef __x86_64__
	cr_skip_test("the register capture is x86-64's");
#endif
	unwind_a();
	cr_assert_eq(pmc_report__new(NULL, &r), 0);
	load_maps(r, (uint32_t)getpid());
	make_sample(&s, regs);
	expect_chain(r, &s);
	/* The cached Dwfl serves the next sample; a new file map rebuilds it. */
	expect_chain(r, &s);
	cr_assert_eq(pmc__machine_mmap(r->m, s.pid, 0x10000, 0x1000, 0, "/dev/null", 0), 0);
	expect_chain(r, &s);
	pmc_report__delete(r);
}

Test(unwind, nothing_without_registers_or_stack)
{
	struct pmc_report *r;
	struct pmc__sample s;
	uint64_t regs[24], pcs[8];

	unwind_a();
	cr_assert_eq(pmc_report__new(NULL, &r), 0);
	load_maps(r, (uint32_t)getpid());
	make_sample(&s, regs);
	s.user_regs_mask &= ~(1ull << 7); /* no sp: nothing to read the stack from */
	cr_expect_eq(pmc__unwind_user(&r->unwind, r->m, &s, pcs, 8), 0);
	make_sample(&s, regs);
	s.user_regs_abi = PERF_SAMPLE_REGS_ABI_32;
	cr_expect_eq(pmc__unwind_user(&r->unwind, r->m, &s, pcs, 8), 0);
	make_sample(&s, regs);
	s.pid = s.tid = 1u << 30; /* a process without maps */
	cr_expect_eq(pmc__unwind_user(&r->unwind, r->m, &s, pcs, 8), 0);
	make_sample(&s, regs);
	cr_expect_eq(pmc__unwind_user(&r->unwind, r->m, &s, pcs, 2), 2, "max frames is respected");
	pmc_report__delete(r);
}
