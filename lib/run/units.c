// SPDX-License-Identifier: MIT
/*
 * The runner's values per unit (pmc_run_opts.aggr): each counting unit of a read (a CPU or a
 * thread, lib/count/units.c) goes to its group, a CPU, core or socket by sysfs's topology
 * (lib/core/topology.c) or a thread, whose values are kept per repetition and summarised as
 * the totals are. The same grouping makes each interval's units from the counters' deltas.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/topology.h"
#include "count/counting.h"
#include "run/runner.h"

static void unit_free(struct pmc_run_unit *u, size_t nr_events)
{
	for (size_t i = 0; u->events && i < nr_events; i++) {
		free(u->events[i].values);
		free(u->events[i].ratio);
	}
	free(u->events);
	u->events = NULL;
}

static void set_free(struct run_unit_set *s, size_t nr_events)
{
	for (size_t u = 0; u < s->nr; u++)
		unit_free(&s->v[u], nr_events);
	free(s->v);
	free(s->keys);
	*s = (struct run_unit_set){.slots = s->slots};
}

void pmc__run_units_free(struct pmc_run *run)
{
	set_free(&run->units, run->res.nr_events);
	set_free(&run->iv_units, run->res.nr_events);
	free(run->topo);
	free(run->topo_read);
	free(run->iv_unit_prev);
	run->topo = NULL;
	run->topo_read = NULL;
	run->iv_unit_prev = NULL;
	run->nr_topo = 0;
	run->nr_iv_prev = 0;
	run->res.units = NULL;
	run->res.nr_units = 0;
}

/* cpu's place, read once per runner. NULL when out of memory. */
static const struct pmc__topo *topo_of(struct pmc_run *run, int cpu)
{
	if (cpu >= run->nr_topo) {
		int n = cpu + 1;
		struct pmc__topo *t = realloc(run->topo, (size_t)n * sizeof(*t));
		bool *r = t ? realloc(run->topo_read, (size_t)n * sizeof(*r)) : NULL;

		if (t)
			run->topo = t;
		if (!r)
			return NULL;
		run->topo_read = r;
		memset(r + run->nr_topo, 0, (size_t)(n - run->nr_topo) * sizeof(*r));
		run->nr_topo = n;
	}
	if (!run->topo_read[cpu])
		pmc__topo_read(cpu, &run->topo[cpu]);
	run->topo_read[cpu] = true;
	return &run->topo[cpu];
}

/* The group of counting unit cu: its key, and the unit as it is first described. */
static int64_t key_of(struct pmc_run *run, const struct pmc__unit *cu, struct pmc_run_unit *out)
{
	static const enum pmc__topo_by by[] = {
		[PMC_RUN_AGGR_CPU] = PMC__TOPO_CPU,
		[PMC_RUN_AGGR_CORE] = PMC__TOPO_CORE,
		[PMC_RUN_AGGR_SOCKET] = PMC__TOPO_SOCKET,
		[PMC_RUN_AGGR_DIE] = PMC__TOPO_DIE,
	};
	const struct pmc__topo *t;
	struct pmc__topo none = {-1, -1, -1};

	*out = (struct pmc_run_unit){
		.cpu = -1, .socket = -1, .die = -1, .core = -1, .pid = -1, .tid = -1};
	if (run->opts.aggr == PMC_RUN_AGGR_THREAD || cu->cpu < 0) {
		out->pid = cu->pid;
		out->tid = cu->tid;
		snprintf(out->label, sizeof(out->label), "%s-%d", cu->comm[0] ? cu->comm : "?",
			 (int)cu->tid);
		return (int64_t)cu->pid << 32 | (uint32_t)cu->tid;
	}
	t = topo_of(run, cu->cpu);
	if (!t)
		t = &none;
	out->cpu = cu->cpu;
	out->socket = t->socket;
	out->die = t->die;
	out->core = t->core;
	return pmc__topo_key(cu->cpu, t, by[run->opts.aggr], out->label, sizeof(out->label));
}

/* Makes unit u of s the group of desc: its events as the totals', with room for values. */
static int unit_init(struct pmc_run *run, struct run_unit_set *s, struct pmc_run_unit *desc)
{
	size_t nr = run->res.nr_events;
	struct pmc_run_unit *u = &s->v[s->nr];

	*u = *desc;
	u->events = calloc(nr + 1, sizeof(*u->events));
	if (!u->events)
		return -ENOMEM;
	s->nr++; /* from here on set_free() frees it */
	for (size_t i = 0; i < nr; i++) {
		struct pmc_run_event *e = &u->events[i], *total = &run->res.events[i];

		e->evsel = total->evsel;
		e->supported = total->supported;
		memcpy(e->why, total->why, sizeof(e->why));
		e->values = calloc((size_t)s->slots, sizeof(double));
		e->ratio = calloc((size_t)s->slots, sizeof(double));
		if (!e->values || !e->ratio)
			return -ENOMEM;
	}
	return 0;
}

