// SPDX-License-Identifier: MIT
/*
 * The region session of a process: configured once (from the environment or
 * pmc_region_setup()), a list of per-thread tables, and the hooks that keep results
 * across thread exit, fork and process exit, and the flush that writes the results (protocol:
 * docs/regions.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/error.h>
#include "core/log.h"
#include "core/opts.h"
#include "region/arena.h"
#include "region/proto.h"
#include "region/region.h"

struct region_session pmc__region_session = {.fd = -1,
					     .problems = pmc__region_session.own_problems};
__thread struct region_thread *pmc__region_self __attribute__((tls_model("initial-exec")));
/* The thread could not open counters: do not retry at every marker. */
static __thread bool self_failed __attribute__((tls_model("initial-exec")));
/* A thread of this process could not open counters and said so: the others only count. */
static bool said_unopened;

static pthread_mutex_t cfg_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t list_lock = PTHREAD_MUTEX_INITIALIZER;
static struct region_thread *threads;
static pthread_key_t exit_key;

/* Locks / unlocks the list of threads. */
static void region_lock(void)
{
	pthread_mutex_lock(&list_lock);
}

static void region_unlock(void)
{
	pthread_mutex_unlock(&list_lock);
}

/* Thread exit: close the counters, keep the results for the process's record. */
static void on_thread_exit(void *arg)
{
	struct region_thread *t = arg;

	region_lock();
	pmc__region_thread_retire(t);
	region_unlock();
	pmc__region_self = NULL;
}

static void before_fork(void)
{
	region_lock();
}

static void after_fork_parent(void)
{
	region_unlock();
}

/*
 * The child starts with no regions: the parent's tables and counters (which count the
 * parent's threads) are dropped, and the child's first marker opens its own counters.
 */
static void after_fork_child(void)
{
	struct region_thread *t = threads;

	threads = NULL;
	while (t) {
		struct region_thread *next = t->next;

		pmc__region_thread_delete(t);
		t = next;
	}
	pmc__region_self = NULL;
	self_failed = false;
	said_unopened = false;
	pmc__region_arena_forked();
	pthread_setspecific(exit_key, NULL);
	pthread_mutex_init(&list_lock, NULL);
}

static void at_exit(void)
{
	pmc_region_flush();
}

static int install_hooks(void)
{
	int err = pthread_key_create(&exit_key, on_thread_exit);

	if (!err)
		err = pthread_atfork(before_fork, after_fork_parent, after_fork_child);
	if (!err && atexit(at_exit))
		err = ENOMEM;
	return -err;
}

static char *dup_env(const char *name)
{
	const char *v = secure_getenv(name);

	return v && *v ? strdup(v) : NULL;
}

/*
 * Under pmc stat: PMC_REGION_FD names an inherited descriptor for the results, which starts
 * with the pass header that names the events, the backend and the privilege mask (protocol
 * version 3). Earlier runners put some of these in the environment (PMC_REGION_EVENTS,
 * PMC_REGION_BACKEND, PMC_REGION_PRIV); those are not read, since pmc and libpmc ship
 * together, and a header that is missing or of another version turns regions off, loudly.
 */
static bool from_runner(struct region_session *s)
{
	const char *v = secure_getenv("PMC_REGION_FD");
	struct pmc__region_pass pass;
	char *end;
	long fd;
	int err;

	if (!v || !*v)
		return false;
	fd = strtol(v, &end, 10);
	if (*end || fd < 0 || fd > 1 << 20 || fcntl((int)fd, F_GETFD) < 0)
		return false;
	s->fd = (int)fd;
	s->sink = PMC_REGION_SINK_FD;
	/*
	 * Forked processes write their records through one shared file description. A memfd's
	 * writes do not take the file-position lock (it is not opened through a path), so
	 * writers that exit together wrote at the same offset and one record overwrote another;
	 * with O_APPEND each write goes to the end under the inode's lock. The flag belongs to
	 * the shared description: the first process to start sets it for all.
	 */
	if (fcntl(s->fd, F_SETFL, fcntl(s->fd, F_GETFL) | O_APPEND))
		pr_warn("regions: cannot make PMC_REGION_FD %ld append-only (%s): processes that "
			"exit together may overwrite each other's results\n",
			fd, strerror(errno));
	err = pmc__region_pass_read(s->fd, &pass);
	if (err)
		pr_warn("regions: no pass header of runner protocol %d in PMC_REGION_FD %ld (%s): "
			"the program runs unmeasured; run it with a pmc of the same version as "
			"its libpmc\n",
			PMC_PASS_VERSION, fd, pmc_strerror(err));
	else {
		s->cfg.events = pass.events;
		s->cfg.backend = pass.backend;
		s->cfg.priv = pass.priv;
		/* Without it, regions count as before; only a process's _exit() loses its own. */
		if (pass.arena_size &&
		    (err = pmc__region_arena_map(s->fd, pass.arena_off, pass.arena_size)))
			pr_warn("regions: cannot map the runner's arena (%s): a process that "
				"leaves without exit() loses its regions\n",
				pmc_strerror(err));
	}
	s->cfg.quiet = true;
	return true;
}

