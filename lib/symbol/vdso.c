// SPDX-License-Identifier: MIT
/*
 * The vDSO image kept for reports, as perf keeps it in its build-id cache
 * (~/.debug/[vdso]/ID/vdso): pmc record copies its own process's vDSO (the kernel maps the
 * same image into every process) to $XDG_CACHE_HOME/pmc/vdso/ID/[vdso] and names the build
 * id in the sample file (the BUILD_ID feature, as perf does); pmc report maps the
 * recording's [vdso] to that file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pmc/outfile.h>
#include "core/cachedir.h"
#include "core/outfile.h"
#include "symbol/vdso.h"

/* The image's path in folder vdso/ID of the cache folder, checked (made, with make). */
static int cache_file(const char *build_id, bool make, char *buf, size_t len)
{
	char sub[8 + PMC_BUILD_ID_HEX];
	size_t n;
	int err;

	/* The id comes from a sample file when a report asks: hex, or no folder of it. */
	if (!*build_id || build_id[strspn(build_id, "0123456789abcdef")] ||
	    strlen(build_id) >= PMC_BUILD_ID_HEX)
		return -ENOENT;
	snprintf(sub, sizeof(sub), "vdso/%s", build_id);
	err = pmc__cache_dir(sub, make, buf, len);
	n = err ? 0 : strlen(buf);
	if (!err && n + sizeof("/[vdso]") > len)
		err = -ENAMETOOLONG;
	if (!err)
		memcpy(buf + n, "/[vdso]", sizeof("/[vdso]"));
	return err;
}

int pmc__vdso_cache_path(const char *build_id, char *buf, size_t len)
{
	return cache_file(build_id, false, buf, len);
}

/* The size of the [vdso] mapping at base, from /proc/self/maps; 0 if not found. */
static size_t vdso_size(uintptr_t base)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	size_t size = 0;

	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo == base)
			size = hi - lo;
	}
	if (f)
		fclose(f);
	return size;
}

int pmc__vdso_save(char build_id[PMC_BUILD_ID_HEX])
{
	uintptr_t base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	size_t size = base ? vdso_size(base) : 0;
	char path[4096];
	struct pmc_outfile *o;
	struct stat sb;
	int ret;

	if (!size || pmc__build_id_of_image((const uint8_t *)base, size, build_id))
		return -ENOENT;
	ret = cache_file(build_id, true, path, sizeof(path));
	if (ret || !stat(path, &sb))
		return ret;
	ret = pmc_outfile__open(path, &o);
	if (ret)
		return ret;
	/* as every write of a file: whole or said (a file size limit is EFBIG, not a kill) */
	ret = pmc__outfile_pwrite_all(pmc_outfile__fd(o), (const void *)base, size, -1);
	if (ret) {
		pmc_outfile__abort(o);
		return ret;
	}
	return pmc_outfile__commit(o);
}
