// SPDX-License-Identifier: MIT
/*
 * How child.c starts a command when it can (see clone.h).
 *
 * The child is a clone that shares pmc's memory (CLONE_VM, as posix_spawn's does) on a stack
 * of its own, not a fork: after a fork every page pmc writes is copied on write, and pmc
 * stat -r starts the command once per repetition (about 13 such faults a repetition, more
 * with a larger heap: -M's memory added 1.4 a repetition, a third of what -M cost on `pmc
 * stat -r 20 true`). Unlike posix_spawn's, the child waits for pmc (counters are attached to
 * its pid before it runs), so pmc is not suspended (no CLONE_VFORK) and the child runs beside
 * it: it makes raw system calls only, on what pmc prepared for it (a libc call could write
 * errno in pmc's thread or take a lock pmc holds), and pmc keeps all of that until the child
 * is gone. Under Valgrind, which cannot run such a clone, and on architectures without the
 * raw calls here, the child is forked as before.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define RUNNING_ON_VALGRIND 0
#endif
#include "count/child.h"
#include "count/clone.h"

#if (defined(__x86_64__) || defined(__aarch64__)) && defined(SYS_execve)
#define HAVE_CLONE_VM 1
/* A system call without libc: -errno on failure, and nothing written but what it writes. */
#define CHILD_CODE __attribute__((no_sanitize("address", "undefined")))
static inline __attribute__((always_inline)) long raw(long n, long a, long b, long c, long d)
{
#if defined(__x86_64__)
	register long r10 __asm__("r10") = d;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	return ret;
#else
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;

	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
	return x0;
#endif
}
#else
#define HAVE_CLONE_VM 0
#endif

#define CHILD_STACK (64 * 1024)

/* What a CLONE_VM child reads, made by pmc before the clone and kept until the child is gone. */
struct child_plan {
	char **argv;	/* copies: the caller may free its own once the child is started */
	char **envp;	/* the environment it execs with, copied likewise */
	char **files;	/* where argv[0] may be, in execvp's order; NULL-terminated */
	char **sh_argv; /* "/bin/sh", the file, argv[1...]: a script without #! */
	uint64_t mask;	/* the signal mask to restore (the kernel's 64 bits) */
	int go_rd, err_wr;
	int go_wr, err_rd; /* pmc's ends, which the child closes (it has a copy of the table) */
	int keep_fd, extra_fd;
	bool stdout_to_stderr;
	int parent; /* pmc's pid: the child's parent, until pmc is gone (child.c, "Lifetime") */
	void *stack;
};

void pmc__clone_plan_free(struct child_plan *p)
{
	if (!p)
		return;
	if (p->stack)
		munmap(p->stack, CHILD_STACK);
	free(p->argv);
	free(p->envp);
	free(p->files);
	free(p->sh_argv);
	free(p);
}

#if HAVE_CLONE_VM
/*
 * The files execvp() would try for argv0, in a NULL-terminated array with the strings after
 * it (one free()): argv0 itself when it has a '/' or is empty, else each PATH entry (an
 * empty one being the current folder) joined with it; PATH's default is confstr()'s, as
 * execvp's.
 */
static char **plan_files(const char *argv0)
{
	const char *path = getenv("PATH");
	char defpath[256], **v, *out;
	size_t n = 1, len, flen = strlen(argv0);

	if (!*argv0 || strchr(argv0, '/')) { /* "": ENOENT, as execvp() says */
		v = malloc(2 * sizeof(*v) + flen + 1);
		if (v) {
			v[0] = memcpy((char *)(v + 2), argv0, flen + 1);
			v[1] = NULL;
		}
		return v;
	}
	if (!path) {
		len = confstr(_CS_PATH, defpath, sizeof(defpath));
		path = len && len <= sizeof(defpath) ? defpath : "/bin:/usr/bin";
	}
	for (const char *c = path; *c; c++)
		n += *c == ':';
	len = strlen(path);
	v = malloc((n + 1) * sizeof(*v) + len + n * (flen + 2));
	if (!v)
		return NULL;
	out = (char *)(v + n + 1);
	n = 0;
	for (const char *c = path;; c++) {
		const char *end = strchrnul(c, ':');

		v[n++] = out;
		if (end > c) {
			memcpy(out, c, (size_t)(end - c));
			out += end - c;
			*out++ = '/';
		}
		memcpy(out, argv0, flen + 1);
		out += flen + 1;
		if (!*end)
			break;
		c = end;
	}
	v[n] = NULL;
	return v;
}

