// SPDX-License-Identifier: MIT
/*
 * The command's start (lib/count/child.c): held until released, then exec'd as execvp() does
 * (PATH, a file that is not allowed, a script without #!), with the environment, descriptors,
 * signal dispositions and mask it should have, and nothing of pmc's changed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <criterion/criterion.h>
#include <pmc/error.h>
#include "count/child.h"

static char dir[] = "/tmp/pmc-test-child-XXXXXX";

static void setup(void)
{
	cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}

TestSuite(child, .init = setup, .fini = teardown);

/* Runs argv to its end: start's result, the exec errno, the wait status. */
static int run(char *const argv[], const struct pmc_child_opts *o, int *exec_errno, int *status)
{
	struct pmc_child *c = NULL;
	int err = pmc__child_spawn(argv, o, &c);

	*exec_errno = 0;
	*status = -1;
	if (err)
		return err;
	err = pmc__child_start(c, exec_errno);
	cr_assert_eq(pmc__child_wait(c, status), 0);
	pmc__child_delete(c);
	return err;
}

/* A file of dir with text and mode. */
static void put(const char *name, const char *text, mode_t mode)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
	cr_assert_eq(chmod(path, mode), 0);
}

/* What the command wrote to dir/out. */
static char *out(void)
{
	static char buf[4096];
	char path[256];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/out", dir);
	f = fopen(path, "r");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

Test(child, found_in_path_and_its_status_kept)
{
	char *argv[] = {"sh", "-c", "exit 7", NULL};
	int e, status;

	cr_assert_eq(run(argv, NULL, &e, &status), 0);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 7, "status %#x", status);
}

Test(child, a_command_not_there_is_enoent_and_127)
{
	char *argv[] = {"pmc-no-such-command-here", NULL}, *empty[] = {"", NULL};
	int e, status;

	cr_expect_eq(run(argv, NULL, &e, &status), -PMC_E_EXEC);
	cr_expect_eq(e, ENOENT);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 127);
	cr_expect_eq(run(empty, NULL, &e, &status), -PMC_E_EXEC);
	cr_expect_eq(e, ENOENT, "an empty name is not searched for");
}

/* execvp's search: a file not allowed is passed over for a later one, and said when alone. */
Test(child, path_search_as_execvp)
{
	char *argv[] = {"cmd", NULL}, path[600], *old = getenv("PATH");
	int e, status;

	cr_assert_eq(mkdir(strcat(strcpy(path, dir), "/a"), 0755), 0);
	cr_assert_eq(mkdir(strcat(strcpy(path, dir), "/b"), 0755), 0);
	put("a/cmd", "#!/bin/sh\nexit 1\n", 0644); /* not executable */
	put("b/cmd", "#!/bin/sh\nexit 5\n", 0755);
	snprintf(path, sizeof(path), "%s/nothing:%s/a:%s/b", dir, dir, dir);
	setenv("PATH", path, 1);
	cr_expect_eq(run(argv, NULL, &e, &status), 0);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 5, "status %#x", status);
	snprintf(path, sizeof(path), "%s/nothing:%s/a", dir, dir);
	setenv("PATH", path, 1);
	cr_expect_eq(run(argv, NULL, &e, &status), -PMC_E_EXEC);
	cr_expect_eq(e, EACCES, "a file with no execute bit is refused to root too");
	setenv("PATH", old, 1);
}

/* A file without #! is run by /bin/sh, as execvp() does. */
Test(child, a_script_without_interpreter_line_runs_in_sh)
{
	char script[300];
	char *argv[] = {script, "x", "y", NULL};
	int e, status;

	snprintf(script, sizeof(script), "%s/s", dir);
	put("s", "exit $(( $# + 40 ))\n", 0755);
	cr_expect_eq(run(argv, NULL, &e, &status), 0);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 42, "status %#x", status);
}

/* keep_fd reaches the command open and named; pmc's own environment is not changed. */
Test(child, the_kept_descriptor_and_its_variable)
{
	char cmd[600];
	char *argv[] = {"sh", "-c", cmd, NULL};
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC), e, status;
	struct pmc_child_opts o = {.keep_fd = fd, .keep_fd_env = "PMC_TEST_CHILD_FD"};

	cr_assert_geq(fd, 0);
	setenv("PMC_TEST_CHILD_FD", "old", 1);
	snprintf(cmd, sizeof(cmd), "echo \"$PMC_TEST_CHILD_FD\" >%s/out; test -e /proc/self/fd/%d",
		 dir, fd);
	cr_assert_eq(run(argv, &o, &e, &status), 0);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the descriptor is open");
	snprintf(cmd, sizeof(cmd), "%d\n", fd);
	cr_expect_str_eq(out(), cmd);
	cr_expect_str_eq(getenv("PMC_TEST_CHILD_FD"), "old", "pmc's own environment");
	unsetenv("PMC_TEST_CHILD_FD");
	close(fd);
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* The command gets default handlers and SIGPIPE (pmc's are not its), and pmc's signal mask. */
Test(child, signals_as_the_command_should_have_them)
{
	char cmd[300];
	char *argv[] = {"sh", "-c", cmd, NULL};
	struct sigaction sa = {.sa_handler = on_usr1}, old_usr1, old_pipe;
	sigset_t usr2, old_mask;
	unsigned long long ign = 0, blk = 0, cgt = 0;
	int e, status;
	char *s;

	sigaction(SIGUSR1, &sa, &old_usr1);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, &old_pipe);
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr2, &old_mask);
	/* cat, exec'd by sh, shows what it inherited */
	snprintf(cmd, sizeof(cmd), "exec cat /proc/self/status >%s/out", dir);
	cr_assert_eq(run(argv, NULL, &e, &status), 0);
	sigprocmask(SIG_SETMASK, &old_mask, NULL);
	sigaction(SIGUSR1, &old_usr1, NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	s = out();
	cr_assert_not_null(strstr(s, "SigIgn:"));
	sscanf(strstr(s, "SigBlk:") + 7, "%llx", &blk);
	sscanf(strstr(s, "SigIgn:") + 7, "%llx", &ign);
	sscanf(strstr(s, "SigCgt:") + 7, "%llx", &cgt);
	cr_expect_eq(ign & (1ull << (SIGPIPE - 1)), 0, "SIGPIPE is not ignored: %llx", ign);
	cr_expect_eq(cgt & (1ull << (SIGUSR1 - 1)), 0, "no handler");
	cr_expect_neq(blk & (1ull << (SIGUSR2 - 1)), 0, "pmc's mask: %llx", blk);
	cr_expect_eq(blk & ~(1ull << (SIGUSR2 - 1)), 0, "and only that: %llx", blk);
}

/* A child never released exits 127 when it is deleted, and is reaped. */
Test(child, held_and_deleted)
{
	char *argv[] = {"true", NULL};
	struct pmc_child *c = NULL;
	pid_t pid;

	cr_assert_eq(pmc__child_spawn(argv, NULL, &c), 0);
	pid = c->pid;
	pmc__child_delete(c);
	cr_expect_eq(kill(pid, 0), -1, "reaped");
}

/* Many in a row: nothing left over (descriptors, children). */
Test(child, many_in_a_row)
{
	char *argv[] = {"true", NULL};
	int e, status, fd0 = dup(0), fd1;

	close(fd0);
	for (int i = 0; i < 200; i++) {
		cr_assert_eq(run(argv, NULL, &e, &status), 0);
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	fd1 = dup(0);
	close(fd1);
	cr_expect_eq(fd1, fd0, "no descriptor left open");
	cr_expect_eq(waitpid(-1, NULL, WNOHANG), -1, "no child left");
}
