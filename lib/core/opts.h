/* SPDX-License-Identifier: MIT */
/* The one check and copy of a public options struct that carries its size (libbpf's OPTS_VALID). */
#ifndef PMC_LIB_CORE_OPTS_H
#define PMC_LIB_CORE_OPTS_H

#include <stddef.h>

#define offsetofend(type, member) (offsetof(type, member) + sizeof(((type *)0)->member))

/*
 * Every public options struct starts with size_t sz, which the caller sets to the size of
 * the struct it was compiled with, so that fields can be appended without breaking it:
 *
 *   - sz smaller than ours: a caller built against an older libpmc; the fields it does not
 *     have read as zero, which is every field's default;
 *   - sz larger than ours: a caller built against a newer libpmc; accepted only when every
 *     byte beyond ours is zero, as a field we do not know cannot be honoured;
 *   - sz below min_sz, the fields that every version of the struct has: rejected.
 *
 * Copies src into dst (dst_sz bytes, the size this libpmc knows), zeroed first, and sets
 * dst's sz to dst_sz so that code after the copy can read every field. NULL src gives all
 * defaults. Returns 0, or -EINVAL with a warning that names the struct (name) and says why;
 * dst is then all zero but for sz.
 */
int pmc__opts_copy(void *dst, size_t dst_sz, const void *src, size_t min_sz, const char *name);

/*
 * PMC_OPTS_COPY(pmc_report_opts, &r->opts, opts, sz): pmc__opts_copy() for struct type,
 * whose first version ends with min_field. dst and src must point to struct type (the
 * compound literals make the compiler check it).
 */
#define PMC_OPTS_COPY(type, dst, src, min_field)                                                  \
	pmc__opts_copy((struct type *){(dst)}, sizeof(struct type), (const struct type *){(src)}, \
		       offsetofend(struct type, min_field), #type)

#endif /* PMC_LIB_CORE_OPTS_H */
