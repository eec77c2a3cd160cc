/* SPDX-License-Identifier: MIT */
/* Export macro, version and the small value types shared by every libpmc header. */
#ifndef PMC_COMMON_H
#define PMC_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PMC_API __attribute__((visibility("default")))

#define PMC_VERSION_MAJOR 0
#define PMC_VERSION_MINOR 1
#define PMC_VERSION_PATCH 0

/*
 * Options structs (struct pmc_*_opts, struct pmc_target) start with size_t sz, which the
 * caller sets to sizeof the struct as it compiled it; fields are only ever appended.
 * Initialize the whole struct ({ .sz = sizeof(o), ... }): a field left 0 takes its default.
 * A struct from an older libpmc (smaller sz) gets the defaults of the fields it lacks; one
 * from a newer libpmc (larger sz) is accepted only when the fields this libpmc does not
 * know are all 0, and otherwise refused with -EINVAL and a warning naming the struct, as
 * is an sz smaller than the struct's first version. NULL options mean all defaults where
 * the function allows NULL.
 */

/* Returns the library's version as "MAJOR.MINOR.PATCH"; the string is static. */
PMC_API const char *pmc_version(void);

/*
 * One counter value with the times the kernel (or model) reports for it.
 * time_enabled_ns and time_running_ns are equal unless the event was multiplexed;
 * a value is exact only when they are.
 */
struct pmc_count {
	uint64_t value;
	uint64_t time_enabled_ns;
	uint64_t time_running_ns;
};

/* Returns value scaled by enabled/running, or value when it ran the whole time. */
PMC_API double pmc_count__scaled(const struct pmc_count *c);

#ifdef __cplusplus
}
#endif
#endif /* PMC_COMMON_H */
