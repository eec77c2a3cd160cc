// SPDX-License-Identifier: MIT
/* DWARF unwinding of a sample's copied user stack with libdwfl (perf's --call-graph dwarf). */
#include <stdlib.h>
#include <string.h>
#include "core/log.h"
#include "symbol/cfirow.h"
#include "symbol/debuginfo.h"
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

/*
 * The fast path: most frames' CFI rows say "CFA = register + offset; the return address and
 * the saved registers at CFA + offset, or unchanged, or lost" (cfirow.h). Each pc's row is
 * asked of libdw once per Dwfl and each sample is stepped through its copied stack with
 * those rows, reading the stack as libdwfl would (memory_read). A sample with a frame whose
 * row is not of that form (no module or CFI at its pc, a signal frame, a DWARF expression)
 * is unwound whole by libdwfl, so the chains are libdwfl's. PMC_UNWIND=libdwfl takes libdwfl
 * for every sample; PMC_UNWIND=check unwinds every sample both ways and says, at the end,
 * how many differ (tests/cli/test-report-dwarf.sh).
 */
enum mode { MODE_FAST, MODE_LIBDWFL, MODE_CHECK };

/* perf's x86-64 register numbers (asm/perf_regs.h, not available on other hosts). */
enum { PERF_X86_SP = 7, PERF_X86_IP = 8 };

/* A file the Dwfl places, at its load bias. */
struct module {
	struct pmc__dso *dso;
	uint64_t bias;
};

struct uproc {
	Dwfl *dwfl; /* NULL when the process has nothing to unwind with */
	uint32_t pid;
	unsigned gen; /* pmc__proc.gen the Dwfl was built from */
	/* What the Dwfl was built from: a generation that places the same keeps it. */
	struct module *mods;
	size_t nr_mods;
	uint64_t last_use;
	struct pmc__cfirows rows; /* of dwfl's modules */
	bool built;
};

struct pmc__unwind {
	const struct pmc__dw_api *dw; /* libdw: the first unwind loads it */
	struct uproc procs[NR_CACHED];
	uint64_t clock;
	struct pmc__cfirows files; /* every process's rows, by file and file address */
	enum mode mode;
	uint64_t *check_pcs; /* MODE_CHECK: the fast path's chain, max long */
	size_t nr_checked, nr_fast, nr_differ;
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

/* perf's numbers of x86-64's DWARF registers rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip. */
static const unsigned char perf_of_dwarf[PMC__CFI_NR_REGS] = {0,  3,  2,  1,  4,  5,  6,  7, 16,
							      17, 18, 19, 20, 21, 22, 23, 8};

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
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

/*
 * The files to place for the maps of p alive at time, into *mods (malloc'd, the caller frees;
 * NULL and 0 when there are none or memory runs out): each DSO once, by its map of lowest
 * file offset, at its load bias (map start minus the file address it maps).
 */
static size_t modules_of(const struct pmc__dw_api *dw, const struct pmc__proc *p, uint64_t time,
			 struct module **mods)
{
	struct module *v = malloc((p->nr ? p->nr : 1) * sizeof(*v));
	size_t n = 0;
	GElf_Ehdr eh;

	*mods = v;
	for (size_t i = 0; v && i < p->nr; i++) {
		const struct pmc__map *map = &p->maps[i];
		struct pmc__dso *d = map->dso;
		Elf *elf;

		if (map->died <= time || !first_of_dso(p, i, time))
			continue;
		/* Anonymous maps, [vdso] and files that are gone cannot be unwound through. */
		if (d->path[0] != '/' || !(elf = pmc__dso_elf(d)) || !dw->gelf_getehdr(elf, &eh) ||
		    eh.e_machine != EM_X86_64)
			continue;
		v[n++] = (struct module){d, map->start - pmc__dso_offset_to_vaddr(d, map->pgoff)};
	}
	return n;
}

/* A Dwfl holding mods, or NULL. */
static Dwfl *build(struct pmc__unwind *u, uint32_t pid, const struct module *mods, size_t nr)
{
	const struct pmc__dw_api *dw = u->dw;
	Dwfl *dwfl = dw->dwfl_begin(&pmc__dwfl_callbacks()->proc);
	Dwfl_Module *mod;
	void **file;

	if (!dwfl)
		return NULL;
	dw->dwfl_report_begin(dwfl);
	for (size_t i = 0; i < nr; i++) {
		/* A module that fails (overlap, unreadable) only costs the frames inside it. */
		mod = dw->dwfl_report_elf(dwfl, mods[i].dso->short_name, mods[i].dso->path, -1,
					  mods[i].bias, true);
		/* The module's DSO keys its CFI rows across Dwfls (cfirow.h). */
		if (mod && dw->dwfl_module_info(mod, &file, NULL, NULL, NULL, NULL, NULL, NULL))
			*file = mods[i].dso;
	}
	/* No module: attach fails (libdwfl finds the architecture from a module's ELF). */
	if (dw->dwfl_report_end(dwfl, NULL, NULL) ||
	    !dw->dwfl_attach_state(dwfl, NULL, (pid_t)pid, &thread_cb, u)) {
		dw->dwfl_end(dwfl);
		return NULL;
	}
	return dwfl;
}

static void uproc_clear(const struct pmc__unwind *u, struct uproc *up)
{
	if (up->dwfl)
		u->dw->dwfl_end(up->dwfl);
	pmc__cfirows_clear(&up->rows);
	free(up->mods);
	*up = (struct uproc){0};
}

/* The sample's process with its cached Dwfl, rebuilt when its maps changed; NULL if none. */
static struct uproc *proc_dwfl(struct pmc__unwind *u, struct pmc__machine *m,
			       const struct pmc__sample *s)
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
		struct module *mods;
		size_t nr = modules_of(u->dw, p, s->time, &mods);

