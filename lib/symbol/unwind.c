// SPDX-License-Identifier: MIT
/* DWARF unwinding of a sample's copied user stack with libdwfl (perf's --call-graph dwarf). */
#include <stdlib.h>
#include <string.h>
#include "symbol/dw-api.h"
#include "symbol/unwind.h"

/*
 * libdwfl unwinds a "process" whose modules sit at their run-time addresses; pmc keeps one
 * Dwfl per sampled process, built from the report's maps (symbol/machine.c), with the
 * process's DSOs placed at their load bias. The Dwfl lives as long as the maps do: a file
 * map that appears, or an exec, bumps pmc__proc.gen and the Dwfl is rebuilt on the next
 * sample, so libdwfl's per-module CFI caches serve every sample in between. Each module holds its
 * file open, so only the most recently sampled processes keep a Dwfl (a system-wide recording of
 * thousands of short processes must not exhaust file descriptors).
 */
#define NR_CACHED 16

/* perf's x86-64 register numbers (asm/perf_regs.h, not available on other hosts). */
enum { PERF_X86_SP = 7, PERF_X86_IP = 8 };

struct uproc {
	Dwfl *dwfl; /* NULL when the process has nothing to unwind with */
	uint32_t pid;
	unsigned gen; /* pmc__proc.gen the Dwfl was built from */
	uint64_t last_use;
	bool built;
};

struct pmc__unwind {
	const struct pmc__dw_api *dw; /* libdw: the first unwind loads it */
	struct uproc procs[NR_CACHED];
	uint64_t clock;
	/* The sample being unwound: the libdwfl callbacks read it through dwfl_arg. */
	struct pmc__machine *m;
	const struct pmc__sample *s;
	uint64_t sp;
	uint64_t *pcs;
	size_t n, max;
};

/* The sampled user register with perf number idx; false when the sample lacks it. */
static bool user_reg(const struct pmc__sample *s, unsigned idx, uint64_t *v)
{
	if (!s->user_regs || !(s->user_regs_mask >> idx & 1))
		return false;
	*v = s->user_regs[__builtin_popcountll(s->user_regs_mask & ((1ull << idx) - 1))];
	return true;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct pmc__unwind *u = arg;

	(void)dwfl;
	/* The process has one thread as far as libdwfl is concerned: the sampled one. */
	if (*thread_argp)
		return 0;
	*thread_argp = u;
	return (pid_t)u->s->tid;
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	struct pmc__unwind *u = arg;

	(void)dwfl;
	*thread_argp = u;
	return tid == (pid_t)u->s->tid;
}

/*
 * A word of the sampled process: from the stack copy when it covers addr, else from the
 * file behind the map (CFI expressions may read .rodata or .data as initialised).
 */
static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct pmc__unwind *u = arg;
	const struct pmc__sample *s = u->s;
	const struct pmc__map *map;
	uint64_t vaddr;

	(void)dwfl;
	if (addr >= u->sp && addr - u->sp <= s->user_stack_dyn_size - sizeof(*result) &&
	    s->user_stack_dyn_size >= sizeof(*result)) {
		memcpy(result, s->user_stack + (addr - u->sp), sizeof(*result));
		return true;
	}
	map = pmc__machine_find(u->m, s->pid, addr, s->time);
	if (!map || addr + sizeof(*result) > map->end || map->dso->path[0] != '/')
		return false;
	vaddr = pmc__dso_offset_to_vaddr(map->dso, addr - map->start + map->pgoff);
	return pmc__dso_read(map->dso, vaddr, result, sizeof(*result)) == sizeof(*result);
}

/* x86-64 DWARF registers rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip, from perf's order. */
static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	static const unsigned char perf_of_dwarf[17] = {0,  3,	2,  1,	4,  5,	6,  7, 16,
							17, 18, 19, 20, 21, 22, 23, 8};
	const struct pmc__unwind *u = arg;
	const struct pmc__sample *s = u->s;
	uint64_t by_perf[64] = {0}, mask = s->user_regs_mask;
	Dwarf_Word regs[17];
	unsigned nr_known = 0;

	for (unsigned i = 0, k = 0; i < 64; i++)
		if (mask >> i & 1)
			by_perf[i] = s->user_regs[k++];
	for (unsigned i = 0; i < 17; i++) {
		regs[i] = by_perf[perf_of_dwarf[i]];
		nr_known += mask >> perf_of_dwarf[i] & 1;
	}
	if (nr_known == 17)
		return u->dw->dwfl_thread_state_registers(thread, 0, 17, regs);
	/* A register the sample lacks stays undefined: CFI that needs it stops there. */
	for (unsigned i = 0; i < 17; i++)
		if (mask >> perf_of_dwarf[i] & 1 &&
		    !u->dw->dwfl_thread_state_registers(thread, (int)i, 1, &regs[i]))
			return false;
	return true;
}

static const Dwfl_Thread_Callbacks thread_cb = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* Whether map is the one of its DSO to place the module by: the lowest file offset. */
static bool first_of_dso(const struct pmc__proc *p, size_t idx, uint64_t time)
{
	const struct pmc__map *m = &p->maps[idx];

	for (size_t i = 0; i < p->nr; i++) {
		const struct pmc__map *o = &p->maps[i];
		if (i != idx && o->dso == m->dso && o->died > time &&
		    (o->pgoff < m->pgoff || (o->pgoff == m->pgoff && i < idx)))
			return false;
	}
	return true;
}

