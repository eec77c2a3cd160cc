// SPDX-License-Identifier: MIT
/* Synthesizing side-band records from /proc for processes already running when sampling starts. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/records.h"
#include "perfdata/synth.h"

/* Encodes r with the trailer of sy's event (pid/tid as the record's) and hands it to the sink. */
static int emit(const struct pmc__synth *sy, struct pmc__record *r)
{
	uint64_t buf[(8 + 64 + PMC_RECORD_STR_MAX + 1 + 64) / 8];
	int len;

	r->sid = (struct pmc__sample_id){.pid = r->pid, .tid = r->tid, .id = sy->id};
	len = pmc__record_encode(sy->attr, r, buf, sizeof(buf));
	return len < 0 ? len : sy->sink(buf, (size_t)len, sy->arg);
}

int pmc__synth_kernel_mmap(const struct pmc__synth *sy)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[256], name[200], type;
	uint64_t addr = 0, a;

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
	return emit(sy, &(struct pmc__record){.type = PERF_RECORD_MMAP,
					      .misc = PERF_RECORD_MISC_KERNEL,
					      .pid = (uint32_t)-1,
					      .start = addr,
					      .len = ~0ull - addr,
					      .pgoff = addr,
					      .str = "[kernel.kallsyms]_text"});
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
		struct pmc__record r = {.type = PERF_RECORD_COMM,
					.pid = (uint32_t)pid,
					.tid = (uint32_t)atoi(de->d_name),
					.str = comm};
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
		ret = emit(sy, &r);
	}
	closedir(d);
	return ret;
}

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
		char *name = file + strspn(file, " ");
		ret = emit(sy,
			   &(struct pmc__record){
				   .type = PERF_RECORD_MMAP2,
				   .misc = PERF_RECORD_MISC_USER,
				   .pid = (uint32_t)pid,
				   .tid = (uint32_t)pid,
				   .start = start,
				   .len = end - start,
				   .pgoff = pgoff,
				   .maj = maj,
				   .min = min,
				   .ino = ino,
				   .prot = 5 /* PROT_READ|PROT_EXEC */,
				   .flags = perms[3] == 's' ? 1 : 2 /* MAP_SHARED / MAP_PRIVATE */,
				   .str = *name ? name : "//anon"});
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
