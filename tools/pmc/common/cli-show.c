// SPDX-License-Identifier: MIT
/* cli_show(): names someone else chose, made safe for a terminal in the CLI's messages. */
#include <stdlib.h>
#include "cli.h"

/*
 * The last few strings stay allocated (reachable from here) so that one message may show
 * several names; each call frees the oldest.
 */
#define KEPT 8

const char *cli_show(const char *s)
{
	static char *kept[KEPT];
	static unsigned next;
	char *p = pmc_printable(s);

	if (!p)
		return "(out of memory)";
	free(kept[next % KEPT]);
	kept[next++ % KEPT] = p;
	return p;
}
