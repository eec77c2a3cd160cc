// SPDX-License-Identifier: MIT
/* The minimal fork/exec/wait runner: the floor any counting runner's overhead sits on. */
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>

int main(int argc, char **argv)
{
	pid_t pid;
	int status;

	if (argc < 2)
		return 2;
	pid = fork();
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
