/* SPDX-License-Identifier: MIT */
/*
 * The runner of run_p5mon, as a library: a warm-up run, then each pass of an event list
 * repeated, the command started and its end reported, what its region markers counted
 * collected, and every value summarised with a confidence interval; the calibrated overhead
 * subtracted on request. pmc stat and pmc calibrate are option parsing and text on top of it.
 *
 * The library installs no signal handlers: the caller owns SIGINT, SIGTERM and SIGHUP and
 * calls pmc_run__stop() from its handler, which passes the signal on to the command.
 */
#ifndef PMC_RUN_H
#define PMC_RUN_H

#include <stdio.h>
#include <pmc/common.h>
#include <pmc/count.h>
#include <pmc/metric.h>
#include <pmc/stat.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most repetitions of a pass: each event keeps one value per repetition. */
#define PMC_RUN_MAX_REPEAT 1000000

/* Where the runner stands, for progress callbacks. */
struct pmc_run_progress {
	int pass, nr_passes;
	int rep;    /* -1: the warm-up run */
	int repeat; /* repetitions of each pass */
	double elapsed_s;
};

struct pmc_run_event;
struct pmc_run_interval;

/*
 * Values per unit (results->units): none (totals only), per CPU (perf -A), per physical core,
 * per die or per socket of the CPUs counted (from sysfs's topology), or per thread (perf
 * --per-thread). CPU, CORE, DIE and SOCKET need a CPUS target; THREAD a target counted per
 * thread (PID, TID, or COMMAND and CPUS with pmc_target.per_thread).
 */
enum pmc_run_aggr {
	PMC_RUN_AGGR_GLOBAL,
	PMC_RUN_AGGR_CPU,
	PMC_RUN_AGGR_CORE,
	PMC_RUN_AGGR_SOCKET,
	PMC_RUN_AGGR_THREAD,
	PMC_RUN_AGGR_DIE, /* --per-die: each die of each socket (needs a CPUS target) */
};

struct pmc_run_opts {
	size_t sz;	     /* sizeof(struct pmc_run_opts) */
	int repeat;	     /* repetitions of each pass, 1 to PMC_RUN_MAX_REPEAT (0: 1) */
	bool no_warmup;	     /* no warm-up run (never one for a PID target) */
	bool multiplex;	     /* values scaled by running/enabled time (planned so by the caller) */
	double level;	     /* confidence level of the summaries (0: 0.95) */
	unsigned priv;	     /* PMC_PRIV_* of the command's region counters (0: user) */
	const char *backend; /* the command's region counters' backend (NULL: the default) */
	bool per_thread;     /* regions: values per thread too */
	bool subtract_overhead;	 /* subtract the calibrated overhead (docs/calibration.md) */
	const char *calibration; /* the calibration file (NULL: this machine's default) */
	const char *who;	 /* prefix of the runner's warnings on the log ("pmc stat") */
	void (*progress)(const struct pmc_run_progress *p, void *arg); /* before each run */
	void *arg;
	/*
	 * optional: called when opening a pass refuses an event that pmc_evsel__check() had
	 * accepted (the kernel's answer for this target; pmc_evlist__open()), with e already
	 * marked unsupported and its why written, before the command runs. 0: the event is
	 * shown unsupported and the others are counted, as perf goes on; non-zero stops the run
	 * there: pmc_run__execute() returns -PMC_E_UNSUPPORTED, why_failed names the event.
	 */
	int (*on_refusal)(const struct pmc_run_event *e, void *arg);
	/*
	 * Live counting (docs/stat-output.md, "Intervals", "Control"): options that need a
	 * backend that counts live (pmc_evlist__counts_live(); pmc_run__new() returns
	 * -EOPNOTSUPP otherwise).
	 *
	 * interval_ms > 0: while a run counts, on_interval every interval_ms with what each
	 * event counted since the last call, and once more when the run ends (last), so that
	 * a run's intervals sum to its values.
	 */
	int interval_ms;
	void (*on_interval)(const struct pmc_run_interval *iv, void *arg);
	/*
	 * delay_ms > 0: counting begins delay_ms after the run starts (the command's exec, or
	 * the counters' start for other targets); -1: only on a control "enable".
	 */
	int delay_ms;
	/*
	 * ctl_fd > 0: perf's control protocol (docs/stat-output.md, "Control"): lines
	 * "enable", "disable", "enable NAME", "disable NAME", "ping" read while a run counts;
	 * each acknowledged with "ack\n" on ack_fd (> 0) once done. Non-blocking fds are best.
	 */
	int ctl_fd, ack_fd;
	/* optional: counting was switched on or off (only: that event alone; NULL: all). */
	void (*on_enable)(bool on, const struct pmc_evsel *only, void *arg);
	/*
	 * optional: called before each run (before its counters open) and after it (after they
	 * close), with where the runner stands; non-zero stops the runner there
	 * (pmc_run__execute() returns -ECANCELED, why_failed says which).
	 */
	int (*before_run)(const struct pmc_run_progress *p, void *arg);
	int (*after_run)(const struct pmc_run_progress *p, void *arg);
	enum pmc_run_aggr aggr; /* values per unit too (results->units) */
	/*
	 * The trust file of pmc validate (docs/accuracy.md, "The trust file"): NULL, none; ""
	 * this machine's (pmc_trust_default_path()), used when it exists; else that file. Each
	 * event's verdict is then in results->trust. One made on another CPU or kernel is
	 * ignored, and results->trust_note says why.
	 */
	const char *trust;
	/*
	 * Metrics to compute from the results (docs/metrics.md, "In pmc stat"): a set whose
	 * selection is made and whose events were added to the event list
	 * (pmc_metrics__add_events()) before it was planned; the caller keeps it, unchanged,
	 * until the run is deleted. NULL: none. See pmc_run__metrics().
	 */
	struct pmc_metrics *metrics;
};

