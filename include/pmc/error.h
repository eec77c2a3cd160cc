/* SPDX-License-Identifier: MIT */
/* Error codes: libpmc returns 0 or a negative errno, or a negative PMC_E_* for its own failures. */
#ifndef PMC_ERROR_H
#define PMC_ERROR_H

#include <pmc/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * pmc's own failures, numbered from 4000 so they never collide with errno values.
 * X(NAME, message) — the message completes "pmc: ...".
 */
#define PMC_ERRORS(X)                                                                              \
	X(PARSE, "event string does not parse")                                                    \
	X(UNKNOWN_EVENT, "unknown event name")                                                     \
	X(NOPMU, "this machine exposes no hardware PMU (virtual machine?)")                        \
	X(UNSUPPORTED, "event cannot be counted on this backend")                                  \
	X(NOBACKEND, "no such backend")                                                            \
	X(NOVPMU, "the vpmu Valgrind tool is not built or not installed")                          \
	X(PARANOID, "perf_event_paranoid forbids this measurement")                                \
	X(NOTRACEFS, "tracefs is not mounted or not readable")                                     \
	X(TOOMANY, "events do not fit on the counters together")                                   \
	X(FORMAT, "malformed file")                                                                \
	X(TRUNCATED, "file is truncated")                                                          \
	X(VERSION, "file is of a newer format version")                                            \
	X(EXEC, "cannot start the command")                                                        \
	X(PROTOCOL, "unexpected message from the measured process")                                \
	X(CONFIG, "bad configuration value")                                                       \
	X(NOTREG, "not a regular file (a FIFO, device or folder)")                                 \
	X(UNSAFELINK, "a symbolic link in a shared sticky folder (such as /tmp) owned by another " \
		      "user is not followed")                                                      \
	X(EXPR, "metric expression does not parse")                                                \
	X(UNKNOWN_METRIC, "unknown metric or metric group")                                        \
	X(METRIC_CYCLE, "metrics refer to each other in a cycle")                                  \
	X(OLDDIR, "the name that keeps the previous file (NAME.old) is a folder: move it away")    \
	X(NOREADER, "no process opened the FIFO for reading within 10 seconds")

enum pmc_error {
	PMC_E_BASE = 4000,
#define PMC_X_ENUM(name, msg) PMC_E_##name,
	PMC_ERRORS(PMC_X_ENUM)
#undef PMC_X_ENUM
		PMC_E_MAX,
};

/*
 * Returns a static description of err, which may be negative or positive, an errno
 * value or a PMC_E_* code. Never NULL.
 */
PMC_API const char *pmc_strerror(int err);

#ifdef __cplusplus
}
#endif
#endif /* PMC_ERROR_H */