/* Reports map's DSO at its load bias (map start minus the file address it maps). */
static void report_map(const struct pmc__dw_api *dw, Dwfl *dwfl, const struct pmc__map *map)
{
	struct pmc__dso *d = map->dso;
	Elf *elf = pmc__dso_elf(d);
	GElf_Ehdr eh;
	uint64_t bias;

	/* Anonymous maps, [vdso] and files that are gone cannot be unwound through. */
	if (d->path[0] != '/' || !elf || !dw->gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64)
		return;
	bias = map->start - pmc__dso_offset_to_vaddr(d, map->pgoff);
	/* A module that fails (overlap, unreadable) only costs the frames inside it. */
	dw->dwfl_report_elf(dwfl, d->short_name, d->path, -1, bias, true);
}

/* A Dwfl holding the maps of p that are alive at time, or NULL. */
static Dwfl *build(struct pmc__unwind *u, const struct pmc__proc *p, uint64_t time)
{
	const struct pmc__dw_api *dw = u->dw;
	Dwfl *dwfl = dw->dwfl_begin(&dw->proc_cb);

	if (!dwfl)
		return NULL;
	dw->dwfl_report_begin(dwfl);
	for (size_t i = 0; i < p->nr; i++)
		if (p->maps[i].died > time && first_of_dso(p, i, time))
			report_map(dw, dwfl, &p->maps[i]);
	/* No module: attach fails (libdwfl finds the architecture from a module's ELF). */
	if (dw->dwfl_report_end(dwfl, NULL, NULL) ||
	    !dw->dwfl_attach_state(dwfl, NULL, (pid_t)p->pid, &thread_cb, u)) {
		dw->dwfl_end(dwfl);
		return NULL;
	}
	return dwfl;
}

/* The cached Dwfl of the sample's process, rebuilt when its maps changed; NULL if none. */
static Dwfl *proc_dwfl(struct pmc__unwind *u, struct pmc__machine *m, const struct pmc__sample *s)
{
	struct pmc__proc *p = pmc__machine_proc(m, s->pid);
	struct uproc *up = NULL, *lru = &u->procs[0];

	if (!p)
		return NULL;
	for (size_t i = 0; i < NR_CACHED && !up; i++) {
		if (u->procs[i].built && u->procs[i].pid == s->pid)
			up = &u->procs[i];
		else if (u->procs[i].last_use < lru->last_use)
			lru = &u->procs[i];
	}
	if (!up || up->gen != p->gen) {
		up = up ? up : lru;
		if (up->dwfl)
			u->dw->dwfl_end(up->dwfl);
		*up = (struct uproc){.pid = s->pid, .gen = p->gen, .built = true};
		up->dwfl = build(u, p, s->time);
	}
	up->last_use = ++u->clock;
	return up->dwfl;
}

static int on_frame(Dwfl_Frame *frame, void *arg)
{
	struct pmc__unwind *u = arg;
	Dwarf_Addr pc;
	bool activation;

	if (!u->dw->dwfl_frame_pc(frame, &pc, &activation) || !pc)
		return DWARF_CB_ABORT;
	/*
	 * The report (report/frames.c) takes every pc after the first for a return address and
	 * looks up pc - 1; a signal frame's interrupted pc is exact, so it is handed out one
	 * higher.
	 */
	u->pcs[u->n] = u->n && activation ? pc + 1 : pc;
	u->n++;
	return u->n < u->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

size_t pmc__unwind_user(struct pmc__unwind **up, struct pmc__machine *m,
			const struct pmc__sample *s, uint64_t *pcs, size_t max)
{
	struct pmc__unwind *u = *up;
	uint64_t sp, ip;
	Dwfl *dwfl;

	/* The register mapping is x86-64's; libdwfl reads the ip itself, it need only be there. */
	if (!max || s->user_regs_abi != PERF_SAMPLE_REGS_ABI_64 || !s->tid ||
	    !user_reg(s, PERF_X86_SP, &sp) || !user_reg(s, PERF_X86_IP, &ip))
		return 0;
	if (!u) {
		const struct pmc__dw_api *dw = pmc__dw_api();

		if (!dw || !(u = *up = calloc(1, sizeof(*u))))
			return 0;
		u->dw = dw;
	}
	dwfl = proc_dwfl(u, m, s);
	if (!dwfl)
		return 0;
	u->m = m;
	u->s = s;
	u->sp = sp;
	u->pcs = pcs;
	u->n = 0;
	u->max = max;
	/* The end of a stack shows as an error on some unwinds: the frames so far stand. */
	u->dw->dwfl_getthread_frames(dwfl, (pid_t)s->tid, on_frame, u);
	u->s = NULL;
	return u->n;
}

void pmc__unwind_free(struct pmc__unwind **up)
{
	struct pmc__unwind *u = *up;

	if (!u)
		return;
	for (size_t i = 0; i < NR_CACHED; i++)
		if (u->procs[i].dwfl)
			u->dw->dwfl_end(u->procs[i].dwfl);
	free(u);
	*up = NULL;
}
