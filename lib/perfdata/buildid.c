// SPDX-License-Identifier: MIT
/*
 * The BUILD_ID feature's entries, written and read here only (docs/sample-file.md): perf's
 * perf_record_header_build_id, one per object with samples: a perf_event_header (type 0;
 * misc PERF_RECORD_MISC_KERNEL or _USER, with PERF_RECORD_MISC_BUILD_ID_SIZE, bit 15, when
 * byte 20 of the id field holds the id's length), the pid (-1: the host), 24 bytes of id
 * (20 used, zero-padded), then the object's name, NUL-terminated and padded to 64 bytes
 * (perf's NAME_ALIGN); the header's size covers it all.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/perfdata.h"

#define BUILD_ID_SIZE_BIT (1u << 15) /* PERF_RECORD_MISC_BUILD_ID_SIZE */
#define NAME_ALIGN 64
#define ENTRY_FIXED (sizeof(struct perf_event_header) + 4 + 24)

int pmc__perfdata_build_ids_add(struct pmc__perfdata_build_ids *v, const char *name,
				const char *hex, bool kernel)
{
	size_t n = strlen(hex);
	struct pmc__perfdata_build_id *e;

	if (!n || n > 40 || n % 2 || strspn(hex, "0123456789abcdef") != n || !*name ||
	    strlen(name) > 4096)
		return -EINVAL;
	for (size_t i = 0; i < v->nr; i++)
		if (v->v[i].kernel == kernel && !strcmp(v->v[i].name, name))
			return 0; /* the first (the object as mapped) stays */
	e = realloc(v->v, (v->nr + 1) * sizeof(*e));
	if (!e)
		return -ENOMEM;
	v->v = e;
	e = &e[v->nr];
	e->name = strdup(name);
	if (!e->name)
		return -ENOMEM;
	memcpy(e->hex, hex, n + 1);
	e->kernel = kernel;
	v->nr++;
	return 0;
}

void pmc__perfdata_build_ids_free(struct pmc__perfdata_build_ids *v)
{
	for (size_t i = 0; i < v->nr; i++)
		free(v->v[i].name);
	free(v->v);
	v->v = NULL;
	v->nr = 0;
}

const char *pmc__perfdata_build_ids_find(const struct pmc__perfdata_build_ids *v, const char *name)
{
	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(v->v[i].name, name))
			return v->v[i].hex;
	return NULL;
}

size_t pmc__perfdata_build_ids_size(const struct pmc__perfdata_build_ids *v)
{
	size_t len = 0;

	for (size_t i = 0; i < v->nr; i++)
		len += ENTRY_FIXED +
		       ((strlen(v->v[i].name) + NAME_ALIGN) & ~(size_t)(NAME_ALIGN - 1));
	return len;
}

void pmc__perfdata_build_ids_encode(const struct pmc__perfdata_build_ids *v, uint8_t *out)
{
	for (size_t i = 0; i < v->nr; i++) {
		const struct pmc__perfdata_build_id *e = &v->v[i];
		size_t name = (strlen(e->name) + NAME_ALIGN) & ~(size_t)(NAME_ALIGN - 1);
		size_t n = strlen(e->hex) / 2;
		struct perf_event_header h = {
			0,
			(uint16_t)((e->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER) |
				   BUILD_ID_SIZE_BIT),
			(uint16_t)(ENTRY_FIXED + name)};
		int32_t pid = -1;
		uint8_t id[24] = {0};

		for (size_t j = 0; j < n; j++)
			sscanf(e->hex + 2 * j, "%2hhx", &id[j]);
		id[20] = (uint8_t)n;
		memcpy(out, &h, sizeof(h));
		memcpy(out + sizeof(h), &pid, 4);
		memcpy(out + sizeof(h) + 4, id, sizeof(id));
		memset(out + ENTRY_FIXED, 0, name);
		memcpy(out + ENTRY_FIXED, e->name, strlen(e->name));
		out += ENTRY_FIXED + name;
	}
}

/*
 * A malformed entry ends the walk: the feature is informative, so it is no error. Entries
 * without the size bit hold 20 bytes of id (perf before 5.12); an id of zeros is skipped.
 */
int pmc__perfdata_build_ids_decode(const uint8_t *p, size_t len, struct pmc__perfdata_build_ids *v)
{
	size_t off = 0;

	while (len - off >= ENTRY_FIXED + 1) {
		struct perf_event_header h;
		char name[4097], hex[41] = "";
		const uint8_t *id = p + off + sizeof(h) + 4;
		size_t n, name_len;
		int ret;

		memcpy(&h, p + off, sizeof(h));
		if (h.size <= ENTRY_FIXED || h.size > len - off)
			break;
		n = h.misc & BUILD_ID_SIZE_BIT ? id[20] : 20;
		name_len = strnlen((const char *)p + off + ENTRY_FIXED, h.size - ENTRY_FIXED);
		if (n > 20 || name_len >= sizeof(name))
			break;
		memcpy(name, p + off + ENTRY_FIXED, name_len);
		name[name_len] = 0;
		for (size_t i = 0; i < n; i++)
			snprintf(hex + 2 * i, 3, "%02x", id[i]);
		ret = strspn(hex, "0") == strlen(hex) || !name_len
			      ? 0
			      : pmc__perfdata_build_ids_add(
					v, name, hex,
					(h.misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
						PERF_RECORD_MISC_KERNEL);
		if (ret == -ENOMEM)
			return ret;
		off += h.size;
	}
	return 0;
}
