// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a replay's locked calls cost, from the recording's own
 * measurements: its pages-per-call histogram of the timed calls against
 * their time-per-call histogram and measured total, bucket by bucket of
 * pages (pcpmodel_cost_table(); pcpmodel.h says what the pairing
 * assumes), and each replayed call priced by its own pages' bucket. And
 * the recording's own figures, as a column beside the predictions.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "whatif.h"

static bool shown(const struct rec_summary *s, const char *key)
{
	const struct fig_desc *d = fig_find(key);

	return d && facts_fig_shown(&s->h.f, d);
}

/*
 * Whether the recording timed refills too: on 6.12 rmqueue_bulk() is
 * inlined and only free_pcppages_bulk() is timed (its lock hold samples
 * are the bulk frees, 2512 of 2512 at scale 0, amd64 6.12 guest). The
 * bulk frees' time spread over bulk + refill calls, and refills priced
 * that the recording never timed, put the predicted interrupts-off p99
 * 4 log2 buckets under the real one (scale 5 -> 0, the line fit before
 * the buckets).
 */
static bool refill_timed(const struct rec_summary *s, int ns_hist)
{
	return s->total.hist[ns_hist].samples >
	       s->total.cnt[CNT_BULK_FREE_CALLS];
}

/*
 * The timed calls' pages: the bulk frees', and the refills' where they
 * were timed. 6.12 times bulk frees only, so their time is never spread
 * over refills the recording did not time.
 */
static void timed_pages(const struct rec_summary *s, bool refill,
			uint64_t slots[PCPTOP_HIST_SLOTS],
			struct pcpmodel_cost_in *in)
{
	const struct figures *f = &s->total;

	memcpy(slots, f->hist[HIST_BULK_FREE_PAGES].slots,
	       sizeof(uint64_t) * PCPTOP_HIST_SLOTS);
	in->pages = f->cnt[CNT_BULK_FREE_PAGES];
	in->max_pages = f->hist[HIST_BULK_FREE_PAGES].max;
	if (refill) {
		hist_add(slots, f->hist[HIST_REFILL_PAGES].slots,
			 PCPTOP_HIST_SLOTS);
		in->pages += f->cnt[CNT_REFILL_PAGES];
		if (f->hist[HIST_REFILL_PAGES].max > in->max_pages)
			in->max_pages = f->hist[HIST_REFILL_PAGES].max;
	}
	in->pages_slots = slots;
}

static void fit_one(const struct rec_summary *s, const char *key, int ns_cnt,
		    int ns_hist, int by_pages_hist, struct whatif_fit *f)
{
	uint64_t pages[PCPTOP_HIST_SLOTS];
	struct pcpmodel_cost_in in = { 0 };

	f->on = "nothing: the recording did not time zone->lock";
	f->err = -ENODATA;
	if (!s || !shown(s, key) || !shown(s, "bulk_free") ||
	    !shown(s, "refill"))
		return;
	f->refill = refill_timed(s, ns_hist);
	timed_pages(s, f->refill, pages, &in);
	in.ns_slots = s->total.hist[ns_hist].slots;
	in.ns = s->total.cnt[ns_cnt];
	in.max_ns = s->total.hist[ns_hist].max;
	in.ns_by_pages = s->total.hist[by_pages_hist].slots;
	f->err = pcpmodel_cost_table(&in, &f->table);
	if (f->err)
		f->on = "nothing: the recording timed no call";
	else if (f->table.exact_means)
		f->on = f->refill ?
				"the bulk frees' and refills' time summed by pages bucket in the kernel (each bucket's mean), spread over time slots by pairing the pages-per-call and time-per-call histograms" :
				"the bulk frees' time summed by pages bucket in the kernel (each bucket's mean), spread over time slots by pairing the pages-per-call and time-per-call histograms (refills were not timed: not priced)";
	else
		f->on = f->refill ?
				"the bulk frees' and refills' pages-per-call and time-per-call histograms paired quantile by quantile, scaled to the measured total" :
				"the bulk frees' pages-per-call and time-per-call histograms paired quantile by quantile, scaled to the measured total (refills were not timed: not priced)";
}

void whatif_fit_costs(struct whatif *w, const struct rec_summary *s)
{
	w->hold.which = WHATIF_COST_HOLD;
	w->irqs.which = WHATIF_COST_IRQS;
	fit_one(s, "lock_hold_ns", CNT_LOCK_HOLD_NS, HIST_LOCK_HOLD_NS,
		HIST_LOCK_HOLD_NS_BY_PAGES, &w->hold);
	fit_one(s, "irqs_off_ns", CNT_IRQS_OFF_NS, HIST_IRQS_OFF_NS,
		HIST_IRQS_OFF_NS_BY_PAGES, &w->irqs);
}

static void price_one(const struct whatif_fit *f,
		      const struct pcpmodel_result *r, int hist, int total,
		      const char *key, struct whatif_col *col)
{
	struct figure_hist *h = &col->fig.hist[hist];
	const struct fig_desc *d = fig_find(key);
	struct pcpmodel_cost_sum sum;

	if (f->err || !d)
		return;
	memset(&sum, 0, sizeof(sum));
	pcpmodel_cost_price(&r->bulk_sizes, &f->table, &sum);
	if (f->refill)
		pcpmodel_cost_price(&r->refill_sizes, &f->table, &sum);
	pcpmodel_cost_slots(&sum, h->slots);
	h->samples = sum.calls;
	h->max = sum.calls ? (uint64_t)llround(sum.max_ns) : 0;
	col->fig.cnt[total] = (uint64_t)llround(sum.total_ns);
	col->x.priced_outside[f->which] = sum.outside;
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
