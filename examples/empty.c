// SPDX-License-Identifier: MIT
/* The thesis's empty program (Appendix D, Table D.1): what creating, running and ending a process
 * costs. */
int main(void)
{
	return 0;
}
