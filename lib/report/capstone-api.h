/* SPDX-License-Identifier: MIT */
/* capstone's functions, loaded on first use (core/dynlib.h says why). */
#ifndef PMC_LIB_REPORT_CAPSTONE_API_H
#define PMC_LIB_REPORT_CAPSTONE_API_H

#include <capstone/capstone.h>

struct pmc__cs_api {
	cs_err (*open)(cs_arch arch, cs_mode mode, csh *handle);
	cs_err (*option)(csh handle, cs_opt_type type, size_t value);
	size_t (*disasm)(csh handle, const uint8_t *code, size_t size, uint64_t address,
			 size_t count, cs_insn **insn);
	void (*free)(cs_insn *insn, size_t count);
	cs_err (*close)(csh *handle);
};

/* capstone, loaded on the first call (thread-safe); NULL when it cannot be loaded. */
const struct pmc__cs_api *pmc__cs_api(void);

#endif /* PMC_LIB_REPORT_CAPSTONE_API_H */
