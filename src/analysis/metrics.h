/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A recording as a list of comparable numbers, for diff: every figure's
 * parts (events, pages, average, largest, totals, tails, a sampled
 * figure's total or levels), the command's times, and a few sums that say
 * what a run paid (CPU time, pages and acquisitions through zone->lock).
 * Each number carries its spread over the run's intervals where it has
 * one, and the kind of cost it is, which diff ranks by.
 */
#ifndef PCPTOP_METRICS_H
#define PCPTOP_METRICS_H

#include <stdbool.h>
#include "recsum.h"

/* what a metric is, for diff's ranking: what the run paid comes first */
enum metric_cost {
	COST_TIME, /* time the run paid: with interrupts off, holding a lock,
		      stalled, on the CPU (ns) */
	COST_PAGES, /* pages moved through zone->lock, or reclaimed */
	COST_EVENTS, /* lock acquisitions, stalls, calls */
	COST_SHAPE, /* sizes, tails, levels: how the work came, not its sum */
	COST_NONE, /* what a run is (its length, its intervals) */
};

struct rec_metric {
	char key[48]; /* "bulk_free.pages" */
	const char *unit; /* "", "s", "ns", "pages" */
	double v; /* NaN when the recording lacks it */
	/*
	 * the standard error of v from the spread of the run's intervals
	 * (a total: sqrt(n) times their standard deviation); NaN when v has
	 * no per-interval values (maxima, tails, the command's times)
	 */
	double se;
	bool bound; /* a log2 bucket bound ("<="), not a count */
	enum metric_cost cost;
	double ns_per_unit; /* COST_TIME: v in ns is v * this */
};

#define REC_MAX_METRICS 512

/* which figures a list carries: what any of the recordings measured */
struct metric_set {
	bool fig[FIGTAB_MAX];
	bool lat[NR_LAT_DIRS];
};

void metric_set_add(struct metric_set *set, const struct rec_summary *s);
/*
 * s's metrics for every figure of set, in figtab's order, NaN where s did
 * not measure one: the lists of all recordings of one set line up.
 */
int rec_metrics(const struct rec_summary *s, const struct metric_set *set,
		struct rec_metric *m, int max);
/* the figtab key of a metric: "bulk_free" of "bulk_free.pages" */
void metric_figure(const char *key, char *fig, size_t len);

#endif /* PCPTOP_METRICS_H */