/*
 * A copy of v (n strings) with its strings after the pointers, in one malloc'ed block, and
 * extra (or NULL) as one more string: a NULL-terminated array.
 */
static char **copy_strings(char *const *v, size_t n, const char *extra)
{
	size_t len = 0, i;
	char **out, *d;

	for (i = 0; i < n; i++)
		len += strlen(v[i]) + 1;
	len += extra ? strlen(extra) + 1 : 0;
	out = malloc((n + 2) * sizeof(*out) + len);
	if (!out)
		return NULL;
	d = (char *)(out + n + 2);
	for (i = 0; i < n + (extra != NULL); i++) {
		const char *src = i < n ? v[i] : extra;
		size_t l = strlen(src) + 1;

		out[i] = memcpy(d, src, l);
		d += l;
	}
	out[i] = NULL;
	return out;
}

/* environ, with NAME=fd in place of NAME's first entry or after the last, as setenv() puts it. */
static char **plan_env(const char *name, int fd)
{
	extern char **environ;
	size_t n = 0, nl = name ? strlen(name) : 0, at;
	char kv[300], **v, **out;

	while (environ && environ[n])
		n++;
	if (!name)
		return copy_strings(environ, n, NULL);
	if ((size_t)snprintf(kv, sizeof(kv), "%s=%d", name, fd) >= sizeof(kv))
		return NULL;
	for (at = 0; at < n; at++)
		if (!strncmp(environ[at], name, nl) && environ[at][nl] == '=')
			break;
	if (at == n)
		return copy_strings(environ, n, kv);
	v = malloc((n + 1) * sizeof(*v));
	if (!v)
		return NULL;
	memcpy(v, environ, n * sizeof(*v));
	v[at] = kv;
	out = copy_strings(v, n, NULL);
	free(v);
	return out;
}

