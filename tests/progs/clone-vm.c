// SPDX-License-Identifier: MIT
/*
 * Workload: starts a child with clone(CLONE_VM) but not CLONE_THREAD (a process that shares
 * its parent's memory, as posix_spawn's emulations and some runtimes make), which exits 7;
 * waits for it and exits with its status. Valgrind cannot run such a clone.
 */
#ifndef _GNU_SOURCE /* the build may define it already */
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>

#define STACK (64 * 1024)

static int child(void *arg)
{
	(void)arg;
	return 7;
}

int main(void)
{
	char *stack = mmap(NULL, STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int status;
	pid_t pid;

	if (stack == MAP_FAILED)
		return 1;
	pid = clone(child, stack + STACK, CLONE_VM | SIGCHLD, NULL);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
