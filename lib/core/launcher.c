// SPDX-License-Identifier: MIT
/* The MPI launcher from the environment, and results file names with %r, %h, %p (docs/mpi.md). */
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "core/jsonstr.h"
#include "core/launcher.h"

/*
 * Each launcher's variables, in the order they are looked for: Open MPI sets PMIX_RANK too
 * (it starts ranks through PMIx), and Slurm's srun sets PMIX_RANK with --mpi=pmix, so the
 * most specific comes first. Facts from each launcher's documentation: Open MPI's mpirun(1)
 * "Exported environment variables", MPICH's Hydra (PMI_RANK, PMI_SIZE, MPI_LOCALRANKID),
 * the PMIx standard (PMIX_RANK) and Slurm's srun(1) "OUTPUT ENVIRONMENT VARIABLES".
 */
static const struct launcher_vars {
	const char *name, *rank, *size, *local_rank;
} launchers[] = {
	{"openmpi", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK"},
	{"mpich", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID"},
	{"pmix", "PMIX_RANK", "SLURM_NTASKS", "SLURM_LOCALID"},
	{"slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID"},
};

/* The variable as a number in [0, INT_MAX), or -1 when unset or not one. */
static int env_int(const char *var)
{
	const char *s = var ? getenv(var) : NULL;
	char *end;
	long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	return errno || *end || v >= INT_MAX ? -1 : (int)v;
}

/* The process's CPU affinity as a list of ranges ("0-3,8"); "" when it cannot be read. */
static void affinity_list(char *buf, size_t sz)
{
	cpu_set_t set;
	size_t len = 0;

	buf[0] = '\0';
	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		int last = c;
		int n;

		if (!CPU_ISSET(c, &set))
			continue;
		while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set))
			last++;
		n = last > c ? snprintf(buf + len, sz - len, "%s%d-%d", len ? "," : "", c, last)
			     : snprintf(buf + len, sz - len, "%s%d", len ? "," : "", c);
		if (n < 0 || (size_t)n >= sz - len) {
			buf[len] = '\0'; /* a list longer than the field is cut at a whole range */
			return;
		}
		len += (size_t)n;
		c = last;
	}
}

int pmc_launcher_detect(struct pmc_launcher *l)
{
	*l = (struct pmc_launcher){.rank = -1, .size = -1, .local_rank = -1};
	if (gethostname(l->host, sizeof(l->host) - 1))
		strcpy(l->host, "unknown");
	affinity_list(l->cpus, sizeof(l->cpus));
	for (size_t i = 0; i < sizeof(launchers) / sizeof(launchers[0]); i++) {
		const struct launcher_vars *v = &launchers[i];
		int rank = env_int(v->rank);

		if (rank < 0)
			continue;
		snprintf(l->name, sizeof(l->name), "%s", v->name);
		l->rank = rank;
		l->size = env_int(v->size);
		if (l->size >= 0 && l->size <= rank)
			l->size = -1; /* a size that cannot hold the rank says nothing */
		l->local_rank = env_int(v->local_rank);
		return 1;
	}
	return 0;
}

/* Appends s to buf[sz] at *len; -ENAMETOOLONG when it does not fit. */
static int put(char *buf, size_t sz, size_t *len, const char *s)
{
	size_t n = strlen(s);

	if (*len + n >= sz)
		return -ENAMETOOLONG;
	memcpy(buf + *len, s, n + 1);
	*len += n;
	return 0;
}

/* %r: the rank, as wide as the largest rank of the job. */
static void rank_str(const struct pmc_launcher *l, char *s, size_t sz)
{
	int width = 1;

	for (int top = l->size - 1; top >= 10; top /= 10)
		width++;
	snprintf(s, sz, "%0*d", l->size > 0 ? width : 1, l->rank);
}

int pmc_launcher_expand(const struct pmc_launcher *l, const char *pattern, int pid, char *buf,
			size_t sz)
{
	size_t len = 0;
	int err = 0;

	if (!sz)
		return -ENAMETOOLONG;
	buf[0] = '\0';
	for (const char *p = pattern; *p && !err; p++) {
		char s[32] = {p[0], '\0'};

		if (*p == '%') {
			switch (*++p) {
			case 'r':
				if (l->rank < 0)
					return -EINVAL;
				rank_str(l, s, sizeof(s));
				break;
			case 'h':
				err = put(buf, sz, &len, l->host);
				continue;
			case 'p':
				snprintf(s, sizeof(s), "%d", pid);
				break;
			case '%':
				break;
			default:
				return -EINVAL;
			}
		}
		err = put(buf, sz, &len, s);
	}
	return err;
}

int pmc_launcher_path(const struct pmc_launcher *l, const char *path, int pid, char *buf, size_t sz)
{
	char pattern[4096];
	struct stat st;

	/* /dev/null, a FIFO, a terminal: written in place, as pmc_outfile__open() does */
	if (l->rank < 0 || (!stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))) {
		if (snprintf(buf, sz, "%s", path) >= (int)sz)
			return -ENAMETOOLONG;
		return 0;
	}
	if (snprintf(pattern, sizeof(pattern), strchr(path, '%') ? "%s" : "%s.rank-%%r", path) >=
	    (int)sizeof(pattern))
		return -ENAMETOOLONG;
	return pmc_launcher_expand(l, pattern, pid, buf, sz);
}

json_t *pmc__launcher_json(const struct pmc_launcher *l)
{
	if (l->rank < 0)
		return NULL;
	return json_pack("{s:s, s:i, s:i, s:i, s:o, s:s}", "launcher", l->name, "rank", l->rank,
			 "size", l->size, "local_rank", l->local_rank, "host",
			 pmc__json_bytes(l->host), "cpus", l->cpus);
}
