// SPDX-License-Identifier: MIT
/* The thesis's first example: a program that prints "hello, world" — measure it with pmc stat. */
#include <stdio.h>

int main(void)
{
	printf("hello, world\n");
	return 0;
}
