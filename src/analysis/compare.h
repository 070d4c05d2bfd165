/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * diff's model: two sides of one or more recordings each (the same
 * benchmark, say, at two PCP batch scales, each run a few times), every
 * metric's mean on each side, the spread of its change, whether it moved
 * beyond that spread, and the moved ones ranked by what they cost the
 * run. The spread is between runs where a side has repeats; with one run
 * a side it comes from the intervals, where a metric has per-interval
 * values, and is unknown otherwise.
 */
#ifndef PCPTOP_COMPARE_H
#define PCPTOP_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include "metrics.h"

#define CMP_MAX_RUNS 32
/* a change is a change when it is beyond this many spreads of it */
#define CMP_SPREADS 2.0

struct cmp_side {
	int n;
	const struct rec_summary *run[CMP_MAX_RUNS];
};

enum cmp_spread_from {
	SPREAD_RUNS, /* the runs of each side: the standard error of b - a */
	SPREAD_INTERVALS, /* one run a side: from each run's intervals */
	SPREAD_UNKNOWN, /* one run a side and no per-interval values */
};

struct cmp_metric {
	struct rec_metric m; /* the first run of A: key, unit, bound, cost */
	double a, b; /* each side's mean over its runs; NaN: a side lacks it */
	double sd_a, sd_b; /* between the runs of a side; NaN with one */
	double spread; /* of b - a; NaN: unknown */
	enum cmp_spread_from from;
	bool moved; /* |b - a| > CMP_SPREADS * spread */
	double change_pct; /* (b - a) / |a|; INFINITY when a is 0, NaN */
	double cost_ns; /* COST_TIME: b - a in ns, else NaN */
};

struct cmp_result {
	struct cmp_side a, b;
	int n;
	struct cmp_metric m[REC_MAX_METRICS];
	/* the moved metrics, what the run paid first (see cmp_build) */
	int nr_moved;
	int rank[REC_MAX_METRICS];
};

/*
 * Every metric of r->a and r->b (filled by the caller), their change and
 * spread, and the moved ones ranked: time the run paid (by its amount),
 * then pages, then events (by how many), then shapes (by how much, as a
 * fraction): a 3000 % tail of one call never leads over 60 % more pages
 * through zone->lock. 0 or -ENOMEM.
 */
int cmp_build(struct cmp_result *r);
/* index into r->m of key, -1 when none */
int cmp_find(const struct cmp_result *r, const char *key);
/* b - a as a percentage of a (NaN without a) */
double cmp_delta_pct(double a, double b);
/* "+514.2 % (spread +/-3.1 %)", "new in B" */
void cmp_change_str(char *buf, size_t len, const struct cmp_metric *c);

#endif /* PCPTOP_COMPARE_H */
