// SPDX-License-Identifier: MIT
/*
 * Hardware breakpoints mem:ADDR[/LEN][:rwx]: perf's defaults, and the kernel's rules on
 * lengths and access, which pmc_evsel__check() says (docs/events.md, "Breakpoints").
 */
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <pmc/error.h>
#include "event/parse.h"

int pmc__bp_access(const char *s, int len, unsigned *type)
{
	*type = 0;
	for (int i = 0; i < len; i++) {
		unsigned bit = s[i] == 'r'   ? HW_BREAKPOINT_R
			       : s[i] == 'w' ? HW_BREAKPOINT_W
					     : HW_BREAKPOINT_X;

		if (*type & bit)
			return -1;
		*type |= bit;
	}
	return 0;
}

/* perf's parse_events_add_breakpoint(): access rw and length 4 (8 for x) unless written. */
void pmc__bp_build(struct pmc_evsel *evsel, const struct pmc_parsed *ev)
{
	struct perf_event_attr *a = &evsel->attr;

	a->type = PERF_TYPE_BREAKPOINT;
	a->bp_addr = ev->num;
	a->bp_type = ev->bp_type ? ev->bp_type : HW_BREAKPOINT_RW;
	a->bp_len = ev->num2			    ? ev->num2
		    : a->bp_type == HW_BREAKPOINT_X ? sizeof(long)
						    : HW_BREAKPOINT_LEN_4;
}

/*
 * The kernel's rules (x86's hw_breakpoint, the same on arm64 for these): lengths 1, 2, 4 or
 * 8; an execute breakpoint alone, covering one instruction address (sizeof(long)). perf
 * leaves them to the kernel, which refuses the open; pmc says which rule, without opening.
 */
int pmc__bp_check(const struct pmc_evsel *evsel, char *why, size_t len)
{
	const struct perf_event_attr *a = &evsel->attr;

	if (a->type != PERF_TYPE_BREAKPOINT)
		return 0;
	if ((a->bp_type & HW_BREAKPOINT_X) && a->bp_type != HW_BREAKPOINT_X) {
		snprintf(why, len,
			 "breakpoint access 'x' cannot be combined with 'r' or 'w' "
			 "(the kernel's rule)");
		return -PMC_E_UNSUPPORTED;
	}
	if (a->bp_len != 1 && a->bp_len != 2 && a->bp_len != 4 && a->bp_len != 8) {
		snprintf(why, len, "breakpoint length %llu: the kernel takes 1, 2, 4 or 8",
			 (unsigned long long)a->bp_len);
		return -PMC_E_UNSUPPORTED;
	}
	if (a->bp_type == HW_BREAKPOINT_X && a->bp_len != sizeof(long)) {
		snprintf(why, len,
			 "an execute breakpoint covers one instruction address: its "
			 "length must be %zu (the kernel's rule)",
			 sizeof(long));
		return -PMC_E_UNSUPPORTED;
	}
	return 0;
}
