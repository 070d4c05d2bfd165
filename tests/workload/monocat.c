// SPDX-License-Identifier: GPL-2.0-only
/*
 * monocat: print CLOCK_MONOTONIC, a file, CLOCK_MONOTONIC. Why: a kernel
 * count read from tracefs or /proc lies between the two times, which
 * bpf_ktime_get_ns() shares, so a trace's events can be counted over a
 * window that brackets the read (tests/record/trace.sh).
 *
 * Usage: monocat FILE
 * Prints "mono_before NS", the file, "mono_after NS".
 */
#include <fcntl.h>
#include <stdio.h>
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
	static char buf[1 << 16];
	long long t0, t1;
	ssize_t n, len = 0;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: monocat FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		perror("monocat: open");
		return 1;
	}
	t0 = now_ns();
	while (len < (ssize_t)sizeof(buf) &&
	       (n = read(fd, buf + len, sizeof(buf) - (size_t)len)) > 0)
		len += n;
	t1 = now_ns();
	close(fd);
	printf("mono_before %lld\n", t0);
	fwrite(buf, 1, (size_t)len, stdout);
	printf("mono_after %lld\n", t1);
	return 0;
}
