/* SPDX-License-Identifier: MIT */
/* pmc-kernels' parts: the --list line they all print (list.c), and the memory kernels (array.c). */
#ifndef PMC_KERNELS_H
#define PMC_KERNELS_H

/* The variable the breakpoint kernel writes (kernels.c); --list prints its address for %BP%. */
extern volatile long pmc_kernels_watched;

/*
 * One line of --list: kernel, event, per-size count (NAN: none predicted, '-'), start-up,
 * default and quick sizes, and the backend the row is for ("any", "perf" or "vpmu").
 */
void kernels_print(const char *kernel, const char *event, double per_size, const char *startup,
		   const char *sizes, const char *quick, const char *backend);

/* Prints the array and chase kernels' lines. */
void array_list(void);
/* Runs memory kernel `name` for n passes: its exit status, or -1 when name is not one. */
int array_run(const char *name, long n);

#endif
