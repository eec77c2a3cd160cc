// SPDX-License-Identifier: MIT
/*
 * Counting under vpmu. COMMAND: the events of the pass go onto the model's counters, the
 * command runs as `VALGRIND_LIB=<vglib> valgrind -q --tool=vpmu --ctrN=... --out-fd=N -- argv`
 * and the counts come back in the stream's COUNTS records at exit (docs/vpmu.md). SELF: the
 * calling process must already run under vpmu; it programs the counters by client requests.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/caps.h>
#include <pmc/error.h>
#include "backend/vpmu/vpmu.h"
#include "core/log.h"
#include "count/child.h"
#include "event/evsel.h"

/* The lowest fd the stream's write end gets, clear of the fds programs commonly dup2 onto. */
#define OUT_FD_MIN 64

static int take_counter(struct vpmu_counting *vc, const struct vpmu_enc *enc)
{
	int nr_gp = vc->model == VPMU_MODEL_PENTIUM ? VPMU_PENTIUM_NR : VPMU_COREI7_NR_GP;

	if (enc->fixed >= 0 && !vc->ctr_used[VPMU_COREI7_FIXED_BASE + enc->fixed]) {
		int k = VPMU_COREI7_FIXED_BASE + enc->fixed;

		vc->ctr_used[k] = true;
		vc->ctr_config[k] = enc->fixed_ctrl;
		return k;
	}
	for (int k = 0; k < nr_gp; k++) {
		if (vc->ctr_used[k])
			continue;
		vc->ctr_used[k] = true;
		vc->ctr_config[k] = enc->config;
		return k;
	}
	return -PMC_E_TOOMANY;
}

/* Puts each event of the pass on a counter: its fixed one if free, else a general one. */
static int assign(struct vpmu_counting *vc)
{
	struct pmc_evlist *evlist = vc->base.evlist;

	for (size_t i = 0; i < evlist->nr; i++) {
		struct pmc_evsel *ev = evlist->entries[i];
		struct vpmu_enc enc;
		char why[256];
		int err;

		vc->ctr[i] = -1;
		if (!pmc__counting_selects(&vc->base, ev))
			continue;
		err = pmc__vpmu_encode(ev, vc->model, &enc, why, sizeof(why));
		if (err) {
			pr_warn("vpmu: cannot count '%s': %s\n", ev->name, why);
			return err;
		}
		err = take_counter(vc, &enc);
		if (err < 0) {
			pr_warn("vpmu: no counter left for '%s' (the %s model has %d); plan passes "
				"with pmc_evlist__plan()\n", ev->name, pmc__vpmu_model_name(vc->model),
				vc->model == VPMU_MODEL_PENTIUM ? VPMU_PENTIUM_NR
								: VPMU_COREI7_NR_GP + VPMU_COREI7_NR_FIXED);
			return err;
		}
		vc->ctr[i] = err;
		vc->base.open[i] = true;
	}
	return 0;
}

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
	const char *s = getenv("PMC_VPMU_ARGS");
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

static int tool_args(const struct vpmu_counting *vc, int out_fd, char **argv, int *n, int room)
{
	const char *model = getenv("PMC_VPMU_MODEL"), *preset = getenv("PMC_VPMU_PRESET");
	int err = push(argv, n, "VALGRIND_LIB=%s", pmc_caps()->vpmu_path);

	err = err ? err : push(argv, n, "valgrind");
	err = err ? err : push(argv, n, "-q");
	err = err ? err : push(argv, n, "--tool=vpmu");
	if (!err && preset && *preset)
		err = push(argv, n, "--preset=%s", preset);
	if (!err && model && *model)
		err = push(argv, n, "--model=%s", model);
	for (int k = 0; k < VPMU_MAX_COUNTERS && !err; k++)
		if (vc->ctr_used[k])
			err = push(argv, n, "--ctr%d=0x%llx", k, (unsigned long long)vc->ctr_config[k]);
	err = err ? err : push(argv, n, "--out-fd=%d", out_fd);
	err = err ? err : push_user_args(argv, n, room);
	return err ? err : push(argv, n, "--");
}

/* env VALGRIND_LIB=... valgrind [tool options] -- argv... */
static int build_argv(const struct vpmu_counting *vc, int out_fd, char ***out)
{
	char *const *targv = vc->base.target.argv;
	int nt = 0, n = 0, room, err;
	char **argv;

	while (targv[nt])
		nt++;
	room = 16 + VPMU_MAX_COUNTERS + count_words(getenv("PMC_VPMU_ARGS")) + nt;
	argv = calloc((size_t)room + 1, sizeof(*argv));
	if (!argv)
		return -ENOMEM;
	err = push(argv, &n, "env");
	err = err ? err : tool_args(vc, out_fd, argv, &n, room);
	for (int i = 0; i < nt && !err; i++)
		err = push(argv, &n, "%s", targv[i]);
	if (err) {
		free_argv(argv);
		return err;
	}
	*out = argv;
	return 0;
}

