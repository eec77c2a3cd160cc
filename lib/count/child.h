/* SPDX-License-Identifier: MIT */
/* A command started by pmc: forked, held before exec, released, waited for. */
#ifndef PMC_LIB_COUNT_CHILD_H
#define PMC_LIB_COUNT_CHILD_H

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

/*
 * Recipe: pmc__child_spawn() starts the child (a CLONE_VM clone, else a fork: child.c says
 * why) and leaves it blocked on a pipe, so that counters can be attached to its pid before it
 * runs; pmc__child_start() lets it exec and learns through a close-on-exec pipe whether exec
 * succeeded; pmc__child_wait() reaps it. pmc__child_delete() kills and reaps a child that is
 * still there, and frees what a clone read.
 */
struct pmc_child {
	pid_t pid;
	int go_fd;  /* write end: one byte releases the child; -1 once released */
	int err_fd; /* read end: the child's errno if exec fails, EOF when it succeeded */
	bool reaped;
	int status; /* wait status once reaped */
	bool have_rusage;
	struct rusage rusage;	 /* the command's and its reaped children's, once reaped by wait */
	struct child_plan *plan; /* a CLONE_VM child's stack and what it reads (child.c) */
};

struct pmc_child_opts {
	int keep_fd;		 /* an fd the command inherits, or -1 */
	const char *keep_fd_env; /* env variable set to keep_fd's number, or NULL */
	int extra_fd; /* a second fd the command inherits (vpmu's stream); 0 or -1: none */
	/* The command's standard output is pmc's standard error (pmc record -o -, as perf). */
	bool stdout_to_stderr;
};

/* Forks argv (argv[0] is searched in PATH). Returns 0 or a negative errno. */
int pmc__child_spawn(char *const argv[], const struct pmc_child_opts *opts, struct pmc_child **out);
/*
 * Lets the child exec. Returns 0 once it runs the program, or -PMC_E_EXEC with
 * *exec_errno set when exec failed (the child has then exited with status 127).
 */
int pmc__child_start(struct pmc_child *c, int *exec_errno);
/* Waits for the child, keeping its rusage. -EINTR when a signal interrupted the wait. */
int pmc__child_wait(struct pmc_child *c, int *status);
/*
 * Frees c once pmc__child_start() has started it, leaving the running process to the
 * caller, who reaps it by its pid (which it keeps the death signal of child.c's "Lifetime").
 */
void pmc__child_release(struct pmc_child *c);
/* Kills (SIGKILL) and reaps a child that has not been reaped, then frees it. NULL ok. */
void pmc__child_delete(struct pmc_child *c);

#endif /* PMC_LIB_COUNT_CHILD_H */