		/* Maps of other files, or the same files mapped again at the same places. */
		if (up && mods && nr == up->nr_mods &&
		    !memcmp(mods, up->mods, nr * sizeof(*mods))) {
			free(mods);
			up->gen = p->gen;
		} else {
			up = up ? up : lru;
			uproc_clear(u, up);
			*up = (struct uproc){.pid = s->pid, .gen = p->gen, .built = true};
			up->dwfl = build(u, s->pid, mods, nr);
			up->mods = mods;
			up->nr_mods = nr;
		}
	}
	up->last_use = ++u->clock;
	return up->dwfl ? up : NULL;
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

/* A word of the sampled process, from the stack copy without a call when it is there. */
static inline bool stack_word(struct pmc__unwind *u, uint64_t addr, uint64_t *v)
{
	const struct pmc__sample *s = u->s;

	if (addr >= u->sp && s->user_stack_dyn_size >= sizeof(*v) &&
	    addr - u->sp <= s->user_stack_dyn_size - sizeof(*v)) {
		memcpy(v, s->user_stack + (addr - u->sp), sizeof(*v));
		return true;
	}
	return memory_read(NULL, addr, v, u);
}

/*
 * One step of the fast path: the caller's registers from this frame's (regs, with the set
 * known) by row r. As libdwfl, a register whose rule cannot be followed (the CFA's register
 * unknown, a word that cannot be read) is unknown in the caller. False when the caller's
 * pc (the return address) is unknown: the chain ends there.
 */
static bool step(struct pmc__unwind *u, const struct pmc__cfirow *r, uint64_t *regs,
		 uint32_t *known)
{
	uint64_t cfa = regs[r->cfa_reg] + (uint64_t)r->cfa_off;
	uint32_t next_known = *known & r->same, bits;

	/* Each rule reads the CFA only, not other registers: regs is updated in place. */
	if (*known >> r->cfa_reg & 1) {
		for (bits = r->cfa; bits; bits &= bits - 1) {
			unsigned i = (unsigned)__builtin_ctz(bits);
			regs[i] = cfa + (uint64_t)(int64_t)r->off[i];
		}
		next_known |= r->cfa;
		for (bits = r->at_cfa; bits; bits &= bits - 1) {
			unsigned i = (unsigned)__builtin_ctz(bits);
			if (stack_word(u, cfa + (uint64_t)(int64_t)r->off[i], &regs[i]))
				next_known |= 1u << i;
		}
	}
	*known = next_known;
	return next_known >> PMC__CFI_RA & 1;
}

/*
 * The fast path's chain of u->s into u->pcs, as libdwfl would unwind it; -1 when a frame needs
 * libdwfl. Past frame 0 a pc is a return address: its row is the one of the call, pc - 1.
 */
