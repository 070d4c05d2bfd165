// SPDX-License-Identifier: GPL-2.0-only
/*
 * Pipe churn: open pipes, grow them, push data through, close them. Why:
 * a pipe of 256 slots keeps its pipe_buffer array in a 10 KiB kmalloc,
 * which is above the largest kmalloc cache (8 KiB), so it is an order-2
 * page from the page allocator; closing the pipes frees those pages in a
 * burst. That is the order 1-3 freeing the free_high rule is about, and
 * the load the oracle suite needs beside churn's order-0 pages.
 *
 * Usage: pipes [-p PIPES] [-n ROUNDS] [-k KIB] [-w SECS]
 *   -p  pipes open at once (default 64)
 *   -n  rounds of open, fill, drain, close (default 20)
 *   -k  KiB written through each pipe per round (default 64)
 *   -w  seconds every pipe of a round stays open before they close
 *       (default 0): several of these then hold their arrays at once,
 *       on one CPU too, where each would else run its round alone
 * Prints "pipes: N pipes, N KiB" so tests can compare against it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "workload.h"

#define DEFAULT_PIPES 64
#define DEFAULT_ROUNDS 20
#define DEFAULT_KIB 64
#define MAX_PIPES 1024
/* 256 slots of 40 bytes: a 10 KiB array, an order-2 kmalloc */
#define PIPE_BYTES (256 * 4096)
#define CHUNK 4096

static int fds[MAX_PIPES][2];

/* write KIB through the pipe and read it back, a page at a time */
static int pump(int wfd, int rfd, unsigned long kib)
{
	char buf[CHUNK];
	unsigned long i;

	memset(buf, 0x5a, sizeof(buf));
	for (i = 0; i < kib * 1024 / CHUNK; i++) {
		if (write(wfd, buf, sizeof(buf)) != sizeof(buf) ||
		    read(rfd, buf, sizeof(buf)) != sizeof(buf))
			return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long pipes = DEFAULT_PIPES, rounds = DEFAULT_ROUNDS;
	unsigned long kib = DEFAULT_KIB, opened = 0, hold = 0, r, i;
	int c;

	while ((c = getopt(argc, argv, "p:n:k:w:h")) != -1) {
		unsigned long *dst = c == 'p' ? &pipes :
				     c == 'n' ? &rounds :
				     c == 'w' ? &hold :
						&kib;

		if (c == 'h' || c == '?' || parse_ulong(optarg, dst) ||
		    (c == 'p' && (pipes < 1 || pipes > MAX_PIPES))) {
			fprintf(stderr,
				"usage: pipes [-p PIPES (1-%d)] [-n ROUNDS] [-k KIB] [-w SECS]\n",
				MAX_PIPES);
			return 2;
		}
	}
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < pipes; i++) {
			if (pipe(fds[i])) {
				perror("pipes: pipe");
				return 1;
			}
			/* fails without CAP_SYS_RESOURCE past pipe-max-size:
			 * the pipe then keeps its 16 slots, still a load */
			fcntl(fds[i][1], F_SETPIPE_SZ, PIPE_BYTES);
			if (pump(fds[i][1], fds[i][0], kib)) {
				perror("pipes: write/read");
				return 1;
			}
			opened++;
		}
		sleep(hold);
		for (i = 0; i < pipes; i++) {
			close(fds[i][0]);
			close(fds[i][1]);
		}
	}
	printf("pipes: %lu pipes, %lu KiB\n", opened, opened * kib);
	return 0;
}
