// SPDX-License-Identifier: GPL-2.0-only
/*
 * Free memory cut into order-0 holes, for the oracle of pcptop's
 * compaction (and reclaim) figures in the test VMs: it maps MIB of
 * anonymous memory, touches every page, then gives every other page back.
 * An order-2 allocation that follows finds free memory but no free
 * order-2 block, and compacts directly (the pages left mapped are
 * movable), THP or not; once such allocations want more than the
 * memory left whole, they reclaim directly too. tests/oracle/guest.sh's
 * stalls phase runs it beside pipes' order-2 pipe_buffer arrays.
 *
 *   -f MIB  the memory cut into holes
 *   -s SECS how long it holds the rest before it exits, so that other
 *           allocations meet the holes
 *   -g MIB  instead: keep every page, mapped MIB at a time, until the
 *           OOM killer ends it (tests/rehearsal/oom.sh); one mapping of
 *           more than the memory is refused by overcommit's heuristic
 *
 * Usage: hog -f MIB [-s SECS] | hog -g MIB
 * Prints "hog: N pages touched" once the holes are cut (a caller may
 * wait for that line), then holds them. The OOM killer picks it first
 * (oom_score_adj 1000), so the test's shell and pcptop survive a size
 * that turned out too large.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "workload.h"

#define MIB (1024UL * 1024UL)
#define OOM_FIRST "1000"

static void oom_first(void)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY);

	if (fd < 0)
		return;
	if (write(fd, OOM_FIRST, strlen(OOM_FIRST)) < 0)
		perror("hog: oom_score_adj");
	close(fd);
}

/* every other page of a touched mapping given back: order-0 holes */
static int fragment(size_t len, long page, unsigned long *touched)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t off;

	if (p == MAP_FAILED)
		return -errno;
	/* huge pages would leave no holes where a page is given back */
	madvise(p, len, MADV_NOHUGEPAGE);
	for (off = 0; off < len; off += page, (*touched)++)
		p[off] = (char)(off >> 12 | 1);
	for (off = 0; off < len; off += 2 * page)
		munmap(p + off, page);
	return 0;
}

/* mappings of step bytes, every page touched and kept, until killed */
static int grow(size_t step, long page)
{
	size_t off;
	char *p;

	for (;;) {
		p = mmap(NULL, step, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			/* overcommit said no: hold what is touched */
			pause();
			continue;
		}
		for (off = 0; off < step; off += page)
			p[off] = 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long frag = 0, hold = 0, step = 0, touched = 0, *dst;
	long page = sysconf(_SC_PAGESIZE);
	int c, err;

	while ((c = getopt(argc, argv, "f:s:g:h")) != -1) {
		dst = c == 'f' ? &frag : c == 'g' ? &step : &hold;
		if (c == 'h' || c == '?' || parse_ulong(optarg, dst)) {
			fprintf(stderr,
				"usage: hog -f MIB [-s SECS] | hog -g MIB\n");
			return 2;
		}
	}
	if (!frag && !step) {
		fprintf(stderr, "hog: -f MIB or -g MIB is required\n");
		return 2;
	}
	oom_first();
	if (step)
		return grow(step * MIB, page);
	err = fragment(frag * MIB, page, &touched);
	if (err) {
		fprintf(stderr, "hog: mmap of %lu MiB: %s\n", frag,
			strerror(-err));
		return 1;
	}
	printf("hog: %lu pages touched\n", touched);
	fflush(stdout);
	sleep(hold);
	return 0;
}
