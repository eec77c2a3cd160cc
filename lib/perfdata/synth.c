// SPDX-License-Identifier: MIT
/* Synthesizing side-band records from /proc for processes already running when sampling starts. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/synth.h"

/* Appends the sample_id trailer the attr implies (docs/sample-file.md, "sample_id"). */
static size_t put_trailer(const struct pmc__synth *sy, uint8_t *p, uint32_t pid, uint32_t tid)
{
	uint64_t t = sy->attr->sample_type, zero = 0;
	size_t n = 0;

	if (!sy->attr->sample_id_all)
		return 0;
	if (t & PERF_SAMPLE_TID) {
		memcpy(p + n, &pid, 4);
		memcpy(p + n + 4, &tid, 4);
		n += 8;
	}
	if (t & PERF_SAMPLE_TIME)
		memcpy(p + n, &zero, 8), n += 8;
	if (t & PERF_SAMPLE_ID)
		memcpy(p + n, &sy->id, 8), n += 8;
	if (t & PERF_SAMPLE_STREAM_ID)
		memcpy(p + n, &zero, 8), n += 8;
	if (t & PERF_SAMPLE_CPU)
		memcpy(p + n, &zero, 8), n += 8;
	if (t & PERF_SAMPLE_IDENTIFIER)
		memcpy(p + n, &sy->id, 8), n += 8;
	return n;
}

/* Builds header + fixed body + NUL-padded string + trailer and hands it to the sink. */
static int emit(const struct pmc__synth *sy, uint32_t type, uint16_t misc, const void *body,
		size_t body_len, const char *str, uint32_t pid, uint32_t tid)
{
	uint64_t buf[(8 + 64 + 4096 + 64) / 8] = {0};
	uint8_t *p = (uint8_t *)buf;
	size_t slen = strnlen(str, 4095) + 1, n = 8;
	struct perf_event_header h = {.type = type, .misc = misc};

	memcpy(p + n, body, body_len);
	n += body_len;
	memcpy(p + n, str, slen - 1);
	n += (slen + 7) & ~(size_t)7;
	n += put_trailer(sy, p + n, pid, tid);
	h.size = (uint16_t)n;
	memcpy(p, &h, sizeof(h));
	return sy->sink(p, n, sy->arg);
}

int pmc__synth_kernel_mmap(const struct pmc__synth *sy)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[256], name[200], type;
	uint64_t addr = 0, a;
	struct mmap_body {
		uint32_t pid, tid;
		uint64_t start, len, pgoff;
	} body;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%" SCNx64 " %c %199s", &a, &type, name) == 3 &&
		    !strcmp(name, "_text")) {
			addr = a;
			break;
		}
	}
	fclose(f);
	if (!addr)
		return 0; /* hidden by kptr_restrict: reports then show raw kernel addresses */
	body = (struct mmap_body){(uint32_t)-1, 0, addr, ~0ull - addr, addr};
	return emit(sy, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, &body, sizeof(body),
		    "[kernel.kallsyms]_text", (uint32_t)-1, 0);
}

static int synth_comms(const struct pmc__synth *sy, pid_t pid)
{
	char path[320], comm[64];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return 0; /* the process has gone; nothing to say about it */
	while (!ret && (de = readdir(d))) {
		uint32_t body[2] = {(uint32_t)pid, (uint32_t)atoi(de->d_name)};
		FILE *f;
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/comm", (int)pid, de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = 0;
		fclose(f);
		comm[strcspn(comm, "\n")] = 0;
		ret = emit(sy, PERF_RECORD_COMM, 0, body, sizeof(body), comm, body[0], body[1]);
	}
	closedir(d);
	return ret;
}

struct mmap2_body {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
};

static int synth_maps(const struct pmc__synth *sy, pid_t pid)
{
	char path[64], line[4352], perms[8], file[4096];
	uint64_t start, end, pgoff, ino;
	unsigned maj, min;
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (!ret && fgets(line, sizeof(line), f)) {
		file[0] = 0;
		if (sscanf(line,
			   "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %x:%x %" SCNu64 " %4095[^\n]",
			   &start, &end, perms, &pgoff, &maj, &min, &ino, file) < 7)
			continue;
		if (perms[2] != 'x')
			continue;
		struct mmap2_body b = {(uint32_t)pid,
				       (uint32_t)pid,
				       start,
				       end - start,
				       pgoff,
				       maj,
				       min,
				       ino,
				       0,
				       5 /* PROT_READ|PROT_EXEC */,
				       perms[3] == 's' ? 1 : 2 /* MAP_SHARED / MAP_PRIVATE */};
		char *name = file + strspn(file, " ");
		ret = emit(sy, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, &b, sizeof(b),
			   *name ? name : "//anon", b.pid, b.tid);
	}
	fclose(f);
	return ret;
}

int pmc__synth_process(const struct pmc__synth *sy, pid_t pid)
{
	int ret = synth_comms(sy, pid);

	return ret ? ret : synth_maps(sy, pid);
}

int pmc__synth_all(const struct pmc__synth *sy)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int ret = 0;

	if (!d)
		return -errno;
	while (!ret && (de = readdir(d)))
		if (isdigit((unsigned char)de->d_name[0]))
			ret = pmc__synth_process(sy, (pid_t)atoi(de->d_name));
	closedir(d);
	return ret;
}
