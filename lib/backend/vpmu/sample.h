/* SPDX-License-Identifier: MIT */
/* The vpmu backend's sampling: a command under the tool, its stream converted to perf records. */
#ifndef PMC_LIB_BACKEND_VPMU_SAMPLE_H
#define PMC_LIB_BACKEND_VPMU_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vpmu/protocol.h>
#include "core/backend.h"
#include "core/sampling.h"

#define CONV_MAX_PATH 4096
/* The largest converted record: MMAP2 with a whole path, or a sample with 16 branches, both
 * register sets and a call chain of VPMU_MAX_CALLCHAIN frames. */
#define CONV_MAX_RECORD (CONV_MAX_PATH + 256)

struct vpmu_heap;

/* Converter state (convert.c); the caller fills everything above last_time. */
struct vpmu_conv {
	const struct perf_event_attr *attrs; /* as opened; [0] carries the side-band */
	const uint64_t *ids;		     /* [attr]: the id of each attr's samples */
	int attr_of_ctr[VPMU_MAX_COUNTERS];  /* attr sampled on each counter, or -1 */
	uint64_t side_id;		     /* the id side-band records carry */
	pmc__sample_sink_fn sink;
	void *arg;
	uint64_t last_time; /* largest time written so far */
	uint32_t pid;	    /* the command's pid, from BEGIN */
	uint64_t nr_samples;
	struct vpmu_heap *heap; /* sites and described blocks (heap.c), NULL until one comes */
};

/* One stream record: 1 when a perf record went to the sink, 0 when none, or the sink's
 * negative return. h->size must have been checked against the bytes at h. */
int pmc__vpmu_convert(struct vpmu_conv *cv, const struct vpmu_hdr *h);
/* Heap blocks (heap.c): a SITE record; the mapping name for a sample's block, NULL when the
 * file has it already; the state's release (the caller's, when conversion ends). */
int pmc__vpmu_heap_site(struct vpmu_conv *cv, const struct vpmu_rec_site *r, size_t size);
const char *pmc__vpmu_heap_block_name(struct vpmu_conv *cv, const struct vpmu_rec_sample *r,
				      int *err);
void pmc__vpmu_heap_free(struct vpmu_conv *cv);

/* What of an attr the model can sample (attr.c). check_attr: 0, or -EOPNOTSUPP when a asks
 * for a sample field or register no vpmu sample holds. callchain_of: the frames the tool must
 * unwind for a (0: none), a DWARF call chain turned into the tool's own in a. lbr_select_of:
 * the LBR_SELECT bits of perf's branch filter bst. check_branch_filter: 0, or -EOPNOTSUPP with
 * the filter the model cannot apply to a's branch stack named; lbr_select is the filter the
 * LBR already has (one for every counter), NULL when none. */
int pmc__vpmu_check_attr(const struct perf_event_attr *a, const char *name);
unsigned pmc__vpmu_callchain_of(struct perf_event_attr *a);
uint32_t pmc__vpmu_lbr_select_of(uint64_t bst);
int pmc__vpmu_check_branch_filter(int model, const uint32_t *lbr_select,
				  const struct perf_event_attr *a, const char *name);

/* The sampling hooks of the ops table (sample.c). */
int pmc__vpmu_sample_open(struct pmc_evlist *evlist, const struct pmc__sample_params *params,
			  struct pmc_sampling **out);
int pmc__vpmu_sample_enable(struct pmc_sampling *s);
int pmc__vpmu_sample_disable(struct pmc_sampling *s);
int pmc__vpmu_sample_poll(struct pmc_sampling *s, int timeout_ms);
int pmc__vpmu_sample_drain(struct pmc_sampling *s, pmc__sample_sink_fn sink, void *arg);
void pmc__vpmu_sample_close(struct pmc_sampling *s);

#endif /* PMC_LIB_BACKEND_VPMU_SAMPLE_H */