/* One event over the repetitions of its pass. */
struct pmc_run_event {
	struct pmc_evsel *evsel;
	bool supported; /* pmc_evsel__check() accepted it, and no open refused it since */
	char why[512];	/* when !supported: pmc_evsel__check()'s reason */
	int nr;		/* repetitions counted */
	double *values; /* [nr]: scaled when multiplexed, overhead subtracted when asked */
	double *ratio;	/* [nr]: running / enabled time */
	bool scaled;	/* some repetition ran less than all the time */
	struct pmc_summary sum;
	double overhead; /* subtracted from each value (0 without subtract_overhead) */
	int nr_clamped;	 /* repetitions whose count was below the overhead: counted as 0 */
	/* The name it is printed under when not its evsel's: a --hybrid-merge line's "cycles"
	 * (pmc_run_events__merge()); NULL otherwise. */
	const char *name;
};

/* What pmc_run_events__merge() merges into one line, as perf's outputs do. */
enum pmc_run_merge {
	/* One written event on several PMU units (pmc_evsel__merged_into(): uncore_imc/x/ on
	 * uncore_imc_0..N): perf's default, which --no-merge turns off. */
	PMC_RUN_MERGE_UNITS = 1 << 0,
	/* One generic event opened per core PMU (pmc_evsel__hybrid_name(): cpu_core/cycles/ and
	 * cpu_atom/cycles/), named as written ("cycles"): perf's --hybrid-merge. */
	PMC_RUN_MERGE_HYBRID = 1 << 1,
};

/*
 * The index of the first of events[0..nr) that events[i] merges into under by (enum
 * pmc_run_merge bits): i itself when it is the first of its line or merges with none.
 */
PMC_API size_t pmc_run_events__merge_first(const struct pmc_run_event *events, size_t nr, size_t i,
					   unsigned by);
/*
 * events[i] (the first of its line) with every later event of its line as one, into *out:
 * the counted members' values summed repetition by repetition (the fewest repetitions of
 * them), their ratios' mean, summarised at level; supported when one of them is (events[i]'s
 * why otherwise); a lone event as it is. out's arrays are its own (pmc_run_event__fini());
 * the evsel stays events[i]'s. Returns how many events the line holds, or -ENOMEM.
 */
PMC_API int pmc_run_events__merge_one(const struct pmc_run_event *events, size_t nr, size_t i,
				      unsigned by, double level, struct pmc_run_event *out);
