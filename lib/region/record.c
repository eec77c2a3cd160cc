// SPDX-License-Identifier: MIT
/* Reading one region record (docs/regions.md) into a struct rd_record, checking every field. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/error.h>
#include "region/data.h"
#include "region/proto.h"

/* Splits off the next space-separated token of *p (which it NUL-terminates). */
static char *token(char **p)
{
	char *s = *p, *e;

	if (!s || !*s)
		return NULL;
	e = strchr(s, ' ');
	if (e) {
		*e = '\0';
		*p = e + 1;
	} else {
		*p = NULL;
	}
	return s;
}

static int number(char **p, uint64_t *out)
{
	char *t = token(p), *end;

	if (!t || *t < '0' || *t > '9')
		return -PMC_E_FORMAT;
	errno = 0;
	*out = strtoull(t, &end, 10);
	return errno || *end ? -PMC_E_FORMAT : 0;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
				      : -1;
}

/* Undoes the %XX escapes in place. */
static int decode(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (*s != '%') {
			*w++ = *s;
			continue;
		}
		if (hexval(s[1]) < 0 || hexval(s[2]) < 0)
			return -PMC_E_FORMAT;
		*w++ = (char)(hexval(s[1]) * 16 + hexval(s[2]));
		s += 2;
	}
	*w = '\0';
	return 0;
}

static int grow(void **arr, size_t *cap, size_t need, size_t size)
{
	void *p;
	size_t n = *cap ? *cap : 8;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*arr, n * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

/*
 * "process PID NR BAD FAILED": NR events, each named by an "event" line of 8 bytes at least,
 * so a body of len bytes names len / 8 at most: no cap of its own (a writer of 5,000 events
 * is read), and no allocation a hostile NR could make huge.
 */
static int line_process(struct rd_record *r, char *p, size_t len)
{
	uint64_t pid, nr;
	int err = number(&p, &pid);

	if (!err)
		err = number(&p, &nr);
	if (!err)
		err = number(&p, &r->bad_ids);
	if (!err)
		err = number(&p, &r->failed_reads);
	if (err || pid > INT32_MAX || nr > len / 8)
		return -PMC_E_FORMAT;
	r->pid = (int)pid;
	r->nr_events = nr;
	r->events = calloc(nr ? nr : 1, sizeof(*r->events));
	return r->events ? 0 : -ENOMEM;
}

static int line_region(struct rd_record *r, char *p)
{
	struct rd_line *l;
	char *key = token(&p), *name = token(&p);
	uint64_t *v;
	int err;

	if (!r->nr_threads || !key || !name || decode(name))
		return -PMC_E_FORMAT;
	err = grow((void **)&r->lines, &r->cap_lines, r->nr_lines + 1, sizeof(*r->lines));
	if (err)
		return err;
	l = &r->lines[r->nr_lines];
	*l = (struct rd_line){.thread = r->nr_threads - 1, .number = -1};
	if (*key == '#')
		l->number = strtol(key + 1, NULL, 10);
	l->cell = v = calloc(RD_HDR + r->nr_events, sizeof(*v));
	l->name = strdup(name);
	r->nr_lines++;
	if (!v || !l->name)
		return -ENOMEM;
	for (size_t i = 0; i < RD_HDR + r->nr_events; i++)
		if (i != RD_NAMED && number(&p, &v[i]))
			return -PMC_E_FORMAT;
	return p ? -PMC_E_FORMAT : 0;
}

/* "named <n>": entries of the region line above made with the named marker, n <= entered. */
static int line_named(struct rd_record *r, char *p)
{
	uint64_t n;
	uint64_t *cell = r->nr_lines ? r->lines[r->nr_lines - 1].cell : NULL;

	if (!cell || number(&p, &n) || p || n > cell[RD_ENTERED])
		return -PMC_E_FORMAT;
	cell[RD_NAMED] = n;
	return 0;
}

static int line(struct rd_record *r, char *p, size_t len, bool *end)
{
	char *kw = token(&p);
	uint64_t tid;

	if (!kw)
		return -PMC_E_FORMAT;
	if (!r->events)
		return strcmp(kw, "process") ? -PMC_E_FORMAT : line_process(r, p, len);
	if (!strcmp(kw, "event")) {
		if (r->nr_names >= r->nr_events || !p || decode(p))
			return -PMC_E_FORMAT;
		r->events[r->nr_names] = strdup(p);
		return r->events[r->nr_names++] ? 0 : -ENOMEM;
	}
	if (!strcmp(kw, "thread")) {
		if (number(&p, &tid) || tid > INT32_MAX ||
		    grow((void **)&r->tids, &r->cap_tids, r->nr_threads + 1, sizeof(int)))
			return -PMC_E_FORMAT;
		r->tids[r->nr_threads++] = (int)tid;
		return 0;
	}
	if (!strcmp(kw, "region"))
		return r->nr_names == r->nr_events ? line_region(r, p) : -PMC_E_FORMAT;
	if (!strcmp(kw, "named"))
		return line_named(r, p);
	if (!strcmp(kw, "unopened")) /* threads that could not count */
		return number(&p, &r->unopened) || p ? -PMC_E_FORMAT : 0;
	if (!strcmp(kw, "started")) { /* a process that starts to count: no values yet */
		r->started = true;
		return 0;
	}
	if (!strcmp(kw, "end")) {
		*end = true;
		return 0;
	}
	return 0; /* unknown keywords of the same version are skipped */
}

static int header(const char *buf, size_t len, size_t *hdr, size_t *body)
{
	char h[64], magic[16];
	const char *nl = memchr(buf, '\n', len < sizeof(h) ? len : sizeof(h));
	int version;
	unsigned long long n;

	if (!nl)
		return len < sizeof(h) ? -PMC_E_TRUNCATED : -PMC_E_FORMAT;
	memcpy(h, buf, (size_t)(nl - buf));
	h[nl - buf] = '\0';
	if (sscanf(h, "%15s %d %llu", magic, &version, &n) != 3 || strcmp(magic, PMC_REGION_MAGIC))
		return -PMC_E_FORMAT;
	if (version > PMC_REGION_VERSION)
		return -PMC_E_VERSION;
	*hdr = (size_t)(nl - buf) + 1;
	if (n > len - *hdr)
		return -PMC_E_TRUNCATED;
	*body = (size_t)n;
	return version < 1 ? -PMC_E_FORMAT : 0;
}

int pmc__rd_record_parse(struct rd_record *r, const char *buf, size_t len, size_t *used)
{
	size_t hdr, n;
	int err = header(buf, len, &hdr, &n);
	char *copy, *save = NULL, *l;
	bool end = false;

	if (err)
		return err;
	copy = malloc(n + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf + hdr, n);
	copy[n] = '\0';
	if (n && copy[n - 1] != '\n')
		err = -PMC_E_FORMAT;
	for (l = strtok_r(copy, "\n", &save); l && !err && !end; l = strtok_r(NULL, "\n", &save))
		err = line(r, l, n, &end);
	free(copy);
	if (!err && (!end || r->nr_names != r->nr_events))
		err = -PMC_E_FORMAT;
	*used = hdr + n;
	return err;
}

void pmc__rd_record_free(struct rd_record *r)
{
	for (size_t i = 0; r->events && i < r->nr_names; i++)
		free(r->events[i]);
	for (size_t i = 0; i < r->nr_lines; i++) {
		free(r->lines[i].name);
		free(r->lines[i].cell);
	}
	free(r->events);
	free(r->lines);
	free(r->tids);
	memset(r, 0, sizeof(*r));
}
