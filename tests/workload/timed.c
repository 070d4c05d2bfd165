// SPDX-License-Identifier: GPL-2.0-only
/*
 * timed: run a command and print the CLOCK_MONOTONIC time it took. Why:
 * under qemu -icount the guest's clock counts instructions, so this is
 * the instruction cost of a workload, which make bench compares with and
 * without pcptop attached (busybox time only has 10 ms steps).
 *
 * Usage: timed COMMAND [ARGS...]
 * Prints "timed: NS ns" on stderr; exits with the command's status.
 */
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long t0;
	int status;
	pid_t pid;

	if (argc < 2) {
		fprintf(stderr, "usage: timed COMMAND [ARGS...]\n");
		return 2;
	}
	t0 = now_ns();
	pid = fork();
	if (pid < 0) {
		perror("timed: fork");
		return 1;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror("timed: exec");
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("timed: wait");
		return 1;
	}
	fprintf(stderr, "timed: %lld ns\n", now_ns() - t0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
