/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One interval as a plain struct: the BPF counts, the sampled figures
 * and, for views that show pagesets per CPU, /proc/zoneinfo. Every output
 * (text, JSON, the live view, recordings) reads this, never the maps.
 */
#ifndef PCPTOP_SNAPSHOT_H
#define PCPTOP_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>
#include "pcptop.h"
#include "procfs.h"
#include "samples.h"

/* "all CPUs" / "all zones" for the accessors */
#define SNAP_ALL (-1)

struct snapshot {
	int nr_cpus;
	double interval_s;
	struct pcptop_hist_val *hists; /* [cpu][PCPTOP_NR_HIST_KEYS] */
	struct pcptop_counter_val *counters; /* [cpu][PCPTOP_NR_COUNTER_KEYS] */
	/* --latency: [cpu][PCPTOP_NR_LAT_KEYS]; recordings keep CPU 0's sum */
	struct pcptop_lat_val *lats;
	struct samples smp; /* the FIG_SAMPLED rows of figtab */
	/* /proc/zoneinfo at the interval's end, when the sampler kept it */
	struct zoneinfo zi;
	int zi_err;
	/*
	 * CLOCK_MONOTONIC (a trace event's clock) when the counters' epoch
	 * flipped: where the counted window ends, not when reading ended
	 */
	uint64_t switch_ns;
	/*
	 * a decay or drain was in flight at the flip: its rest books in the
	 * copy the probes write now (snapshot_calls_in_flight())
	 */
	bool calls_in_flight;
};

int snapshot_alloc(struct snapshot *s, int nr_cpus);
void snapshot_free(struct snapshot *s);

uint64_t snap_counter(const struct snapshot *s, int cpu, int zone, int counter);
uint64_t snap_counter_at(const struct snapshot *s, int cpu, int zone,
			 int order_slot, int mt_slot, int counter);
/* one latency key summed over the CPUs (cpu: an index or SNAP_ALL) */
void snap_lat(const struct snapshot *s, int cpu, int key,
	      struct pcptop_lat_val *out);
/* slots summed over the CPUs and zones asked for; *max the largest value */
void snap_hist(const struct snapshot *s, int cpu, int zone, int hist,
	       uint64_t slots[PCPTOP_HIST_SLOTS], uint64_t *max);

#endif /* PCPTOP_SNAPSHOT_H */
