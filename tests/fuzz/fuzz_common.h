/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the libFuzzer harnesses share: the readers under test take a path,
 * so each input is written to one memfd and read back through
 * /proc/self/fd/N, with no file system in the loop.
 */
#ifndef PCPTOP_FUZZ_COMMON_H
#define PCPTOP_FUZZ_COMMON_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* (built with -D_GNU_SOURCE: memfd_create) */

/* the path of a file holding exactly data[0..n), or NULL */
static inline const char *fuzz_file(const uint8_t *data, size_t n)
{
	static char path[64];
	static int fd = -1;

	if (fd < 0) {
		fd = memfd_create("pcptop-fuzz", MFD_CLOEXEC);
		if (fd < 0)
			return NULL;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, n, 0) != (ssize_t)n)
		return NULL;
	return path;
}

#endif /* PCPTOP_FUZZ_COMMON_H */
