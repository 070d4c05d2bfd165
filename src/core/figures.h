/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One interval (or a sum of them) of counts for one selection of CPUs and
 * zones, made from a snapshot: what every view prints through figtab.
 */
#ifndef PCPTOP_FIGURES_H
#define PCPTOP_FIGURES_H

#include <stdint.h>
#include "figtab.h"
#include "pcptop.h"

struct snapshot;

struct figure_hist {
	uint64_t slots[PCPTOP_HIST_SLOTS];
	uint64_t max;
	uint64_t samples;
};

struct figure_lat {
	struct figure_hist h;
	uint64_t sum_ns;
};

struct figures {
	uint64_t cnt[NR_PCPTOP_COUNTERS];
	struct figure_hist hist[NR_PCPTOP_HISTS];
	/* the counters by migratetype slot (refills by migratetype) */
	uint64_t mt_cnt[PCPTOP_MT_SLOTS][NR_PCPTOP_COUNTERS];
	/* ... and by order slot (FIG_SPLIT parts at one order) */
	uint64_t ord_cnt[PCPTOP_ORDER_SLOTS][NR_PCPTOP_COUNTERS];
	/* --latency: [LAT_ALLOC/LAT_FREE][path][order slot], all CPUs */
	struct figure_lat lat[NR_LAT_DIRS][NR_LAT_PATHS][PCPTOP_ORDER_SLOTS];
};

/* one direction's latency over the paths and orders asked (-1: all) */
void figures_lat(const struct figures *f, int dir, int path, int order_slot,
		 struct figure_lat *out);
double figure_lat_mean(const struct figure_lat *l);
/*
 * Percentile p's log2 slot upper bound, but never above the largest
 * sample: a slot's bound is a bound, the largest sample a tighter one.
 */
uint64_t figure_hist_pct(const struct figure_hist *fh, double p);

/* cpu and zone are indexes or SNAP_ALL */
void figures_compute(const struct snapshot *s, int cpu, int zone,
		     struct figures *f);
/* dst += src: totals over intervals */
void figures_add(struct figures *dst, const struct figures *src);

/* num / den, 0 without a denominator */
double figures_ratio(uint64_t num, uint64_t den);

/* a figure's numbers out of f; 0 where the figure has no such part */
uint64_t fig_events(const struct fig_desc *d, const struct figures *f);
uint64_t fig_pages(const struct fig_desc *d, const struct figures *f);
/* pages per event */
double fig_avg(const struct fig_desc *d, const struct figures *f);
/* the largest event: pages (FIG_BATCH) or ns (FIG_TIME) */
uint64_t fig_max(const struct fig_desc *d, const struct figures *f);
/* FIG_TIME: summed ns */
uint64_t fig_total(const struct fig_desc *d, const struct figures *f);
/* upper bound of the log2 slot holding percentile p of its histogram */
uint64_t fig_pct(const struct fig_desc *d, const struct figures *f, double p);
/* that bound, but never above the largest sample */
uint64_t fig_pct_capped(const struct fig_desc *d, const struct figures *f,
			double p);
double fig_ratio(const struct fig_ratio *r, const struct figures *f);
/* FIG_SPLIT: part k's count, and the parts' sum */
uint64_t fig_part(const struct fig_desc *d, int k, const struct figures *f);
uint64_t fig_split_total(const struct fig_desc *d, const struct figures *f);
/* FIG_SPLIT: its parts in use (those with a key) */
int fig_nr_parts(const struct fig_desc *d);

#endif /* PCPTOP_FIGURES_H */