/* Frees the arrays of an event pmc_run_events__merge_one() filled. Accepts NULL. */
PMC_API void pmc_run_event__fini(struct pmc_run_event *e);
/*
 * Every line of events[nr] under by, in the place of its first event: a new array in *out
 * (nr_out events) that pmc_run_events__delete() frees. Returns 0 or -ENOMEM.
 */
PMC_API int pmc_run_events__merge(const struct pmc_run_event *events, size_t nr, unsigned by,
				  double level, struct pmc_run_event **out, size_t *nr_out);
/* Frees what pmc_run_events__merge() handed out. Accepts NULL. */
PMC_API void pmc_run_events__delete(struct pmc_run_event *events, size_t nr);

/* One region, thread (or all threads) and event over the repetitions of its pass. */
struct pmc_run_cell {
	int nr;		 /* repetitions stored */
	double *values;	 /* [nr], the overhead per entry subtracted when asked */
	double *entered; /* [nr]: entries in that run */
	struct pmc_summary sum;
	double per_entry; /* mean / mean entries */
	/* [nr]: of those entries, the ones made with the named marker, pmc_region_begin(name)
	 * (the others by id); each form's calibrated cost is subtracted (docs/accuracy.md) */
	double *named;
	int nr_clamped; /* repetitions whose count was below the overhead: counted as 0 */
};

/*
 * One unit's values (aggr): a CPU ("CPU3"), a core ("S0-D0-C1", perf's label), a socket
 * ("S0") or a thread ("name-tid"). events[i] is event i of the results counted on this unit
 * alone, with its own values and summary; its evsel, supported and why are the total's.
 */
struct pmc_run_unit {
	char label[48];
	int cpu;     /* CPU: the CPU; CORE, SOCKET: the first CPU of the unit; THREAD: -1 */
	int nr_cpus; /* CPUs in the unit (0 for a thread) */
	int socket, die, core;	      /* from sysfs (-1 when unknown or not a CPU unit) */
	pid_t pid, tid;		      /* THREAD: the thread and its process; else -1 */
	struct pmc_run_event *events; /* [nr_events] */
};

/*
 * What each event counted in one interval of a run (interval_ms): events[i].values[0] holds
 * event i's count since the previous interval (nr 1), or nothing (nr 0) when it is not in
 * this run's pass. units as results->units, for the units read live (CPUs, and the threads
 * of PID and TID targets; the threads of a COMMAND are known only when each exits: none).
 */
struct pmc_run_interval {
	int pass, rep; /* rep -1: the warm-up run */
	double t_s;    /* seconds since the run started counting */
	double span_s; /* the interval's length */
	bool last;     /* the run's last interval: it ended (its length may be shorter) */
	size_t nr_events;
	const struct pmc_run_event *events;
	size_t nr_units;
	const struct pmc_run_unit *units;
};

struct pmc_run_region {
	char *name;
	bool counted;
	bool varies;			      /* entered/exited differ between runs */
	uint64_t entered, exited;	      /* in the first counted run */
	uint64_t open_at_exit, unmatched_end; /* over every run */
	int nr_threads;			      /* per_thread: threads that entered it */
	size_t nr_slots;		      /* 1 + threads with cells */
	struct pmc_run_cell *cells;	      /* [nr_slots * nr_events]: slot 0 = all threads */
};

/*
 * What a run found. The library owns it (valid until pmc_run__delete()); fields are only
 * ever added at the end.
 */
