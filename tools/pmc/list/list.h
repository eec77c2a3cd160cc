/* SPDX-License-Identifier: MIT */
/* pmc list's parts (cmd-list.c lists the events, list-metrics.c the metrics). */
#ifndef PMC_TOOLS_LIST_H
#define PMC_TOOLS_LIST_H

#include <stdbool.h>

/* pmc list metrics [WORD] (list-metrics.c): the backend's metrics, as text or JSON. */
int list_metrics(const char *backend, const char *word, bool json);

#endif /* PMC_TOOLS_LIST_H */