static void from_env(struct region_session *s)
{
	const char *pt = secure_getenv("PMC_PER_THREAD");

	if (!from_runner(s)) {
		s->cfg.events = dup_env("PMC_EVENTS");
		s->cfg.backend = dup_env("PMC_BACKEND");
		s->output = dup_env("PMC_OUTPUT");
		s->sink = s->output ? PMC_REGION_SINK_JSON : PMC_REGION_SINK_STDERR;
	}
	s->per_thread = pt && *pt && strcmp(pt, "0");
}

static void set_state(int state)
{
	__atomic_store_n(&pmc__region_session.state, state, __ATOMIC_RELEASE);
}

int pmc__region_session_get(void)
{
	struct region_session *s = &pmc__region_session;
	int state = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);

	if (state != REGION_UNINIT)
		return state;
	pthread_mutex_lock(&cfg_lock);
	if (s->state == REGION_UNINIT) {
		from_env(s);
		s->init_err = s->cfg.events ? install_hooks() : 0;
		set_state(s->cfg.events && !s->init_err ? REGION_ON : REGION_OFF);
	}
	pthread_mutex_unlock(&cfg_lock);
	return __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
}

int pmc_region_setup(const struct pmc_region_opts *opts)
{
	struct region_session *s = &pmc__region_session;
	struct pmc_region_opts o;
	int err = 0;

	if (!opts)
		return -EINVAL;
	pthread_mutex_lock(&cfg_lock);
	/* A second setup fails as such, before its options are read. */
	if (s->state != REGION_UNINIT) {
		err = -EALREADY;
		goto out;
	}
	/* Every field up to fd is in every version of the struct. */
	err = PMC_OPTS_COPY(pmc_region_opts, &o, opts, fd);
	if (!err && o.sink == PMC_REGION_SINK_JSON && !o.output)
		err = -EINVAL;
	if (err)
		goto out;
	from_env(s);
	if (o.events) {
		free(s->cfg.events);
		s->cfg.events = strdup(o.events);
	}
	if (o.backend) {
		free(s->cfg.backend);
		s->cfg.backend = strdup(o.backend);
	}
	if (o.priv)
		s->cfg.priv = o.priv;
	if (o.sink != PMC_REGION_SINK_DEFAULT) {
		s->sink = o.sink;
		s->fd = o.fd;
		free(s->output);
		s->output = o.output ? strdup(o.output) : NULL;
	}
	err = s->cfg.events ? install_hooks() : -EINVAL;
	set_state(err ? REGION_OFF : REGION_ON);
out:
	pthread_mutex_unlock(&cfg_lock);
	return err;
}

/* The first thread to open counters gives the session its event names. */
static int adopt_names(const struct pmc__region_reader *r)
{
	struct region_session *s = &pmc__region_session;

	if (s->event_names)
		return s->nr_events == r->nr_events ? 0 : -PMC_E_PROTOCOL;
	s->event_names = calloc(r->nr_events, sizeof(*s->event_names));
	if (!s->event_names)
		return -ENOMEM;
	for (size_t i = 0; i < r->nr_events; i++)
		if (!(s->event_names[i] = strdup(r->names[i])))
			return -ENOMEM;
	s->nr_events = r->nr_events;
	return 0;
}

