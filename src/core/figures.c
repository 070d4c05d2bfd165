// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>
#include "figures.h"
#include "hist.h"
#include "snapshot.h"

static void lat_compute(const struct snapshot *s, int cpu, int key,
			struct figure_lat *l)
{
	struct pcptop_lat_val v;

	snap_lat(s, cpu, key, &v);
	memcpy(l->h.slots, v.slots, sizeof(l->h.slots));
	l->h.max = v.max;
	l->h.samples = hist_total(l->h.slots, PCPTOP_HIST_SLOTS);
	l->sum_ns = v.sum;
}

static void lat_add(struct figure_lat *dst, const struct figure_lat *src)
{
	hist_add(dst->h.slots, src->h.slots, PCPTOP_HIST_SLOTS);
	dst->h.samples += src->h.samples;
	if (src->h.max > dst->h.max)
		dst->h.max = src->h.max;
	dst->sum_ns += src->sum_ns;
}

void figures_lat(const struct figures *f, int dir, int path, int order_slot,
		 struct figure_lat *out)
{
	int p, o;

	memset(out, 0, sizeof(*out));
	for (p = 0; p < NR_LAT_PATHS; p++)
		for (o = 0; o < PCPTOP_ORDER_SLOTS; o++)
			if ((path < 0 || path == p) &&
			    (order_slot < 0 || order_slot == o))
				lat_add(out, &f->lat[dir][p][o]);
}

uint64_t figure_hist_pct(const struct figure_hist *fh, double p)
{
	uint64_t v = hist_percentile(fh->slots, PCPTOP_HIST_SLOTS, p);

	return v < fh->max ? v : fh->max;
}

double figure_lat_mean(const struct figure_lat *l)
{
	return figures_ratio(l->sum_ns, l->h.samples);
}

/*
 * Every counter, in total, by migratetype and by order, in one pass over the keys
 * of the selection: a pass per counter and migratetype made reading a
 * long recording of many CPUs (or a fuzzer's header asking for thousands)
 * the slowest part of report.
 */
static void sum_counters(const struct snapshot *s, int cpu, int zone,
			 struct figures *f)
{
	const struct pcptop_counter_val *v;
	int c, z, o, m, i;

	for (c = 0; c < s->nr_cpus; c++) {
		if (cpu != SNAP_ALL && cpu != c)
			continue;
		for (z = 0; z < PCPTOP_MAX_ZONES; z++) {
			if (zone != SNAP_ALL && zone != z)
				continue;
			for (o = 0; o < PCPTOP_ORDER_SLOTS; o++)
				for (m = 0; m < PCPTOP_MT_SLOTS; m++) {
					v = &s->counters
						     [(size_t)c *
							      PCPTOP_NR_COUNTER_KEYS +
						      pcptop_counter_key(z, o,
									 m)];
					for (i = 0; i < NR_PCPTOP_COUNTERS;
					     i++) {
						f->cnt[i] += v->c[i];
						f->mt_cnt[m][i] += v->c[i];
						f->ord_cnt[o][i] += v->c[i];
					}
				}
		}
	}
}

void figures_compute(const struct snapshot *s, int cpu, int zone,
		     struct figures *f)
{
	int i, d, p, o;

	memset(f, 0, sizeof(*f));
	sum_counters(s, cpu, zone, f);
	/* latency has no zone: every zone's selection shows it whole */
	for (d = 0; d < NR_LAT_DIRS; d++)
		for (p = 0; p < NR_LAT_PATHS; p++)
			for (o = 0; o < PCPTOP_ORDER_SLOTS; o++)
				lat_compute(s, cpu, pcptop_lat_key(d, p, o),
					    &f->lat[d][p][o]);
	for (i = 0; i < NR_PCPTOP_HISTS; i++) {
		snap_hist(s, cpu, zone, i, f->hist[i].slots, &f->hist[i].max);
		f->hist[i].samples =
			hist_total(f->hist[i].slots, PCPTOP_HIST_SLOTS);
	}
}

void figures_add(struct figures *dst, const struct figures *src)
{
	int i, m, d, p, o;

	for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
		dst->cnt[i] += src->cnt[i];
	for (m = 0; m < PCPTOP_MT_SLOTS; m++)
		for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
			dst->mt_cnt[m][i] += src->mt_cnt[m][i];
	for (o = 0; o < PCPTOP_ORDER_SLOTS; o++)
		for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
			dst->ord_cnt[o][i] += src->ord_cnt[o][i];
	for (d = 0; d < NR_LAT_DIRS; d++)
		for (p = 0; p < NR_LAT_PATHS; p++)
			for (o = 0; o < PCPTOP_ORDER_SLOTS; o++)
				lat_add(&dst->lat[d][p][o], &src->lat[d][p][o]);
	for (i = 0; i < NR_PCPTOP_HISTS; i++) {
		hist_add(dst->hist[i].slots, src->hist[i].slots,
			 PCPTOP_HIST_SLOTS);
		dst->hist[i].samples += src->hist[i].samples;
		if (src->hist[i].max > dst->hist[i].max)
			dst->hist[i].max = src->hist[i].max;
	}
}

double figures_ratio(uint64_t num, uint64_t den)
{
	return den ? (double)num / (double)den : 0.0;
}

uint64_t fig_events(const struct fig_desc *d, const struct figures *f)
{
	return d->events >= 0 ? f->cnt[d->events] : 0;
}

uint64_t fig_pages(const struct fig_desc *d, const struct figures *f)
{
	return d->pages >= 0 ? f->cnt[d->pages] : 0;
}

double fig_avg(const struct fig_desc *d, const struct figures *f)
{
	return figures_ratio(fig_pages(d, f), fig_events(d, f));
}

uint64_t fig_max(const struct fig_desc *d, const struct figures *f)
{
	return d->hist >= 0 ? f->hist[d->hist].max : 0;
}

uint64_t fig_total(const struct fig_desc *d, const struct figures *f)
{
	return d->total >= 0 ? f->cnt[d->total] : 0;
}

uint64_t fig_pct(const struct fig_desc *d, const struct figures *f, double p)
{
	if (d->hist < 0)
		return 0;
	return hist_percentile(f->hist[d->hist].slots, PCPTOP_HIST_SLOTS, p);
}

uint64_t fig_pct_capped(const struct fig_desc *d, const struct figures *f,
			double p)
{
	uint64_t v = fig_pct(d, f, p), max = fig_max(d, f);

	return v < max ? v : max;
}

double fig_ratio(const struct fig_ratio *r, const struct figures *f)
{
	return figures_ratio(f->cnt[r->num], f->cnt[r->den]);
}

int fig_nr_parts(const struct fig_desc *d)
{
	int k;

	for (k = 0; k < FIG_MAX_PARTS && d->parts[k].key; k++)
		;
	return d->type == FIG_SPLIT ? k : 0;
}

uint64_t fig_part(const struct fig_desc *d, int k, const struct figures *f)
{
	const struct fig_part *p;

	if (k < 0 || k >= fig_nr_parts(d))
		return 0;
	p = &d->parts[k];
	if (p->counter < 0 || p->counter >= NR_PCPTOP_COUNTERS)
		return 0;
	if (p->order > 0 && p->order <= PCPTOP_ORDER_SLOTS)
		return f->ord_cnt[p->order - 1][p->counter];
	return f->cnt[p->counter];
}

uint64_t fig_split_total(const struct fig_desc *d, const struct figures *f)
{
	uint64_t sum = 0;
	int k;

	for (k = 0; k < fig_nr_parts(d); k++)
		sum += fig_part(d, k, f);
	return sum;
}
