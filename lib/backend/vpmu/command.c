// SPDX-License-Identifier: MIT
/*
 * Starting a command under the vpmu tool, for counting and for sampling alike:
 * `env VALGRIND_LIB=<vglib> valgrind -q --vgdb=no --trace-children=yes --tool=vpmu [options]
 * --out-fd=N -- argv`, held before exec (count/child.h), with the read end of the --out-fd
 * stream handed back.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/caps.h>
#include "backend/vpmu/vpmu.h"
#include "core/log.h"
#include "count/child.h"

/* The lowest fd the stream's write end gets, clear of the fds programs commonly dup2 onto. */
#define OUT_FD_MIN 64
/* Tool options besides the counters and user arguments: launcher, -q, --tool, model, fd. */
#define FIXED_ARGS 16

/* Appends a formatted argument; the list has room for every argument pushed. */
static int push(char **argv, int *n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int push(char **argv, int *n, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&argv[*n], fmt, ap);
	va_end(ap);
	if (r < 0) {
		argv[*n] = NULL;
		return -ENOMEM;
	}
	(*n)++;
	return 0;
}

static void free_argv(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* PMC_VPMU_ARGS: more tool options, separated by blanks (cache geometry, --skid, ...). */
static int push_user_args(char **argv, int *n, int room)
{
	const char *s = secure_getenv("PMC_VPMU_ARGS");
	int err = 0;

	while (s && *s && !err) {
		size_t len = strcspn(s, " \t");

		if (len && *n < room)
			err = push(argv, n, "%.*s", (int)len, s);
		s += len;
		s += strspn(s, " \t");
	}
	return err;
}

static int count_words(const char *s)
{
	int n = 0;

	while (s && *s) {
		s += strspn(s, " \t");
		n += *s != 0;
		s += strcspn(s, " \t");
	}
	return n;
}

static int tool_args(const struct vpmu_cmdline *cl, int out_fd, char **argv, int *n, int room)
{
	const char *model = secure_getenv("PMC_VPMU_MODEL"),
		   *preset = secure_getenv("PMC_VPMU_PRESET");
	int err = push(argv, n, "VALGRIND_LIB=%s", pmc__vpmu_machine()->path);

	err = err ? err : push(argv, n, "valgrind");
	err = err ? err : push(argv, n, "-q");
	/* no gdbserver: it would make FIFOs of predictable names in /tmp (docs/security.md) */
	err = err ? err : push(argv, n, "--vgdb=no");
	/* Follow exec: the new image runs under the tool too and writes on the same stream
	 * (docs/vpmu.md, "Exec"), as perf counts a task across exec. */
	err = err ? err : push(argv, n, "--trace-children=yes");
	err = err ? err : push(argv, n, "--tool=%s", cl->tool ? cl->tool : "vpmu");
	if (!err && preset && *preset)
		err = push(argv, n, "--preset=%s", preset);
	if (!err && model && *model)
		err = push(argv, n, "--model=%s", model);
	for (int k = 0; k < VPMU_MAX_COUNTERS && !err; k++) {
		if (!cl->used[k])
			continue;
		err = push(argv, n, "--ctr%d=0x%llx", k, (unsigned long long)cl->config[k]);
		if (!err && cl->period && cl->period[k])
			err = push(argv, n, "--period%d=%llu", k,
				   (unsigned long long)cl->period[k]);
		if (!err && cl->freq && cl->freq[k])
			err = push(argv, n, "--freq%d=%llu", k, (unsigned long long)cl->freq[k]);
	}
	for (int i = 0; i < cl->nr_extra && !err; i++)
		err = push(argv, n, "%s", cl->extra[i]);
	err = err ? err : push(argv, n, "--out-fd=%d", out_fd);
	/* Last, so that the user's options win over pmc's. */
	err = err ? err : push_user_args(argv, n, room);
	return err ? err : push(argv, n, "--");
}

/* env VALGRIND_LIB=... valgrind [tool options] -- argv... */
static int build_argv(const struct vpmu_cmdline *cl, int out_fd, char ***out)
{
	char *const *targv = cl->argv;
	int nt = 0, n = 0, room, err;
	char **argv;

	while (targv[nt])
		nt++;
	room = FIXED_ARGS + 2 * VPMU_MAX_COUNTERS + cl->nr_extra +
	       count_words(secure_getenv("PMC_VPMU_ARGS")) + nt;
	argv = calloc((size_t)room + 1, sizeof(*argv));
	if (!argv)
		return -ENOMEM;
	err = push(argv, &n, "env");
	err = err ? err : tool_args(cl, out_fd, argv, &n, room);
	for (int i = 0; i < nt && !err; i++)
		err = push(argv, &n, "%s", targv[i]);
	if (err) {
		free_argv(argv);
		return err;
	}
	*out = argv;
	return 0;
}

int pmc__vpmu_spawn(const struct vpmu_cmdline *cl, int *rd_fd, struct pmc_child **child)
{
	struct pmc_child_opts o = {.keep_fd = -1};
	int p[2], wr, err;
	char **argv = NULL;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	wr = fcntl(p[1], F_DUPFD_CLOEXEC, OUT_FD_MIN);
	close(p[1]);
	if (wr < 0) {
		err = -errno;
		close(p[0]);
		return err;
	}
	*rd_fd = p[0];
	err = build_argv(cl, wr, &argv);
	if (cl->keep_fd > 0) {
		o.keep_fd = cl->keep_fd;
		o.keep_fd_env = cl->keep_fd_env;
	}
	o.extra_fd = wr;
	o.stdout_to_stderr = cl->stdout_to_stderr;
	if (!err)
		err = pmc__child_spawn(argv, &o, child);
	if (!err)
		pr_debug("vpmu: running '%s' under valgrind --tool=vpmu, stream on fd %d\n",
			 cl->argv[0], wr);
	free_argv(argv);
	close(wr); /* only the command holds the write end: its exit ends the stream */
	return err;
}

/* Where execvp() would find the command: refuse early, as exec would, when it is not there. */
int pmc__vpmu_runnable(const char *prog)
{
	const char *p = secure_getenv("PATH");
	char path[4096];

	if (strchr(prog, '/'))
		return access(prog, X_OK) ? -errno : 0;
	for (p = p ? p : "/usr/bin:/bin"; *p; p += *p == ':') {
		size_t n = strcspn(p, ":");

		snprintf(path, sizeof(path), "%.*s/%s", (int)(n ? n : 1), n ? p : ".", prog);
		if (!access(path, X_OK))
			return 0;
		p += n;
	}
	return -ENOENT;
}
