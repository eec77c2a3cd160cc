/* SPDX-License-Identifier: MIT */
/* Logging: the library never prints by itself; it calls a print callback. */
#ifndef PMC_LOG_H
#define PMC_LOG_H

#include <stdarg.h>
#include <pmc/common.h>

#ifdef __cplusplus
extern "C" {
#endif

enum pmc_log_level {
	PMC_LOG_ERROR = 0,
	PMC_LOG_WARN,
	PMC_LOG_INFO,
	PMC_LOG_DEBUG,
};

typedef void (*pmc_print_fn)(enum pmc_log_level level, const char *fmt, va_list ap);

/*
 * Installs fn as the print callback and returns the previous one. NULL silences the
 * library. The default prints warnings and errors to stderr; the level can be raised
 * with the environment variable PMC_LOG_LEVEL (error, warn, info, debug or 0-3).
 */
PMC_API pmc_print_fn pmc_set_print(pmc_print_fn fn);

/* Sets the most verbose level passed to the default callback. */
PMC_API void pmc_set_log_level(enum pmc_log_level level);

#ifdef __cplusplus
}
#endif
#endif /* PMC_LOG_H */
