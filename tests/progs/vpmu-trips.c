// SPDX-License-Identifier: MIT
/*
 * A program without libc whose loops' trip counts and basic blocks' execution counts follow
 * from its code, for the branch-stack analyses under vpmu (cli.test-branch-report, docs/
 * branches.md). Built -nostdlib -static like vpmu-bare: the run is exactly these
 * instructions. _start calls inner R = 100000 times; inner's loop runs exactly 7 times per
 * call (its back edge taken 6 times, then it falls through to the return). Each round takes
 * 9 branches (call, 6 back edges, ret, _start's back edge), so the straight runs between
 * taken branches execute:
 *   inner+0x0  .. inner+0x9   R   (entry, through the loop's first pass, to its back edge)
 *   inner+0x5  .. inner+0x9   5R  (the loop's passes 2 to 6, each ending taken)
 *   inner+0x5  .. inner+0xb   R   (the last pass falls through to the ret)
 *   _start+0xb .. _start+0xe  R   (after the call: dec, jnz back)
 *   _start+0x6 .. _start+0x6  R-1 (the call, reached by _start's back edge)
 */
__asm__(".text\n"
	".globl _start\n"
	".type _start,@function\n"
	"_start:\n"
	"	mov $100000,%r12d\n"
	"1:	call inner\n"
	"	dec %r12d\n"
	"	jnz 1b\n"
	"	cmpq $1,(%rsp)\n"
	"	jne 2f\n"
	"3:	mov $60,%eax\n"
	"	xor %edi,%edi\n"
	"	syscall\n"
	"2:	mov $20000,%r12d\n"
	"4:	call top_test\n"
	"	call with_call\n"
	"	dec %r12d\n"
	"	jnz 4b\n"
	"	jmp 3b\n"
	".size _start,.-_start\n"
	".type inner,@function\n"
	"inner:\n"
	"	mov $7,%ecx\n"
	"1:	add %ecx,%eax\n"
	"	dec %ecx\n"
	"	jnz 1b\n"
	"	ret\n"
	".size inner,.-inner\n"
	".type top_test,@function\n"
	"top_test:\n"
	"	mov $5,%ecx\n"
	"	jmp 2f\n"
	"1:	add %ecx,%eax\n"
	"	dec %ecx\n"
	"2:	test %ecx,%ecx\n"
	"	jnz 1b\n"
	"	ret\n"
	".size top_test,.-top_test\n"
	".type with_call,@function\n"
	"with_call:\n"
	"	mov $3,%r13d\n"
	"1:	call leaf\n"
	"	dec %r13d\n"
	"	jnz 1b\n"
	"	ret\n"
	".size with_call,.-with_call\n"
	".type leaf,@function\n"
	"leaf:\n"
	"	ret\n"
	".size leaf,.-leaf\n"
	".section .note.GNU-stack,\"\",@progbits\n");
