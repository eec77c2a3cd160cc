/* SPDX-License-Identifier: MIT */
/*
 * Results files of many ranks merged (docs/mpi.md): per event, per metric and per region, the
 * sum, the minimum and maximum with the rank that has each, the mean, the standard
 * deviation, the coefficient of variation, the imbalance (max / mean), the load balance
 * (mean / max) and percentiles over the ranks.
 */
#ifndef PMC_MERGE_H
#define PMC_MERGE_H

#include <stdio.h>
#include <pmc/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pmc_merge;

/*
 * Recipe:
 *
 *	pmc_merge__new(&m);
 *	for each file: err = pmc_merge__add_file(m, path, why, sizeof(why));  // or __add()
 *	err = pmc_merge__write(m, stdout, PMC_MERGE_FORMAT_JSON);
 *	pmc_merge__delete(m);
 *
 * Returns 0 or -ENOMEM.
 */
PMC_API int pmc_merge__new(struct pmc_merge **out);
PMC_API void pmc_merge__delete(struct pmc_merge *m);

/*
 * Adds one rank's results, a pmc-stat/1 JSON document of len bytes (docs/stat-output.md),
 * named name in messages. Its rank is provenance.mpi.rank, or, in files without MPI tags,
 * the order of adding. A file whose pmc version, backend or event list differs from the
 * first one's, whose rank another file has, or whose job size differs, is refused.
 * Returns 0; -PMC_E_FORMAT for a document that is not a pmc-stat/1 results file, -EINVAL for
 * a refused file (why[len] says which file, against which, and why), -ENOMEM.
 */
PMC_API int pmc_merge__add(struct pmc_merge *m, const char *name, const char *buf, size_t len,
			   char *why, size_t why_len);

/* pmc_merge__add() of the file at path; also a negative errno when it cannot be read. */
PMC_API int pmc_merge__add_file(struct pmc_merge *m, const char *path, char *why, size_t why_len);

enum pmc_merge_format {
	PMC_MERGE_FORMAT_TEXT,
	PMC_MERGE_FORMAT_CSV,
	PMC_MERGE_FORMAT_JSON, /* schema "pmc-merge/1", every rank's values and provenance */
};

/*
 * Writes the merged statistics of the files added (at least one), naming the ranks that
 * are missing (below the job's size, in no file) and the ranks stopped early (whose values
 * are merged all the same). Returns 0, -EINVAL when no file was added, -EIO, -ENOMEM.
 */
PMC_API int pmc_merge__write(struct pmc_merge *m, FILE *f, enum pmc_merge_format fmt);

#ifdef __cplusplus
}
#endif
#endif /* PMC_MERGE_H */