static long fast_unwind(struct pmc__unwind *u, struct uproc *up)
{
	uint64_t regs[PMC__CFI_NR_REGS], by_perf[64], mask = u->s->user_regs_mask, pc;
	uint32_t known = 0;
	size_t n = 0;

	for (uint64_t bits = mask, k = 0; bits; bits &= bits - 1)
		by_perf[__builtin_ctzll(bits)] = u->s->user_regs[k++];
	for (unsigned i = 0; i < PMC__CFI_NR_REGS; i++) {
		regs[i] = mask >> perf_of_dwarf[i] & 1 ? by_perf[perf_of_dwarf[i]] : 0;
		known |= (uint32_t)(mask >> perf_of_dwarf[i] & 1) << i;
	}
	/* A pc of 0 ends the chain (libdwfl takes it for an undefined return address). */
	while ((pc = regs[PMC__CFI_RA])) {
		const struct pmc__cfirow *r =
			pmc__cfirows_find(&up->rows, &u->files, u->dw, up->dwfl, n ? pc - 1 : pc);

		if (!r || r->state != PMC__CFIROW_FAST)
			return -1;
		u->pcs[n++] = pc;
		if (n == u->max || !step(u, r, regs, &known))
			break;
	}
	return (long)n;
}

static size_t libdwfl_unwind(struct pmc__unwind *u, Dwfl *dwfl, uint64_t *pcs)
{
	u->pcs = pcs;
	u->n = 0;
	/* The end of a stack shows as an error on some unwinds: the frames so far stand. */
	u->dw->dwfl_getthread_frames(dwfl, (pid_t)u->s->tid, on_frame, u);
	return u->n;
}

/* MODE_CHECK: libdwfl's chain into pcs, compared with the fast path's. */
static size_t checked_unwind(struct pmc__unwind *u, struct uproc *up, uint64_t *pcs)
{
	uint64_t *fast_pcs = realloc(u->check_pcs, u->max * sizeof(*fast_pcs));
	long nr_fast;
	size_t n;

	if (!fast_pcs)
		return libdwfl_unwind(u, up->dwfl, pcs);
	u->check_pcs = u->pcs = fast_pcs;
	nr_fast = fast_unwind(u, up);
	n = libdwfl_unwind(u, up->dwfl, pcs);
	u->nr_checked++;
	if (nr_fast < 0)
		return n;
	u->nr_fast++;
	if ((size_t)nr_fast != n || memcmp(fast_pcs, pcs, n * sizeof(*pcs))) {
		if (u->nr_differ++ < 10)
			pr_warn("unwind check: sample of tid %u at time %llu: %ld frames on the "
				"fast path, %zu by libdwfl\n",
				u->s->tid, (unsigned long long)u->s->time, nr_fast, n);
	}
	return n;
}

size_t pmc__unwind_user(struct pmc__unwind **up, struct pmc__machine *m,
			const struct pmc__sample *s, uint64_t *pcs, size_t max)
{
	struct pmc__unwind *u = *up;
	struct uproc *proc;
	uint64_t sp, ip;
	long n = -1;

	/* The register mapping is x86-64's; libdwfl reads the ip itself, it need only be there. */
	if (!max || s->user_regs_abi != PERF_SAMPLE_REGS_ABI_64 || !s->tid ||
	    !user_reg(s, PERF_X86_SP, &sp) || !user_reg(s, PERF_X86_IP, &ip))
		return 0;
	if (!u) {
		const struct pmc__dw_api *dw = pmc__dw_api();
		const char *mode = secure_getenv("PMC_UNWIND");

		if (!dw || !(u = *up = calloc(1, sizeof(*u))))
			return 0;
		u->dw = dw;
		if (mode && !strcmp(mode, "libdwfl"))
			u->mode = MODE_LIBDWFL;
		else if (mode && !strcmp(mode, "check"))
			u->mode = MODE_CHECK;
	}
	proc = proc_dwfl(u, m, s);
	if (!proc)
		return 0;
	u->m = m;
	u->s = s;
	u->sp = sp;
	u->max = max;
	if (u->mode == MODE_CHECK)
		n = (long)checked_unwind(u, proc, pcs);
	else if (u->mode == MODE_FAST && (u->pcs = pcs))
		n = fast_unwind(u, proc);
	if (n < 0)
		n = (long)libdwfl_unwind(u, proc->dwfl, pcs);
	u->s = NULL;
	return (size_t)n;
}

void pmc__unwind_free(struct pmc__unwind **up)
{
	struct pmc__unwind *u = *up;

	if (!u)
		return;
	if (u->mode == MODE_CHECK)
		pr_warn("unwind check: %zu samples, %zu on the fast path, %zu differ from "
			"libdwfl\n",
			u->nr_checked, u->nr_fast, u->nr_differ);
	for (size_t i = 0; i < NR_CACHED; i++)
		uproc_clear(u, &u->procs[i]);
	pmc__cfirows_clear(&u->files);
	free(u->check_pcs);
	free(u);
	*up = NULL;
}
