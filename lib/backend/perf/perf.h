/* SPDX-License-Identifier: MIT */
/* Internals of the perf backend (perf_event_open(2)). */
#ifndef PMC_LIB_BACKEND_PERF_PERF_H
#define PMC_LIB_BACKEND_PERF_PERF_H

#include <linux/perf_event.h>
#include <sys/types.h>
#include "core/compiler.h"
#include "count/counting.h"

struct pmc_caps;
struct pmc_backend_caps;
struct pmc_evsel;

/*
 * A dry run (struct pmc_evlist_opts' dry_run): fn non-NULL describes each call to it instead of
 * making it; next_fd is the placeholder the next call returns, counted from 3 as a process
 * with only stdin, stdout and stderr would get them. fn NULL: calls are made. An attr
 * block is printed when the attr differs from the last call's, as perf record prints one
 * per event before its calls on each CPU.
 */
struct perf_dry_run {
	pmc_dry_run_fn fn;
	void *arg;
	bool attrs;
	int next_fd;
	struct perf_event_attr last; /* the attr of the last call described, to print once */
};

/*
 * Open counters: one fd per event and unit, where a unit is a thread (SELF, COMMAND,
 * PID) or a CPU (CPUS). fds[idx * nr_units + unit], -1 where not open.
 */
struct perf_counting {
	struct pmc_counting base;
	int nr_units;
	pid_t *pids; /* [nr_units]: the pid argument of each unit */
	int *cpus;   /* [nr_units]: the cpu argument of each unit */
	int *fds;
	bool *grouped; /* [evlist->nr]: the leader reads its members with PERF_FORMAT_GROUP */
	struct perf_event_mmap_page **pages; /* [evlist->nr]: SELF only, for rdpmc; or NULL */
	/*
	 * A PERF_FORMAT_GROUP read of the largest group: nr, enabled, running and one value per
	 * member (group_words in all), allocated at open so that reads in markers allocate nothing.
	 */
	uint64_t *group_buf;
	size_t group_words;
	struct perf_dry_run dry; /* fds are placeholders when dry.fn is set */
	/* units.c: how units were made (the target's modes) */
	unsigned long open_flags;     /* PERF_FLAG_PID_CGROUP with a cgroup */
	int cgroup_fd;		      /* the cgroup's folder (pids[] hold it), or -1 */
	bool skip_gone;		      /* a thread that ended before its open is left out */
	struct perf_threads *threads; /* threads.c: a COMMAND counted per thread, or NULL */
	/*
	 * uncore.c: the units of every event but uncore ones: all of them (nr_units), or the
	 * first ones when uncore events of a task's run have units of their own after them (pid
	 * -1 on their PMUs' cpumask CPUs: an uncore PMU counts system-wide).
	 */
	int nr_task_units;
	bool uncore_apart; /* uncore events have the units from nr_task_units on */
};

static inline struct perf_counting *to_perf(struct pmc_counting *c)
{
	return container_of(c, struct perf_counting, base);
}

static inline int *perf_fd(struct perf_counting *pc, size_t idx, int unit)
{
	return &pc->fds[idx * (size_t)pc->nr_units + (size_t)unit];
}

/* exttype.c: the backend's extended_type hook. */
int pmc__perf_extended_type(uint32_t pmu_type);
/* sys.c */
int pmc__perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
			 unsigned long flags);
/* dryrun.c: the dry-run state of evlist (fn NULL when it asks for none). */
void pmc__perf_dry_run_init(struct perf_dry_run *d, const struct pmc_evlist *evlist);
/*
 * pmc__perf_event_open(), or its description when d is a dry run (d may be NULL): then the
 * return value is a placeholder fd that must not be used or closed.
 */
int pmc__perf_open_call(struct perf_dry_run *d, struct perf_event_attr *attr, pid_t pid, int cpu,
			int group_fd, unsigned long flags);
/*
 * The permission probes (probe.c): a software event opened and closed at once, to learn what
 * the kernel lets this process count. USER: task-clock at user level on pid (0: pmc itself);
 * KERNEL: the same with the kernel included; CPU: cpu-clock on cpu, every task (-a, -C).
 */
enum perf_probe_scope { PERF_PROBE_USER, PERF_PROBE_KERNEL, PERF_PROBE_CPU };
/* Opens and closes the probe event (pid is ignored for CPU, cpu otherwise). 0 or -errno. */
int pmc__perf_probe_open(enum perf_probe_scope scope, pid_t pid, int cpu);
/* A CPU that is online, for CPU probes: the one this thread runs on. */
int pmc__perf_probe_cpu(void);
/* Says in why which of the kernel's rules refused events on target (deny.c); see there. */
int pmc__perf_why_denied(struct pmc_evsel *const *evs, size_t nr, const struct pmc_target *target,
			 char *why, size_t len);
