/* SPDX-License-Identifier: MIT */
/* Internals of the vpmu backend: the event table, encodings, and the counting state. */
#ifndef PMC_LIB_BACKEND_VPMU_VPMU_H
#define PMC_LIB_BACKEND_VPMU_VPMU_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include "core/compiler.h"
#include "count/counting.h"
#include "vpmu-protocol.h"

struct pmc_caps;
struct pmc_evsel;
struct pmc_parse_error;

enum vpmu_ev_kind {
	VPMU_EV_EXACT,       /* counted exactly from the instruction stream */
	VPMU_EV_MODELLED,    /* produced by the cache, TLB, predictor or timing model */
	VPMU_EV_UNSUPPORTED, /* the tool refuses it; desc is the reason */
};

/* Rows libpmc adds to the tool's events.tsv (extra != 0): they are not in the TSV. */
enum vpmu_ev_extra {
	VPMU_X_NONE,
	VPMU_X_FIXED0,       /* Core i7 fixed counters 0..2: VPMU_X_FIXED0 + index */
	VPMU_X_FIXED1,
	VPMU_X_FIXED2,
	VPMU_X_P5_CLOCKS,    /* Pentium: the counter control's "count clocks" bit */
};

/* One event of a model: the name and its encoding, as in tools/vpmu/events.tsv. */
struct vpmu_event {
	const char *name;
	unsigned char model;   /* enum vpmu_model */
	unsigned char event;   /* event select (Pentium: ES) */
	unsigned char umask;
	unsigned char cmask;   /* defining qualifiers of the guide's predefined programmings */
	unsigned char inv;
	unsigned char edge;
	unsigned char kind;    /* enum vpmu_ev_kind */
	unsigned char extra;   /* enum vpmu_ev_extra */
	const char *desc;      /* what it counts, or why it is unsupported */
};

extern const struct vpmu_event pmc__vpmu_events[];
extern const size_t pmc__vpmu_nr_events;

/* The model selected by PMC_VPMU_MODEL / PMC_VPMU_PRESET (docs/vpmu.md), Core i7 by default. */
int pmc__vpmu_model(void);
const char *pmc__vpmu_model_name(int model);
/* The row named name in model's table (EVENT.UMASK or EVENT:UMASK), or NULL. */
const struct vpmu_event *pmc__vpmu_event_find(int model, const char *name);
/* The first row with this event select and umask in model's table, or NULL. */
const struct vpmu_event *pmc__vpmu_event_find_code(int model, unsigned event, unsigned umask);

/* How an event is programmed on the tool. */
struct vpmu_enc {
	int model;
	int fixed;           /* Core i7 fixed counter 0..2, or -1 */
	uint64_t config;     /* general counter: PerfEvtSel (Core i7) or ES|CC<<6 (Pentium) */
	uint64_t fixed_ctrl; /* fixed counter: its 4-bit control field */
};

/* Encodes evsel for model; 0, or a negative code with the reason in why. */
int pmc__vpmu_encode(const struct pmc_evsel *evsel, int model, struct vpmu_enc *enc,
		     char *why, size_t len);

/* Counters programmed for one run: per open event, the counter it uses (-1 if none). */
struct vpmu_counting {
	struct pmc_counting base;
	int model;
	int *ctr;                            /* [evlist->nr] */
	uint64_t ctr_config[VPMU_MAX_COUNTERS];
	bool ctr_used[VPMU_MAX_COUNTERS];
	uint64_t totals[VPMU_MAX_COUNTERS];  /* summed COUNTS totals of every process */
	bool have_counts;
	bool self;                           /* SELF under vpmu: client requests */
	unsigned self_mask;                  /* SELF: the counters this list programmed */
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
int pmc__vpmu_check(struct pmc_evsel *evsel, char *why, size_t len);
int pmc__vpmu_for_each(pmc_event_fn fn, void *arg);
void pmc__vpmu_probe_caps(struct pmc_caps *caps);
/* The VALGRIND_LIB folder holding vpmu-amd64-linux, or NULL with why filled. */
const char *pmc__vpmu_vglib(char *why, size_t len);

int pmc__vpmu_open(struct pmc_evlist *evlist, const struct pmc_target *target, int pass,
		   struct pmc_counting **out);
int pmc__vpmu_start(struct pmc_counting *c);
int pmc__vpmu_reap(struct pmc_counting *c);
int pmc__vpmu_read(struct pmc_counting *c);
void pmc__vpmu_close(struct pmc_counting *c);

/* The stream reader (stream.c). */
int pmc__vpmu_stream_start(struct vpmu_counting *vc);
/* Stops the reader once the command has exited and sums the COUNTS records. */
int pmc__vpmu_stream_finish(struct vpmu_counting *vc);
void pmc__vpmu_stream_close(struct vpmu_counting *vc);

/* SELF under vpmu (self.c): whether this process runs under the tool, and its requests. */
bool pmc__vpmu_present(void);
int pmc__vpmu_self_program(struct vpmu_counting *vc);
int pmc__vpmu_self_ctl(struct vpmu_counting *vc, int op);
int pmc__vpmu_self_read(struct vpmu_counting *vc);
int pmc__vpmu_read_group(struct pmc_counting *c, const struct pmc_evsel *leader,
			 struct pmc_count *values, size_t nr);

#endif /* PMC_LIB_BACKEND_VPMU_VPMU_H */
