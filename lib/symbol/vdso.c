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
#include "symbol/vdso.h"

int pmc__vdso_cache_path(const char *build_id, char *buf, size_t len)
{
	const char *xdg = secure_getenv("XDG_CACHE_HOME"), *home = secure_getenv("HOME");
	int n;

	if (xdg && *xdg)
		n = snprintf(buf, len, "%s/pmc/vdso/%s/[vdso]", xdg, build_id);
	else if (home && *home)
		n = snprintf(buf, len, "%s/.cache/pmc/vdso/%s/[vdso]", home, build_id);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
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

/* mkdir -p of path's folders (not its last component), private to the user. */
static int make_folders(char *path)
{
	for (char *s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		int ret = mkdir(path, 0700) && errno != EEXIST ? -errno : 0;
		*s = '/';
		if (ret)
			return ret;
	}
	return 0;
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
	ret = pmc__vdso_cache_path(build_id, path, sizeof(path));
	if (ret || !stat(path, &sb))
		return ret;
	ret = make_folders(path);
	if (!ret)
		ret = pmc_outfile__open(path, &o);
	if (ret)
		return ret;
	if (write(pmc_outfile__fd(o), (const void *)base, size) != (ssize_t)size) {
		pmc_outfile__abort(o);
		return -EIO;
	}
	return pmc_outfile__commit(o);
}
