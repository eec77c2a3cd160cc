// SPDX-License-Identifier: MIT
/*
 * Why perf_event_open(2) refused with EACCES or EPERM: the kernel's permission rules tried
 * one by one with a probe event, so that the message names the rule that refused, the setting
 * in effect and the value that would allow it, rather than guessing from perf_event_paranoid.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/error.h>
#include "backend/perf/perf.h"
#include "core/cpulist.h"
#include "core/sysfile.h"
#include "event/evsel.h"

#define PARANOID_FILE "/proc/sys/kernel/perf_event_paranoid"

/* The explanation being written: sentences joined by "; ". */
struct say {
	char *buf;
	size_t len, at;
};

__attribute__((format(printf, 2, 3))) static void say(struct say *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->at >= s->len)
		return;
	if (s->at)
		s->at += (size_t)snprintf(s->buf + s->at, s->len - s->at, "; ");
	if (s->at >= s->len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(s->buf + s->at, s->len - s->at, fmt, ap);
	va_end(ap);
	if (n > 0)
		s->at += (size_t)n;
}

static bool denied(int err)
{
	return err == -EACCES || err == -EPERM;
}

/* "/proc/sys/kernel/perf_event_paranoid is 2", read now: the value in effect, not the one pmc
 * started with. */
static long paranoid_now(char *text, size_t len)
{
	long v;

	if (pmc__sysfile_read_long(PARANOID_FILE, &v)) {
		snprintf(text, len, "%s cannot be read", PARANOID_FILE);
		return 99;
	}
	snprintf(text, len, "%s is %ld", PARANOID_FILE, v);
	return v;
}

/* Nothing opens, not even a user-level software event on pmc itself. */
static int say_all_refused(struct say *s, long level, const char *pv)
{
	if (level > 2) {
		say(s,
		    "%s, and this kernel enforces levels above 2 (as Debian's and Android's do): "
		    "it "
		    "refuses perf_event_open to users without CAP_PERFMON; sysctl "
		    "kernel.perf_event_paranoid=2 allows user-level counting of your own "
		    "processes, or run pmc with CAP_PERFMON",
		    pv);
		return -PMC_E_PARANOID;
	}
	say(s,
	    "perf_event_open is refused even for a user-level software event on pmc itself, which "
	    "%s allows: %s",
	    pv,
	    pmc__sysfile_status_field("Seccomp") > 0
		    ? "a seccomp filter of this process forbids it (run pmc outside that sandbox)"
		    : "a security module (SELinux, AppArmor) or a container's policy forbids it");
	return -EACCES;
}

/* The first CPU of the target's list (NULL: all online), for the CPU probe. */
static int first_cpu(const char *list)
{
	int *cpus = NULL, n = pmc__cpu_list(list, &cpus, NULL, 0), cpu;

	cpu = n > 0 ? cpus[0] : pmc__perf_probe_cpu();
	free(cpus);
	return cpu;
}

static int say_cpus(struct say *s, const char *pv)
{
	say(s,
	    "counting CPUs (-a, -C: every task on them) needs perf_event_paranoid <= 0 or "
	    "CAP_PERFMON (CAP_SYS_ADMIN before Linux 5.8), and %s: sysctl "
	    "kernel.perf_event_paranoid=0, run pmc as root or with CAP_PERFMON, or count a "
	    "command of your own instead",
	    pv);
	return -PMC_E_PARANOID;
}

/* The real, effective and saved uids of a process ("Uid:" of /proc/PID/status); 0 or -1. */
static int process_uids(pid_t pid, unsigned uids[3])
{
	char path[64], line[256];
	int found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (found && fgets(line, sizeof(line), f))
		if (sscanf(line, "Uid: %u %u %u", &uids[0], &uids[1], &uids[2]) == 3)
			found = 0;
	fclose(f);
	return found;
}

/*
 * Another process: the kernel asks for ptrace read access (PTRACE_MODE_READ_REALCREDS): our
 * real uid equal to its real, effective and saved uids and the process dumpable, or
 * CAP_SYS_PTRACE; CAP_PERFMON passes too. Yama's ptrace_scope governs attaching, which
 * counting does not do; its value is said so that nobody changes it in vain.
 */
static int say_process(struct say *s, pid_t pid)
{
	unsigned u[3], me = (unsigned)getuid(), other;
	char yama[96] = "";
	long v;

	if (!pmc__sysfile_read_long("/proc/sys/kernel/yama/ptrace_scope", &v))
		snprintf(yama, sizeof(yama),
			 " (kernel.yama.ptrace_scope is %ld: it limits attaching, not this read "
			 "access)",
			 v);
	if (process_uids(pid, u))
		say(s,
		    "pmc may not count process %d: that needs ptrace read access to it (the same "
		    "user, or CAP_SYS_PTRACE) or CAP_PERFMON%s",
		    (int)pid, yama);
	else if ((other = u[1] != me ? u[1] : u[0] != me ? u[0] : u[2]) != me)
		say(s,
		    "process %d runs as uid %u and pmc as uid %u: counting another user's process "
		    "needs ptrace read access to it, which takes CAP_SYS_PTRACE (or "
		    "CAP_PERFMON)%s; "
		    "run pmc as uid %u or as root",
		    (int)pid, other, me, yama, other);
	else
		say(s,
		    "process %d runs as your uid %u, but the kernel denies pmc ptrace read access "
		    "to it: it is not dumpable (a set-user-ID program, or prctl(PR_SET_DUMPABLE, "
		    "0)) or a security module refuses%s; run pmc as root or with CAP_SYS_PTRACE",
		    (int)pid, me, yama);
	return -EACCES;
}

/* The first event that counts the kernel, or NULL; events already judged uncountable are
 * never opened, so they cannot be what was refused. */
