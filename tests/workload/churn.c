// SPDX-License-Identifier: GPL-2.0-only
/*
 * Page churn: map, touch and unmap anonymous memory in a loop so the page
 * allocator refills and bulk-frees per-CPU lists at a known rate. Static,
 * so the same load runs on the host and inside every test VM.
 *
 * Usage: churn [-m MIB] [-n ROUNDS] [-s SECONDS] [-w]
 * Prints "churn: N pages touched" so tests can compare against it.
 * -w: each round, once its pages are touched, prints "churn: touched"
 * and waits for SIGUSR1 before it unmaps them, so a test can put the
 * frees inside a recording's window whatever the host's load (a churn
 * running beside `record -- bonnie++` under two VM guests freed nothing
 * in bonnie's 4 s: its first round took longer).
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include "workload.h"

#define DEFAULT_MIB 256
#define DEFAULT_ROUNDS 4
#define MIB (1024UL * 1024UL)

int main(int argc, char **argv)
{
	unsigned long mib = DEFAULT_MIB, rounds = DEFAULT_ROUNDS, secs = 0;
	unsigned long long touched = 0;
	long page = sysconf(_SC_PAGESIZE);
	bool wait_usr1 = false;
	sigset_t usr1;
	double deadline;
	unsigned long r;
	int c;

	while ((c = getopt(argc, argv, "m:n:s:wh")) != -1) {
		unsigned long *dst = c == 'm' ? &mib :
				     c == 'n' ? &rounds :
						&secs;

		if (c == 'w') {
			wait_usr1 = true;
			continue;
		}
		if (c == 'h' || c == '?' || parse_ulong(optarg, dst)) {
			fprintf(stderr,
				"usage: churn [-m MIB] [-n ROUNDS] [-s SECONDS] [-w]\n");
			return 2;
		}
	}
	/* blocked from the start: a signal sent early waits for sigwait() */
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	if (wait_usr1 && sigprocmask(SIG_BLOCK, &usr1, NULL)) {
		perror("churn: sigprocmask");
		return 1;
	}
	deadline = now_s() + secs;
	for (r = 0; r < rounds || (secs && now_s() < deadline); r++) {
		size_t len = mib * MIB, off;
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED) {
			perror("churn: mmap");
			return 1;
		}
		/* no THP: order-0 faults go through the PCP lists */
		madvise(p, len, MADV_NOHUGEPAGE);
		for (off = 0; off < len; off += page) {
			p[off] = (char)off;
			touched++;
		}
		if (wait_usr1) {
			int sig;

			printf("churn: touched\n");
			fflush(stdout);
			if (sigwait(&usr1, &sig)) {
				perror("churn: sigwait");
				return 1;
			}
		}
		munmap(p, len);
		if (secs && now_s() >= deadline && r + 1 >= rounds)
			break;
	}
	printf("churn: %llu pages touched\n", touched);
	return 0;
}
