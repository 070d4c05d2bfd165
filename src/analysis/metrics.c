// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "budget_run.h"
#include "hist.h"
#include "metrics.h"
#include "units.h"

/* what a metric's per-interval value is read from */
struct per_iv {
	const struct rec_summary *s;
	const struct fig_desc *d;
	int counter; /* a counter of the points, or -1 */
	int counter2; /* another one added to it, or -1 */
	int over; /* FIG_BATCH avg: divided by this counter */
	int part; /* FIG_SPLIT: a part's slot in the points, or -1 */
};

/* point i's value, NaN when it has none (an average of no events) */
static double iv_value(const struct per_iv *pv, int i)
{
	const struct rec_point *p = &pv->s->points[i];
	int64_t v;

	if (pv->d && pv->d->type == FIG_SAMPLED) {
		v = rec_point_sample(pv->s, i, pv->d);
		return v == REC_SAMPLE_ABSENT ? NAN : (double)v;
	}
	if (pv->part >= 0)
		return (double)p->parts[pv->part];
	if (pv->over >= 0)
		return p->cnt[pv->over] ? (double)p->cnt[pv->counter] /
						  (double)p->cnt[pv->over] :
					  NAN;
	return (double)p->cnt[pv->counter] +
	       (pv->counter2 >= 0 ? (double)p->cnt[pv->counter2] : 0);
}

/*
 * The standard error, from the intervals, of their total (of_mean false:
 * sqrt(k) times their standard deviation) or of their mean (of_mean: the
 * standard deviation over sqrt(k)). NaN with fewer than two values.
 */
static double iv_se(const struct per_iv *pv, bool of_mean)
{
	double sum = 0, sq = 0, x, mean, var;
	int i, k = 0;

	for (i = 0; i < pv->s->nr_points; i++) {
		x = iv_value(pv, i);
		if (isnan(x))
			continue;
		sum += x;
		sq += x * x;
		k++;
	}
	if (k < 2)
		return NAN;
	mean = sum / k;
	var = (sq - k * mean * mean) / (k - 1);
	if (var < 0)
		var = 0;
	return of_mean ? sqrt(var / k) : sqrt(var * k);
}

struct out {
	struct rec_metric *m;
	int n;
	int max;
};

static struct rec_metric *put(struct out *o, const char *key, const char *part,
			      const char *unit, double v, enum metric_cost cost)
{
	struct rec_metric *m;

	if (o->n >= o->max)
		return NULL;
	m = &o->m[o->n++];
	memset(m, 0, sizeof(*m));
	snprintf(m->key, sizeof(m->key), "%s%s%s", key, part ? "." : "",
		 part ? part : "");
	m->unit = unit;
	m->v = v;
	m->se = NAN;
	m->cost = cost;
	m->ns_per_unit = !strcmp(unit, "s") ? (double)NSEC_PER_SEC : 1;
	return m;
}

/* a metric whose spread comes from the intervals */
static void put_iv(struct out *o, const char *key, const char *part,
		   const char *unit, double v, enum metric_cost cost,
		   const struct per_iv *pv, bool of_mean, double scale)
{
	struct rec_metric *m = put(o, key, part, unit, v, cost);

	if (m && !isnan(v))
		m->se = iv_se(pv, of_mean) * scale;
}

static double secs_of(uint64_t ns)
{
	return (double)ns / (double)NSEC_PER_SEC;
}

/* a figure this recording did not measure is NaN, so lists stay aligned */
static double shown_or_nan(bool shown, double v)
{
	return shown ? v : NAN;
}