/*
 * deny.c, for a kernel-side event without :u/:k/:h where the kernel refuses this caller the
 * kernel (probed) but not user level: why one that happens only in the kernel cannot be
 * counted (returns -PMC_E_PARANOID, or -EACCES when perf_event_paranoid allows it and
 * something else refuses), and the note of one counted at user level instead.
 */
int pmc__perf_say_kernel_only(char *why, size_t len);
void pmc__perf_say_user_fallback(char *note, size_t len);
/*
 * refusal.c: explains the kernel's err (-errno) for evsel on target (NULL: the check's trial
 * open on pmc itself) into why; returns the verdict's code (-PMC_E_NOPMU, -PMC_E_PARANOID,
 * -EACCES, -PMC_E_NOTRACEFS, -PMC_E_TOOMANY, -PMC_E_UNSUPPORTED).
 */
int pmc__perf_explain(int err, struct pmc_evsel *evsel, const struct pmc_target *target, char *why,
		      size_t len);
/*
 * refusal.c: the real open of ev on unit (an index into pc's units) failed with err. When the
 * refusal is the event's own (not the target's, probed), it becomes ev's verdict with the
 * reason, and ev's group leaves its pass (pmc__evsel_refuse()); else nothing changes.
 */
void pmc__perf_judge_refusal(struct perf_counting *pc, struct pmc_evsel *ev, int unit, int err);

/* What the perf backend found on this machine (probe.c), probed once on first use. */
struct perf_machine {
	bool perf_event; /* perf_event_open(2) works at all (software event) */
	/* The permission probes of pmc itself, made once: 0, or the -errno of the refusal. */
	int user_err;	      /* user-level counting of its own process */
	int kernel_err;	      /* kernel-level counting of its own process */
	int cpu_err;	      /* counting a CPU (all tasks on it) */
	bool hw_pmu;	      /* a hardware PMU counts (the cycles event opens) */
	char hw_pmu_why[160]; /* why not, when !hw_pmu */
	char pmu_name[64];    /* libpfm4's name of the CPU's PMU, or "" */
	int nr_gp_counters;   /* general counters (0 without a PMU) */
	int nr_fixed_counters;
	bool rdpmc; /* user-space counter reads allowed (cap_user_rdpmc) */
};
const struct perf_machine *pmc__perf_machine(void);

/*
 * cpumodel.c: the CPU model of the metric files' index ("intel-skylake", "amd-zen4", ...) for a
 * CPUID vendor, family and model, or NULL; and this machine's.
 */
const char *pmc__perf_cpu_model_of(const char *vendor, unsigned family, unsigned model);
const char *pmc__perf_cpu_model(void);

/*
 * The offcore response registers of Intel's core PMU, as the kernel's intel_pmu_init() sets
 * its extra_regs per model (offcore.c has them): none, Nehalem's one, or two.
 */
enum perf_rsp {
	PERF_RSP_NONE,
	PERF_RSP_NHM, /* intel_nehalem_extra_regs: 0x01b7 on MSR 0x1a6 */
	PERF_RSP_WSM, /* intel_westmere_extra_regs: 0x01b7, 0x01bb on MSRs 0x1a6, 0x1a7 */
	PERF_RSP_SNB, /* intel_snb(ep)/skl/icl_extra_regs: the same events and MSRs */
	PERF_RSP_SPR, /* intel_spr_extra_regs: 0x012a, 0x012b on MSRs 0x1a6, 0x1a7 */
	PERF_RSP_NR,
};
/* This machine's (or PMC_PERF_CPU_MODEL's first row's) offcore response registers. */
enum perf_rsp pmc__perf_cpu_rsp(void);
/* The libpfm4 PMU that PMC_PERF_CPU_MODEL names (pfm-api.c forces it), or NULL. */
const char *pmc__perf_cpu_forced_pfm(void);
/*
 * offcore.c: the offcore response value evsel programs (its config1) when it is an offcore
 * response event of this CPU's core PMU: true, with how many such registers a core has in *nr.
 */
bool pmc__perf_offcore(const struct pmc_evsel *evsel, uint64_t *value, int *nr);
/* sample-pmu.c: counting refused on a PMU that only samples (AMD IBS), with why. */
int pmc__perf_sample_only_check(const struct pmc_evsel *evsel, char *why, size_t len);

/*
 * Debug registers, probed apart (on first use: a breakpoint event planned, or pmc doctor)
 * because the probe opens breakpoints and takes debug exceptions, which every pmc stat
 * would otherwise pay for.
 */
