// SPDX-License-Identifier: MIT
/*
 * Workload for the HTML report's escaping test: nearly all its instructions are in a function
 * whose symbol is markup that would end a <script> element and add an element
 * ("</script><i id=pwn3>"), a name no C identifier can have, so the function is written in
 * assembly with a quoted symbol (GNU as). It loops argv[1] times (default 1,000,000).
 */
#include <stdlib.h>

#define HOSTILE "\"</script><i id=pwn3>\""

extern void hostile_loop(unsigned long n) __asm__(HOSTILE);

__asm__(".text\n"
	".globl " HOSTILE "\n"
	".type " HOSTILE ", @function\n" HOSTILE ":\n"
	"1:\n"
	"\tsub $1, %rdi\n"
	"\tjnz 1b\n"
	"\tret\n"
	".size " HOSTILE ", .-" HOSTILE "\n");

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;

	hostile_loop(n ? n : 1);
	return 0;
}