static struct child_plan *plan_new(char *const argv[], const struct pmc_child_opts *opts,
				   const int go[2], const int errp[2], const sigset_t *mask)
{
	struct child_plan *p = calloc(1, sizeof(*p));
	size_t argc = 0;

	if (!p)
		return NULL;
	while (argv[argc])
		argc++;
	p->argv = copy_strings(argv, argc, NULL);
	p->go_rd = go[0];
	p->go_wr = go[1];
	p->err_rd = errp[0];
	p->err_wr = errp[1];
	p->keep_fd = opts ? opts->keep_fd : -1;
	p->extra_fd = opts ? opts->extra_fd : 0;
	p->stdout_to_stderr = opts && opts->stdout_to_stderr;
	p->parent = getpid();
	memcpy(&p->mask, mask, sizeof(p->mask));
	p->envp = plan_env(opts && opts->keep_fd >= 0 ? opts->keep_fd_env : NULL,
			   opts ? opts->keep_fd : -1);
	p->files = plan_files(argv[0]);
	p->sh_argv = calloc(argc + 2, sizeof(*p->sh_argv));
	p->stack = mmap(NULL, CHILD_STACK, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (p->stack == MAP_FAILED)
		p->stack = NULL;
	if (!p->argv || !p->envp || !p->files || !p->sh_argv || !p->stack) {
		pmc__clone_plan_free(p);
		return NULL;
	}
	p->sh_argv[0] = (char *)"/bin/sh";
	for (size_t i = 1; i < argc; i++)
		p->sh_argv[i + 1] = p->argv[i];
	return p;
}

CHILD_CODE static void clear_cloexec(int fd)
{
	long fl = raw(SYS_fcntl, fd, F_GETFD, 0, 0);

	if (fl >= 0)
		raw(SYS_fcntl, fd, F_SETFD, fl & ~FD_CLOEXEC, 0);
}

CHILD_CODE static bool try_next(long e)
{
	return e == ENOENT || e == ESTALE || e == ENOTDIR || e == ENODEV || e == ETIMEDOUT;
}

/*
 * The CLONE_VM child: as child_main(), in raw system calls only, on its own stack. Not
 * instrumented: a sanitizer's bookkeeping would be libc-like work in pmc's memory.
 */
CHILD_CODE __attribute__((noinline)) static int clone_main(void *arg)
{
	const struct child_plan *p = arg;
	/* struct sigaction as the kernel has it: handler, flags, restorer, mask */
	const unsigned long dfl[4] = {0};
	unsigned long old[4];
	long n, e = ENOENT;
	bool eacces = false;
	char c;
	int ee;

	/* Killed when pmc's thread that made it ends; gone already if pmc went before this */
	raw(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0);
	if (raw(SYS_getppid, 0, 0, 0, 0) != p->parent)
		raw(SYS_exit_group, 127, 0, 0, 0);
	raw(SYS_close, p->go_wr, 0, 0, 0);
	raw(SYS_close, p->err_rd, 0, 0, 0);
	/* The parent's handlers are not the command's (see child_main()); SIGPIPE is ignored */
	for (int sig = 1; sig < NSIG; sig++)
		if (!raw(SYS_rt_sigaction, sig, 0, (long)old, 8) &&
		    (sig == SIGPIPE ||
		     (old[0] != (unsigned long)SIG_DFL && old[0] != (unsigned long)SIG_IGN)))
			raw(SYS_rt_sigaction, sig, (long)dfl, 0, 8);
	raw(SYS_rt_sigprocmask, SIG_SETMASK, (long)&p->mask, 0, 8);
	do
		n = raw(SYS_read, p->go_rd, (long)&c, 1, 0);
	while (n == -EINTR);
	if (n != 1)
		raw(SYS_exit_group, 127, 0, 0, 0); /* the parent gave up before releasing us */
	raw(SYS_close, p->go_rd, 0, 0, 0);
	if (p->keep_fd >= 0)
		clear_cloexec(p->keep_fd);
	if (p->extra_fd > 0)
		clear_cloexec(p->extra_fd);
	if (p->stdout_to_stderr)
		raw(SYS_dup3, STDERR_FILENO, STDOUT_FILENO, 0, 0);
	/* execvp()'s search: on to the next file while this one is not there or not allowed */
	for (char **f = p->files; *f; f++) {
		n = raw(SYS_execve, (long)*f, (long)p->argv, (long)p->envp, 0);
		if (n == -ENOEXEC) {
			p->sh_argv[1] = *f;
			n = raw(SYS_execve, (long)p->sh_argv[0], (long)p->sh_argv, (long)p->envp,
				0);
		}
		e = -n;
		if (e == EACCES)
			eacces = true;
		else if (!try_next(e))
			break;
	}
	ee = (int)(eacces && try_next(e) ? EACCES : e);
	raw(SYS_write, p->err_wr, (long)&ee, sizeof(ee), 0);
	raw(SYS_exit_group, 127, 0, 0, 0);
	return 127;
}

pid_t pmc__clone_start(char *const argv[], const struct pmc_child_opts *opts, const int go[2],
		       const int errp[2], const sigset_t *mask, struct child_plan **plan)
{
	if (RUNNING_ON_VALGRIND) {
		errno = ENOSYS;
		return -1;
	}
	*plan = plan_new(argv, opts, go, errp, mask);
	if (!*plan) {
		errno = ENOSYS; /* no memory for the plan: fork, which needs none */
		return -1;
	}
	return clone(clone_main, (char *)(*plan)->stack + CHILD_STACK, CLONE_VM | SIGCHLD, *plan);
}
#else
pid_t pmc__clone_start(char *const argv[], const struct pmc_child_opts *opts, const int go[2],
		       const int errp[2], const sigset_t *mask, struct child_plan **plan)
{
	(void)argv, (void)opts, (void)go, (void)errp, (void)mask, (void)plan;
	errno = ENOSYS;
	return -1;
}
#endif
