/* SPDX-License-Identifier: MIT */
/* Internals of the vpmu backend: the event table, encodings, and the counting state. */
#ifndef PMC_LIB_BACKEND_VPMU_VPMU_H
#define PMC_LIB_BACKEND_VPMU_VPMU_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <vpmu/protocol.h>
#include "core/compiler.h"
#include "backend/vpmu/events.h"
#include "count/counting.h"

struct pmc_caps;
struct pmc_backend_caps;
struct pmc_evsel;
struct pmc_parse_error;

/* Counters programmed for one run: per open event, the counter it uses (-1 if none). */
struct vpmu_counting {
	struct pmc_counting base;
	int model;
	int *ctr; /* [evlist->nr] */
	uint64_t ctr_config[VPMU_MAX_COUNTERS];
	bool ctr_used[VPMU_MAX_COUNTERS];
	uint64_t totals[VPMU_MAX_COUNTERS]; /* summed COUNTS totals of every process */
	bool have_counts;
	uint64_t refused_clone; /* the flags of a clone Valgrind refused (REFUSED), 0: none */
	bool self;		/* SELF under vpmu: client requests */
	unsigned self_mask;	/* SELF: the counters this list programmed */
	/* COMMAND: the --out-fd stream, read by a thread so the guest never blocks */
	int rd_fd, wake_fd[2];
	pthread_t reader;
	bool reader_running;
	unsigned char *stream;
	size_t stream_len, stream_alloc;
};

static inline struct vpmu_counting *to_vpmu(struct pmc_counting *c)
{
	return container_of(c, struct vpmu_counting, base);
}

int pmc__vpmu_resolve(struct pmc_evsel *evsel, struct pmc_parse_error *err);
int pmc__vpmu_for_each(pmc_event_fn fn, void *arg);
/* Whether the tool is here (probe.c), probed once on first use. */
struct vpmu_machine {
	bool ok;	/* the tool is built and a valgrind launcher is in PATH */
	char path[256]; /* its VALGRIND_LIB folder */
	char why[160];	/* why not, when !ok */
};
const struct vpmu_machine *pmc__vpmu_machine(void);
void pmc__vpmu_probe_caps(const struct pmc_caps *machine, struct pmc_backend_caps *out);

int pmc__vpmu_open(struct pmc_evlist *evlist, const struct pmc_target *target, int pass,
		   struct pmc_counting **out);
int pmc__vpmu_start(struct pmc_counting *c);
int pmc__vpmu_reap(struct pmc_counting *c);
int pmc__vpmu_read(struct pmc_counting *c);
void pmc__vpmu_close(struct pmc_counting *c);

/* What a command runs under the tool with (command.c). */
struct vpmu_cmdline {
	const bool *used;	  /* [VPMU_MAX_COUNTERS]: counters to program */
	const uint64_t *config;	  /* [VPMU_MAX_COUNTERS]: their encodings */
	const uint64_t *period;	  /* [VPMU_MAX_COUNTERS]: sampling periods, or NULL */
	const uint64_t *freq;	  /* [VPMU_MAX_COUNTERS]: frequencies (--freqN), or NULL */
	const char *const *extra; /* more tool options (--precise=, --lbr=, ...) */
	int nr_extra;
	char *const *argv;	 /* the command */
	int keep_fd;		 /* an fd the command inherits (regions), or <= 0 */
	const char *keep_fd_env; /* env variable naming keep_fd, or NULL */
	bool stdout_to_stderr;	 /* the command's stdout is pmc's stderr (record -o -) */
	const char *tool;	 /* the tool's name: NULL for vpmu, or "vpmuheap" */
};

struct pmc_child;
/*
 * Spawns cl->argv under the tool, held before exec, with the write end of a stream pipe as
 * --out-fd; returns the read end in *rd_fd (also on failure, once made; -1 before).
 */
int pmc__vpmu_spawn(const struct vpmu_cmdline *cl, int *rd_fd, struct pmc_child **child);
/* 0 when execvp() would find prog, else -ENOENT/-EACCES. */
int pmc__vpmu_runnable(const char *prog);

/* The stream reader (stream.c). */
int pmc__vpmu_stream_start(struct vpmu_counting *vc);
/* Stops the reader once the command has exited and sums the COUNTS records. */
int pmc__vpmu_stream_finish(struct vpmu_counting *vc);
/* Says that Valgrind ended argv0 at a clone it cannot run (REFUSED), with its flags. */
void pmc__vpmu_say_refused_clone(const char *argv0, uint64_t flags);
void pmc__vpmu_stream_close(struct vpmu_counting *vc);

/* SELF under vpmu (self.c): whether this process runs under the tool, and its requests. */
bool pmc__vpmu_present(void);
int pmc__vpmu_self_program(struct vpmu_counting *vc);
int pmc__vpmu_self_ctl(struct vpmu_counting *vc, int op);
int pmc__vpmu_self_read(struct vpmu_counting *vc);
int pmc__vpmu_read_group(struct pmc_counting *c, const struct pmc_evsel *leader,
			 struct pmc_count *values, size_t nr);

#endif /* PMC_LIB_BACKEND_VPMU_VPMU_H */
