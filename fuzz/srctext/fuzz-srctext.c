// SPDX-License-Identifier: MIT
/* libFuzzer harness for source files read by pmc annotate and the HTML report: split, then
 * look lines up around the ends. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "report/srctext.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmc__srctext *t;
	size_t total = 0;

	if (pmc__srctext_parse((const char *)data, size, &t))
		return 0;
	/* Every line, and the numbers just outside them: each is NUL-terminated and capped. */
	for (int i = -1; i <= pmc__srctext_nr_lines(t) + 1; i++) {
		const char *s = pmc__srctext_line(t, i);
		if (s)
			total += strnlen(s, PMC__SRCTEXT_MAX_COLS + 1);
	}
	if (total > size)
		__builtin_trap();
	pmc__srctext_free(t);
	return 0;
}