struct pmc_run_results {
	int nr_passes;
	size_t nr_events;
	struct pmc_run_event *events; /* [nr_events], in the list's order */
	double elapsed_s;	      /* wall time of all runs (see also run_wall_s) */
	int status;		      /* wait status of the command's last run */
	bool have_status;	      /* a command ran (status is valid) */
	bool exec_failed;	      /* the command could not be started */
	int stop_signal;	      /* pmc_run__stop()'s signal: stopped early (0: not) */
	bool in_warmup;		      /* the last run was the warm-up run */
	bool regions_seen;	      /* the command reported regions */
	bool replanned;		      /* passes planned again to leave its regions room */
	size_t nr_regions;
	struct pmc_run_region *regions;
	uint64_t bad_ids, failed_reads; /* markers of unknown ids; failed reads in markers */
	uint64_t unopened;		/* threads that entered regions but opened no counters */
	int bad_runs;			/* runs whose region results were unreadable */
	const char *calibration;	/* the file subtracted (NULL: none) */
	const char *calibration_date;
	double *overhead_entry; /* [nr_events]: subtracted per region entry */
	int nr_reps;		/* repetitions counted: the most of any event */
	int nr_region_reps;	/* the most of any region's cell */
	uint64_t lost_records;	/* the command's region records that could not be read */
	char why_failed[512]; /* when counting failed: which rule refused (pmc_evlist__explain()) */
	size_t nr_units;      /* opts.aggr: the units, sorted (CPU, core, socket, thread id) */
	struct pmc_run_unit *units;
	uint64_t lost_threads; /* per-thread COMMAND: threads whose values could not be kept */
	/*
	 * Each counted run's wall time (perf's "seconds time elapsed" of one run) and, when pmc
	 * started the command, its user and system CPU time (rusage): [nr_runs], pass by pass,
	 * repetition by repetition (the warm-up's times stand in the first repetition's place,
	 * as its values do). wall, user and sys summarise the runs of one pass, wall_pass (the
	 * first that ran: where the tool events are counted), never runs of different passes,
	 * which count different events and may do different work; user and sys are 0 without
	 * have_rusage (-p, -a or -C targets).
	 */
	int nr_runs;
	double *run_wall_s, *run_user_s, *run_sys_s;
	bool have_rusage;
	struct pmc_summary wall, user, sys;
	/*
	 * opts.trust: the file read (NULL: none was), each event's verdict in it ([nr_events]:
	 * "exact", "bias +4 per run", "factor 1.02", "random" or "not validated here"), or why
	 * it was not used (NULL: nothing to say).
	 */
	const char *trust_file;
	char **trust;
	const char *trust_note;
	/*
	 * subtract_overhead: what each event's whole-program values had subtracted
	 * ([nr_events]): PMC_RUN_OVERHEAD_NONE, _CALIBRATED (the calibration file's empty
	 * program) or _VALIDATED (the trust file's per-run bias, preferred where the event has
	 * one). Region values always have the calibrated per-entry overhead subtracted.
	 */
	unsigned char *overhead_from;
	/*
	 * With a calibration: [nr_events], the count subtracted from a run's first region entry
	 * (a process's first entry pays lazy binding) instead of overhead_entry; equal to
	 * overhead_entry where the calibration has no first_entry. It is charged to
	 * first_entry_region, the region registered first (NULL: no regions or no calibration).
	 */
	double *overhead_first_entry;
	const char *first_entry_region;
	/*
	 * Each pass's wall time over its own runs ([nr_passes]; n 0 for a pass that did not
	 * run), and the pass that wall, user and sys are of (-1: no run was timed).
	 */
	struct pmc_summary *pass_wall;
	int wall_pass;
	/*
	 * The command's region records read from the memory it shared with the runner, not
	 * written by their processes (they left with _exit(), crashed or were killed:
	 * docs/regions.md, "The arena"); counted, not lost.
	 */
	uint64_t recovered_records;
};

enum { PMC_RUN_OVERHEAD_NONE, PMC_RUN_OVERHEAD_CALIBRATED, PMC_RUN_OVERHEAD_VALIDATED };

struct pmc_run;

/*
 * A runner of evlist (parsed and planned; the caller keeps it and deletes it after the run)
 * on target (COMMAND, PID or CPUS; copied, argv is not). Each event is checked with
 * pmc_evsel__check(). Returns 0, -EINVAL for bad options, -ENOMEM.
 */
PMC_API int pmc_run__new(struct pmc_evlist *evlist, const struct pmc_target *target,
			 const struct pmc_run_opts *opts, struct pmc_run **out);
PMC_API void pmc_run__delete(struct pmc_run *run);

/*
 * Runs the warm-up and every pass's repetitions, then summarises. Stops after a run when the
 * command was killed by a signal or pmc_run__stop() was called; what was counted is kept.
 * An event the kernel refuses when its pass opens, for a reason of its own (see
 * pmc_evlist__open()), becomes unsupported with the reason, and the pass is opened again
 * without it (and its group); a pass left with no event is not run. Returns 0;
 * -PMC_E_EXEC when the command could not be started; -PMC_E_UNSUPPORTED when on_refusal
 * stopped the run; or the error that stopped counting (the results hold what was counted
 * before it).
 */
