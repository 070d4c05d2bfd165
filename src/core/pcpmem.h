/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory parked in pcp lists: per zone, the pages the CPUs' lists hold
 * and the limits they are held to, summed over CPUs and nodes, as
 * /proc/zoneinfo shows them at one moment. A gauge, not a count: it is
 * sampled at the end of each interval and never summed over time.
 */
#ifndef PCPTOP_PCPMEM_H
#define PCPTOP_PCPMEM_H

#include <stdint.h>
#include "procfs.h"

/* zones with pagesets: DMA, DMA32, Normal, Movable, and room to spare */
#define PCPMEM_MAX_ZONES 8
/* a sum the kernel did not print for some CPU (high_min before 6.7) */
#define PCPMEM_ABSENT (-1)

struct pcpmem_zone {
	char name[ZONE_NAME_LEN];
	int64_t count; /* pages in the lists */
	int64_t high; /* what the lists may hold before a flush */
	int64_t high_min, high_max; /* 6.7+: the range high moves in */
	int64_t batch;
	int64_t managed; /* the zone's managed pages, or PCPMEM_ABSENT */
	int nr_cpus;
};

struct pcpmem {
	int nr_zones; /* 0: not sampled */
	struct pcpmem_zone z[PCPMEM_MAX_ZONES];
};

/* the zones of zi with pagesets, one entry a zone name over all nodes */
void pcpmem_from_zoneinfo(const struct zoneinfo *zi, struct pcpmem *m);
/* the same from a zoneinfo file: 0 or -errno */
int pcpmem_read(const char *path, struct pcpmem *m);
/* pages in every zone's lists */
int64_t pcpmem_pages(const struct pcpmem *m);
/* their high, summed likewise */
int64_t pcpmem_high(const struct pcpmem *m);
/* count as a percentage of the zone's managed pages, -1 when unknown */
double pcpmem_pct(const struct pcpmem_zone *z);

#endif /* PCPTOP_PCPMEM_H */