/* The index in s of counting unit cu's group, made when new; -ENOMEM. */
static long find_unit(struct pmc_run *run, struct run_unit_set *s, const struct pmc__unit *cu)
{
	struct pmc_run_unit desc;
	int64_t key = key_of(run, cu, &desc);

	for (size_t u = 0; u < s->nr; u++)
		if (s->keys[u] == key)
			return (long)u;
	if (s->nr == s->alloc) {
		size_t na = s->alloc ? 2 * s->alloc : 16;
		struct pmc_run_unit *v = realloc(s->v, na * sizeof(*v));
		int64_t *k = v ? realloc(s->keys, na * sizeof(*k)) : NULL;

		if (v)
			s->v = v;
		if (!k)
			return -ENOMEM;
		s->keys = k;
		s->alloc = na;
	}
	s->keys[s->nr] = key;
	if (!s->root && desc.tid >= 0)
		s->root = pmc_evlist__child_pid(run->evlist) > 0
				  ? pmc_evlist__child_pid(run->evlist)
				  : -1;
	return unit_init(run, s, &desc) ? -ENOMEM : (long)(s->nr - 1);
}

static double value_of(const struct pmc_run *run, const struct pmc_count *c)
{
	return run->opts.multiplex ? pmc_count__scaled(c) : (double)c->value;
}

/* Event i's value on unit cu added to its group in s at slot (prev: subtracted first). */
static int add(struct pmc_run *run, struct run_unit_set *s, const struct pmc__unit *cu, size_t i,
	       int slot, double v, double ratio)
{
	long u = find_unit(run, s, cu);
	struct pmc_run_event *e;

	if (u < 0)
		return (int)u;
	e = &s->v[u].events[i];
	e->values[slot] += v;
	e->ratio[slot] = ratio;
	e->scaled |= ratio < 1.0;
	e->nr = slot + 1;
	return 0;
}

static bool wanted(const struct pmc_run *run)
{
	return run->opts.aggr != PMC_RUN_AGGR_GLOBAL && !run->null_run;
}

int pmc__run_units_store(struct pmc_run *run, int pass, int rep)
{
	int n = pmc__evlist_nr_units(run->evlist), slot = rep < 0 ? 0 : rep, err = 0;

	if (!wanted(run))
		return 0;
	/* The warm-up's units are those of another run: the first repetition starts over. */
	if (pass == 0 && rep <= 0)
		set_free(&run->units, run->res.nr_events);
	run->units.slots = run->opts.repeat;
	for (int u = 0; u < n && !err; u++) {
		const struct pmc__unit *cu = pmc__evlist_unit(run->evlist, u);

		for (size_t i = 0; i < run->res.nr_events && !err; i++) {
			struct pmc_count c;

			if (pmc_evsel__pass(run->res.events[i].evsel) != pass ||
			    pmc__evsel_count_unit(run->res.events[i].evsel, u, &c))
				continue;
			err = add(run, &run->units, cu, i, slot, value_of(run, &c),
				  c.time_enabled_ns
					  ? (double)c.time_running_ns / (double)c.time_enabled_ns
					  : 1.0);
		}
	}
	run->res.lost_threads += pmc__evlist_lost_units(run->evlist);
	return err;
}

int pmc__run_units_interval(struct pmc_run *run, int pass, bool first)
{
	size_t nr = run->res.nr_events, n;
	int err = 0;

	if (!wanted(run) || !pmc__evlist_units_live(run->evlist))
		return 0;
	n = (size_t)pmc__evlist_nr_units(run->evlist) * nr;
	if (first || n != run->nr_iv_prev) {
		free(run->iv_unit_prev);
		run->iv_unit_prev = calloc(n + 1, sizeof(double));
		run->nr_iv_prev = run->iv_unit_prev ? n : 0;
		set_free(&run->iv_units, nr);
	}
	run->iv_units.slots = 1;
	for (size_t u = 0; u < run->iv_units.nr; u++)
		for (size_t i = 0; i < nr; i++)
			run->iv_units.v[u].events[i].values[0] = 0,
			run->iv_units.v[u].events[i].nr = 0;
	for (size_t k = 0; k < run->nr_iv_prev && !err; k++) {
		const struct pmc__unit *cu = pmc__evlist_unit(run->evlist, (int)(k / nr));
		const struct pmc_run_event *total = &run->res.events[k % nr];
		struct pmc_count c;
		double v;

		if (pmc_evsel__pass(total->evsel) != pass ||
		    pmc__evsel_count_unit(total->evsel, (int)(k / nr), &c))
			continue;
		v = value_of(run, &c);
		err = add(run, &run->iv_units, cu, k % nr, 0, v - run->iv_unit_prev[k], 1.0);
		run->iv_unit_prev[k] = v;
	}
	return err;
}

static void count_cpus(struct pmc_run *run, struct run_unit_set *s);
static int sort_units(struct pmc_run *run, struct run_unit_set *s);

