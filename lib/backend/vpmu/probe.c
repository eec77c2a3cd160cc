// SPDX-License-Identifier: MIT
/*
 * Is the vpmu tool here? A VALGRIND_LIB folder holding vpmu-amd64-linux (PMC_VPMU_LIB, else
 * the one beside this libpmc in an install tree, else the build tree's, else the one of the
 * configured prefix) and a valgrind launcher in PATH. Cheap: no valgrind run.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include <pmc/caps.h>
#include "core/backend.h"
#include "core/selfdir.h"
#include "backend/vpmu/vpmu.h"

/* Compile definitions from the build when it makes the tool (lib/CMakeLists.txt). */
#ifndef PMC_VPMU_BUILD_VGLIB
#define PMC_VPMU_BUILD_VGLIB ""
#define PMC_VPMU_INSTALL_VGLIB ""
#define PMC_VPMU_VGLIB_FROM_LIBDIR ""
#define PMC_VPMU_VGLIB_FROM_BINDIR ""
#endif

#define TOOL_FILE "vpmu-amd64-linux"

static bool has_tool(const char *dir)
{
	char path[4096];

	if (!dir || !*dir)
		return false;
	snprintf(path, sizeof(path), "%s/" TOOL_FILE, dir);
	return access(path, X_OK) == 0;
}

static bool in_path(const char *prog)
{
	const char *p = secure_getenv("PATH");
	char path[4096];

	while (p && *p) {
		size_t n = strcspn(p, ":");

		snprintf(path, sizeof(path), "%.*s/%s", (int)(n ? n : 1), n ? p : ".", prog);
		if (access(path, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

/*
 * The install tree's folder, found from where libpmc itself lies (libdir for libpmc.so,
 * bindir for a program that links libpmc statically), so that a tree installed under any
 * prefix, or moved after its install, finds its own tool and not the build tree's.
 */
static const char *installed_vglib(void)
{
	static char path[PATH_MAX]; /* called once, under the probe's pthread_once */
	char dir[PATH_MAX], cand[PATH_MAX];
	bool is_exe = false;
	const char *rel;

	if (pmc__selfdir(dir, sizeof(dir), &is_exe))
		return NULL;
	rel = is_exe ? PMC_VPMU_VGLIB_FROM_BINDIR : PMC_VPMU_VGLIB_FROM_LIBDIR;
	if (!*rel || (size_t)snprintf(cand, sizeof(cand), "%s/%s", dir, rel) >= sizeof(cand))
		return NULL;
	/* Without the "lib/.." the folder reads as it is installed (pmc doctor shows it). */
	if (!realpath(cand, path))
		return NULL;
	return path;
}

/* The VALGRIND_LIB folder holding vpmu-amd64-linux, or NULL with why filled. */
static const char *vpmu_vglib(char *why, size_t len)
{
	const char *env = secure_getenv("PMC_VPMU_LIB"), *installed = installed_vglib();

	if (env && *env) {
		if (has_tool(env))
			return env;
		snprintf(why, len, "PMC_VPMU_LIB=%s holds no " TOOL_FILE, env);
		return NULL;
	}
	if (has_tool(installed))
		return installed;
	if (has_tool(PMC_VPMU_BUILD_VGLIB))
		return PMC_VPMU_BUILD_VGLIB;
	if (has_tool(PMC_VPMU_INSTALL_VGLIB))
		return PMC_VPMU_INSTALL_VGLIB;
	if (!*PMC_VPMU_BUILD_VGLIB)
		snprintf(why, len,
			 "this libpmc was built without the vpmu tool (no Valgrind tool "
			 "API); set PMC_VPMU_LIB to a folder holding " TOOL_FILE);
	else
		snprintf(why, len,
			 "the vpmu tool is not built or installed (no " TOOL_FILE
			 " in %s%s%s or %s)",
			 installed ? installed : "", installed ? ", " : "", PMC_VPMU_BUILD_VGLIB,
			 PMC_VPMU_INSTALL_VGLIB);
	return NULL;
}

static struct vpmu_machine machine;
static pthread_once_t machine_once = PTHREAD_ONCE_INIT;

static void probe(void)
{
	const char *dir = vpmu_vglib(machine.why, sizeof(machine.why));

	if (!dir)
		return;
	if (!in_path("valgrind")) {
		snprintf(machine.why, sizeof(machine.why),
			 "the vpmu tool is in %s, but no valgrind launcher is in PATH "
			 "(install valgrind)",
			 dir);
		return;
	}
	machine.ok = true;
	snprintf(machine.path, sizeof(machine.path), "%s", dir);
}

const struct vpmu_machine *pmc__vpmu_machine(void)
{
	pthread_once(&machine_once, probe);
	return &machine;
}

/* The one check pmc doctor shows for vpmu: is the tool here, and where. */
void pmc__vpmu_probe_caps(const struct pmc_caps *mc, struct pmc_backend_caps *out)
{
	const struct vpmu_machine *m = pmc__vpmu_machine();
	struct pmc_cap_check *c = pmc__caps_add_check(out, "tool", "vpmu", m->ok);

	(void)mc;
	out->usable = m->ok;
	snprintf(out->why, sizeof(out->why), "%s", m->ok ? "" : m->why);
	snprintf(out->where, sizeof(out->where), "%s", m->ok ? m->path : "");
	if (!c)
		return;
	snprintf(c->detail, sizeof(c->detail), "%s",
		 m->ok	     ? m->path
		 : m->why[0] ? m->why
			     : "the vpmu backend is not part of this build");
	if (!m->ok)
		snprintf(c->todo, sizeof(c->todo),
			 "install valgrind (with its tool API) and rebuild pmc");
}
