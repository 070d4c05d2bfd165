// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop whatif --json: one document (docs/schema/whatif.schema.json).
 * Each column's figures are keyed as diff keys its metrics
 * ("bulk_free.calls", "irqs_off_ns.p99"), null where the column has
 * none; the histograms are pcptop's log2 slots, as report gives them.
 */
#include <math.h>
#include <stdio.h>

#include "arrays.h"
#include "hist.h"
#include "json.h"
#include "whatif_view.h"

static const struct {
	const char *key; /* the figure, and the histogram's name here */
	int hist;
} hists[] = {
	{ "bulk_free", HIST_BULK_FREE_PAGES },
	{ "refill", HIST_REFILL_PAGES },
	{ "free_high", HIST_FREE_HIGH_PAGES },
	{ "decay", HIST_DECAY_PAGES },
	{ "drain", HIST_DRAIN_PAGES },
	{ "lock_hold_ns", HIST_LOCK_HOLD_NS },
	{ "irqs_off_ns", HIST_IRQS_OFF_NS },
};

/*
 * A pricing: the line's keys stay (null: there is no line since the
 * buckets), the buckets it prices from, and the calls each scale priced
 * from a bucket of another size
 */
static void fit_obj(struct json_writer *j, const char *key,
		    const struct whatif *w, const struct whatif_fit *f)
{
	const struct pcpmodel_cost_table *t = &f->table;
	int i;

	json_obj_begin(j, key);
	json_bool(j, "ok", !f->err);
	json_double(j, "ns_per_call", NAN);
	json_double(j, "ns_per_page", NAN);
	json_double(j, "r_squared", NAN);
	json_double(j, "rms_residual_ns", NAN);
	json_u64(j, "points", f->err ? 0 : (uint64_t)t->nr_seen);
	json_str(j, "fitted_on", f->on);
	json_str(j, "pricing", "buckets");
	json_str(j, "bucket_means", t->exact_means ? "kernel" : "paired");
	json_u64(j, "timed_calls", f->err ? 0 : t->timed);
	json_arr_begin(j, "buckets");
	for (i = t->lo; !f->err && i >= 0 && i <= t->hi; i++) {
		if (!(t->b[i].calls > 0))
			continue;
		json_obj_begin(j, NULL);
		json_u64(j, "pages_lo", hist_slot_lo(i));
		json_u64(j, "pages_hi", hist_slot_hi(i));
		json_double(j, "calls", t->b[i].calls);
		json_double(j, "pages_mean", t->b[i].pages);
		json_double(j, "mean_ns", t->b[i].mean_ns);
		json_double(j, "max_ns", t->b[i].max_ns);
		json_bool(j, "prices_others", t->b[i].prices_others);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_arr_begin(j, "extrapolated");
	for (i = 0; !f->err && i < w->nr_cols; i++) {
		json_obj_begin(j, NULL);
		json_int(j, "scale", w->cols[i].scale);
		json_u64(j, "calls", w->cols[i].x.priced_outside[f->which]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void hist_obj(struct json_writer *j, const struct whatif_col *c,
		     const char *key, int hist)
{
	const struct fig_desc *d = fig_find(key);
	const struct figure_hist *h = &c->fig.hist[hist];
	int i;

	if (!d || !c->fig_on[fig_index(d)]) {
		json_null(j, key);
		return;
	}
	json_obj_begin(j, key);
	json_u64(j, "samples", h->samples);
	json_u64(j, "max", h->max);
	json_arr_begin(j, "slots");
	for (i = 0; i < PCPTOP_HIST_SLOTS; i++)
		json_u64(j, NULL, h->slots[i]);
	json_arr_end(j);
	json_obj_end(j);
}

static void col_obj(struct json_writer *j, const char *key,
		    const struct whatif *w, const struct whatif_col *c)
{
	size_t i;
	double v;
	int r;

	json_obj_begin(j, key);
	if (c->scale >= 0)
		json_int(j, "scale", c->scale);
	else
		json_null(j, "scale");
	json_bool(j, "recorded_scale",
		  !c->measured && c->scale >= 0 &&
			  c->scale == w->recorded_scale);
	json_obj_begin(j, "figures");
	for (r = 0; r < whatif_nr_rows; r++) {
		if (whatif_value(c, &whatif_rows[r], &v))
			json_double(j, whatif_rows[r].key, v);
		else
			json_null(j, whatif_rows[r].key);
	}
	json_obj_end(j);
	json_obj_begin(j, "hists");
	for (i = 0; i < ARRAY_SIZE(hists); i++)
		hist_obj(j, c, hists[i].key, hists[i].hist);
	json_obj_end(j);
	if (c->x.have_parked) {
		json_arr_begin(j, "parked");
		for (r = 0; r < WHATIF_SERIES_BINS; r++)
			json_u64(j, NULL, c->x.parked[r]);
		json_arr_end(j);
	} else {
		json_null(j, "parked");
	}
	json_obj_end(j);
}

/* which scale: each cost's least scale, its difference and error */
static void picks_arr(struct json_writer *j, const struct whatif *w)
{
	struct whatif_pick p[NR_WHATIF_PICKS];
	int k;

	whatif_picks(w, p);
	json_arr_begin(j, "which_scale");
	for (k = 0; k < NR_WHATIF_PICKS; k++) {
		json_obj_begin(j, NULL);
		json_str(j, "figure", p[k].key);
		json_bool(j, "ok", p[k].ok);
		if (p[k].ok) {
			json_int(j, "least_scale", p[k].least);
			json_int(j, "other_scale", p[k].other);
		} else {
			json_null(j, "least_scale");
			json_null(j, "other_scale");
		}
		json_double(j, "recorded_value", p[k].ok ? p[k].at_rec : NAN);
		json_double(j, "other_value", p[k].ok ? p[k].at_other : NAN);
		json_double(j, "difference_pct", p[k].ok ? p[k].diff_pct : NAN);
		json_double(j, "cross_scale_error_pct", p[k].cross_pct);
		json_str(j, "cross_scale_case",
			 whatif_pick_case_name(p[k].cross_case));
		json_double(j, "self_error_pct", p[k].self_pct);
		json_double(j, "error_pct", p[k].ok ? p[k].error_pct : NAN);
		json_bool(j, "apart", p[k].apart);
		json_obj_end(j);
	}
	json_arr_end(j);
}

void whatif_json(FILE *f, const struct whatif *w)
{
	const struct rec_trace *t = w->trace;
	struct json_writer j;
	int i;

	json_init(&j, f);
	json_obj_begin(&j, NULL);
	json_schema(&j);
	json_str(&j, "recording", w->path);
	json_str(&j, "rules", pcpmodel_rules_name(w->rules.base));
	json_str(&j, "rules_from", w->rules_given ? "option" : "recording");
	if (w->recorded_scale >= 0)
		json_int(&j, "recorded_scale", w->recorded_scale);
	else
		json_null(&j, "recorded_scale");
	json_obj_begin(&j, "trace");
	json_u64(&j, "events", t->stream.nr_events);
	json_u64(&j, "first_ns", t->first_ns);
	json_u64(&j, "last_ns", t->last_ns);
	json_u64(&j, "lost_events", t->lost_events);
	json_u64(&j, "loss_stretches", t->nr_losses);
	json_u64(&j, "lost_in_window", w->lost_in_window);
	if (w->end_ns) {
		json_u64(&j, "replay_start_ns", w->start_ns);
		json_u64(&j, "replay_end_ns", w->end_ns);
	} else {
		json_null(&j, "replay_start_ns");
		json_null(&j, "replay_end_ns");
	}
	json_u64(&j, "events_before_start", w->events_before_start);
	json_u64(&j, "events_after_end", w->events_after_end);
	json_obj_end(&j);
	json_obj_begin(&j, "fits");
	fit_obj(&j, "lock_hold_ns", w, &w->hold);
	fit_obj(&j, "irqs_off_ns", w, &w->irqs);
	json_obj_end(&j);
	json_u64(&j, "series_bin_ns", w->bin_ns);
	if (w->have_measured)
		col_obj(&j, "measured", w, &w->measured);
	else
		json_null(&j, "measured");
	json_arr_begin(&j, "scales");
	for (i = 0; i < w->nr_cols; i++)
		col_obj(&j, NULL, w, &w->cols[i]);
	json_arr_end(&j);
	picks_arr(&j, w);
	json_obj_end(&j);
	json_end_line(&j);
}
