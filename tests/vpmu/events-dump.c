/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Prints vpmu's event tables as the TSV kept in tools/vpmu/events.tsv (the test compares). */
#include <stdio.h>
#include "vpmu-events.h"

static void dump(const char *model, const struct vp_event_desc *t, unsigned n)
{
	static const char *const kind[] = {"exact", "modelled", "unsupported"};

	for (unsigned i = 0; i < n; i++)
		printf("%s\t%s\t0x%02x\t0x%02x\t%u\t%u\t%u\t%s\t%s\n", model, t[i].name, t[i].event,
		       t[i].umask, t[i].cmask, t[i].inv, t[i].edge, kind[t[i].kind], t[i].desc);
}

int main(void)
{
	printf("# model\tname\tevent\tumask\tcmask\tinv\tedge\tkind\tdescription_or_reason\n");
	dump("corei7", vp_events_corei7, vp_nr_events_corei7);
	dump("pentium", vp_events_pentium, vp_nr_events_pentium);
	return 0;
}
