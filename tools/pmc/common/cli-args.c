// SPDX-License-Identifier: MIT
/* Option values: numbers parsed whole and range-checked (one way for every command). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

int cli_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;

	/* strtoull takes "-5" as 2^64 - 5 and skips leading spaces: neither is a count */
	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int cli_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s || (*s != '-' && (*s < '0' || *s > '9')))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int cli_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	/* nan compares false with everything: isfinite keeps it (and inf) out */
	if (errno || end == s || *end || !isfinite(v) || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}
