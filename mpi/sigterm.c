// SPDX-License-Identifier: MIT
/*
 * libpmc-mpi's SIGTERM (docs/mpi.md, "A rank that dies"): when one rank dies, Open MPI stops
 * the others with SIGTERM. Standalone (no pmc stat to catch it), each rank still writes its
 * own regions file, marked stopped early, then dies of the signal as it would have.
 *
 * Writing the file (JSON, malloc, stdio) is not async-signal-safe, and a rank that gets the
 * signal is most often blocked inside MPI, waiting for the rank that died: a flag checked at a
 * safe point of the program would never be seen. So the handler only writes the signal's
 * number to a pipe (write(2) is async-signal-safe), and a thread made at MPI_Init, blocked on
 * that pipe with every signal masked, does the writing in an ordinary context, then restores
 * the default action and sends the signal again.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <mpi.h>
#include <pmc/region.h>
#include "pmc-mpi.h"

static int wake[2] = {-1, -1};

static void on_signal(int sig)
{
	int saved = errno;
	unsigned char b = (unsigned char)sig;

	if (write(wake[1], &b, 1) < 0) {
		/* Nothing safe to do here: the default action below is what is left. */
	}
	errno = saved;
}

static void *watch(void *arg)
{
	unsigned char b;
	ssize_t n;

	(void)arg;
	do
		n = read(wake[0], &b, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		return NULL;
	pmc_region_flush_stopped(b);
	signal(b, SIG_DFL);
	/* Delivered to a thread that does not mask it (this one masks all): the process ends. */
	kill(getpid(), b);
	return NULL;
}

/*
 * Catches SIGTERM when libpmc-mpi writes the rank's file itself (PMC_OUTPUT and PMC_EVENTS,
 * not under pmc stat) and the program left SIGTERM's default action in place.
 */
void pmc__mpi_after_init(void)
{
	struct sigaction sa = {0}, old;
	sigset_t all, prev;
	pthread_t t;
	int err;

	if (!getenv("PMC_OUTPUT") || !getenv("PMC_EVENTS") || getenv("PMC_REGION_FD") ||
	    sigaction(SIGTERM, NULL, &old) || old.sa_handler != SIG_DFL || pipe(wake))
		return;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &prev);
	err = pthread_create(&t, NULL, watch, NULL);
	pthread_sigmask(SIG_SETMASK, &prev, NULL);
	if (err) {
		close(wake[0]);
		close(wake[1]);
		return;
	}
	pthread_detach(t);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGTERM, &sa, NULL);
}

int MPI_Init(int *argc, char ***argv)
{
	int rc = PMPI_Init(argc, argv);

	if (rc == MPI_SUCCESS)
		pmc__mpi_after_init();
	return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	int rc = PMPI_Init_thread(argc, argv, required, provided);

	if (rc == MPI_SUCCESS)
		pmc__mpi_after_init();
	return rc;
}
