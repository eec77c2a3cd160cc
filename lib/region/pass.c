// SPDX-License-Identifier: MIT
/*
 * The pass header of the runner protocol (docs/regions.md, version 3). What the runner tells
 * the command (the pass's events, its backend and privilege mask) reaches it here, in the
 * results descriptor, and not in its environment: the environment's size moves the command's
 * stack, so it must be the same in every pass, and the same as when no runner starts it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/error.h>
#include "region/arena.h"
#include "region/proto.h"

/* Far more than any event string; a larger body is a broken header, not a pass. */
#define PASS_BODY_MAX (1u << 20)
#define PASS_LINE_MAX 64

/* A decimal number of at most 19 digits at *p, followed by c; advances *p past c. */
static int field(const char **p, const char *end, char c, unsigned long long *out)
{
	const char *s = *p;
	unsigned long long v = 0;

	if (s == end || *s < '0' || *s > '9')
		return -PMC_E_FORMAT;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (s - *p >= 19)
			return -PMC_E_FORMAT;
		v = v * 10 + (unsigned long long)(*s - '0');
	}
	if (s == end || *s != c)
		return -PMC_E_FORMAT;
	*p = s + 1;
	*out = v;
	return 0;
}

/*
 * pass.c. Parses the header line at buf[0..len): 0 with *hdr (the line's bytes) and *body
 * (the body's bytes, which may lie past len); -PMC_E_TRUNCATED when the line is cut short,
 * -PMC_E_VERSION for a version other than PMC_PASS_VERSION, -PMC_E_FORMAT otherwise.
 */
static int region_pass_line(const char *buf, size_t len, size_t *hdr, size_t *body)
{
	const size_t ml = sizeof(PMC_PASS_MAGIC) - 1;
	const char *nl = memchr(buf, '\n', len < PASS_LINE_MAX ? len : PASS_LINE_MAX);
	const char *p = buf + ml + 1;
	unsigned long long version, n;
	int err;

	if (len <= ml ? memcmp(buf, PMC_PASS_MAGIC, len) : memcmp(buf, PMC_PASS_MAGIC " ", ml + 1))
		return -PMC_E_FORMAT;
	if (!nl)
		return len < PASS_LINE_MAX ? -PMC_E_TRUNCATED : -PMC_E_FORMAT;
	err = field(&p, nl + 1, ' ', &version);
	if (!err)
		err = field(&p, nl + 1, '\n', &n);
	if (err)
		return err;
	/* Versions are not compatible either way: a guess at another layout would misread it. */
	if (version != PMC_PASS_VERSION)
		return -PMC_E_VERSION;
	if (n > PASS_BODY_MAX)
		return -PMC_E_FORMAT;
	*hdr = (size_t)(nl - buf) + 1;
	*body = (size_t)n;
	return 0;
}

static int pread_all(int fd, char *buf, size_t len, off_t off)
{
	while (len) {
		ssize_t n = pread(fd, buf, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -PMC_E_TRUNCATED;
		buf += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

/* A key's value, a copy of the first line that has the key; later ones are ignored. */
static int take(char **dst, const char *v)
{
	if (*dst)
		return 0;
	*dst = strdup(v);
	return *dst ? 0 : -ENOMEM;
}

/* "<offset> <bytes>", both decimal: the offset a multiple of PMC_ARENA_ALIGN. */
static int arena_key(const char *v, struct pmc__region_pass *out)
{
	const char *end = v + strlen(v) + 1;
	unsigned long long off, size;
	int err = field(&v, end, ' ', &off);

	if (!err)
		err = field(&v, end, '\0', &size);
	if (err || off % PMC_ARENA_ALIGN || !size || size > PMC_ARENA_SIZE)
		return -PMC_E_FORMAT;
	out->arena_off = off;
	out->arena_size = size;
	return 0;
}

/* The body's "<key> <value>" lines; keys it does not know are skipped, so version 3 can grow. */
static int body_keys(char *b, size_t len, struct pmc__region_pass *out)
{
	char *end = b + len, *priv = NULL, *arena = NULL, *e;
	int err = 0;

	if (!len || end[-1] != '\n')
		return -PMC_E_FORMAT;
	while (!err && b < end) {
		char *nl = memchr(b, '\n', (size_t)(end - b));

		*nl = '\0';
		if (!strncmp(b, "events ", 7))
			err = take(&out->events, b + 7);
		else if (!strncmp(b, "backend ", 8))
			err = take(&out->backend, b + 8);
		else if (!strncmp(b, "priv ", 5))
			err = take(&priv, b + 5);
		else if (!strncmp(b, "arena ", 6))
			err = take(&arena, b + 6);
		b = nl + 1;
	}
	if (!err && (!out->events || !*out->events || (out->backend && !*out->backend)))
		err = -PMC_E_FORMAT;
	if (!err && priv) {
		unsigned long v;

		errno = 0;
		v = strtoul(priv, &e, 10);
		if (errno || e == priv || *e || *priv < '0' || *priv > '9' || v > 0xffff)
			err = -PMC_E_FORMAT;
		else
			out->priv = (unsigned)v;
	}
	if (!err && arena)
		err = arena_key(arena, out);
	free(priv);
	free(arena);
	return err;
}

void pmc__region_pass_free(struct pmc__region_pass *p)
{
	free(p->events);
	free(p->backend);
	*p = (struct pmc__region_pass){0};
}

int pmc__region_pass_parse(const char *buf, size_t len, struct pmc__region_pass *out, size_t *end)
{
	size_t hdr, n;
	int err = region_pass_line(buf, len, &hdr, &n);
	char *b;

	if (!err && n > len - hdr)
		err = -PMC_E_TRUNCATED;
	if (err)
		return err;
	b = malloc(n + 1);
	if (!b)
		return -ENOMEM;
	memcpy(b, buf + hdr, n);
	*out = (struct pmc__region_pass){0};
	err = body_keys(b, n, out);
	if (err)
		pmc__region_pass_free(out);
	else
		*end = hdr + n;
	free(b);
	return err;
}

int pmc__region_pass_read(int fd, struct pmc__region_pass *out)
{
	char line[PASS_LINE_MAX], *b;
	size_t hdr, len;
	ssize_t n;
	int err;

	do
		n = pread(fd, line, sizeof(line), 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -ENODATA; /* a runner of protocol 1 wrote nothing before the run */
	err = region_pass_line(line, (size_t)n, &hdr, &len);
	if (err)
		return err;
	b = malloc(len + 1);
	if (!b)
		return -ENOMEM;
	*out = (struct pmc__region_pass){0};
	err = pread_all(fd, b, len, (off_t)hdr);
	if (!err)
		err = body_keys(b, len, out);
	if (err)
		pmc__region_pass_free(out);
	free(b);
	return err;
}
