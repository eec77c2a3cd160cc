// SPDX-License-Identifier: MIT
/* Character classes and small scanners of the event grammar (docs/events.md). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include "event/parse.h"

bool pmc__lex_is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

/* fnmatch(3) pattern characters, allowed in tracepoint names as perf allows them. */
bool pmc__lex_is_glob_char(char c)
{
	return c == '*' || c == '?' || c == '[' || c == ']' || c == '!';
}

void pmc__lex_skip_ws(struct pmc_parser *p)
{
	while (p->str[p->pos] == ' ' || p->str[p->pos] == '\t' || p->str[p->pos] == '\n')
		p->pos++;
}

int pmc__lex_name_len(const struct pmc_parser *p)
{
	const char *s = p->str + p->pos;
	int n = 0;

	for (;;) {
		if (pmc__lex_is_name_char(s[n]) || pmc__lex_is_glob_char(s[n]))
			n++;
		else if (s[n] == ':' && s[n + 1] == ':' && n > 0 && pmc__lex_is_name_char(s[n + 2]))
			n += 2; /* libpfm4's pmu::EVENT */
		else
			return n;
	}
}

int pmc__lex_number(const char *s, const char **end, uint64_t *val)
{
	int base = 10;
	uint64_t v = 0;
	const char *q = s;

	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) {
		base = 16;
		q += 2;
	}
	if (!isxdigit((unsigned char)*q) || (base == 10 && !isdigit((unsigned char)*q))) {
		*end = s;
		return -EINVAL;
	}
	for (; isxdigit((unsigned char)*q); q++) {
		unsigned d = isdigit((unsigned char)*q) ? *q - '0' : (tolower(*q) - 'a' + 10);

		if (d >= (unsigned)base)
			break;
		if (v > (UINT64_MAX - d) / base) {
			*end = q;
			return -ERANGE;
		}
		v = v * base + d;
	}
	*end = q;
	*val = v;
	return 0;
}

const char *pmc__lex_describe(const char *s, int offset, char *buf, size_t len)
{
	unsigned char c = s[offset];

	if (!c)
		snprintf(buf, len, "end of string");
	else if (isprint(c))
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", c);
	return buf;
}