static void batch_metrics(const struct rec_summary *s, const struct fig_desc *d,
			  bool on, struct out *o)
{
	const struct figures *t = &s->total;
	struct per_iv pv = { s, d, d->events, -1, -1, -1 };
	struct rec_metric *m;
	int r;
	double rate_scale = s->recorded_s > 0 ? 1 / s->recorded_s : NAN;

	put_iv(o, d->key, d->events_key, "", shown_or_nan(on, fig_events(d, t)),
	       COST_EVENTS, &pv, false, 1);
	pv.counter = d->pages;
	put_iv(o, d->key, fig_pages_key(d), fig_batch_unit(d),
	       shown_or_nan(on, fig_pages(d, t)), COST_PAGES, &pv, false, 1);
	pv.over = d->events;
	put_iv(o, d->key, "avg", fig_batch_unit(d),
	       shown_or_nan(on, fig_avg(d, t)), COST_SHAPE, &pv, true, 1);
	put(o, d->key, "max", fig_batch_unit(d),
	    shown_or_nan(on, fig_max(d, t)), COST_SHAPE);
	/*
	 * bulk calls per flush: 1 up to 6.18, about 32 on 7.x at scale 5,
	 * where the flush's pages stay alike (a 6.12 against a 7.3 run)
	 */
	for (r = 0; r < FIG_MAX_RATIOS && d->ratios[r].key; r++)
		put(o, d->key, d->ratios[r].key, d->ratios[r].unit,
		    shown_or_nan(on, fig_ratio(&d->ratios[r], t)), COST_SHAPE);
	if (!(d->flags & FIG_RATE_DIFF))
		return;
	pv.over = -1;
	m = put(o, d->key, "pages_per_s", "pages",
		shown_or_nan(on && s->recorded_s > 0,
			     fig_pages(d, t) * rate_scale),
		COST_SHAPE);
	if (m && !isnan(m->v))
		m->se = iv_se(&pv, false) * rate_scale;
}

static void time_metrics(const struct rec_summary *s, const struct fig_desc *d,
			 bool on, struct out *o)
{
	const struct figures *t = &s->total;
	struct per_iv pv = { s, d, d->total, -1, -1, -1 };
	struct rec_metric *m;

	put_iv(o, d->key, "total", "ns", shown_or_nan(on, fig_total(d, t)),
	       COST_TIME, &pv, false, 1);
	m = put(o, d->key, "p50", "ns",
		shown_or_nan(on, fig_pct(d, t, PCT_MEDIAN)), COST_SHAPE);
	if (m)
		m->bound = true;
	m = put(o, d->key, "p99", "ns",
		shown_or_nan(on, fig_pct(d, t, PCT_TAIL)), COST_SHAPE);
	if (m)
		m->bound = true;
	put(o, d->key, "max", "ns", shown_or_nan(on, fig_max(d, t)),
	    COST_SHAPE);
	/* a rate of the total just above: how the time came, not more of it */
	if (d->flags & FIG_PER_S)
		put_iv(o, d->key, "per_s", "ns",
		       shown_or_nan(on && s->recorded_s > 0,
				    (double)fig_total(d, t) / s->recorded_s),
		       COST_SHAPE, &pv, false,
		       s->recorded_s > 0 ? 1 / s->recorded_s : NAN);
}

/*
 * A split's parts: where its total (another figure's, or the sum) came
 * from, so shapes, not more of what the run paid
 */
static void split_metrics(const struct rec_summary *s, const struct fig_desc *d,
			  bool on, struct out *o)
{
	const char *unit = !strcmp(d->unit, "pages") ? "pages" : "";
	struct per_iv pv = { s, d, -1, -1, -1, -1 };
	int k;

	for (k = 0; k < fig_nr_parts(d); k++) {
		double v = shown_or_nan(on, (double)fig_part(d, k, &s->total));

		pv.part = fig_split_slot(d, k);
		if (pv.part >= 0)
			put_iv(o, d->key, d->parts[k].key, unit, v, COST_SHAPE,
			       &pv, false, 1);
		else
			put(o, d->key, d->parts[k].key, unit, v, COST_SHAPE);
	}
}

/*
 * A counter's total and rate over the run, a gauge's last, highest and
 * mean level: NaN where the run has none
 */