static int spawn(struct vpmu_counting *vc)
{
	const struct pmc_target *t = &vc->base.target;
	struct pmc_child_opts o = { .keep_fd = -1 };
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
	vc->rd_fd = p[0];
	err = build_argv(vc, wr, &argv);
	if (t->child_fd > 0) {
		o.keep_fd = t->child_fd;
		o.keep_fd_env = t->child_fd_env;
	}
	o.extra_fd = wr;
	if (!err)
		err = pmc__child_spawn(argv, &o, &vc->base.child);
	if (!err)
		pr_debug("vpmu: running '%s' under valgrind --tool=vpmu, stream on fd %d\n",
			 t->argv[0], wr);
	free_argv(argv);
	close(wr); /* only the command holds the write end: its exit ends the stream */
	return err;
}

static int open_target(struct vpmu_counting *vc)
{
	const struct pmc_target *t = &vc->base.target;

	switch (t->kind) {
	case PMC_TARGET_COMMAND:
		if (!pmc_caps()->vpmu) {
			pr_warn("vpmu: %s\n", pmc_caps()->vpmu_why);
			return -PMC_E_NOVPMU;
		}
		return spawn(vc);
	case PMC_TARGET_SELF:
		if (!pmc__vpmu_present()) {
			pr_warn("vpmu: counting the calling thread needs the process to run under "
				"valgrind --tool=vpmu\n");
			return -EOPNOTSUPP;
		}
		vc->self = true;
		return pmc__vpmu_self_program(vc);
	default:
		pr_warn("vpmu: only a command started by pmc (or the calling process under vpmu) "
			"can be counted; not a running process or CPUs\n");
		return -EOPNOTSUPP;
	}
}

int pmc__vpmu_open(struct pmc_evlist *evlist, const struct pmc_target *target, int pass,
		   struct pmc_counting **out)
{
	struct vpmu_counting *vc = calloc(1, sizeof(*vc));
	int err;

	if (!vc)
		return -ENOMEM;
	vc->rd_fd = vc->wake_fd[0] = vc->wake_fd[1] = -1;
	vc->model = pmc__vpmu_model();
	err = pmc__counting_init(&vc->base, evlist, target, pass);
	vc->ctr = err ? NULL : calloc(evlist->nr ? evlist->nr : 1, sizeof(*vc->ctr));
	if (!err && !vc->ctr)
		err = -ENOMEM;
	if (!err)
		err = assign(vc);
	if (!err)
		err = open_target(vc);
	if (err) {
		pmc__vpmu_close(&vc->base);
		return err;
	}
	*out = &vc->base;
	return 0;
}

/* Where execvp() would find the command: refuse early, as exec would, when it is not there. */
static int command_runnable(const char *prog)
{
	const char *p = getenv("PATH");
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

int pmc__vpmu_start(struct pmc_counting *c)
{
	struct vpmu_counting *vc = to_vpmu(c);
	int exec_errno = 0, err;

	if (vc->self)
		return pmc__vpmu_self_ctl(vc, VPMU_REQ_START);
	err = command_runnable(c->target.argv[0]);
	if (err) {
		pr_err("cannot run '%s': %s\n", c->target.argv[0], strerror(-err));
		return -PMC_E_EXEC;
	}
	err = pmc__vpmu_stream_start(vc);
	if (!err)
		err = pmc__child_start(c->child, &exec_errno);
	if (err == -PMC_E_EXEC)
		pr_err("cannot run valgrind for '%s': %s\n", c->target.argv[0],
		       strerror(exec_errno));
	return err;
}

int pmc__vpmu_reap(struct pmc_counting *c)
{
	struct vpmu_counting *vc = to_vpmu(c);

	return vc->self ? 0 : pmc__vpmu_stream_finish(vc);
}

int pmc__vpmu_read(struct pmc_counting *c)
{
	struct vpmu_counting *vc = to_vpmu(c);
	int err = vc->self ? pmc__vpmu_self_read(vc) : 0;

	if (err)
		return err;
	if (!vc->self && c->child && !c->child->reaped)
		return -EBUSY; /* counts arrive when the command exits */
	if (!vc->self && !vc->have_counts) {
		pr_warn("vpmu: the tool sent no counts for '%s' (did valgrind start it?)\n",
			c->target.argv[0]);
		return -PMC_E_PROTOCOL;
	}
	for (size_t i = 0; i < c->evlist->nr; i++) {
		if (!c->open[i] || vc->ctr[i] < 0)
			continue;
		c->values[i] = (struct pmc_count){ .value = vc->totals[vc->ctr[i]],
						   .time_enabled_ns = 1, .time_running_ns = 1 };
	}
	return 0;
}

void pmc__vpmu_close(struct pmc_counting *c)
{
	struct vpmu_counting *vc = to_vpmu(c);

	pmc__vpmu_stream_close(vc);
	pmc__counting_fini(c);
	free(vc->ctr);
	free(vc);
}
