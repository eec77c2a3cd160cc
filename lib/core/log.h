/* SPDX-License-Identifier: MIT */
/* Internal logging macros over the public print callback. */
#ifndef PMC_LIB_CORE_LOG_H
#define PMC_LIB_CORE_LOG_H

#include <pmc/log.h>

void pmc__log(enum pmc_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define pr_err(fmt, ...) pmc__log(PMC_LOG_ERROR, "libpmc: " fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...) pmc__log(PMC_LOG_WARN, "libpmc: " fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) pmc__log(PMC_LOG_INFO, "libpmc: " fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) pmc__log(PMC_LOG_DEBUG, "libpmc: " fmt, ##__VA_ARGS__)

#endif /* PMC_LIB_CORE_LOG_H */