static const struct pmc_evsel *kernel_event(struct pmc_evsel *const *evs, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (!evs[i]->attr.exclude_kernel && !(evs[i]->check_err < 0))
			return evs[i];
	return NULL;
}

/*
 * Whether the event opens on pmc itself at user level, so that :u is worth suggesting: some
 * PMUs cannot exclude the kernel (msr, uncore) and refuse :u as well. Tracepoints are not
 * opened (a tracepoint's close costs 40 ms, and pmc list judges thousands): they can.
 */
static bool user_level_opens(const struct pmc_evsel *ev)
{
	struct perf_event_attr a = ev->attr;
	int fd;

	if (a.type == PERF_TYPE_TRACEPOINT)
		return true;
	a.size = sizeof(a);
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = pmc__perf_event_open(&a, 0, -1, -1, 0);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static int say_kernel(struct say *s, const struct pmc_evsel *ev, const char *pv)
{
	/* :u would make an event that happens only in the kernel read 0: never suggested. */
	bool blind = pmc__event_user_blind(ev);
	bool u = !blind && user_level_opens(ev);
	bool plain = u && !strchr(ev->name, ':') && !strchr(ev->name, '/');

	say(s,
	    "'%s' counts the kernel%s, which needs perf_event_paranoid <= 1 or CAP_PERFMON, and "
	    "%s: %s%s%s%s%ssysctl kernel.perf_event_paranoid=1, or run pmc with CAP_PERFMON",
	    ev->name, blind ? " (it happens only there)" : "", pv,
	    u ? "add :u to count user level only" : "", plain ? " ('" : "", plain ? ev->name : "",
	    plain ? ":u')" : "", u ? ", " : "");
	return -PMC_E_PARANOID;
}

/*
 * The kernel refuses this caller kernel-level counting (the check's probe): who refuses what,
 * "perf_event_paranoid=2 does not let uid 1000 count" followed by obj, into what; returns
 * whether perf_event_paranoid is the reason (a level <= 1 that still refuses is a security
 * module's or a container's doing).
 */
static bool kernel_refusal(const char *obj, char *what, size_t len)
{
	char pv[96];
	long level = paranoid_now(pv, sizeof(pv));
	unsigned uid = (unsigned)geteuid();

	if (level >= 2 && level != 99) {
		snprintf(what, len, "perf_event_paranoid=%ld does not let uid %u count%s", level,
			 uid, obj);
		return true;
	}
	snprintf(what, len,
		 "this kernel does not let uid %u count%s (%s%s: a security module or a "
		 "container's policy refuses)",
		 uid, obj, pv, level == 99 ? "" : ", which would allow it");
	return false;
}

int pmc__perf_say_kernel_only(char *why, size_t len)
{
	char what[192];
	bool paranoid = kernel_refusal("", what, sizeof(what));

	snprintf(why, len,
		 "it happens only in the kernel, which %s (counting the kernel needs "
		 "perf_event_paranoid <= 1 or CAP_PERFMON; at user level it would read 0): %s",
		 what,
		 paranoid ? "sysctl kernel.perf_event_paranoid=1, or run pmc with CAP_PERFMON"
			  : "run pmc as root or with CAP_PERFMON");
	return paranoid ? -PMC_E_PARANOID : -EACCES;
}

void pmc__perf_say_user_fallback(char *note, size_t len)
{
	char what[192];

	kernel_refusal(" the kernel", what, sizeof(what));
	snprintf(note, len, "counted at user level: %s", what);
}

/*
 * The rules, as kernel/events/core.c applies them to a caller without CAP_PERFMON (or
 * CAP_SYS_ADMIN before Linux 5.8), each probed with a software event:
 *  - a perf_event_paranoid above 2 refuses every open where the kernel enforces it
 *    (Debian's and Android's kernels; upstream treats 3 like 2);
 *  - a CPU (pid -1) needs perf_event_paranoid <= 0;
 *  - another process needs ptrace read access to it;
 *  - an event that counts the kernel (exclude_kernel clear) needs perf_event_paranoid <= 1.
 * Returns -PMC_E_PARANOID when perf_event_paranoid refused, -EACCES when another rule did
 * (both with why written), or -ENOENT when every probe opened: the refusal is none of these.
 */
int pmc__perf_why_denied(struct pmc_evsel *const *evs, size_t nr, const struct pmc_target *t,
			 char *why, size_t len)
{
	struct say s = {.buf = why, .len = len};
	const struct pmc_evsel *k = kernel_event(evs, nr);
	char pv[96];
	long level = paranoid_now(pv, sizeof(pv));
	int ret = -ENOENT;

	if (!why || !len)
		return -EINVAL;
	why[0] = 0;
	if (denied(pmc__perf_probe_open(PERF_PROBE_USER, 0, -1)))
		return say_all_refused(&s, level, pv);
	if (t->kind == PMC_TARGET_CPUS &&
	    denied(pmc__perf_probe_open(PERF_PROBE_CPU, -1, first_cpu(t->cpus))))
		ret = say_cpus(&s, pv);
	else if (t->kind == PMC_TARGET_PID && t->pid != getpid() &&
		 denied(pmc__perf_probe_open(PERF_PROBE_USER, t->pid, -1)))
		ret = say_process(&s, t->pid);
	else if (t->kind == PMC_TARGET_TID && t->tids && atoi(t->tids) != getpid() &&
		 denied(pmc__perf_probe_open(PERF_PROBE_USER, atoi(t->tids), -1)))
		ret = say_process(&s, atoi(t->tids)); /* the first thread stands for the list */
	if (k && denied(pmc__perf_probe_open(PERF_PROBE_KERNEL, 0, -1)))
		ret = say_kernel(&s, k, pv);
	return ret;
}
