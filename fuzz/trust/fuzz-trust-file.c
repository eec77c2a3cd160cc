// SPDX-License-Identifier: MIT
/* libFuzzer harness: trust files through pmc_trust__load() and its lookups (lib/trust/trust.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <pmc/validate.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Lookups as pmc stat makes them. */
static const char *const backends[] = {"perf", "vpmu"};
static const char *const events[] = {"instructions", "syscalls:sys_enter_getppid", ""};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1; /* the file lives in memory: the parser opens it by path */
	struct pmc_trust *t;
	char path[64], why[256], mark[64];
	enum pmc_validate_class cls;
	double value;

	if (fd < 0 && (fd = memfd_create("fuzz-trust", MFD_CLOEXEC)) < 0)
		abort();
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (pmc_trust__load(path, &t, why, sizeof(why))) {
		if (!why[0])
			abort(); /* every refusal says why */
		return 0;
	}
	if (!pmc_trust__path(t))
		abort();
	pmc_trust__stale(t, "AMD EPYC", "6.18.44", why, sizeof(why));
	for (size_t i = 0; i < 2 * sizeof(events) / sizeof(events[0]); i++)
		for (unsigned priv = 1; priv <= 3; priv++) {
			pmc_trust__lookup(t, backends[i % 2], events[i / 2], priv, &cls, &value,
					  mark, sizeof(mark));
			if (!mark[0])
				abort(); /* every count gets a mark */
		}
	pmc_trust__delete(t);
	return 0;
}
