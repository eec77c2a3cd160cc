// SPDX-License-Identifier: MIT
/* libFuzzer harness: pmc_evlist__parse() on arbitrary bytes must not crash, leak, or half-append.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pmc/event.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmc_evlist *evlist;
	struct pmc_parse_error err;
	char *str;

	if (size > 4096)
		return 0; /* long inputs only slow the walk of known names for suggestions */
	str = malloc(size + 1);
	if (!str || pmc_evlist__new(NULL, &evlist)) {
		free(str);
		return 0;
	}
	memcpy(str, data, size);
	str[size] = '\0';
	if (pmc_evlist__parse(evlist, str, &err) != 0 && pmc_evlist__nr(evlist) != 0)
		abort(); /* a failed parse must leave the list as it was */
	if (err.offset < 0 || (size_t)err.offset > size)
		abort();
	pmc_evlist__delete(evlist);
	free(str);
	return 0;
}
