// SPDX-License-Identifier: MIT
/* Tracepoints subsys:name (patterns allowed) resolved to their ids through tracefs. */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pmc/error.h>
#include "core/grow.h"
#include "core/tracefs.h"
#include "event/parse.h"

/* The events/ folder of tracefs (pmc__tracefs_root(), which mounts it when pmc may). */
const char *pmc__tp_events_dir(void)
{
	/* Threads parse at once (standalone regions: each counting thread builds its list), so
	 * no buffer is shared: a static one being rewritten was read as "" by another thread,
	 * and its tracepoint then reported unknown. */
	static __thread char dir[64];
	const char *root = pmc__tracefs_root();

	if (!root)
		return NULL;
	snprintf(dir, sizeof(dir), "%s/events", root);
	return dir;
}

/* perf's patterns: '*' and '?' (a '[' or '!' is a character of the name, as in perf). */
static bool is_pattern(const char *s)
{
	return strpbrk(s, "*?") != NULL;
}

bool pmc__tp_exists(const char *subsys, const char *name)
{
	const char *dir = pmc__tp_events_dir();
	char path[PATH_MAX];

	if (!dir || is_pattern(subsys) || is_pattern(name) || subsys[0] == '.' || name[0] == '.')
		return false;
	snprintf(path, sizeof(path), "%s/%s/%s/id", dir, subsys, name);
	return access(path, R_OK) == 0;
}

static int read_id(const char *dir, const char *sub, const char *name, uint64_t *id)
{
	char path[PATH_MAX], buf[32];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s/%s/id", dir, sub, name);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (!ok)
		return -PMC_E_FORMAT;
	*id = strtoull(buf, NULL, 10);
	return 0;
}

static int tp_cmp(const void *a, const void *b)
{
	const struct pmc_tp *x = a, *y = b;
	int c = strcmp(x->subsys, y->subsys);

	return c ? c : strcmp(x->name, y->name);
}

struct tp_vec {
	struct pmc_tp *v;
	size_t nr, alloc;
};

static int tp_add(struct tp_vec *vec, const char *sub, const char *name, uint64_t id)
{
	struct pmc_tp *t;

	if (PMC_ENSURE(vec->v, vec->alloc, vec->nr + 1))
		return -ENOMEM;
	t = &vec->v[vec->nr];
	t->subsys = strdup(sub);
	t->name = strdup(name);
	t->id = id;
	if (!t->subsys || !t->name) {
		free(t->subsys);
		free(t->name);
		return -ENOMEM;
	}
	vec->nr++;
	return 0;
}

typedef int (*tp_visit_fn)(const char *sub, const char *name, void *arg);

static bool is_dir_entry(const struct dirent *de)
{
	return de->d_name[0] != '.' && (de->d_type == DT_DIR || de->d_type == DT_UNKNOWN);
}

static int walk_subsys(const char *dir, const char *sub, const char *pat, tp_visit_fn fn, void *arg)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	d = opendir(path);
	if (!d) /* a subsystem that went away is skipped; running out of descriptors is not */
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	while (!ret && (de = readdir(d)))
		if (is_dir_entry(de) && !fnmatch(pat, de->d_name, 0))
			ret = fn(sub, de->d_name, arg);
	closedir(d);
	return ret;
}

/* Calls fn for every tracepoint whose subsystem and name match the fnmatch patterns. */
static int walk(const char *dir, const char *sub_pat, const char *name_pat, tp_visit_fn fn,
		void *arg)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	int ret = 0;

	if (!d)
		return errno == ENOENT || errno == ENOTDIR || errno == EACCES ? -PMC_E_NOTRACEFS
									      : -errno;
	while (!ret && (de = readdir(d)))
		if (is_dir_entry(de) && !fnmatch(sub_pat, de->d_name, 0))
			ret = walk_subsys(dir, de->d_name, name_pat, fn, arg);
	closedir(d);
	return ret;
}

struct lookup_arg {
	const char *dir;
	struct tp_vec vec;
};

/*
 * A name without an id file is no tracepoint; any other failure (EMFILE, EACCES, ENOMEM)
 * is the reader's and is passed on, so that it is not reported as an unknown tracepoint.
 */
static bool not_a_tracepoint(int err)
{
	return err == -ENOENT || err == -ENOTDIR || err == -PMC_E_FORMAT;
}

static int lookup_visit(const char *sub, const char *name, void *arg)
{
	struct lookup_arg *la = arg;
	uint64_t id;
	int err = read_id(la->dir, sub, name, &id);

	if (err)
		return not_a_tracepoint(err) ? 0 : err;
	return tp_add(&la->vec, sub, name, id);
}

int pmc__tp_lookup(const char *subsys, const char *name, struct pmc_tp **out, size_t *nr)
{
	struct lookup_arg la = {.dir = pmc__tp_events_dir()};
	uint64_t id;
	int ret = 0;

	*out = NULL;
	*nr = 0;
	if (!la.dir)
		return -PMC_E_NOTRACEFS;
	if (subsys[0] == '.' || name[0] == '.')
		return 0;
	if (!is_pattern(subsys) && !is_pattern(name)) {
		ret = read_id(la.dir, subsys, name, &id);
		if (!ret)
			ret = tp_add(&la.vec, subsys, name, id);
		else if (not_a_tracepoint(ret))
			ret = 0;
	} else {
		ret = walk(la.dir, subsys, name, lookup_visit, &la);
	}
	if (ret) {
		pmc__tp_free(la.vec.v, la.vec.nr);
		return ret;
	}
	if (la.vec.nr)
		qsort(la.vec.v, la.vec.nr, sizeof(*la.vec.v), tp_cmp);
	*out = la.vec.v;
	*nr = la.vec.nr;
	return 0;
}

