// SPDX-License-Identifier: GPL-2.0-only
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"
#include "units.h"

/* mean and sample standard deviation of the runs' values, NaN-free */
static void moments(const double *v, int n, double *mean, double *sd)
{
	double sum = 0, sq = 0, var;
	int i;

	for (i = 0; i < n; i++) {
		sum += v[i];
		sq += v[i] * v[i];
	}
	*mean = sum / n;
	if (n < 2) {
		*sd = NAN;
		return;
	}
	var = (sq - n * *mean * *mean) / (n - 1);
	*sd = var > 0 ? sqrt(var) : 0;
}

/*
 * One side's values of metric k: all runs must have it (a run that did
 * not measure a figure makes the side lack it). Its variance of the mean:
 * between runs with repeats, else the one run's interval spread.
 */
static bool side_stats(const struct rec_metric (*m)[REC_MAX_METRICS], int n,
		       int k, double *mean, double *sd, double *var_mean,
		       bool *from_runs)
{
	double v[CMP_MAX_RUNS];
	int i;

	for (i = 0; i < n; i++) {
		v[i] = m[i][k].v;
		if (isnan(v[i]))
			return false;
	}
	moments(v, n, mean, sd);
	*from_runs = n > 1;
	*var_mean = n > 1 ? *sd * *sd / n : m[0][k].se * m[0][k].se;
	return true;
}

static void one_metric(struct cmp_result *r, int k,
		       const struct rec_metric (*ma)[REC_MAX_METRICS],
		       const struct rec_metric (*mb)[REC_MAX_METRICS])
{
	struct cmp_metric *c = &r->m[k];
	double va, vb;
	bool ra, rb;

	c->m = ma[0][k];
	c->a = c->b = c->sd_a = c->sd_b = c->spread = NAN;
	c->change_pct = c->cost_ns = NAN;
	c->from = SPREAD_UNKNOWN;
	if (!side_stats(ma, r->a.n, k, &c->a, &c->sd_a, &va, &ra))
		c->a = NAN;
	if (!side_stats(mb, r->b.n, k, &c->b, &c->sd_b, &vb, &rb))
		c->b = NAN;
	if (isnan(c->a) || isnan(c->b))
		return;
	c->change_pct = c->a ? (c->b - c->a) / fabs(c->a) * PERCENT :
			c->b ? INFINITY :
			       0;
	if (c->m.cost == COST_TIME)
		c->cost_ns = (c->b - c->a) * c->m.ns_per_unit;
	if (!isnan(va) && !isnan(vb)) {
		c->spread = sqrt(va + vb);
		c->from = ra || rb ? SPREAD_RUNS : SPREAD_INTERVALS;
	}
	/* no spread, no claim; a spread of 0 (identical runs) takes any change */
	c->moved = !isnan(c->spread) && c->b != c->a &&
		   fabs(c->b - c->a) > CMP_SPREADS * c->spread;
}

/* the magnitude a moved metric is ranked by within its kind of cost */
static double weight(const struct cmp_metric *c)
{
	switch (c->m.cost) {
	case COST_TIME:
		return fabs(c->cost_ns);
	case COST_PAGES:
	case COST_EVENTS:
		return fabs(c->b - c->a);
	default:
		return isinf(c->change_pct) ? HUGE_VAL : fabs(c->change_pct);
	}
}

static int by_cost(const void *x, const void *y, void *arg)
{
	const struct cmp_result *r = arg;
	const struct cmp_metric *a = &r->m[*(const int *)x];
	const struct cmp_metric *b = &r->m[*(const int *)y];
	double wa, wb;

	if (a->m.cost != b->m.cost)
		return a->m.cost < b->m.cost ? -1 : 1;
	wa = weight(a);
	wb = weight(b);
	return wa > wb ? -1 : wa < wb ? 1 : strcmp(a->m.key, b->m.key);
}

int cmp_build(struct cmp_result *r)
{
	struct rec_metric(*ma)[REC_MAX_METRICS], (*mb)[REC_MAX_METRICS];
	struct metric_set set = {};
	int i, k, n = 0;

	/* every run's list: 32 runs a side of 256 metrics is 2 MB */
	ma = calloc(r->a.n ? r->a.n : 1, sizeof(*ma));
	mb = calloc(r->b.n ? r->b.n : 1, sizeof(*mb));
	if (!ma || !mb) {
		free(ma);
		free(mb);
		return -ENOMEM;
	}

	for (i = 0; i < r->a.n; i++)
		metric_set_add(&set, r->a.run[i]);
	for (i = 0; i < r->b.n; i++)
		metric_set_add(&set, r->b.run[i]);
	/* one set: every run's list has the same keys in the same order */
	for (i = 0; i < r->a.n; i++)
		n = rec_metrics(r->a.run[i], &set, ma[i], REC_MAX_METRICS);
	for (i = 0; i < r->b.n; i++)
		rec_metrics(r->b.run[i], &set, mb[i], REC_MAX_METRICS);
	r->n = n;
	r->nr_moved = 0;
	for (k = 0; k < n; k++) {
		one_metric(r, k, ma, mb);
		if (r->m[k].moved && r->m[k].m.cost != COST_NONE)
			r->rank[r->nr_moved++] = k;
	}
	qsort_r(r->rank, r->nr_moved, sizeof(r->rank[0]), by_cost, r);
	free(ma);
	free(mb);
	return 0;
}

int cmp_find(const struct cmp_result *r, const char *key)
{
	int k;

	for (k = 0; k < r->n; k++)
		if (!strcmp(r->m[k].m.key, key))
			return k;
	return -1;
}

double cmp_delta_pct(double a, double b)
{
	if (isnan(a) || isnan(b) || a == 0)
		return NAN;
	return (b - a) / fabs(a) * PERCENT;
}

void cmp_change_str(char *buf, size_t len, const struct cmp_metric *c)
{
	int n;

	if (isinf(c->change_pct))
		n = snprintf(buf, len, "new in B");
	else
		n = snprintf(buf, len, "%+.1f %%", c->change_pct);
	if (n > 0 && (size_t)n < len && !isnan(c->spread) && c->a)
		snprintf(buf + n, len - n, " (spread +/-%.1f %%)",
			 c->spread / fabs(c->a) * PERCENT);
}
