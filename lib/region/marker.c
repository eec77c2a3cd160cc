// SPDX-License-Identifier: MIT
/*
 * The region markers. The fast path after a thread's first marker: a state load, the id
 * (a hash probe for names, nothing for numbers), the thread's table through TLS, and one
 * counter read. No allocation, no lock, no system call but the read.
 */
#include <errno.h>
#include <string.h>
#include "region/region.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

static inline bool on(void)
{
	int state = __atomic_load_n(&pmc__region_session.state, __ATOMIC_RELAXED);

	if (unlikely(state == REGION_UNINIT))
		state = pmc__region_session_get();
	return state == REGION_ON;
}

static inline struct region_thread *self(void)
{
	struct region_thread *t = pmc__region_self;

	return likely(t != NULL) ? t : pmc__region_thread_slow();
}

static void misuse(void)
{
	__atomic_fetch_add(&pmc__region_session.problems[REGION_BAD_IDS], 1, __ATOMIC_RELAXED);
}

/* Bookkeeping first, the read last: as little as possible between the two reads. */
static inline void begin(struct region_thread *t, unsigned id)
{
	uint64_t *s = region_slot(t, id);

	s[SLOT_ENTERED]++;
	if (s[SLOT_DEPTH]++ == 0 && unlikely(t->reader->ops->read(t->reader, &s[SLOT_HDR])))
		__atomic_fetch_add(&pmc__region_session.problems[REGION_FAILED_READS], 1,
				   __ATOMIC_RELAXED);
}

/*
 * The read first, then the bookkeeping. A failed read adds nothing. read_done: the named end
 * marker has read already (its result is read_err).
 */
static inline void end(struct region_thread *t, unsigned id, bool read_done, int read_err)
{
	uint64_t *s = region_slot(t, id);
	size_t nr = t->nr_events;

	if (s[SLOT_DEPTH] == 1) {
		if (!read_done)
			read_err = t->reader->ops->read(t->reader, t->now);
		if (likely(!read_err)) {
			for (size_t e = 0; e < nr; e++)
				s[SLOT_HDR + nr + e] += t->now[e] - s[SLOT_HDR + e];
		} else {
			__atomic_fetch_add(&pmc__region_session.problems[REGION_FAILED_READS], 1,
					   __ATOMIC_RELAXED);
		}
	}
	s[SLOT_EXITED]++;
	if (s[SLOT_DEPTH])
		s[SLOT_DEPTH]--;
	else
		s[SLOT_UNMATCHED]++;
}

static inline int name_id(const char *name)
{
	int id = name ? pmc__region_id(name) : -EINVAL;

	if (unlikely(id < 0))
		misuse();
	return id;
}

/* The calling thread's table for a marker of region id, or NULL when nothing is to be done. */
static inline struct region_thread *marked(int id)
{
	struct region_thread *t;

	if (id < 0)
		return NULL;
	t = self();
	return t && t->reader ? t : NULL;
}

/* A numbered marker's id, or -1 (counted as misuse) for a number never registered. */
static inline int number_id(unsigned id)
{
	if (likely(pmc__region_known(id)))
		return (int)id;
	misuse();
	return -1;
}

void pmc_region_begin(const char *name)
{
	struct region_thread *t;
	int id;

	if (on() && (t = marked(id = name_id(name)))) {
		region_slot(t, (unsigned)id)[SLOT_NAMED]++;
		begin(t, (unsigned)id);
	}
}

/*
 * The counters are read before the name is looked up: the lookup hashes the name, a cost
 * that grows with its length, and would otherwise count in the region, so that one
 * calibrated cost could not fit every name (docs/regions.md, "Costs"). The read is made
 * whatever the depth; a nested end does not use it.
 */
void pmc_region_end(const char *name)
{
	struct region_thread *t;
	int id, err;

	if (!on() || !(t = self()) || !t->reader)
		return;
	err = t->reader->ops->read(t->reader, t->now);
	id = name_id(name);
	if (id >= 0)
		end(t, (unsigned)id, true, err);
}

void pmc_region_begin_n(unsigned id)
{
	struct region_thread *t;

	if (on() && (t = marked(number_id(id))))
		begin(t, id);
}

void pmc_region_end_n(unsigned id)
{
	struct region_thread *t;

	if (on() && (t = marked(number_id(id))))
		end(t, id, false, 0);
}

int pmc_region_register(const char *name)
{
	int id = name ? pmc__region_id(name) : 0;

	if (id < 0 || !on())
		return id;
	return self() ? id : -ENODEV;
}

int pmc_region_get(unsigned id, uint64_t *entered, uint64_t *exited, uint64_t *values, size_t nr)
{
	struct region_thread *t;
	uint64_t *s;

	if (id >= PMC_REGION_MAX)
		return -EINVAL;
	if (!on() || !(t = self()))
		return -ENOENT;
	s = region_slot(t, id);
	if (entered)
		*entered = s[SLOT_ENTERED];
	if (exited)
		*exited = s[SLOT_EXITED];
	for (size_t e = 0; values && e < nr && e < t->nr_events; e++)
		values[e] = s[SLOT_HDR + t->nr_events + e];
	return (int)t->nr_events;
}
