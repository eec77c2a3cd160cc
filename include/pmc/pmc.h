/* SPDX-License-Identifier: MIT */
/* Umbrella header of libpmc: includes every public header. */
#ifndef PMC_PMC_H
#define PMC_PMC_H

#include <pmc/common.h>
#include <pmc/error.h>
#include <pmc/bytes.h>
#include <pmc/log.h>
#include <pmc/infile.h>
#include <pmc/outfile.h>
#include <pmc/caps.h>
#include <pmc/event.h>
#include <pmc/count.h>
#include <pmc/stat.h>
#include <pmc/sample.h>
#include <pmc/region.h>
#include <pmc/report.h>
#include <pmc/run.h>
#include <pmc/stat-view.h>
#include <pmc/metric.h>
#include <pmc/launcher.h>
#include <pmc/merge.h>
#include <pmc/validate.h>
#include <pmc/calibrate.h>

#endif /* PMC_PMC_H */