/* The interval's units in order, for pmc_run_interval (count_cpus, sort_units below). */
void pmc__run_units_interval_view(struct pmc_run *run, size_t *nr, const struct pmc_run_unit **v)
{
	*nr = 0;
	*v = NULL;
	if (!wanted(run) || !pmc__evlist_units_live(run->evlist))
		return;
	for (size_t u = 0; u < run->iv_units.nr; u++)
		for (size_t i = 0; i < run->res.nr_events; i++)
			if (run->iv_units.v[u].events[i].nr)
				pmc_summarize(run->iv_units.v[u].events[i].values, 1,
					      run->opts.level, &run->iv_units.v[u].events[i].sum);
	count_cpus(run, &run->iv_units);
	sort_units(run, &run->iv_units);
	*nr = run->iv_units.nr;
	*v = run->iv_units.v;
}

/*
 * The CPUs of each CPU group: those read so far (the topology cache holds every CPU a unit
 * came from) whose key is the group's; the group's cpu is the first of them.
 */
static void count_cpus(struct pmc_run *run, struct run_unit_set *s)
{
	for (size_t u = 0; u < s->nr; u++) {
		if (s->v[u].tid >= 0)
			continue;
		s->v[u].nr_cpus = 0;
		for (int cpu = 0; cpu < run->nr_topo; cpu++) {
			struct pmc_run_unit d;
			struct pmc__unit cu = {.cpu = cpu};

			if (!run->topo_read[cpu] || key_of(run, &cu, &d) != s->keys[u])
				continue;
			if (!s->v[u].nr_cpus++)
				s->v[u].cpu = cpu;
		}
	}
}

/* A system-wide thread that counted nothing is left out, as perf leaves it. */
static bool silent(const struct pmc_run *run, const struct pmc_run_unit *u)
{
	if (u->tid < 0 || run->target.kind != PMC_TARGET_CPUS)
		return false;
	for (size_t i = 0; i < run->res.nr_events; i++)
		for (int r = 0; r < u->events[i].nr; r++)
			if (u->events[i].values[r] != 0)
				return false;
	return true;
}

static int by_key(const void *a, const void *b, void *keys)
{
	const uint64_t *k = keys;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return k[x] < k[y] ? -1 : k[x] > k[y];
}

/*
 * Where unit u sorts. A thread: by process, then thread, each in the order the kernel handed
 * the ids out from the command's pid on (its processes and threads get ids after it, until
 * the ids wrap at pid_max and go on from the bottom): the distance after the command's pid,
 * then after the thread's own pid, so the command's main thread comes first even when its
 * threads' ids wrapped below it. Without a command (-p, -t, -a) threads sort as numbers.
 * Other units (CPUs, cores, sockets) by their key.
 */
static uint64_t sort_key(const struct run_unit_set *s, size_t u)
{
	const struct pmc_run_unit *d = &s->v[u];
	uint32_t root = s->root > 0 ? (uint32_t)s->root : 0;

	if (d->tid < 0)
		return (uint64_t)s->keys[u] ^ (UINT64_C(1) << 63);
	if (!root)
		return (uint64_t)(uint32_t)d->pid << 32 | (uint32_t)d->tid;
	return (uint64_t)((uint32_t)d->pid - root) << 32 | ((uint32_t)d->tid - (uint32_t)d->pid);
}

/* s's units in key order, the silent ones freed. -ENOMEM leaves s as it was. */
static int sort_units(struct pmc_run *run, struct run_unit_set *s)
{
	size_t *order = calloc(s->nr + 1, sizeof(*order)), kept = 0;
	struct pmc_run_unit *v = calloc(s->nr + 1, sizeof(*v));
	int64_t *keys = calloc(s->nr + 1, sizeof(*keys));
	uint64_t *sk = calloc(s->nr + 1, sizeof(*sk));

	if (!order || !v || !keys || !sk) {
		free(order), free(v), free(keys), free(sk);
		return -ENOMEM;
	}
	for (size_t u = 0; u < s->nr; u++) {
		order[u] = u;
		sk[u] = sort_key(s, u);
	}
	qsort_r(order, s->nr, sizeof(*order), by_key, sk);
	free(sk);
	for (size_t k = 0; k < s->nr; k++) {
		struct pmc_run_unit *u = &s->v[order[k]];

		if (silent(run, u)) {
			unit_free(u, run->res.nr_events);
			continue;
		}
		v[kept] = *u;
		keys[kept++] = s->keys[order[k]];
	}
	free(order);
	free(s->v);
	free(s->keys);
	s->v = v;
	s->keys = keys;
	s->nr = s->alloc = kept;
	return 0;
}

void pmc__run_units_summarize(struct pmc_run *run)
{
	struct run_unit_set *s = &run->units;

	for (size_t u = 0; u < s->nr; u++)
		for (size_t i = 0; i < run->res.nr_events; i++)
			if (s->v[u].events[i].nr)
				pmc_summarize(s->v[u].events[i].values,
					      (size_t)s->v[u].events[i].nr, run->opts.level,
					      &s->v[u].events[i].sum);
	count_cpus(run, s);
	sort_units(run, s);
	run->res.units = s->v;
	run->res.nr_units = s->nr;
}
