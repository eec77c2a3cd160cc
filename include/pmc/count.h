/* SPDX-License-Identifier: MIT */
/* Counting: open an event list on a target, run it, read values with enabled/running times. */
#ifndef PMC_COUNT_H
#define PMC_COUNT_H

#include <sys/types.h>
#include <pmc/common.h>
#include <pmc/event.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Recipe:
 *
 *	struct pmc_target t = { .sz = sizeof(t), .kind = PMC_TARGET_COMMAND, .argv = argv };
 *	pmc_evlist__plan(evlist, false, &nr_passes);          // assign events to passes
 *	for (pass = 0; pass < nr_passes; pass++) {
 *		pmc_evlist__open(evlist, &t, pass);           // forks the command, stopped
 *		pmc_evlist__start(evlist);                     // lets it exec; counting begins
 *		pmc_evlist__wait(evlist, &status);             // waits for it to end
 *		pmc_evlist__read(evlist);                      // one read per group
 *		... pmc_evsel__count(evsel, &count) for the events of this pass ...
 *		pmc_evlist__close(evlist);
 *	}
 *
 * For PMC_TARGET_SELF, PMC_TARGET_PID, PMC_TARGET_TID and PMC_TARGET_CPUS,
 * pmc_evlist__start() enables the counters and pmc_evlist__stop() disables them; there is
 * nothing to wait for. pmc_evlist__enable() enables them again, on every target (a COMMAND
 * opened with start_disabled begins so).
 */
enum pmc_target_kind {
	PMC_TARGET_SELF,    /* the calling thread */
	PMC_TARGET_COMMAND, /* a command started by pmc, counted from its exec on */
	PMC_TARGET_PID,	    /* a running process, all of its threads */
	PMC_TARGET_CPUS,    /* CPUs (system-wide when cpus is NULL) */
	PMC_TARGET_TID,	    /* running threads (tids), each alone: not the rest of its process */
};

/* What to count or sample; an options struct (sz: see "Options structs" in pmc/common.h). */
struct pmc_target {
	size_t sz; /* sizeof(struct pmc_target) */
	enum pmc_target_kind kind;
	char *const *argv; /* COMMAND: program and arguments, argv[0] searched in PATH;
			    * CPUS, for pmc_record, and PID, TID and CPUS for pmc_run: a
			    * command run while the target is sampled or counted (NULL:
			    * until it ends or is stopped) */
	pid_t pid;	   /* PID */
	const char *cpus;  /* CPUS: "0,1", "0-3"; NULL for all online CPUs */
	bool no_inherit;   /* COMMAND/SELF: do not count children and new threads */
	int child_fd;	   /* COMMAND: an fd the command inherits (-1 or 0: none) */
	const char
		*child_fd_env; /* COMMAND: env variable that tells the command child_fd's number */
	const char *tids;      /* TID: thread ids, comma-separated ("1234,1240") */
	/*
	 * CPUS: count only the tasks of this cgroup (a path under the cgroup2 mount, with or
	 * without a leading '/'); NULL: every task
	 */
	const char *cgroup;
	/*
	 * Values per thread (pmc_evlist__nr_units()): COMMAND, each thread of the command and
	 * its children, found when each exits; CPUS with cpus NULL, each thread running when
	 * the list opens, counted on every CPU (not per CPU). PID and TID are per thread anyway.
	 */
	bool per_thread;
	bool start_disabled; /* COMMAND: the counters stay off at exec; pmc_evlist__enable() */
};

/*
 * Assigns every countable event to a pass so that the events of one pass fit on the
 * counters together (groups stay whole); with multiplex, counters the kernel can
 * time-share are unlimited, so such events share one pass, scaled (debug registers
 * cannot be time-shared: breakpoints beyond them still take more passes). On a backend
 * that cannot time-share (vpmu), multiplex is ignored: see pmc_evlist__can_multiplex(). Events that
 * fail pmc_evsel__check() get pass -1. Returns 0 and the number of passes, or a negative error
 * (-PMC_E_TOOMANY when a single group can never fit).
 */
PMC_API int pmc_evlist__plan(struct pmc_evlist *evlist, bool multiplex, int *nr_passes);

/*
 * As pmc_evlist__plan(), with each limited counter resource (general and fixed counters,
 * debug registers) divided by share (>= 1). A runner whose command also opens counters of
 * its own for the same events (regions, include/pmc/region.h) plans with share = 2, so
 * that both sets fit at once rather than being time-shared or refused. On a backend whose
 * regions read the runner's own counters (vpmu) share has no effect.
 */
PMC_API int pmc_evlist__plan_shared(struct pmc_evlist *evlist, bool multiplex, int share,
				    int *nr_passes);

/* Whether the list's backend can time-share counters (--multiplex has an effect). */
PMC_API bool pmc_evlist__can_multiplex(const struct pmc_evlist *evlist);

/* The pass the planner gave the event, -1 if it cannot be counted. */
PMC_API int pmc_evsel__pass(const struct pmc_evsel *evsel);

/*
 * A short description of the counter resource the event needs (e.g. "debug register",
 * "general counter", "software"), for pass plans. Static string.
 */
PMC_API const char *pmc_evsel__resource(const struct pmc_evsel *evsel);

