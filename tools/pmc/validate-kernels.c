// SPDX-License-Identifier: MIT
/*
 * pmc validate's kernels program (tools/validate/kernels.c): where it lies, and its
 * predictions, read from its own --list so that the kernels and what they predict have one
 * source.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include "validate.h"

/*
 * $PMC_KERNELS; else the install tree's libexec/pmc/pmc-kernels, found relative to this
 * program's folder (any prefix, DESTDIR or a moved tree); else the build tree's.
 */
const char *validate_kernels_path(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("PMC_KERNELS");
	char self[PATH_MAX], *slash;
	ssize_t n;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash)
			*slash = '\0';
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", self, PMC_KERNELS_FROM_BINDIR) <
			    sizeof(path) &&
		    access(path, X_OK) == 0)
			return path;
	}
	return PMC_KERNELS_BUILD;
}

static int parse_sizes(const char *s, long *out, int *nr)
{
	char *end;

	for (*nr = 0; *s && *nr < VALIDATE_MAX_SIZES; s = *end ? end + 1 : end) {
		out[(*nr)++] = strtol(s, &end, 10);
		if (end == s || (*end && *end != ','))
			return -1;
	}
	return *nr >= 2 ? 0 : -1;
}

/* kernel, event, per_size, startup, sizes, quick, backend: tab-separated. */
static int parse_row(char *line, struct vrow *r)
{
	char *f[7], *end;

	for (int i = 0; i < 7; i++) {
		f[i] = strsep(&line, "\t");
		if (!f[i] || !*f[i])
			return -1;
	}
	if (line)
		return -1;
	*r = (struct vrow){0};
	r->per_size = strcmp(f[2], "-") ? strtod(f[2], &end) : NAN;
	if (!isnan(r->per_size) && (*end || !isfinite(r->per_size)))
		return -1;
	if (strcmp(f[6], "any") && strcmp(f[6], "perf") && strcmp(f[6], "vpmu"))
		return -1;
	snprintf(r->backend, sizeof(r->backend), "%s", f[6]);
	r->startup = strcmp(f[3], "-") ? strtod(f[3], &end) : NAN;
	if (!isnan(r->startup) && *end)
		return -1;
	if (parse_sizes(f[4], r->sizes, &r->nr_sizes) || parse_sizes(f[5], r->quick, &r->nr_quick))
		return -1;
	r->kernel = strdup(f[0]);
	r->event = strdup(f[1]);
	return r->kernel && r->event ? 0 : -ENOMEM;
}

static FILE *start_list(const char *prog, pid_t *pid)
{
	int fd[2];

	if (pipe(fd))
		return NULL;
	*pid = pmc_fork(); /* it does not outlive a killed pmc */
	if (*pid == 0) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execl(prog, prog, "--list", (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	if (*pid < 0) {
		close(fd[0]);
		return NULL;
	}
	return fdopen(fd[0], "r");
}

int validate_load(const char *prog, struct vplan *plan)
{
	char *line = NULL;
	size_t cap = 0;
	int status = 0, bad = 0, nr = 0;
	pid_t pid;
	FILE *f = start_list(prog, &pid);

	if (!f) {
		fprintf(stderr, "pmc validate: cannot run %s: %s\n", prog, strerror(errno));
		return 1;
	}
	while (getline(&line, &cap, f) > 0) {
		struct vrow *rows = realloc(plan->rows, (plan->nr_rows + 1) * sizeof(*rows));

		nr++;
		line[strcspn(line, "\n")] = '\0';
		if (!rows)
			break;
		plan->rows = rows;
		if (parse_row(line, &rows[plan->nr_rows])) {
			bad = nr;
			break;
		}
		plan->nr_rows++;
	}
	free(line);
	fclose(f);
	waitpid(pid, &status, 0);
	if (bad || !plan->nr_rows || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr,
			"pmc validate: %s --list %s; set PMC_KERNELS to pmc's pmc-kernels program "
			"(libexec/pmc in its install tree)\n",
			prog,
			bad ? "printed a malformed line"
			: (WIFEXITED(status) && WEXITSTATUS(status) == 127) ? "could not be run"
									    : "failed");
		return 1;
	}
	return 0;
}

void validate_free(struct vplan *plan)
{
	for (size_t i = 0; i < plan->nr_rows; i++) {
		free(plan->rows[i].kernel);
		free(plan->rows[i].event);
		free(plan->rows[i].quantity);
		free(plan->rows[i].x);
		free(plan->rows[i].y);
		free(plan->rows[i].pf);
		free(plan->rows[i].irq);
	}
	free(plan->rows);
}