/* hint's "subsys:name" (an evsel's name: a tail of terms or modifiers may follow). */
static bool split_hint(const char *hint, char *sub, size_t sub_len, char *name, size_t name_len)
{
	size_t s = hint ? strcspn(hint, ":") : 0, n;

	if (!s || !hint[s] || s >= sub_len)
		return false;
	n = strcspn(hint + s + 1, ":/ ,{}");
	if (!n || n >= name_len)
		return false;
	snprintf(sub, sub_len, "%.*s", (int)s, hint);
	snprintf(name, name_len, "%.*s", (int)n, hint + s + 1);
	return true;
}

int pmc__tp_by_id(uint64_t id, const char *hint, struct pmc_tp **out)
{
	char sub[256], name[256];
	struct pmc_tp *all;
	size_t nr, i;
	int ret;

	*out = NULL;
	if (split_hint(hint, sub, sizeof(sub), name, sizeof(name))) {
		ret = pmc__tp_lookup(sub, name, &all, &nr);
		if (ret)
			return ret;
		if (nr == 1 && all[0].id == id) {
			*out = all;
			return 0;
		}
		pmc__tp_free(all, nr);
	}
	ret = pmc__tp_lookup("*", "*", &all, &nr);
	if (ret)
		return ret;
	ret = -ENOENT;
	for (i = 0; i < nr && all[i].id != id; i++)
		;
	if (i < nr) {
		*out = malloc(sizeof(**out));
		ret = *out ? 0 : -ENOMEM;
	}
	if (!ret) {
		**out = all[i]; /* moved out: the last entry takes its place */
		all[i] = all[--nr];
	}
	pmc__tp_free(all, nr);
	return ret;
}

void pmc__tp_free(struct pmc_tp *tps, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(tps[i].subsys);
		free(tps[i].name);
	}
	free(tps);
}

struct each_arg {
	pmc_event_fn fn;
	void *arg;
	const char *dir;
};

static int each_visit(const char *sub, const char *name, void *arg)
{
	struct each_arg *ea = arg;
	char full[512];
	struct pmc_event_info info = {.name = full, .kind = PMC_EV_TRACEPOINT, .pmu = sub};

	/* ftrace's internal events have directories but no id: perf cannot open them. */
	snprintf(full, sizeof(full), "%s/%s/%s/id", ea->dir, sub, name);
	if (access(full, R_OK))
		return 0;
	snprintf(full, sizeof(full), "%s:%s", sub, name);
	return ea->fn(&info, ea->arg);
}

int pmc__tp_for_each(const char *subsys, pmc_event_fn fn, void *arg)
{
	const char *dir = pmc__tp_events_dir();
	struct each_arg ea = {fn, arg, dir};
	int ret;

	if (!dir)
		return 0;
	ret = walk(dir, subsys ? subsys : "*", "*", each_visit, &ea);
	return ret == -PMC_E_NOTRACEFS ? 0 : ret;
}

/* Says why the tracepoints of sub:name cannot be read (tracefs missing or not readable). */
static int no_tracefs(struct pmc_parser *p, int ret, int off, const char *sub, const char *name)
{
	if (ret == -PMC_E_NOTRACEFS && pmc__tracefs_unreadable())
		return pmc__parse_fail(
			p, ret, off,
			"cannot resolve tracepoint '%s:%s': tracefs on %s is not readable by uid "
			"%u (run pmc as root, or remount it with gid=GROUP,mode=0750)",
			sub, name, pmc__tracefs_unreadable(), (unsigned)geteuid());
	if (ret == -PMC_E_NOTRACEFS)
		return pmc__parse_fail(p, ret, off,
				       "cannot resolve tracepoint '%s:%s': tracefs is not mounted "
				       "or not readable (try: mount -t tracefs nodev "
				       "/sys/kernel/tracing)",
				       sub, name);
	return pmc__parse_fail(p, ret, off, "cannot read tracepoint '%s:%s' in tracefs: %s", sub,
			       name, pmc_strerror(ret));
}

int pmc__tp_resolve(struct pmc_parser *p, const struct pmc_parsed *ev, struct pmc_tp **tps,
		    size_t *nr)
{
	char sub[256], name[256];
	int ret;

	*tps = NULL;
	*nr = 0;
	if (ev->word_len >= (int)sizeof(sub) || ev->word2_len >= (int)sizeof(name))
		return pmc__parse_fail(p, -PMC_E_UNKNOWN_EVENT, ev->off,
				       "tracepoint name too long");
	snprintf(sub, sizeof(sub), "%.*s", ev->word_len, ev->word);
	snprintf(name, sizeof(name), "%.*s", ev->word2_len, ev->word2);
	ret = pmc__tp_lookup(sub, name, tps, nr);
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return no_tracefs(p, ret, ev->off, sub, name);
	if (*nr)
		return 0;
	return pmc__parse_fail(p, -PMC_E_UNKNOWN_EVENT, ev->off, "unknown tracepoint '%s:%s'", sub,
			       name);
}
