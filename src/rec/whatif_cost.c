// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a replay's locked calls cost, from the recording's own
 * measurements: ns = ns_per_call * calls + ns_per_page * pages fitted
 * (pcpmodel_cost_fit()) on each interval's bulk-free and refill calls
 * and pages against its summed zone->lock hold time (and, apart, its
 * interrupts-off time). When the intervals cannot tell the two costs
 * apart (every interval the same mean call size), the fit falls back to
 * the histograms: the recording's pages-per-call and ns-per-call
 * distributions paired quantile by quantile (a call's time grows with
 * its pages), at each log2 bucket's midpoint. And the recording's own
 * figures, as a column beside the predictions.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "whatif.h"

/* the quantiles the histogram fit pairs: 0.5 %, 1.5 %, ..., 99.5 % */
#define QUANTILES 100

static bool shown(const struct rec_summary *s, const char *key)
{
	const struct fig_desc *d = fig_find(key);

	return d && facts_fig_shown(&s->h.f, d);
}

/*
 * Whether the recording timed refills too: on 6.12 rmqueue_bulk() is
 * inlined and only free_pcppages_bulk() is timed (its lock hold samples
 * are the bulk frees, 2512 of 2512 at scale 0, amd64 6.12 guest). A fit
 * of bulk-only time on bulk + refill calls, and a prediction pricing
 * refills the recording never timed, put the predicted interrupts-off
 * p99 4 log2 buckets under the real one (scale 5 -> 0).
 */
static bool refill_timed(const struct rec_summary *s, int ns_hist)
{
	return s->total.hist[ns_hist].samples >
	       s->total.cnt[CNT_BULK_FREE_CALLS];
}

static int fit_intervals(const struct rec_summary *s, int ns_cnt, bool refill,
			 struct pcpmodel_cost_fit *fit)
{
	struct pcpmodel_cost_obs *obs;
	size_t n = 0;
	int i, err;

	obs = calloc(s->nr_points ? s->nr_points : 1, sizeof(*obs));
	if (!obs)
		return -ENOMEM;
	for (i = 0; i < s->nr_points; i++) {
		const uint64_t *c = s->points[i].cnt;
		double calls = (double)(c[CNT_BULK_FREE_CALLS] +
					(refill ? c[CNT_REFILL_CALLS] : 0));

		if (!calls)
			continue;
		obs[n].calls = calls;
		obs[n].pages = (double)(c[CNT_BULK_FREE_PAGES] +
					(refill ? c[CNT_REFILL_PAGES] : 0));
		obs[n].ns = (double)c[ns_cnt];
		n++;
	}
	err = n < 2 ? -ENODATA : pcpmodel_cost_fit(obs, n, fit);
	free(obs);
	return err;
}

/* the log2 slot holding quantile q (0..1) of slots, the midpoint of it */
static double quantile_mid(const uint64_t *slots, uint64_t total, double q)
{
	uint64_t want = (uint64_t)(q * (double)total), seen = 0;
	int i;

	for (i = 0; i < PCPTOP_HIST_SLOTS; i++) {
		seen += slots[i];
		if (seen > want)
			return ((double)hist_slot_lo(i) +
				(double)hist_slot_hi(i)) /
			       2;
	}
	return (double)hist_slot_hi(PCPTOP_HIST_SLOTS - 1);
}

static int fit_hists(const struct rec_summary *s, int ns_hist, bool refill,
		     struct pcpmodel_cost_fit *fit)
{
	struct pcpmodel_cost_obs obs[QUANTILES];
	uint64_t pages[PCPTOP_HIST_SLOTS], tp, tn;
	const uint64_t *ns = s->total.hist[ns_hist].slots;
	int i;

	memcpy(pages, s->total.hist[HIST_BULK_FREE_PAGES].slots, sizeof(pages));
	if (refill)
		hist_add(pages, s->total.hist[HIST_REFILL_PAGES].slots,
			 PCPTOP_HIST_SLOTS);
	tp = hist_total(pages, PCPTOP_HIST_SLOTS);
	tn = hist_total(ns, PCPTOP_HIST_SLOTS);
	if (!tp || !tn)
		return -ENODATA;
	for (i = 0; i < QUANTILES; i++) {
		double q = (i + 0.5) / QUANTILES;

		obs[i].calls = 1;
		obs[i].pages = quantile_mid(pages, tp, q);
		obs[i].ns = quantile_mid(ns, tn, q);
	}
	return pcpmodel_cost_fit(obs, QUANTILES, fit);
}