struct perf_breakpoints {
	int nr;	   /* hardware breakpoints a task can hold (debug registers) */
	bool fire; /* a write to a watched variable is counted (some hypervisors accept
		    * breakpoints but never deliver their debug exceptions) */
};
const struct perf_breakpoints *pmc__perf_breakpoints(void);
/* caps.c: the backend described for pmc_caps() and pmc doctor. */
void pmc__perf_probe_caps(const struct pmc_caps *machine, struct pmc_backend_caps *out);
int pmc__perf_check(struct pmc_evsel *evsel, char *why, size_t len);
/* filter.c: whether the kernel takes filter for the tracepoint evsel (tried on pmc). */
int pmc__perf_check_filter(struct pmc_evsel *evsel, const char *filter, char *why, size_t len);
/*
 * uncore.c: after the target's units are made, the units of uncore events (pid -1 on their
 * PMUs' cpumask CPUs) added for a task's run; whether ev opens on unit; its attr's task
 * flags (none on a CPU); and enabling those units when the command starts.
 */
int pmc__perf_uncore_units(struct perf_counting *pc);
bool pmc__perf_uncore_opens(const struct perf_counting *pc, const struct pmc_evsel *ev, int unit);
void pmc__perf_uncore_attr(const struct perf_counting *pc, const struct pmc_evsel *ev,
			   struct perf_event_attr *a);
int pmc__perf_uncore_enable(struct perf_counting *pc);
int pmc__perf_open(struct pmc_evlist *evlist, const struct pmc_target *target, int pass,
		   struct pmc_counting **out);
int pmc__perf_read(struct pmc_counting *c);
/* COMMAND: releases the held command; its counters enable on exec. */
int pmc__perf_start_child(struct pmc_counting *c);
void pmc__perf_close(struct pmc_counting *c);
int pmc__perf_read_group(struct pmc_counting *c, const struct pmc_evsel *leader,
			 struct pmc_count *values, size_t nr);
/*
 * Holds a disabled user-level event of a tracepoint or software event (type, config) on pmc
 * itself for the life of the process, once per kind (pin.c), so that opening and closing
 * the real events does not register and unregister the kernel's side each time. Returns 0
 * or the open's -errno (-EINVAL for another type).
 */
int pmc__perf_pin(__u32 type, __u64 config);
/* The thread ids of a running process. Returns the count or -errno. */
int pmc__perf_thread_list(pid_t pid, pid_t **out);
/*
 * Every thread of the system now ("/proc/N/task/M"): tids and their processes' pids,
 * [count] each. Returns the count or -errno.
 */
int pmc__perf_all_threads(pid_t **tids, pid_t **pids);

/*
 * units.c: the units of the target's modes that open.c's default does not make: TID lists,
 * CPUs of a cgroup, every thread of the system (CPUS with per_thread), a COMMAND per thread
 * (one inherited counter per CPU). Fills pc's pids, cpus, nr_units and the generic units;
 * returns 1 when it made them, 0 when the default applies, or -errno.
 */
int pmc__perf_units_setup(struct perf_counting *pc, const struct pmc_target *t);
/* The generic units of a target counted per CPU or per thread fd (after setup_units). */
int pmc__perf_units_describe(struct perf_counting *pc);
/* Closes what units.c opened (the cgroup's folder). */
void pmc__perf_units_close(struct perf_counting *pc);
/* Whether the target's values are kept per fd unit (CPUs, PID and TID threads). */
bool pmc__perf_units_kept(const struct perf_counting *pc);

/*
 * threads.c: a COMMAND counted per thread. The counters (one per event and CPU, inherited
 * with inherit_stat) write a PERF_RECORD_READ with each thread's own values when the thread
 * exits, into one ring buffer per CPU.
 */
struct perf_threads *pmc__perf_threads_new(void);
/* The attr fields this mode needs for ev (the first event of the pass asks for COMM records). */
void pmc__perf_threads_attr(const struct perf_counting *pc, const struct pmc_evsel *ev,
			    struct perf_event_attr *a);
/* After every event opened: the ring buffers, each CPU's events sent to one. 0 or -errno. */
int pmc__perf_threads_open(struct perf_counting *pc);
/*
 * After the totals were read: drains the records and makes the generic units, each thread
 * that ended with its values, and the command's main thread with what is left of the total.
 */
int pmc__perf_threads_read(struct perf_counting *pc);
void pmc__perf_threads_close(struct perf_counting *pc);

#endif /* PMC_LIB_BACKEND_PERF_PERF_H */
