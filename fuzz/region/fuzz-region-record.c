// SPDX-License-Identifier: MIT
/* libFuzzer harness: region records (docs/regions.md) through pmc_region_data__parse(). */
#include <stdint.h>
#include <stdlib.h>
#include <pmc/region.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sum; /* every cell's last value is read, so ASan checks its end */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pmc_region_data *d;
	struct pmc_region_values v;
	size_t nr_ev;
	int pid, tid;

	if (pmc_region_data__new(&d))
		return 0;
	/* Whatever parse returns, the data holds the records before the failing one. */
	pmc_region_data__parse(d, data, size);
	nr_ev = pmc_region_data__nr_events(d);
	for (size_t i = 0; i < nr_ev; i++)
		if (!pmc_region_data__event(d, i))
			abort();
	for (size_t t = 0; t < pmc_region_data__nr_threads(d); t++)
		if (pmc_region_data__thread(d, t, &pid, &tid))
			abort();
	for (size_t r = 0; r < pmc_region_data__nr_regions(d); r++) {
		for (int t = -1; t < (int)pmc_region_data__nr_threads(d); t++) {
			if (pmc_region_data__get(d, r, t, &v) || !v.name)
				abort();
			sum += v.entered + (nr_ev ? v.values[nr_ev - 1] : 0);
		}
	}
	pmc_region_data__delete(d);
	return 0;
}
