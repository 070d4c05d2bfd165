/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one set of unit constants. Integer forms, so time arithmetic stays
 * exact; callers convert to double where they want seconds or percent.
 */
#ifndef PCPTOP_UNITS_H
#define PCPTOP_UNITS_H

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL
#define MSEC_PER_SEC 1000ULL

#define KIB 1024ULL
#define MIB (1024ULL * KIB)

#define PERCENT 100.0

/* the percentiles every view prints: log2 histograms only bound them */
#define PCT_MEDIAN 50.0
#define PCT_TAIL 99.0

#endif /* PCPTOP_UNITS_H */
