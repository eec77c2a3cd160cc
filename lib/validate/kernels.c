// SPDX-License-Identifier: MIT
/*
 * Validation's kernels program (tools/validate/kernels.c): where it lies, and its
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
#include "core/selfdir.h"
#include "validate/validate.h"

/*
 * $PMC_KERNELS; else the install tree's libexec/pmc/pmc-kernels, found relative to where
 * libpmc lies (libdir for libpmc.so, bindir for a program linking it statically: any prefix,
 * DESTDIR or a moved tree); else the build tree's.
 */
const char *pmc_validate_kernels_path(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("PMC_KERNELS");
	char dir[PATH_MAX], cand[PATH_MAX];
	bool is_exe = false;

	if (env && *env)
		return env;
	/* Without the "lib/.." the path reads as it is installed, and the kernel's argv[0] is
	 * the same whichever way it was found (its start-up counts depend on that length). */
	if (!pmc__selfdir(dir, sizeof(dir), &is_exe) &&
	    (size_t)snprintf(cand, sizeof(cand), "%s/%s", dir,
			     is_exe ? PMC_KERNELS_FROM_BINDIR : PMC_KERNELS_FROM_LIBDIR) <
		    sizeof(cand) &&
	    realpath(cand, path) && access(path, X_OK) == 0)
		return path;
	return PMC_KERNELS_BUILD;
}

static int parse_sizes(const char *s, long *out, int *nr)
{
	char *end;

	for (*nr = 0; *s && *nr < PMC_VALIDATE_MAX_SIZES; s = *end ? end + 1 : end) {
		out[(*nr)++] = strtol(s, &end, 10);
		if (end == s || (*end && *end != ','))
			return -1;
	}
	return *nr >= 2 ? 0 : -1;
}

/* kernel, event, per_size, startup, sizes, quick, backend: tab-separated. */
static int parse_row(char *line, struct pmc_validate_row *r)
{
	char *f[7], *end;

	for (int i = 0; i < 7; i++) {
		f[i] = strsep(&line, "\t");
		if (!f[i] || !*f[i])
			return -1;
	}
	if (line)
		return -1;
	*r = (struct pmc_validate_row){0};
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

int pmc__validate_load(struct pmc_validate *v)
{
	char *line = NULL;
	size_t cap = 0;
	int status = 0, bad = 0, nr = 0, err = 0;
	pid_t pid;
	FILE *f = start_list(v->prog, &pid);

	if (!f) {
		snprintf(v->why, sizeof(v->why), "cannot run %s: %s", v->prog, strerror(errno));
		return -PMC_E_EXEC;
	}
	while (!err && getline(&line, &cap, f) > 0) {
		struct pmc_validate_row *rows = realloc(v->rows, (v->nr_rows + 1) * sizeof(*rows));

		nr++;
		line[strcspn(line, "\n")] = '\0';
		if (!rows) {
			err = -ENOMEM;
			break;
		}
		v->rows = rows;
		err = parse_row(line, &rows[v->nr_rows]);
		if (err == -1)
			bad = nr;
		if (!err)
			v->nr_rows++;
	}
	free(line);
	fclose(f);
	waitpid(pid, &status, 0);
	if (err == -ENOMEM) {
		snprintf(v->why, sizeof(v->why), "%s", pmc_strerror(err));
		return err;
	}
	if (bad || !v->nr_rows || !WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(v->why, sizeof(v->why),
			 "%s --list %s; set PMC_KERNELS to pmc's pmc-kernels program "
			 "(libexec/pmc in its install tree)",
			 v->prog,
			 bad ? "printed a malformed line"
			 : (WIFEXITED(status) && WEXITSTATUS(status) == 127) ? "could not be run"
									     : "failed");
		return -PMC_E_EXEC;
	}
	return 0;
}

void pmc__validate_rows_free(struct pmc_validate_row *rows, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(rows[i].kernel);
		free(rows[i].event);
		free(rows[i].quantity);
		free(rows[i].x);
		free(rows[i].y);
		free(rows[i].pf);
		free(rows[i].irq);
	}
}
