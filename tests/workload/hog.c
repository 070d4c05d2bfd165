// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory pressure that makes allocating tasks stall, for the oracle of
 * pcptop's reclaim and compaction figures in the test VMs. An initramfs
 * has no disk, so its page cache is unreclaimable and a plain hog only
 * meets the OOM killer; this one first fills the dentry cache with
 * negative entries (lookups of names that do not exist), which direct
 * reclaim's shrinkers can free: reclaim then makes progress, and the
 * allocator drains the pcp lists when the allocation still fails. Then:
 *
 *   -m MIB  maps and touches MIB of anonymous memory, order-0 pages, and
 *           keeps it until the end (direct reclaim once free memory runs
 *           out; the OOM killer picks this process first);
 *   -t MIB  with -f, first leaves every other page of a MIB mapping
 *           mapped (free memory cut into order-0 holes), then faults MIB of
 *           transparent huge pages (madvise MADV_HUGEPAGE): direct
 *           compaction when THP's defrag setting allows it ("always",
 *           "madvise");
 *   -s SECS holds what it mapped that long before it exits, so that other
 *           allocations meet the same pressure or the same holes (an
 *           order-2 slab under -f compacts directly even with THP off).
 *
 * Usage: hog [-d DENTRIES] [-m MIB] [-f MIB] [-t MIB] [-s SECS]
 * Prints "hog: N dentries, N pages touched, N huge-page strides" at the
 * end (a stride may have got small pages: /proc/vmstat says which).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include "workload.h"

#define MIB (1024UL * 1024UL)
#define HUGE_SIZE (2 * MIB)
#define NEG_DIR "/tmp/hog-negative"
#define OOM_FIRST "1000"
#define CHUNK_MIB 16UL

/* the OOM killer's first choice, so the test's shell and pcptop survive */
static void oom_first(void)
{
	int fd = open("/proc/self/oom_score_adj", O_WRONLY);

	if (fd < 0)
		return;
	if (write(fd, OOM_FIRST, strlen(OOM_FIRST)) < 0)
		perror("hog: oom_score_adj");
	close(fd);
}

/* n negative dentries: lookups of names that are not there */
static unsigned long negative_dentries(unsigned long n)
{
	char name[64];
	struct stat st;
	unsigned long i;

	mkdir(NEG_DIR, 0700);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), NEG_DIR "/%lu", i);
		stat(name, &st);
	}
	return n;
}

static char *map_anon(size_t len)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* touch a mapping page by page; the pages it got */
static unsigned long touch(char *p, size_t len, size_t step)
{
	unsigned long n = 0;
	size_t off;

	for (off = 0; off < len; off += step, n++)
		p[off] = (char)(off >> 12 | 1);
	return n;
}

/* every other page of a touched mapping given back: order-0 holes */
static int fragment(size_t len, long page)
{
	char *p = map_anon(len);
	size_t off;

	if (!p)
		return -errno;
	madvise(p, len, MADV_NOHUGEPAGE);
	touch(p, len, page);
	for (off = 0; off < len; off += 2 * page)
		munmap(p + off, page);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long dentries = 0, mib = 0, frag = 0, thp = 0, touched = 0;
	unsigned long hold = 0;
	unsigned long huge = 0, chunk, *dst;
	long page = sysconf(_SC_PAGESIZE);
	char *p;
	int c;

	while ((c = getopt(argc, argv, "d:m:f:t:s:h")) != -1) {
		dst = c == 'd' ? &dentries :
		      c == 'm' ? &mib :
		      c == 'f' ? &frag :
		      c == 's' ? &hold :
				 &thp;
		if (c == 'h' || c == '?' || parse_ulong(optarg, dst)) {
			fprintf(stderr,
				"usage: hog [-d DENTRIES] [-m MIB] [-f MIB] [-t MIB] [-s SECS]\n");
			return 2;
		}
	}
	oom_first();
	dentries = negative_dentries(dentries);
	if (frag && fragment(frag * MIB, page)) {
		perror("hog: mmap");
		return 1;
	}
	if (thp) {
		p = map_anon(thp * MIB);
		if (!p) {
			perror("hog: mmap");
			return 1;
		}
		madvise(p, thp * MIB, MADV_HUGEPAGE);
		huge = touch(p, thp * MIB, HUGE_SIZE);
	}
	/* in chunks: one mapping past free memory is refused at mmap */
	for (; mib; mib -= chunk) {
		chunk = mib < CHUNK_MIB ? mib : CHUNK_MIB;
		p = map_anon(chunk * MIB);
		if (!p) {
			perror("hog: mmap");
			return 1;
		}
		madvise(p, chunk * MIB, MADV_NOHUGEPAGE);
		touched += touch(p, chunk * MIB, page);
	}
	printf("hog: %lu dentries, %lu pages touched, %lu huge-page strides\n",
	       dentries, touched, huge);
	fflush(stdout);
	sleep(hold);
	return 0;
}