static void sampled_metrics(const struct rec_summary *s,
			    const struct fig_desc *d, bool on, struct out *o)
{
	const struct sample_cell *c = samples_cell(&s->total_smp, d, 0);
	const char *u = d->sample.unit;
	struct per_iv pv = { s, d, -1, -1, -1, -1 };
	double v = sample_value(d, c);

	on = on && sample_present(c);
	if (d->sample.kind == SAMPLE_COUNTER) {
		put_iv(o, d->key, "total", u, shown_or_nan(on, v),
		       !strcmp(u, "pages") ? COST_PAGES : COST_EVENTS, &pv,
		       false, 1);
		put_iv(o, d->key, "per_s", u,
		       shown_or_nan(on && s->recorded_s > 0, v / s->recorded_s),
		       COST_SHAPE, &pv, false,
		       s->recorded_s > 0 ? 1 / s->recorded_s : NAN);
		return;
	}
	put(o, d->key, "last", u, shown_or_nan(on, v), COST_SHAPE);
	put(o, d->key, "peak", u, shown_or_nan(on, on ? (double)c->peak : 0),
	    COST_SHAPE);
	put_iv(o, d->key, "mean", u, shown_or_nan(on, sample_mean(c)),
	       COST_SHAPE, &pv, true, 1);
}

static void fig_metrics(const struct rec_summary *s, const struct fig_desc *d,
			struct out *o)
{
	const struct figures *t = &s->total;
	struct per_iv pv = { s, d, d->total, -1, -1, -1 };
	bool on = facts_fig_shown(&s->h.f, d);
	int first = o->n, k;

	switch (d->type) {
	case FIG_BATCH:
		batch_metrics(s, d, on, o);
		break;
	case FIG_TIME:
		time_metrics(s, d, on, o);
		break;
	case FIG_COUNT:
		put_iv(o, d->key, "count", "",
		       shown_or_nan(on, fig_total(d, t)), COST_EVENTS, &pv,
		       false, 1);
		break;
	case FIG_CHECK:
		break;
	case FIG_SAMPLED:
		sampled_metrics(s, d, on, o);
		break;
	case FIG_SPLIT:
		split_metrics(s, d, on, o);
		break;
	}
	/* diff's opening words speak for the wall-time figures */
	for (k = first; fig_is_wall(d) && k < o->n; k++)
		o->m[k].cost = COST_NONE;
}

/* --latency: what every allocation and free took, and by path */
static void lat_metrics(const struct rec_summary *s,
			const struct metric_set *set, struct out *o)
{
	char key[32];
	struct figure_lat l;
	struct rec_metric *m;
	int d, p;

	for (d = 0; d < NR_LAT_DIRS; d++) {
		bool on = facts_latency(&s->h.f, d);

		if (!set->lat[d])
			continue;
		figures_lat(&s->total, d, -1, -1, &l);
		put(o, lat_hist_key(d), "total", "ns",
		    shown_or_nan(on, (double)l.sum_ns), COST_TIME);
		put(o, lat_hist_key(d), "mean", "ns",
		    shown_or_nan(on, figure_lat_mean(&l)), COST_SHAPE);
		m = put(o, lat_hist_key(d), "p99", "ns",
			shown_or_nan(on, (double)hist_percentile(
						 l.h.slots, PCPTOP_HIST_SLOTS,
						 PCT_TAIL)),
			COST_SHAPE);
		if (m)
			m->bound = true;
		put(o, lat_hist_key(d), "max", "ns",
		    shown_or_nan(on, (double)l.h.max), COST_SHAPE);
		for (p = 0; p < NR_LAT_PATHS; p++) {
			figures_lat(&s->total, d, p, -1, &l);
			snprintf(key, sizeof(key), "%s.%s", lat_hist_key(d),
				 lat_path_name(d, p));
			put(o, key, "calls", "",
			    shown_or_nan(on, (double)l.h.samples), COST_EVENTS);
			put(o, key, "mean", "ns",
			    shown_or_nan(on, figure_lat_mean(&l)), COST_SHAPE);
		}
	}
}

