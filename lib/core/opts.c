// SPDX-License-Identifier: MIT
/* Checking and copying the size-carrying options structs of the public API (core/opts.h). */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "core/log.h"
#include "core/opts.h"

static bool all_zero(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

int pmc__opts_copy(void *dst, size_t dst_sz, const void *src, size_t min_sz, const char *name)
{
	size_t sz;

	memset(dst, 0, dst_sz);
	memcpy(dst, &dst_sz, sizeof(dst_sz));
	if (!src)
		return 0;
	memcpy(&sz, src, sizeof(sz));
	if (sz < min_sz) {
		pr_warn("struct %s: sz is %zu, smaller than its first version (%zu bytes); set "
			"sz = sizeof(struct %s)\n",
			name, sz, min_sz, name);
		return -EINVAL;
	}
	/* A newer caller's fields that are zero are at their defaults: nothing is lost. */
	if (sz > dst_sz && !all_zero((const unsigned char *)src + dst_sz, sz - dst_sz)) {
		pr_warn("struct %s: sz is %zu and the bytes beyond the %zu this libpmc knows are "
			"not zero; the caller needs a newer libpmc for the options it set\n",
			name, sz, dst_sz);
		return -EINVAL;
	}
	memcpy((char *)dst + sizeof(sz), (const char *)src + sizeof(sz),
	       (sz < dst_sz ? sz : dst_sz) - sizeof(sz));
	return 0;
}
