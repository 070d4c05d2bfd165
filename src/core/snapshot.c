// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "snapshot.h"

int snapshot_alloc(struct snapshot *s, int nr_cpus)
{
	memset(s, 0, sizeof(*s));
	s->nr_cpus = nr_cpus;
	s->hists = calloc((size_t)nr_cpus * PCPTOP_NR_HIST_KEYS,
			  sizeof(*s->hists));
	s->counters = calloc((size_t)nr_cpus * PCPTOP_NR_COUNTER_KEYS,
			     sizeof(*s->counters));
	s->lats =
		calloc((size_t)nr_cpus * PCPTOP_NR_LAT_KEYS, sizeof(*s->lats));
	s->zi_err = -ENOENT;
	if (!s->hists || !s->counters || !s->lats || samples_alloc(&s->smp)) {
		snapshot_free(s);
		return -ENOMEM;
	}
	return 0;
}

void snapshot_free(struct snapshot *s)
{
	free(s->hists);
	free(s->counters);
	free(s->lats);
	samples_free(&s->smp);
	zoneinfo_free(&s->zi);
	s->hists = NULL;
	s->counters = NULL;
	s->lats = NULL;
}

static bool in_range(int want, int v)
{
	return want == SNAP_ALL || want == v;
}

uint64_t snap_counter_at(const struct snapshot *s, int cpu, int zone,
			 int order_slot, int mt_slot, int counter)
{
	uint64_t sum = 0;
	int c, z, o, m;

	for (c = 0; c < s->nr_cpus; c++) {
		if (!in_range(cpu, c))
			continue;
		for (z = 0; z < PCPTOP_MAX_ZONES; z++) {
			if (!in_range(zone, z))
				continue;
			for (o = 0; o < PCPTOP_ORDER_SLOTS; o++) {
				if (!in_range(order_slot, o))
					continue;
				for (m = 0; m < PCPTOP_MT_SLOTS; m++) {
					int key = pcptop_counter_key(z, o, m);

					if (!in_range(mt_slot, m))
						continue;
					sum += s->counters
						       [(size_t)c *
								PCPTOP_NR_COUNTER_KEYS +
							key]
							       .c[counter];
				}
			}
		}
	}
	return sum;
}

uint64_t snap_counter(const struct snapshot *s, int cpu, int zone, int counter)
{
	return snap_counter_at(s, cpu, zone, SNAP_ALL, SNAP_ALL, counter);
}

void snap_lat(const struct snapshot *s, int cpu, int key,
	      struct pcptop_lat_val *out)
{
	int c, i;

	memset(out, 0, sizeof(*out));
	/* snapshots read from recordings made without --latency have none */
	if (!s->lats)
		return;
	for (c = 0; c < s->nr_cpus; c++) {
		const struct pcptop_lat_val *v;

		if (!in_range(cpu, c))
			continue;
		v = &s->lats[(size_t)c * PCPTOP_NR_LAT_KEYS + key];
		for (i = 0; i < PCPTOP_HIST_SLOTS; i++)
			out->slots[i] += v->slots[i];
		out->sum += v->sum;
		if (v->max > out->max)
			out->max = v->max;
	}
}

void snap_hist(const struct snapshot *s, int cpu, int zone, int hist,
	       uint64_t slots[PCPTOP_HIST_SLOTS], uint64_t *max)
{
	int c, z, i;

	memset(slots, 0, sizeof(uint64_t) * PCPTOP_HIST_SLOTS);
	*max = 0;
	for (c = 0; c < s->nr_cpus; c++) {
		if (!in_range(cpu, c))
			continue;
		for (z = 0; z < PCPTOP_MAX_ZONES; z++) {
			const struct pcptop_hist_val *h;

			if (!in_range(zone, z))
				continue;
			h = &s->hists[(size_t)c * PCPTOP_NR_HIST_KEYS +
				      pcptop_hist_key(z, hist)];
			for (i = 0; i < PCPTOP_HIST_SLOTS; i++)
				slots[i] += h->slots[i];
			if (h->max > *max)
				*max = h->max;
		}
	}
}
