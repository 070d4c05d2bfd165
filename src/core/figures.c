// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>
#include "figures.h"
#include "hist.h"
#include "snapshot.h"

void figures_compute(const struct snapshot *s, int cpu, int zone,
		     struct figures *f)
{
	int i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
		f->cnt[i] = snap_counter(s, cpu, zone, i);
	for (i = 0; i < NR_PCPTOP_HISTS; i++) {
		snap_hist(s, cpu, zone, i, f->hist[i].slots, &f->hist[i].max);
		f->hist[i].samples =
			hist_total(f->hist[i].slots, PCPTOP_HIST_SLOTS);
	}
}

void figures_add(struct figures *dst, const struct figures *src)
{
	int i;

	for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
		dst->cnt[i] += src->cnt[i];
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
