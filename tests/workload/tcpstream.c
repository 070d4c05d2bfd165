// SPDX-License-Identifier: GPL-2.0-only
/*
 * Loopback TCP stream (or, with -u, a unix socket pair): a forked receiver
 * and a sender pushing large writes through 127.0.0.1 for a few seconds. TCP copies user data into page
 * fragments of order 3 (skb_page_frag_refill, SKB_FRAG_PAGE_ORDER), and the
 * receiver frees them when it consumes the data: high-order frees onto the
 * PCP order-3 lists, the pattern that triggers free_high flushes. Static,
 * so the same load runs on the host and inside every test VM.
 *
 * Usage: tcpstream [-s SECONDS] [-b WRITE_KIB] [-j STREAMS] [-m MIB] [-r CPU]
 *                  [-u]
 * -m: each stream stops after MIB MiB, if the deadline has not come
 * first: the same requests whatever the kernel makes of them (the whatif
 * suite compares runs at different scales).
 * -r: each receiver runs on CPU, the senders where they were started.
 * On one CPU the fragments' frees come in runs cut by the senders'
 * allocations wherever the scheduler switched, and 7.x's free_high
 * (free_count >= batch + high_min / 2) hangs on how long those runs
 * are: one scale's flushes moved 627 to 1198 from boot to boot
 * (docs/ACCURACY.md, "The 7.3 pair"). Apart, the receiving CPU's runs
 * of frees are cut only by its own few allocations.
 * -u: a unix socket pair instead of loopback TCP (unix_pair() below).
 * Prints "tcpstream: N bytes in S s" so tests can compare against it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <sched.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include "workload.h"

#define DEFAULT_SECS 3
#define DEFAULT_WRITE_KIB 64
#define DEFAULT_STREAMS 1
#define MAX_STREAMS 16
/* -r not given: receivers run where the scheduler puts them */
#define ANY_CPU (-1L)

/* a receiver's CPU, -r: 0, or 1 with the reason on stderr */
static int pin(long cpu)
{
	cpu_set_t set;

	if (cpu == ANY_CPU)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr,
			"tcpstream: receiver on CPU %ld: %s: give -r a CPU that is online\n",
			cpu, strerror(errno));
		return 1;
	}
	return 0;
}

/* the receiving side: read and drop until the sender closes */
static int drain(int fd, size_t buflen)
{
	char *buf = malloc(buflen);

	if (!buf)
		return 1;
	while (read(fd, buf, buflen) > 0)
		;
	close(fd);
	return 0;
}

/* the TCP receiver: its one connection, then drain() */
static int receive(int lfd, size_t buflen, long cpu)
{
	int fd;

	if (pin(cpu))
		return 1;
	fd = accept(lfd, NULL, NULL);
	if (fd < 0) {
		perror("tcpstream: accept");
		return 1;
	}
	return drain(fd, buflen);
}

/*
 * -u: a connected AF_UNIX stream pair, the receiver forked on one end.
 * unix_stream_sendmsg() puts the data in page fragments of order 3 too
 * (UNIX_SKB_FRAGS_SZ), and the receiver's read frees them: no ACK
 * whose cleanup may free them on the sender's CPU instead
 */
static int unix_pair(size_t buflen, long rcpu, int *fd, pid_t *pid)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		perror("tcpstream: socketpair");
		return 1;
	}
	*pid = fork();
	if (*pid < 0) {
		perror("tcpstream: fork");
		close(sv[0]);
		close(sv[1]);
		return 1;
	}
	if (*pid == 0) {
		close(sv[0]);
		_exit(pin(rcpu) ? 1 : drain(sv[1], buflen));
	}
	close(sv[1]);
	*fd = sv[0];
	return 0;
}

