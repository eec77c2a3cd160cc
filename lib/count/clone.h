/* SPDX-License-Identifier: MIT */
/* child.c's CLONE_VM start: a child that shares pmc's memory, held before exec (clone.c). */
#ifndef PMC_LIB_COUNT_CLONE_H
#define PMC_LIB_COUNT_CLONE_H

#include <signal.h>
#include <sys/types.h>

struct child_plan;
struct pmc_child_opts;

/*
 * Starts argv as a CLONE_VM child that waits on go[0] before its exec and writes exec's errno
 * to errp[1], as child.c's forked child does; *plan (what the child reads, and its stack)
 * must outlive it: pmc__clone_plan_free() once it is reaped. The child's pid; -1 with errno
 * ENOSYS where no such child can be made (under Valgrind, on other architectures, no memory
 * for the plan), and the caller forks; -1 with clone's errno when clone fails.
 */
pid_t pmc__clone_start(char *const argv[], const struct pmc_child_opts *opts, const int go[2],
		       const int errp[2], const sigset_t *mask, struct child_plan **plan);
void pmc__clone_plan_free(struct child_plan *p);

#endif /* PMC_LIB_COUNT_CLONE_H */