/*
 * Checks target before any work, so that a run does not fail after it started: a CPUS
 * list must parse ("0,2-3": numbers, ranges, single commas) and name online CPUs, and its
 * cgroup must exist; a PID must name a running process, a TID list running threads; a
 * COMMAND must name a program. Returns 0, or -EINVAL / -ESRCH / -ENOENT with why (may be
 * NULL) saying what is wrong and what would be right ("CPU 99 is not online (the online
 * CPUs are 0-1)").
 */
PMC_API int pmc_target__check(const struct pmc_target *target, char *why, size_t len);

/*
 * Opens the events of pass (all countable events when pass is -1) on target. For a
 * command, forks it and holds it before exec. Returns 0; -PMC_E_EXEC with the reason
 * in the log when the command cannot be started; or the error of the first event that
 * could not be opened (the list is then left closed). A dry-run list (struct
 * pmc_evlist_opts) describes the calls instead and is left closed.
 *
 * When the kernel refuses one event for a reason of that event's own (the perf backend
 * probes that a plain software event opens on the same target, and that no permission
 * rule for the target refused), the refusal becomes the event's verdict: pmc_evsel__check()
 * then returns it with the reason, and the event and its group leave their pass
 * (pmc_evsel__pass() -1), so that opening the pass again opens the others. A refusal that
 * concerns the target or every event (-EACCES/-EPERM by a rule pmc_evlist__explain()
 * names, -EMFILE, -ESRCH, ...) changes no verdict.
 */
PMC_API int pmc_evlist__open(struct pmc_evlist *evlist, const struct pmc_target *target, int pass);

/*
 * Says why pmc_evlist__open() or pmc_record__open() of evlist on target failed with err, where
 * the backend can tell more than the code. For a refusal (-EACCES, -EPERM, -PMC_E_PARANOID)
 * the perf backend tries the kernel's rules with probe events and names the one that refused
 * (perf_event_paranoid with its value now and the value the request needs, ptrace access to
 * another user's process, a level above 2 that the kernel enforces, a sandbox or security
 * module) and what would allow it. A failure the rules do not reproduce (a file that cannot
 * be written, say) gets nothing. Returns 0 with the explanation in why, -ENOENT with nothing
 * to add (why is ""), or -EINVAL.
 */
PMC_API int pmc_evlist__explain(struct pmc_evlist *evlist, const struct pmc_target *target, int err,
				char *why, size_t len);

/* COMMAND: lets the command exec. Other targets: enables the counters. */
PMC_API int pmc_evlist__start(struct pmc_evlist *evlist);

/* Disables the counters (they keep their values). */
PMC_API int pmc_evlist__stop(struct pmc_evlist *evlist);

/*
 * Enables the counters of an open list on any target: after pmc_evlist__stop(), or a
 * COMMAND opened with start_disabled once pmc_evlist__start() let it run. Returns 0,
 * -EBADF when the list is not open, or -EOPNOTSUPP where the backend cannot switch
 * counters while the target runs (see pmc_evlist__counts_live()).
 */
PMC_API int pmc_evlist__enable(struct pmc_evlist *evlist);

/*
 * Whether the list's backend reads, enables and disables counters while the target runs
 * (perf: yes; vpmu: no, its counts arrive when the command ends). Intervals, delayed
 * starts and control commands of the runner need it.
 */
PMC_API bool pmc_evlist__counts_live(const struct pmc_evlist *evlist);

/* Sets the counters of the open events to zero. */
PMC_API int pmc_evlist__reset(struct pmc_evlist *evlist);

/*
 * COMMAND: waits for the command to end and stores its wait status (as waitpid(2))
 * in *status. A signal delivered to the caller interrupts the wait with -EINTR; call
 * pmc_evlist__kill() and wait again. Returns 0 or a negative errno.
 */
PMC_API int pmc_evlist__wait(struct pmc_evlist *evlist, int *status);

/* COMMAND: sends sig to the command. */
PMC_API int pmc_evlist__kill(struct pmc_evlist *evlist, int sig);

/* COMMAND: the pid of the started command, or -1. */
PMC_API pid_t pmc_evlist__child_pid(const struct pmc_evlist *evlist);

/*
 * Reads every open event (one system call per group where the backend allows) and
 * keeps the values for pmc_evsel__count(). Returns 0 or a negative errno.
 */
PMC_API int pmc_evlist__read(struct pmc_evlist *evlist);

/*
 * The value of evsel at the last pmc_evlist__read(), summed over CPUs and threads.
 * Returns 0, or -ENOENT when the event is not open in the current pass.
 */
PMC_API int pmc_evsel__count(const struct pmc_evsel *evsel, struct pmc_count *out);

/*
 * Reads the group led by leader straight from the counters, one system call (or rdpmc
 * where the kernel allows): values[i] is the i-th member. nr is the capacity of values.
 * The fast path: no allocation. SELF/PID targets on one thread only. Returns the number
 * of values or a negative errno.
 */
PMC_API int pmc_evsel__read_group(const struct pmc_evsel *leader, struct pmc_count *values,
				  size_t nr);

/* Closes every open counter (and reaps a command that was never started). */
PMC_API void pmc_evlist__close(struct pmc_evlist *evlist);

#ifdef __cplusplus
}
#endif
#endif /* PMC_COUNT_H */
