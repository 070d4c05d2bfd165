// SPDX-License-Identifier: GPL-2.0-only
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "pcpmem.h"

static void add_field(int64_t *sum, int v)
{
	if (*sum == PCPMEM_ABSENT || v == PCP_FIELD_ABSENT)
		*sum = PCPMEM_ABSENT;
	else
		*sum += v;
}

static struct pcpmem_zone *zone_slot(struct pcpmem *m, const char *name)
{
	struct pcpmem_zone *z;
	int i;

	for (i = 0; i < m->nr_zones; i++)
		if (!strcmp(m->z[i].name, name))
			return &m->z[i];
	if (m->nr_zones == PCPMEM_MAX_ZONES)
		return NULL;
	z = &m->z[m->nr_zones++];
	memset(z, 0, sizeof(*z));
	snprintf(z->name, sizeof(z->name), "%s", name);
	return z;
}

void pcpmem_from_zoneinfo(const struct zoneinfo *zi, struct pcpmem *m)
{
	int i, j;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < zi->nr_zones; i++) {
		const struct zone_pcp *zp = &zi->zones[i];
		struct pcpmem_zone *z;

		if (!zp->nr_cpus)
			continue;
		z = zone_slot(m, zp->name);
		if (!z)
			continue;
		/*
		 * Zones of one name on several nodes add up; a sum past
		 * INT64_MAX is no real zone (the fuzzer gave two DMA zones of
		 * LONG_MAX pages): unknown, as for a zone that prints none.
		 */
		if (zp->managed < 0 || z->managed == PCPMEM_ABSENT ||
		    zp->managed > INT64_MAX - z->managed)
			z->managed = PCPMEM_ABSENT;
		else
			z->managed += zp->managed;
		for (j = 0; j < zp->nr_cpus; j++) {
			const struct pcp_cpu *c = &zp->cpus[j];

			add_field(&z->count, c->count);
			add_field(&z->high, c->high);
			add_field(&z->high_min, c->high_min);
			add_field(&z->high_max, c->high_max);
			add_field(&z->batch, c->batch);
		}
		z->nr_cpus += zp->nr_cpus;
	}
}

int pcpmem_read(const char *path, struct pcpmem *m)
{
	struct zoneinfo zi;
	int err;

	memset(m, 0, sizeof(*m));
	err = zoneinfo_parse(path, &zi);
	if (err)
		return err;
	pcpmem_from_zoneinfo(&zi, m);
	zoneinfo_free(&zi);
	return 0;
}

/* one field over every zone, leaving out the absent (-1) */
static int64_t sum_field(const struct pcpmem *m, size_t off)
{
	int64_t sum = 0, v;
	int i;

	for (i = 0; i < m->nr_zones; i++) {
		v = *(const int64_t *)((const char *)&m->z[i] + off);
		if (v > 0)
			sum += v;
	}
	return sum;
}

int64_t pcpmem_pages(const struct pcpmem *m)
{
	return sum_field(m, offsetof(struct pcpmem_zone, count));
}

int64_t pcpmem_high(const struct pcpmem *m)
{
	return sum_field(m, offsetof(struct pcpmem_zone, high));
}

double pcpmem_pct(const struct pcpmem_zone *z)
{
	if (z->managed <= 0 || z->count < 0)
		return -1;
	return 100.0 * (double)z->count / (double)z->managed;
}