/* loopback TCP: a receiver forked on an ephemeral port, connected to */
static int tcp_pair(size_t buflen, long rcpu, int *fd, pid_t *pid)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	socklen_t salen = sizeof(sa);
	int lfd;

	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(lfd, 1) ||
	    getsockname(lfd, (struct sockaddr *)&sa, &salen)) {
		perror("tcpstream: listen on 127.0.0.1");
		return 1;
	}
	*pid = fork();
	if (*pid < 0) {
		perror("tcpstream: fork");
		return 1;
	}
	if (*pid == 0)
		_exit(receive(lfd, buflen, rcpu));
	close(lfd);
	*fd = socket(AF_INET, SOCK_STREAM, 0);
	if (*fd < 0 || connect(*fd, (struct sockaddr *)&sa, sizeof(sa))) {
		perror("tcpstream: connect");
		kill(*pid, SIGKILL);
		waitpid(*pid, NULL, 0);
		return 1;
	}
	return 0;
}

/*
 * one stream: a receiver and its connection, then send until deadline
 * or until limit bytes (0: no limit)
 */
static int stream(double deadline, size_t buflen, unsigned long long limit,
		  long rcpu, bool unix_socket, unsigned long long *sent)
{
	char *buf = malloc(buflen);
	int fd, status, ret = 0;
	pid_t pid;

	if (!buf)
		return 1;
	if (unix_socket ? unix_pair(buflen, rcpu, &fd, &pid) :
			  tcp_pair(buflen, rcpu, &fd, &pid)) {
		free(buf);
		return 1;
	}
	memset(buf, 0x5a, buflen);
	while (now_s() < deadline && (!limit || *sent < limit)) {
		size_t len = limit && limit - *sent < buflen ? limit - *sent :
							       buflen;
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			perror("tcpstream: write");
			ret = 1;
			break;
		}
		*sent += n;
	}
	close(fd);
	free(buf);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		ret = 1;
	return ret;
}

int main(int argc, char **argv)
{
	unsigned long secs = DEFAULT_SECS, kib = DEFAULT_WRITE_KIB;
	unsigned long streams = DEFAULT_STREAMS, mib = 0, rcpu = 0, i;
	long recv_cpu = ANY_CPU;
	bool unix_socket = false;
	unsigned long long sent = 0;
	double start, deadline;
	pid_t pids[MAX_STREAMS];
	int c, status, ret = 0;

	while ((c = getopt(argc, argv, "s:b:j:m:r:uh")) != -1) {
		unsigned long *dst = c == 's' ? &secs :
				     c == 'b' ? &kib :
				     c == 'm' ? &mib :
				     c == 'r' ? &rcpu :
						&streams;

		if (c == 'u') {
			unix_socket = true;
			continue;
		}
		if (c == 'h' || c == '?' || parse_ulong(optarg, dst) || !kib ||
		    !streams || streams > MAX_STREAMS ||
		    (c == 'r' && rcpu >= CPU_SETSIZE)) {
			fprintf(stderr,
				"usage: tcpstream [-s SECONDS] [-b WRITE_KIB] [-j STREAMS (1-%d)] [-m MIB] [-r CPU] [-u]\n",
				MAX_STREAMS);
			return 2;
		}
		if (c == 'r')
			recv_cpu = (long)rcpu;
	}
	signal(SIGPIPE, SIG_IGN);
	start = now_s();
	deadline = start + secs;
	if (streams == 1) {
		ret = stream(deadline, kib * 1024, mib << 20, recv_cpu,
			     unix_socket, &sent);
		printf("tcpstream: %llu bytes in %.1f s\n", sent,
		       now_s() - start);
		return ret;
	}
	/* several streams: one process each, totals reported per stream */
	for (i = 0; i < streams; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("tcpstream: fork");
			return 1;
		}
		if (pids[i] == 0) {
			ret = stream(deadline, kib * 1024, mib << 20, recv_cpu,
				     unix_socket, &sent);
			printf("tcpstream: stream %lu: %llu bytes in %.1f s\n",
			       i, sent, now_s() - start);
			/* _exit skips stdio's flush: a pipe would lose the line */
			fflush(stdout);
			_exit(ret);
		}
	}
	for (i = 0; i < streams; i++)
		if (waitpid(pids[i], &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			ret = 1;
	return ret;
}
