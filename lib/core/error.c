// SPDX-License-Identifier: MIT
/* pmc_strerror(): messages for errno values and for pmc's own PMC_E_* codes. */
#include <string.h>
#include <pmc/error.h>

static const char *const pmc_messages[] = {
#define PMC_X_MSG(name, msg) [PMC_E_##name - PMC_E_BASE - 1] = msg,
	PMC_ERRORS(PMC_X_MSG)
#undef PMC_X_MSG
};

const char *pmc_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err > PMC_E_BASE && err < PMC_E_MAX)
		return pmc_messages[err - PMC_E_BASE - 1];
	if (err == 0)
		return "success";
	/* strerror() is not required to be thread-safe; the table it returns from is. */
	return strerrordesc_np(err) ? strerrordesc_np(err) : "unknown error";
}
