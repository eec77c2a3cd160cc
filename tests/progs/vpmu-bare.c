// SPDX-License-Identifier: MIT
/*
 * A program without libc whose instruction count per function follows from its code, for the
 * sampling tests under vpmu (docs/accuracy.md, "Sampling intervals"). Built -nostdlib -static:
 * the run is exactly these instructions. With no argument:
 *   _start     6 + 5 R           (3 to set up, call x3 + dec + jnz per round, 3 to exit)
 *   f_small    R (2 + 2 N1)      (mov, N1 x {dec; jnz}, ret)
 *   f_mid      R (2 + 2 N2)
 *   f_big      R (2 + 2 N3)
 * with R = 1000, N1 = 20, N2 = 100, N3 = 500: 5006, 42000, 202000 and 1002000, 1251006 in all.
 * With any argument it runs only f_alias: 1000009 instructions, 7 in _start, 2 + 2 x 500000 in
 * f_alias, whose loop of two makes a period that is a multiple of 2 sample one instruction.
 */
__asm__(".text\n"
	".globl _start\n"
	".type _start,@function\n"
	"_start:\n"
	"	cmpq $1,(%rsp)\n"
	"	jne 2f\n"
	"	mov $1000,%r12d\n"
	"1:	call f_small\n"
	"	call f_mid\n"
	"	call f_big\n"
	"	dec %r12d\n"
	"	jnz 1b\n"
	"3:	mov $60,%eax\n"
	"	xor %edi,%edi\n"
	"	syscall\n"
	"2:	call f_alias\n"
	"	jmp 3b\n"
	".size _start,.-_start\n"
	".type f_small,@function\n"
	"f_small:\n"
	"	mov $20,%ecx\n"
	"1:	dec %ecx\n"
	"	jnz 1b\n"
	"	ret\n"
	".size f_small,.-f_small\n"
	".type f_mid,@function\n"
	"f_mid:\n"
	"	mov $100,%ecx\n"
	"1:	dec %ecx\n"
	"	jnz 1b\n"
	"	ret\n"
	".size f_mid,.-f_mid\n"
	".type f_big,@function\n"
	"f_big:\n"
	"	mov $500,%ecx\n"
	"1:	dec %ecx\n"
	"	jnz 1b\n"
	"	ret\n"
	".size f_big,.-f_big\n"
	".type f_alias,@function\n"
	"f_alias:\n"
	"	mov $500000,%ecx\n"
	"1:	dec %ecx\n"
	"	jnz 1b\n"
	"	ret\n"
	".size f_alias,.-f_alias\n"
	".section .note.GNU-stack,\"\",@progbits\n");
