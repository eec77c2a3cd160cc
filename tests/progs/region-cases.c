// SPDX-License-Identifier: MIT
/*
 * Workload: region markers around exact numbers of getppid(2) calls. argv[1] picks the case:
 *   loop [E [N]]     region "loop" entered E times (100), N calls inside (10)
 *   nest             "outer" around 3 entries of "inner" (5 calls each) and 2 calls more
 *   overlap          "x" and "y" overlap: x = 2+3 calls, y = 3+4 calls
 *   numbered         regions 0 (1 call) and 1 (4 calls), registered "named" (7 calls) by id
 *   missing          "open" begun 3 times, ended twice; 1 call per entry
 *   threads [T [E]]  T threads (4) each enter "work" E times (50), 2 calls per entry
 *   fork             "parent" (3 calls) around a fork; the child enters "child" (5 calls)
 *   fork-exit        as fork, but the child leaves with _exit(0): no atexit handler runs
 *   fork-kill        as fork, but the child then enters "held" (2 calls) and kills itself
 *                    with SIGKILL inside it
 *   forks [P [R]]    P processes (64) each enter regions "r0".."r<R-1>" (20) once, 1 call
 *                    each, then all exit at once (their results written together)
 *   flush            "flushed" (6 calls), pmc_region_flush(), then _exit
 *   huge-file        makes the runner's results file 16 GiB long (a hole), then enters
 *                    "after" (2 calls)
 *   names [N]        N regions "n0".."n<N-1>" (420), each entered once around 1 call
 */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <pmc/region.h>

static long entries = 50;

static void calls(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
}

static void *worker(void *arg)
{
	pmc_region_register("work"); /* the thread's counters and table, before measuring */
	for (long i = 0; i < entries; i++) {
		pmc_region_begin("work");
		calls(2);
		pmc_region_end("work");
	}
	return arg;
}

static int threads(int nr)
{
	pthread_t tid[64];

	for (int i = 0; i < nr && i < 64; i++)
		pthread_create(&tid[i], NULL, worker, NULL);
	for (int i = 0; i < nr && i < 64; i++)
		pthread_join(tid[i], NULL);
	return 0;
}

static int loop(long e, long n)
{
	for (long i = 0; i < e; i++) {
		pmc_region_begin("loop");
		calls(n);
		pmc_region_end("loop");
	}
	return 0;
}

static int nest(void)
{
	pmc_region_begin("outer");
	for (int i = 0; i < 3; i++) {
		pmc_region_begin("inner");
		calls(5);
		pmc_region_end("inner");
	}
	calls(2);
	pmc_region_end("outer");
	return 0;
}

static int overlap(void)
{
	pmc_region_begin("x");
	calls(2);
	pmc_region_begin("y");
	calls(3);
	pmc_region_end("x");
	calls(4);
	pmc_region_end("y");
	return 0;
}

static int numbered(void)
{
	int id = pmc_region_register("named");

	pmc_region_begin_n(0);
	calls(1);
	pmc_region_end_n(0);
	pmc_region_begin_n(1);
	calls(4);
	pmc_region_end_n(1);
	if (id >= 0) {
		pmc_region_begin_n((unsigned)id);
		calls(7);
		pmc_region_end_n((unsigned)id);
	}
	return 0;
}

static int missing(void)
{
	for (int i = 0; i < 3; i++) {
		pmc_region_begin("open");
		calls(1);
		if (i < 2)
			pmc_region_end("open");
	}
	return 0;
}

/* how: 0 exit(), 1 _exit(), 2 SIGKILL with "held" still open (2 calls in it). */
static int forked(int how)
{
	pid_t pid;
	int status;

	pmc_region_begin("parent");
	calls(3);
	pid = fork();
	if (pid == 0) {
		pmc_region_begin("child");
		calls(5);
		pmc_region_end("child");
		if (how == 2) {
			pmc_region_begin("held");
			calls(2);
			raise(SIGKILL);
		}
		if (how)
			_exit(0);
		exit(0);
	}
	pmc_region_end("parent");
	waitpid(pid, &status, 0);
	return 0;
}

/* The children wait on a pipe the parent closes once all exist, so they exit together. */
static int forks(long nr, long nr_regions)
{
	int gate[2];
	char name[32], c;

	if (pipe(gate))
		return 1;
	for (long i = 0; i < nr; i++) {
		if (fork() != 0)
			continue;
		close(gate[1]);
		for (long r = 0; r < nr_regions; r++) {
			snprintf(name, sizeof(name), "r%ld", r);
			pmc_region_begin(name);
			calls(1);
			pmc_region_end(name);
		}
		while (read(gate[0], &c, 1) < 0)
			;
		exit(0);
	}
	close(gate[1]);
	while (wait(NULL) > 0)
		;
	return 0;
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "loop";
	long a = argc > 2 ? strtol(argv[2], NULL, 10) : -1;
	long b = argc > 3 ? strtol(argv[3], NULL, 10) : -1;

	if (!strcmp(c, "loop"))
		return loop(a < 0 ? 100 : a, b < 0 ? 10 : b);
	if (!strcmp(c, "nest"))
		return nest();
	if (!strcmp(c, "overlap"))
		return overlap();
	if (!strcmp(c, "numbered"))
		return numbered();
	if (!strcmp(c, "missing"))
		return missing();
	if (!strcmp(c, "threads")) {
		entries = b < 0 ? 50 : b;
		return threads(a < 0 ? 4 : (int)a);
	}
	if (!strcmp(c, "fork") || !strcmp(c, "fork-exit") || !strcmp(c, "fork-kill"))
		return forked(!strcmp(c, "fork") ? 0 : !strcmp(c, "fork-exit") ? 1 : 2);
	if (!strcmp(c, "names")) {
		char name[32];

		for (long i = 0; i < (a < 0 ? 420 : a); i++) {
			snprintf(name, sizeof(name), "n%ld", i);
			pmc_region_begin(name);
			calls(1);
			pmc_region_end(name);
		}
		return 0;
	}
	if (!strcmp(c, "forks"))
		return forks(a < 0 ? 64 : a, b < 0 ? 20 : b);
	if (!strcmp(c, "huge-file")) {
		const char *fd = getenv("PMC_REGION_FD");

		/* The results file made 16 GiB long, unwritten: its reader must not read zeros. */
		if (fd && ftruncate(atoi(fd), (off_t)16 << 30))
			return 3;
		pmc_region_begin("after");
		calls(2);
		pmc_region_end("after");
		return 0;
	}
	if (!strcmp(c, "flush")) {
		pmc_region_begin("flushed");
		calls(6);
		pmc_region_end("flushed");
		pmc_region_flush();
		_exit(0);
	}
	return 2;
}
