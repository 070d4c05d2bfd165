/* SPDX-License-Identifier: GPL-2.0-only */
/* What the static workload programs share: a clock and argument parsing. */
#ifndef PCPTOP_WORKLOAD_H
#define PCPTOP_WORKLOAD_H

#include <errno.h>
#include <stdlib.h>
#include <time.h>

static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline int parse_ulong(const char *s, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	return (errno || end == s || *end) ? -EINVAL : 0;
}

#endif /* PCPTOP_WORKLOAD_H */