static int write_all(int fd, const char *buf, size_t len);

/*
 * Under the runner, a process's first counting thread says that the process started: the
 * runner then counts its record as lost if none comes (docs/regions.md, "Lost records").
 * One write(2), no stdio: it reaches the descriptor whatever way the process ends.
 */
static void announce(void)
{
	struct region_session *s = &pmc__region_session;
	char rec[64];
	size_t n;

	if (s->sink != PMC_REGION_SINK_FD)
		return;
	n = pmc__region_start_record(rec, sizeof(rec));
	if (!n || write_all(s->fd, rec, n))
		pr_warn("regions: cannot tell the runner that process %d counts: %s\n",
			(int)getpid(), n ? strerror(errno) : "record too long");
}

struct region_thread *pmc__region_thread_slow(void)
{
	struct region_thread *t = NULL;
	bool first = false;
	int err;

	if (pmc__region_self || self_failed || pmc__region_session_get() != REGION_ON)
		return pmc__region_self;
	err = pmc__region_thread_new(&pmc__region_session.cfg, &t);
	if (!err) {
		region_lock();
		err = adopt_names(t->reader);
		if (!err) {
			first = !threads;
			t->next = threads;
			threads = t;
		}
		region_unlock();
	}
	if (err) {
		pmc__region_thread_delete(t);
		/* Counted (the results say how many threads), said once per process. */
		__atomic_fetch_add(&pmc__region_session.problems[REGION_UNOPENED], 1,
				   __ATOMIC_RELAXED);
		if (err == -EMFILE && !__atomic_exchange_n(&said_unopened, true, __ATOMIC_RELAXED))
			pr_warn("regions: cannot count in thread: %s: each thread takes a "
				"descriptor per event; raise the limit of open files (ulimit -n) "
				"or count fewer events (said once: the results count the threads "
				"that could not)\n",
				pmc_strerror(err));
		else if (err != -EMFILE &&
			 !__atomic_exchange_n(&said_unopened, true, __ATOMIC_RELAXED))
			pr_warn("regions: cannot count in thread: %s\n", pmc_strerror(err));
		self_failed = true;
		return NULL;
	}
	pthread_setspecific(exit_key, t);
	pmc__region_self = t;
	if (first)
		announce();
	return t;
}

/* Writing the process's results when it exits (or flushes): to the runner or the user. */

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Standalone mode: the record goes through the same reader the runner uses. */
static int report(const char *buf, size_t len)
{
	struct region_session *s = &pmc__region_session;
	struct pmc_region_data *data;
	int err = pmc_region_data__new(&data);

	if (!err)
		err = pmc_region_data__parse(data, buf, len);
	if (err >= 0) {
		if (s->sink == PMC_REGION_SINK_JSON)
			err = pmc__region_report_json(s->output, s->cfg.backend, s->stopped_by,
						      data);
		else
			err = pmc__region_report_text(stderr, data, s->per_thread);
	}
	pmc_region_data__delete(data);
	return err < 0 ? err : 0;
}

int pmc_region_flush_stopped(int sig)
{
	pmc__region_session.stopped_by = sig;
	return pmc_region_flush();
}

int pmc_region_flush(void)
{
	struct region_session *s = &pmc__region_session;
	int on = REGION_ON, err;
	char *buf = NULL;
	size_t len = 0;

	/* Only the first flush writes; markers return at once from now on. */
	if (!__atomic_compare_exchange_n(&s->state, &on, REGION_DONE, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return 0;
	region_lock();
	if (pmc__region_self)
		pmc__region_thread_settle(pmc__region_self);
	err = pmc__region_record(s, threads, &buf, &len);
	region_unlock();
	if (!err) {
		switch (s->sink) {
		case PMC_REGION_SINK_FD:
			/* Before the write: a record half written is lost, never counted twice. */
			pmc__region_arena_written();
			err = write_all(s->fd, buf, len);
			break;
		case PMC_REGION_SINK_STDERR:
		case PMC_REGION_SINK_JSON:
			err = report(buf, len);
			break;
		default:
			break;
		}
	}
	if (err)
		pr_err("regions: cannot write the results: %s\n", pmc_strerror(err));
	free(buf);
	return err;
}
