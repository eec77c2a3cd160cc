/* SPDX-License-Identifier: MIT */
/* pmc calibrate's text (calib-out.c) over libpmc's calibration (include/pmc/calibrate.h). */
#ifndef PMC_TOOLS_CALIB_H
#define PMC_TOOLS_CALIB_H

#include <stdio.h>
#include <pmc/pmc.h>

/* The library's messages on stderr (a struct pmc_calibrate_opts message callback). */
void calib_message(const struct pmc_calibrate_msg *m, void *arg);
/* The terminal summary of the entries. */
void calib_print(FILE *f, const struct pmc_calibrate_results *r);
/* The calibration file made ready before anything is measured; 1, said, when it cannot be. */
int calib_check_output(const char *path);
/* The calibration file written (path NULL: this machine's), said on stderr. Returns 0 or -errno. */
int calib_save(const char *path, const struct pmc_calibrate *c);

#endif /* PMC_TOOLS_CALIB_H */
