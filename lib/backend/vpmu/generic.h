/* SPDX-License-Identifier: MIT */
/* The map of perf's generic and cache events onto vpmu event names, per model. */
#ifndef PMC_LIB_BACKEND_VPMU_GENERIC_H
#define PMC_LIB_BACKEND_VPMU_GENERIC_H

#include <stddef.h>
#include <stdint.h>
#include <vpmu/protocol.h>

struct vpmu_generic {
	uint32_t type; /* PERF_TYPE_HARDWARE or PERF_TYPE_HW_CACHE */
	uint64_t config;
	int model;	    /* enum vpmu_model */
	const char *target; /* the model's event name, or NULL when unsupported */
	const char *why;    /* the reason, when target is NULL */
};

extern const struct vpmu_generic pmc__vpmu_generics[];
extern const size_t pmc__vpmu_nr_generics;

/* The reason for a generic event the map does not list. */
const char *pmc__vpmu_generic_reason(uint32_t type, uint64_t config);

#endif /* PMC_LIB_BACKEND_VPMU_GENERIC_H */
