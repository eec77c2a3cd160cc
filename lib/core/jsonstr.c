// SPDX-License-Identifier: MIT
/* JSON strings from byte strings: invalid UTF-8 bytes escaped as \xHH, never dropped. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/jsonstr.h"

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0 if the byte there starts none. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8 */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

json_t *pmc__json_bytes(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	bool valid = true;
	char *buf, *o;
	json_t *j;

	if (!s)
		return json_null();
	for (size_t i = 0, n; p[i]; i += n ? n : 1)
		if (!(n = utf8_len(p + i)))
			valid = false;
	if (valid)
		return json_string(s);
	o = buf = malloc(strlen(s) * 4 + 1);
	if (!buf)
		return NULL;
	for (size_t i = 0, n; p[i]; i += n ? n : 1) {
		n = utf8_len(p + i);
		if (n) {
			memcpy(o, p + i, n);
			o += n;
		} else {
			o += sprintf(o, "\\x%02x", p[i]);
		}
	}
	*o = 0;
	j = json_string(buf);
	free(buf);
	return j;
}