PMC_API int pmc_run__execute(struct pmc_run *run);

/*
 * Async-signal-safe: stops the run after the current one and sends sig to the command (or,
 * for a PID or CPU target, ends the counting). Meant for the caller's signal handler.
 */
PMC_API void pmc_run__stop(struct pmc_run *run, int sig);

PMC_API const struct pmc_run_results *pmc_run__results(const struct pmc_run *run);

/* The cell of region r, thread (-1: all threads) and event idx; NULL when none. */
PMC_API const struct pmc_run_cell *pmc_run__cell(const struct pmc_run *run, size_t r, int thread,
						 size_t idx);

/* One metric of a run, in its scope (pmc_run_opts.metrics). */
struct pmc_run_metric_row {
	const char *region; /* a region's name, NULL: the whole program or a unit */
	int thread;	    /* with region: its thread (opts.per_thread), -1: all its threads */
	long unit;	    /* without region: index of results->units, -1: not a unit's */
	struct pmc_metric_summary s;
};

/*
 * With opts.metrics: each selected metric over the results, computed when pmc_run__execute()
 * summarises, in this order: the whole program, then each region (its threads after it, with
 * opts.per_thread), then each unit (opts.aggr); the results files carry them
 * (docs/stat-output.md, "Metrics"). Owned by the run (valid until pmc_run__delete() or the
 * next pmc_run__execute()); *nr is how many. NULL (and *nr 0) without metrics.
 */
PMC_API const struct pmc_run_metric_row *pmc_run__metrics(const struct pmc_run *run, size_t *nr);

/*
 * Each selected metric of opts.metrics over events[results->nr_events] (in the results' order:
 * a unit's, or an interval's pmc_run_interval.events), into a new array *out of *nr
 * summaries that pmc_run_metrics__delete() frees. Returns 0, -EINVAL (no metrics asked for)
 * or -ENOMEM.
 */
PMC_API int pmc_run__metrics_of(const struct pmc_run *run, const struct pmc_run_event *events,
				struct pmc_metric_summary **out, size_t *nr);
/* Frees what pmc_run__metrics_of() handed out. Accepts NULL. */
PMC_API void pmc_run_metrics__delete(struct pmc_metric_summary *s, size_t nr);

/*
 * A results file of pmc stat (schema pmc-stat/1, docs/stat-output.md) read back, to compute
 * metrics from its counts as the runner computes them from its own (pmc metrics FILE.json;
 * docs/metrics.md, "pmc metrics"):
 *
 *   pmc_run_saved__read(path, &s, why, sizeof(why));
 *   pmc_metrics__new(&(struct pmc_metrics_opts){..., .backend = pmc_run_saved__backend(s)}, ...);
 *   pmc_run_saved__select(s, m, &err);       the metrics the file holds (or select others)
 *   pmc_run_saved__metrics(s, m, &rows, &nr, &own);
 *   pmc_run_saved__delete(s);
 */
struct pmc_run_saved;

/*
 * Reads the results file at path into *out (pmc_run_saved__delete()). Returns 0;
 * pmc_open_input()'s error when path cannot be opened or is not a regular file (a FIFO, a
 * device or a folder is refused, not read; why says which);
 * -PMC_E_PARSE when it cannot be read as JSON (why, len bytes: the reason and its line);
 * -PMC_E_FORMAT when it is no pmc stat results file; -ENOMEM.
 */
PMC_API int pmc_run_saved__read(const char *path, struct pmc_run_saved **out, char *why,
				size_t len);
/* Frees s and its rows. Accepts NULL. */
PMC_API void pmc_run_saved__delete(struct pmc_run_saved *s);
/* The backend that counted (its provenance), or NULL; owned by s. */
PMC_API const char *pmc_run_saved__backend(const struct pmc_run_saved *s);
/*
 * Selects in m the metrics the file holds, each by its name where m knows it, else defined
 * again from its saved formula (a one-off of the run). Returns 0, or the error of
 * pmc_metrics__select() or pmc_metrics__define() with err (may be NULL).
 */
PMC_API int pmc_run_saved__select(const struct pmc_run_saved *s, struct pmc_metrics *m,
				  struct pmc_metric_error *err);