/*
 * What went through zone->lock, whichever path: the pages and the
 * acquisitions of bulk frees and refills together. On one CPU every one
 * of them is a stretch with interrupts off.
 */
static void lock_metrics(const struct rec_summary *s,
			 const struct metric_set *set, struct out *o)
{
	const struct fig_desc *bf = fig_find("bulk_free");
	const struct fig_desc *rf = fig_find("refill");
	const struct figures *t = &s->total;
	struct per_iv pv = { s, NULL, -1, -1, -1, -1 };
	bool on;

	if (!bf || !rf || !set->fig[fig_index(bf)] || !set->fig[fig_index(rf)])
		return;
	on = facts_fig_shown(&s->h.f, bf) && facts_fig_shown(&s->h.f, rf);
	pv.counter = bf->pages;
	pv.counter2 = rf->pages;
	put_iv(o, "zone_lock", "pages", "pages",
	       shown_or_nan(on, fig_pages(bf, t) + fig_pages(rf, t)),
	       COST_PAGES, &pv, false, 1);
	pv.counter = bf->events;
	pv.counter2 = rf->events;
	put_iv(o, "zone_lock", "takes", "",
	       shown_or_nan(on, fig_events(bf, t) + fig_events(rf, t)),
	       COST_EVENTS, &pv, false, 1);
}

/*
 * The wall-time budget's parts (budget_run.h): the words diff opens with
 * read them, so they are not ranked among the costs (COST_NONE); each has
 * its spread from the intervals
 */
static void budget_metrics(const struct rec_summary *s, struct out *o)
{
	double v[NR_BUDGET_METRICS], se[NR_BUDGET_METRICS];
	struct rec_metric *m;
	int k, err;

	err = rec_budget_metrics(s, v, se);
	for (k = 0; k < NR_BUDGET_METRICS; k++) {
		m = put(o, budget_metric_key(k), NULL, "s", err ? NAN : v[k],
			COST_NONE);
		if (m && !err)
			m->se = se[k];
	}
}

void metric_set_add(struct metric_set *set, const struct rec_summary *s)
{
	int i, d;

	for (i = 0; i < nr_figs && i < FIGTAB_MAX; i++)
		set->fig[i] |= facts_fig_shown(&s->h.f, &fig_table[i]);
	for (d = 0; d < NR_LAT_DIRS; d++)
		set->lat[d] |= facts_latency(&s->h.f, d);
}

int rec_metrics(const struct rec_summary *s, const struct metric_set *set,
		struct rec_metric *m, int max)
{
	bool cmd = s->have_end && s->end.have_command;
	struct out o = { m, 0, max };
	int i;

	put(&o, "command.wall_s", NULL, "s",
	    cmd ? secs_of(s->end.wall_ns) : NAN, COST_TIME);
	put(&o, "command.cpu_s", NULL, "s",
	    cmd ? secs_of(s->end.utime_ns + s->end.stime_ns) : NAN, COST_TIME);
	put(&o, "command.user_s", NULL, "s",
	    cmd ? secs_of(s->end.utime_ns) : NAN, COST_TIME);
	put(&o, "command.sys_s", NULL, "s",
	    cmd ? secs_of(s->end.stime_ns) : NAN, COST_TIME);
	put(&o, "recorded_s", NULL, "s", s->recorded_s, COST_NONE);
	put(&o, "intervals", NULL, "", s->nr_points, COST_NONE);
	for (i = 0; i < nr_figs && i < FIGTAB_MAX; i++)
		if (set->fig[i])
			fig_metrics(s, &fig_table[i], &o);
	lock_metrics(s, set, &o);
	lat_metrics(s, set, &o);
	budget_metrics(s, &o);
	return o.n;
}

void metric_figure(const char *key, char *fig, size_t len)
{
	const char *dot = strchr(key, '.');
	size_t n = dot ? (size_t)(dot - key) : strlen(key);

	if (n >= len)
		n = len - 1;
	memcpy(fig, key, n);
	fig[n] = '\0';
}
