// SPDX-License-Identifier: MIT
/* A thread's region table: its own counters and one slot per region id, allocated once. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "region/arena.h"
#include "region/region.h"

int pmc__region_thread_new(const struct pmc__region_config *cfg, struct region_thread **out)
{
	struct region_thread *t = calloc(1, sizeof(*t));
	size_t words;
	int err;

	if (!t)
		return -ENOMEM;
	err = pmc__region_reader_open(cfg, &t->reader);
	if (err) {
		free(t);
		return err;
	}
	t->nr_events = t->reader->nr_events;
	t->stride = SLOT_HDR + 2 * t->nr_events;
	words = (size_t)PMC_REGION_MAX * t->stride;
	t->pid = getpid();
	t->tid = (pid_t)syscall(SYS_gettid);
	t->now = calloc(t->nr_events, sizeof(*t->now));
	/* Under the runner, in the arena, where the runner finds it whatever way we exit. */
	t->table = pmc__region_arena_table(t->tid, words, t->nr_events, t->reader->names);
	if (!t->table && (t->table = malloc(words * sizeof(*t->table))))
		/* Touch every page now, so that no marker takes a page fault on a fresh slot. */
		memset(t->table, 0, words * sizeof(*t->table));
	if (!t->now || !t->table) {
		pmc__region_thread_delete(t);
		return -ENOMEM;
	}
	t->live = true;
	*out = t;
	return 0;
}

void pmc__region_thread_retire(struct region_thread *t)
{
	struct pmc__region_reader *r = t->reader;

	if (!r)
		return;
	t->live = false;
	t->reader = NULL;
	r->ops->close(r);
}

void pmc__region_thread_delete(struct region_thread *t)
{
	if (!t)
		return;
	if (t->reader)
		t->reader->ops->close(t->reader);
	free(t->now);
	if (!pmc__region_arena_holds(t->table))
		free(t->table);
	free(t);
}

void pmc__region_thread_settle(struct region_thread *t)
{
	if (!t->reader || t->reader->ops->read(t->reader, t->now))
		return;
	for (unsigned id = 0; id < PMC_REGION_MAX; id++) {
		uint64_t *s = region_slot(t, id);

		if (!s[SLOT_DEPTH])
			continue;
		for (size_t e = 0; e < t->nr_events; e++)
			s[SLOT_HDR + t->nr_events + e] += t->now[e] - s[SLOT_HDR + e];
		/* The entries stay open: the record reports them as open at exit. */
		memcpy(&s[SLOT_HDR], t->now, t->nr_events * sizeof(*t->now));
	}
}
