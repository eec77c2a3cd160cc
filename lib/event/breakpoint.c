// SPDX-License-Identifier: MIT
/* Hardware breakpoints mem:ADDR[/LEN][:rwx] with perf's defaults and the kernel's length rules. */
#include <linux/hw_breakpoint.h>
#include <string.h>
#include <pmc/error.h>
#include "event/parse.h"

static int parse_access(struct pmc_parser *p, struct pmc_evsel *evsel)
{
	int start = p->pos;
	unsigned type = 0;

	for (;; p->pos++) {
		char c = p->str[p->pos];
		unsigned bit = c == 'r'	  ? HW_BREAKPOINT_R
			       : c == 'w' ? HW_BREAKPOINT_W
			       : c == 'x' ? HW_BREAKPOINT_X
					  : 0;

		if (!bit)
			break;
		if (type & bit)
			return pmc__parse_fail(p, -PMC_E_PARSE, p->pos,
					       "'%c' given twice in the breakpoint access type", c);
		type |= bit;
	}
	/* The kernel accepts an execute breakpoint alone, never combined with r or w. */
	if ((type & HW_BREAKPOINT_X) && type != HW_BREAKPOINT_X)
		return pmc__parse_fail(p, -PMC_E_PARSE, start,
				       "breakpoint access 'x' cannot be combined with 'r' or 'w'");
	evsel->attr.bp_type = type;
	return 0;
}

/* p->pos is just after "mem:"; leaves p->pos after ADDR[/LEN][:rwx]. */
int pmc__bp_parse(struct pmc_parser *p, struct pmc_evsel *evsel)
{
	const char *end;
	uint64_t addr, len = 0;
	int ret, len_off = -1;

	if (pmc__lex_number(p->str + p->pos, &end, &addr))
		return pmc__parse_fail(p, -PMC_E_PARSE, end - p->str,
				       "expected a breakpoint address (hex 0x... or decimal)");
	p->pos = end - p->str;
	if (p->str[p->pos] == '/') {
		len_off = ++p->pos;
		if (pmc__lex_number(p->str + p->pos, &end, &len))
			return pmc__parse_fail(p, -PMC_E_PARSE, end - p->str,
					       "expected a breakpoint length 1, 2, 4 or 8");
		p->pos = end - p->str;
	}
	evsel->attr.bp_type = HW_BREAKPOINT_RW; /* perf's default */
	if (p->str[p->pos] == ':' && strchr("rwx", p->str[p->pos + 1]) && p->str[p->pos + 1]) {
		p->pos++;
		ret = parse_access(p, evsel);
		if (ret)
			return ret;
	}
	if (len_off < 0)
		len = evsel->attr.bp_type == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	if (len != 1 && len != 2 && len != 4 && len != 8)
		return pmc__parse_fail(p, -PMC_E_PARSE, len_off,
				       "breakpoint length %llu, expected 1, 2, 4 or 8",
				       (unsigned long long)len);
	if (evsel->attr.bp_type == HW_BREAKPOINT_X && len != sizeof(long))
		return pmc__parse_fail(p, -PMC_E_PARSE, len_off,
				       "an execute breakpoint covers one instruction address: "
				       "its length must be %zu",
				       sizeof(long));
	evsel->attr.type = PERF_TYPE_BREAKPOINT;
	evsel->attr.bp_addr = addr;
	evsel->attr.bp_len = len;
	return 0;
}