static void fit_one(const struct rec_summary *s, const char *key, int ns_cnt,
		    int ns_hist, struct whatif_fit *f)
{
	f->on = "nothing: the recording did not time zone->lock";
	f->err = -ENODATA;
	if (!s || !shown(s, key) || !shown(s, "bulk_free") ||
	    !shown(s, "refill"))
		return;
	f->refill = refill_timed(s, ns_hist);
	f->err = fit_intervals(s, ns_cnt, f->refill, &f->fit);
	if (!f->err) {
		f->on = f->refill ?
				"each interval's bulk-free + refill calls and pages against its summed time" :
				"each interval's bulk-free calls and pages against its summed time (refills were not timed: not priced)";
		return;
	}
	f->err = fit_hists(s, ns_hist, f->refill, &f->fit);
	if (!f->err)
		f->on = f->refill ?
				"the pages-per-call and time-per-call histograms paired quantile by quantile (bucket midpoints): the intervals could not tell per-call from per-page cost apart" :
				"the bulk frees' pages-per-call and time-per-call histograms paired quantile by quantile (bucket midpoints; refills were not timed: not priced): the intervals could not tell per-call from per-page cost apart";
	else
		f->on = "nothing: neither the intervals nor the histograms could tell per-call from per-page cost apart";
}

void whatif_fit_costs(struct whatif *w, const struct rec_summary *s)
{
	fit_one(s, "lock_hold_ns", CNT_LOCK_HOLD_NS, HIST_LOCK_HOLD_NS,
		&w->hold);
	fit_one(s, "irqs_off_ns", CNT_IRQS_OFF_NS, HIST_IRQS_OFF_NS, &w->irqs);
}

static void price_one(const struct whatif_fit *f,
		      const struct pcpmodel_result *r, int hist, int total,
		      const char *key, struct whatif_col *col)
{
	uint64_t slots[PCPTOP_HIST_SLOTS], max_pages;
	struct figure_hist *h = &col->fig.hist[hist];
	double ns, ns2, max_ns;
	const struct fig_desc *d = fig_find(key);

	if (f->err || !d)
		return;
	pcpmodel_cost_hist(&r->bulk_sizes, &f->fit, h->slots, &ns);
	ns2 = 0;
	h->samples = r->bulk_calls;
	max_pages = r->bulk_sizes.max_pages;
	if (f->refill) {
		pcpmodel_cost_hist(&r->refill_sizes, &f->fit, slots, &ns2);
		hist_add(h->slots, slots, PCPTOP_HIST_SLOTS);
		h->samples += r->refill_calls;
		if (r->refill_sizes.max_pages > max_pages)
			max_pages = r->refill_sizes.max_pages;
	}
	col->fig.cnt[total] = (uint64_t)llround(ns + ns2);
	max_ns = f->fit.ns_per_call + f->fit.ns_per_page * (double)max_pages;
	/* the smallest call is the longest when the fit's slope is < 0 */
	if (f->fit.ns_per_call > max_ns)
		max_ns = f->fit.ns_per_call;
	h->max = h->samples && max_ns > 0 ? (uint64_t)llround(max_ns) : 0;
	col->fig_on[fig_index(d)] = true;
}

void whatif_price(const struct whatif *w, const struct pcpmodel_result *r,
		  struct whatif_col *col)
{
	price_one(&w->hold, r, HIST_LOCK_HOLD_NS, CNT_LOCK_HOLD_NS,
		  "lock_hold_ns", col);
	price_one(&w->irqs, r, HIST_IRQS_OFF_NS, CNT_IRQS_OFF_NS, "irqs_off_ns",
		  col);
}

void whatif_measured(const struct rec_summary *s, struct whatif_col *col)
{
	int i;

	col->fig = s->total;
	for (i = 0; i < nr_figs && i < FIGTAB_MAX; i++) {
		col->fig_on[i] = facts_fig_shown(&s->h.f, &fig_table[i]);
		col->fig_estimated[i] = rec_events_estimated(s, &fig_table[i]);
	}
	if (shown(s, "bulk_free") && shown(s, "refill")) {
		col->x.lock_takes = s->total.cnt[CNT_BULK_FREE_CALLS] +
				    s->total.cnt[CNT_REFILL_CALLS];
		col->x.lock_pages = s->total.cnt[CNT_BULK_FREE_PAGES] +
				    s->total.cnt[CNT_REFILL_PAGES];
	}
}