/*
 * Each selected metric of m over the file's counts, in the scopes and order of
 * pmc_run__metrics() (a unit is the file's unit of that index), at the file's confidence level
 * and with the '#' literals of the machine that counted: *own_literals (may be NULL) is set
 * when the file does not record them and this machine's were used. *rows is s's until the
 * next call or pmc_run_saved__delete(). Returns 0; -PMC_E_FORMAT for malformed counts;
 * -ENOMEM.
 */
PMC_API int pmc_run_saved__metrics(struct pmc_run_saved *s, struct pmc_metrics *m,
				   const struct pmc_run_metric_row **rows, size_t *nr,
				   bool *own_literals);
/* The file's units (-A, --per-core, --per-thread, ...): how many, and each one's label. */
PMC_API size_t pmc_run_saved__nr_units(const struct pmc_run_saved *s);
PMC_API const char *pmc_run_saved__unit_label(const struct pmc_run_saved *s, size_t u);

enum pmc_run_format {
	PMC_RUN_FORMAT_TEXT, /* the results file of run_p5mon (docs/stat-output.md) */
	PMC_RUN_FORMAT_CSV,
	PMC_RUN_FORMAT_JSON, /* schema "pmc-stat/1" */
	PMC_RUN_FORMAT_HTML, /* one self-contained page drawing the pmc-stat/1 model */
};

#define PMC_RUN_ALL_RESULTS 0x1u /* every repetition's value, not only summaries */

/*
 * Writes the results in one of the machine formats of docs/stat-output.md. Strings are
 * kept whole: JSON escapes bytes that are not UTF-8, CSV quotes every field that needs it.
 * Returns 0 or -errno.
 */
PMC_API int pmc_run__write(const struct pmc_run *run, FILE *f, enum pmc_run_format fmt,
			   unsigned flags);

/*
 * This machine's calibration file: $PMC_CALIBRATION, else
 * ${XDG_DATA_HOME:-~/.local/share}/pmc/calibration-<hostname>.json. Caller frees; NULL
 * when out of memory.
 */
PMC_API char *pmc_calibration_default_path(void);

/*
 * This machine's trust file (pmc validate's verdicts): $PMC_TRUST, else
 * ${XDG_DATA_HOME:-~/.local/share}/pmc/trust-<hostname>.json. Caller frees; NULL when out of
 * memory.
 */
PMC_API char *pmc_trust_default_path(void);

/*
 * Makes path ready to take a results file, before anything is measured: path is where pmc
 * calibrate or pmc validate will write (pmc_calibration_default_path(),
 * pmc_trust_default_path(), or a file the user named). When its folder is pmc's data
 * folder, ${XDG_DATA_HOME:-~/.local/share}/pmc, that folder and its missing parents are made
 * with mode 0700 as the XDG base directory spec asks (an existing folder keeps its mode), and
 * the folder is refused when it is a symbolic link another user owns, or is not a folder of
 * the caller's that no one else can write (docs/security.md, "pmc's data folder"). Then a
 * temporary file is made beside path and removed (pmc_outfile), so that a folder that takes no
 * file is said now rather than after the measuring. "-" and NULL are ready. why (len bytes)
 * says what failed, on which folder or file. Returns 0, -PMC_E_UNSAFELINK, -EPERM, -ENOTDIR,
 * or the negative errno of the failed call (-EACCES, -EROFS, -ENOENT, ...).
 */
PMC_API int pmc_data_file_prepare(const char *path, char *why, size_t len);

/*
 * fork(2) for a helper process that must not outlive the caller, as the commands the runner
 * starts do not: the child asks the kernel for SIGKILL when the caller goes
 * (PR_SET_PDEATHSIG) and exits at once (status 127) if the caller was gone before that. The
 * signal comes when the *thread* that called pmc_fork() ends, not the caller's process; it
 * reaches the child only (not the child's own children), and an exec of a set-user-ID or
 * set-group-ID program clears it.
 * Returns 0 in the child, the child's pid in the caller, or a negative errno (fork failed).
 */
PMC_API int pmc_fork(void);

#ifdef __cplusplus
}
#endif
#endif /* PMC_RUN_H */
