/* SPDX-License-Identifier: MIT */
/* The generic state of an open event list; each backend embeds it first in its own. */
#ifndef PMC_LIB_COUNT_COUNTING_H
#define PMC_LIB_COUNT_COUNTING_H

#include <stdbool.h>
#include <stdint.h>
#include <pmc/count.h>

struct pmc_backend_ops;
struct pmc_child;

/*
 * The pid a dry run passes for a command it does not start (struct pmc_target's dry_run);
 * backends describe it as "<command>". No process has it: perf_event_open(2) refuses it.
 */
#define PMC__DRY_RUN_CHILD_PID ((pid_t)-2)

/* A unit with values of its own (pmc_target.per_thread, CPUS, PID, TID): a CPU or a thread. */
struct pmc__unit {
	int cpu;	/* -1: a thread, counted on every CPU */
	pid_t pid, tid; /* -1: every task on the CPU */
	char comm[16];	/* the thread's name when known, else "" */
};

struct pmc_counting {
	const struct pmc_backend_ops *ops;
	struct pmc_evlist *evlist;
	struct pmc_target target; /* a copy; argv and strings still belong to the caller */
	int pass;		  /* the pass opened, -1 for all countable events */
	struct pmc_child *child;  /* COMMAND: the started command */
	struct pmc_count *values; /* [evlist->nr]: values at the last read */
	bool *open;		  /* [evlist->nr]: the event is open in this pass */
	bool started;
	/*
	 * Per unit, at the last read (kept by the backend where its units have values apart):
	 * unit_values[u * evlist->nr + idx]. units_live: the same units at every read (a CPU or
	 * thread counter each); false: found as threads ended (a COMMAND's threads).
	 */
	int nr_units;
	struct pmc__unit *units;
	struct pmc_count *unit_values;
	bool units_live;
	uint64_t lost_units; /* threads whose values the backend could not keep */
	/* The tool events' sources: the run's wall clock and the command's rusage. */
	uint64_t start_ns, end_ns; /* CLOCK_MONOTONIC at start and at the end (0: not yet) */
};

/* What one run took, for the tool events and the runner (all in ns). */
struct pmc__run_times {
	uint64_t wall_ns;
	bool have_rusage; /* a command pmc started was reaped: user and sys are its own */
	uint64_t user_ns, sys_ns;
};

/*
 * Parses a TID target's list ("1234,1240": thread ids and single commas) into a new array
 * (*out, the caller frees it). Returns the count, or -EINVAL with why (may be NULL), -ENOMEM.
 */
int pmc__tid_list(const char *list, pid_t **out, char *why, size_t len);

/* Fills the generic part; allocates values and open. Returns 0 or -ENOMEM. */
int pmc__counting_init(struct pmc_counting *c, struct pmc_evlist *evlist,
		       const struct pmc_target *target, int pass);
/* Frees what pmc__counting_init() allocated and reaps an unreleased child. */
void pmc__counting_fini(struct pmc_counting *c);
/* Whether evsel belongs to the opened pass, is countable and is a backend's to open (no tool
 * event is). */
bool pmc__counting_selects(const struct pmc_counting *c, const struct pmc_evsel *evsel);
/*
 * Makes room for nr units in c (units and unit_values, zeroed, replacing what was there).
 * Returns 0 or -ENOMEM (c then has no units).
 */
int pmc__counting_units(struct pmc_counting *c, int nr);

/*
 * The units of evlist's open list at its last read: how many (0 when the backend keeps no
 * values per unit, or the list is not open), unit i, and evsel's value on unit i (-ENOENT
 * when the event is not open, i is out of range, or an uncore event has no counter there).
 */
int pmc__evlist_nr_units(const struct pmc_evlist *evlist);
const struct pmc__unit *pmc__evlist_unit(const struct pmc_evlist *evlist, int i);
int pmc__evsel_count_unit(const struct pmc_evsel *evsel, int i, struct pmc_count *out);
/* Whether the units are read live (see struct pmc_counting); threads lost so far. */
bool pmc__evlist_units_live(const struct pmc_evlist *evlist);
uint64_t pmc__evlist_lost_units(const struct pmc_evlist *evlist);
/* Switches counting of evsel alone on or off (control commands that name an event). */
int pmc__evsel_set_enabled(struct pmc_evsel *evsel, bool on);

/*
 * The times of evlist's open run, once it ended (the command reaped, or the counters
 * stopped). Returns 0, -EBADF when the list is not open, -EAGAIN when the run has not ended.
 */
int pmc__counting_times(const struct pmc_evlist *evlist, struct pmc__run_times *out);
/*
 * When evlist's open run started counting (pmc_evlist__start(): CLOCK_MONOTONIC, ns, taken
 * before a command is released to exec), the origin of its wall time. Returns 0, -EBADF when
 * the list is not open, -EAGAIN when it was not started.
 */
int pmc__counting_start_ns(const struct pmc_evlist *evlist, uint64_t *out);

/*
 * check.c: makes err (negative) and why the event's cached verdict, as pmc_evsel__check() would
 * have given them, for a refusal found after the check (the kernel's answer at open); the event and
 * the rest of its group leave their pass (pass -1), as the planner leaves out a group with an
 * uncountable member. Returns 0, or -ENOMEM when why could not be copied (the verdict is set all
 * the same, without a reason).
 */
int pmc__evsel_refuse(struct pmc_evsel *evsel, int err, const char *why);

#endif /* PMC_LIB_COUNT_COUNTING_H */
