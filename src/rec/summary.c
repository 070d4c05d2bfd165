// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "figtab.h"
#include "summary.h"
#include "units.h"

/*
 * The parts of a figure that say what batching costs: sizes, tails,
 * means and memory. Counts and totals grow with the run's length, so they
 * stay in the detail that follows.
 */
static const char *const cost_parts[] = { "avg",  "max",  "p99",
					  "mean", "peak", "wall_s" };

static bool cost_metric(const char *key)
{
	const char *dot = strrchr(key, '.');
	size_t i;

	if (!dot)
		return false;
	for (i = 0; i < sizeof(cost_parts) / sizeof(cost_parts[0]); i++)
		if (!strcmp(dot + 1, cost_parts[i]))
			return true;
	return false;
}

/*
 * Relative standard error, in percent, of the mean of a figure's
 * per-interval values: for a batch figure's average size (pages / events
 * of each interval with events) and for the pcp lists' pages. NaN when
 * the figure has no per-interval values or fewer than two.
 */
static double interval_se_pct(const struct rec_summary *s, const char *key)
{
	const struct fig_desc *d = NULL;
	double sum = 0, sq = 0, x, mean, var;
	char fig[48];
	const char *dot = strrchr(key, '.');
	int i, k = 0;

	if (!dot || (size_t)(dot - key) >= sizeof(fig))
		return NAN;
	memcpy(fig, key, dot - key);
	fig[dot - key] = '\0';
	if (!strcmp(dot + 1, "mean") && (d = fig_find(fig)) &&
	    d->type == FIG_SAMPLED && d->sample.kind == SAMPLE_GAUGE) {
		for (i = 0; i < s->nr_points; i++) {
			int64_t v = rec_point_sample(s, i, d);

			if (v == REC_SAMPLE_ABSENT)
				continue;
			x = (double)v;
			sum += x;
			sq += x * x;
			k++;
		}
	} else if (!strcmp(dot + 1, "avg") && (d = fig_find(fig)) &&
		   d->type == FIG_BATCH && d->events >= 0 && d->pages >= 0) {
		for (i = 0; i < s->nr_points; i++) {
			const struct rec_point *p = &s->points[i];

			if (!p->cnt[d->events])
				continue;
			x = (double)p->cnt[d->pages] /
			    (double)p->cnt[d->events];
			sum += x;
			sq += x * x;
			k++;
		}
	}
	if (k < 2)
		return NAN;
	mean = sum / k;
	var = (sq - k * mean * mean) / (k - 1);
	if (mean <= 0 || var < 0)
		return var < 0 ? 0 : NAN;
	return sqrt(var / k) / mean * PERCENT;
}

/* "lock_hold_ns" of "lock_hold_ns.p99" is among out[0..n) already */
static bool seen_figure(const struct diff_change *out, int n, const char *key)
{
	const char *dot = strrchr(key, '.');
	size_t len = dot ? (size_t)(dot - key) : strlen(key);
	int i;

	for (i = 0; i < n; i++)
		if (!strncmp(out[i].figure, key, len) &&
		    out[i].figure[len] == '.' &&
		    !strchr(out[i].figure + len + 1, '.'))
			return true;
	return false;
}

static int by_change(const void *x, const void *y)
{
	double a = fabs(((const struct diff_change *)x)->change_pct);
	double b = fabs(((const struct diff_change *)y)->change_pct);

	return a < b ? 1 : a > b ? -1 : 0;
}

int diff_summary(const struct rec_summary *a, const struct rec_summary *b,
		 struct diff_change *out, int max)
{
	struct rec_metric ma[REC_MAX_METRICS], mb[REC_MAX_METRICS];
	/* at most one change a metric: bounded, so nothing to allocate */
	struct diff_change all[REC_MAX_METRICS];
	int n, i, k = 0;

	n = rec_metrics(a, b, ma, REC_MAX_METRICS);
	rec_metrics(b, a, mb, REC_MAX_METRICS);
	for (i = 0; i < n; i++) {
		struct diff_change *c = &all[k];
		double sa, sb;

		if (!cost_metric(ma[i].key) || isnan(ma[i].v) ||
		    isnan(mb[i].v) || ma[i].v == mb[i].v)
			continue;
		snprintf(c->figure, sizeof(c->figure), "%s", ma[i].key);
		c->unit = ma[i].unit;
		c->a = ma[i].v;
		c->b = mb[i].v;
		c->bound = ma[i].bound;
		c->change_pct = c->a ? (c->b - c->a) / fabs(c->a) * PERCENT :
				       INFINITY;
		sa = interval_se_pct(a, c->figure);
		sb = interval_se_pct(b, c->figure);
		c->spread_pct = sqrt(sa * sa + sb * sb);
		k++;
	}
	qsort(all, k, sizeof(*all), by_change);
	n = 0;
	/* one line a figure: its largest change stands for its tail */
	for (i = 0; i < k && n < max; i++)
		if (!seen_figure(out, n, all[i].figure))
			out[n++] = all[i];
	return n;
}

double diff_delta_pct(double a, double b)
{
	if (isnan(a) || isnan(b) || a == 0)
		return NAN;
	return (b - a) / fabs(a) * PERCENT;
}

void diff_change_str(char *buf, size_t len, const struct diff_change *c)
{
	int n;

	if (isinf(c->change_pct))
		n = snprintf(buf, len, "new in B");
	else
		n = snprintf(buf, len, "%+.1f %%", c->change_pct);
	if (n > 0 && (size_t)n < len && !isnan(c->spread_pct))
		snprintf(buf + n, len - n, " (spread +/-%.1f %%)",
			 c->spread_pct);
}
