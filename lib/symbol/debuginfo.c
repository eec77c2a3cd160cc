// SPDX-License-Identifier: MIT
/*
 * Separate debug files of stripped objects, for libdwfl (its find_debuginfo callback): by
 * build id, /usr/lib/debug/.build-id/ab/cdef....debug; then by the object's .gnu_debuglink
 * name (or NAME.debug), beside the object, in its .debug/ folder and under /usr/lib/debug/
 * followed by the object's folder. The places are libdwfl's standard ones; what differs is
 * that each candidate is opened as an untrusted input (a regular file only: a FIFO planted
 * as prog.debug would hang libdwfl's open) and is taken only when its build id is the
 * object's (when the object has one), and that no debuginfod server is asked.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pmc/infile.h>
#include "symbol/debuginfo.h"

#define DEBUG_ROOT "/usr/lib/debug"

/* Whether the ELF file fd carries the build id bits[0..n) (any file when n is 0). */
static bool same_build_id(const struct pmc__dw_api *dw, int fd, const unsigned char *bits, int n)
{
	Elf *elf;
	const void *id = NULL;
	bool same;

	if (n <= 0)
		return true;
	elf = dw->elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf)
		return false;
	/* id points into elf's bytes: compared before they are released */
	same = dw->dwelf_elf_gnu_build_id(elf, &id) == n && !memcmp(id, bits, (size_t)n);
	dw->elf_end(elf);
	return same;
}

/* Opens path if it is a regular file with the right build id: the descriptor, or -1. */
static int try_path(const struct pmc__dw_api *dw, const char *path, const unsigned char *bits,
		    int n, char **found)
{
	int fd = pmc_open_input(path);

	if (fd < 0)
		return -1;
	if (!same_build_id(dw, fd, bits, n) || !(*found = strdup(path))) {
		close(fd);
		return -1;
	}
	return fd;
}

static int by_build_id(const struct pmc__dw_api *dw, const unsigned char *bits, int n, char **found)
{
	char path[sizeof(DEBUG_ROOT) + 16 + 2 * 64 + 8];
	size_t k;

	if (n < 2 || n > 64)
		return -1;
	k = (size_t)snprintf(path, sizeof(path), DEBUG_ROOT "/.build-id/%02x/", bits[0]);
	for (int i = 1; i < n; i++)
		k += (size_t)snprintf(path + k, sizeof(path) - k, "%02x", bits[i]);
	snprintf(path + k, sizeof(path) - k, ".debug");
	return try_path(dw, path, bits, n, found);
}

static int by_link(const struct pmc__dw_api *dw, const char *file, const char *link,
		   const unsigned char *bits, int n, char **found)
{
	const char *slash = strrchr(file, '/');
	int dir_len = slash ? (int)(slash - file) : 1;
	const char *dir = slash ? file : ".";
	char path[4096];
	int fd = -1;

	/* The object itself is no separate debug file (a link naming it, or NAME.debug = NAME). */
	for (int place = 0; place < 3 && fd < 0; place++) {
		static const char *const fmt[] = {"%.*s/%s", "%.*s/.debug/%s",
						  DEBUG_ROOT "%.*s/%s"};
		if (place == 2 && dir[0] != '/')
			break;
		if (snprintf(path, sizeof(path), fmt[place], dir_len, dir, link) >=
		    (int)sizeof(path))
			break;
		if (!strcmp(path, file))
			continue;
		fd = try_path(dw, path, bits, n, found);
	}
	return fd;
}

int pmc__find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			char **debuginfo_file_name)
{
	const struct pmc__dw_api *dw = pmc__dw_api();
	const unsigned char *bits = NULL;
	GElf_Addr at;
	char own[1024];
	int n, fd;

	(void)userdata, (void)modname, (void)base, (void)debuglink_crc;
	if (!dw)
		return -1;
	n = dw->dwfl_module_build_id(mod, &bits, &at);
	fd = by_build_id(dw, bits, n, debuginfo_file_name);
	if (fd >= 0 || !file_name)
		return fd;
	if (!debuglink_file) { /* no .gnu_debuglink: NAME.debug */
		const char *base_name = strrchr(file_name, '/');
		base_name = base_name ? base_name + 1 : file_name;
		if (snprintf(own, sizeof(own), "%s.debug", base_name) >= (int)sizeof(own))
			return -1;
		debuglink_file = own;
	}
	if (strchr(debuglink_file, '/')) /* a name, not a path (the section is untrusted) */
		return -1;
	return by_link(dw, file_name, debuglink_file, bits, n, debuginfo_file_name);
}

/* Whether elf has a .debug_frame section (or its older compressed form, .zdebug_frame). */
static bool has_debug_frame(const struct pmc__dw_api *dw, Elf *elf)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (!elf || dw->elf_getshdrstrndx(elf, &shstrndx))
		return true; /* unknown: as if it had one */
	while ((scn = dw->elf_nextscn(elf, scn))) {
		const char *name = dw->gelf_getshdr(scn, &sh)
					   ? dw->elf_strptr(elf, shstrndx, sh.sh_name)
					   : NULL;

		if (name && (!strcmp(name, ".debug_frame") || !strcmp(name, ".zdebug_frame")))
			return true;
	}
	return false;
}

int pmc__find_debuginfo_cfi(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			    const char *file_name, const char *debuglink_file,
			    GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const struct pmc__dw_api *dw = pmc__dw_api();
	int fd = pmc__find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
				     debuglink_crc, debuginfo_file_name);
	Dwarf_Addr bias;
	Elf *elf;
	bool keep;

	if (fd < 0 || !dw || has_debug_frame(dw, dw->dwfl_module_getelf(mod, &bias)))
		return fd;
	elf = dw->elf_begin(fd, ELF_C_READ_MMAP, NULL);
	keep = has_debug_frame(dw, elf);
	dw->elf_end(elf);
	if (keep)
		return fd;
	close(fd);
	free(*debuginfo_file_name);
	*debuginfo_file_name = NULL;
	return -1;
}

static struct pmc__dwfl_callbacks callbacks;
static pthread_once_t callbacks_once = PTHREAD_ONCE_INIT;
static const struct pmc__dwfl_callbacks *callbacks_ready;

/* Filled before callbacks_ready is published (pthread_once orders it for every caller). */
static void callbacks_init(void)
{
	const struct pmc__dw_api *dw = pmc__dw_api();

	if (!dw)
		return;
	callbacks.offline = (Dwfl_Callbacks){.find_debuginfo = pmc__find_debuginfo,
					     .section_address = dw->dwfl_offline_section_address};
	callbacks.proc = (Dwfl_Callbacks){.find_elf = dw->dwfl_build_id_find_elf,
					  .find_debuginfo = pmc__find_debuginfo_cfi};
	callbacks_ready = &callbacks;
}

const struct pmc__dwfl_callbacks *pmc__dwfl_callbacks(void)
{
	pthread_once(&callbacks_once, callbacks_init);
	return callbacks_ready;
}
