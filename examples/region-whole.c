// SPDX-License-Identifier: MIT
/*
 * Technique 1 of the thesis (section 5.4.1): one region around the whole program, the most
 * accurate count of a program, without the cost of creating and ending the process. The
 * work is 100 getppid(2) calls, so syscalls:sys_enter_getppid reads exactly 100.
 */
#define _GNU_SOURCE /* syscall() */
#include <unistd.h>
#include <sys/syscall.h>
#include <pmc/region.h>

int main(void)
{
	pmc_region_register("main"); /* all set-up before the first begin */
	pmc_region_begin("main");
	for (int i = 0; i < 100; i++)
		syscall(SYS_getppid);
	pmc_region_end("main"); /* before every exit point */
	return 0;
}
