// SPDX-License-Identifier: GPL-2.0-only
#include "hist.h"
#include "json_fig.h"
#include "units.h"

static void json_lat_fields(struct json_writer *w, const struct figure_lat *l)
{
	json_str(w, "unit", "nsecs");
	json_u64(w, "samples", l->h.samples);
	json_u64(w, "total", l->sum_ns);
	json_double(w, "mean", figure_lat_mean(l));
	json_u64(w, "p50", figure_hist_pct(&l->h, PCT_MEDIAN));
	json_u64(w, "p99", figure_hist_pct(&l->h, PCT_TAIL));
	json_u64(w, "max", l->h.max);
}

void json_lat_hists(struct json_writer *w, const struct facts *fa,
		    const struct figures *f)
{
	char key[32];
	struct figure_lat l;
	int d, p, o;

	for (d = 0; d < NR_LAT_DIRS; d++) {
		if (!facts_latency(fa, d))
			continue;
		figures_lat(f, d, -1, -1, &l);
		json_obj_begin(w, lat_hist_key(d));
		json_lat_fields(w, &l);
		json_log2_hist(w, "buckets", l.h.slots, PCPTOP_HIST_SLOTS);
		json_obj_end(w);
		snprintf(key, sizeof(key), "%s_by_order", lat_hist_key(d));
		json_arr_begin(w, key);
		for (o = 0; o < PCPTOP_ORDER_SLOTS; o++) {
			json_obj_begin(w, NULL);
			json_str(w, "order", lat_order_name(o));
			figures_lat(f, d, -1, o, &l);
			json_lat_fields(w, &l);
			for (p = 0; p < NR_LAT_PATHS; p++) {
				figures_lat(f, d, p, o, &l);
				json_obj_begin(w, lat_path_name(d, p));
				json_lat_fields(w, &l);
				json_obj_end(w);
			}
			json_obj_end(w);
		}
		json_arr_end(w);
	}
}

static void json_by_mt(struct json_writer *w, const struct facts *fa,
		       const struct fig_desc *d, const struct figures *f)
{
	int m;

	if (!(d->flags & FIG_BY_MT))
		return;
	if (fa->pageblock_order >= 0)
		json_int(w, "pageblock_order", fa->pageblock_order);
	else
		json_null(w, "pageblock_order");
	json_arr_begin(w, "by_migratetype");
	for (m = 0; m < PCPTOP_MT_SLOTS; m++) {
		json_obj_begin(w, NULL);
		json_str(w, "migratetype", mt_slot_name(m));
		json_u64(w, d->events_key, f->mt_cnt[m][d->events]);
		json_u64(w, "pages", f->mt_cnt[m][d->pages]);
		json_obj_end(w);
	}
	json_arr_end(w);
}

void json_log2_hist(struct json_writer *w, const char *key,
		    const uint64_t *slots, int nr)
{
	int i, last = hist_last_slot(slots, nr);

	json_arr_begin(w, key);
	for (i = 0; i <= last; i++) {
		json_obj_begin(w, NULL);
		json_u64(w, "lo", hist_slot_lo(i));
		json_u64(w, "hi", hist_slot_hi(i));
		json_u64(w, "count", slots[i]);
		json_obj_end(w);
	}
	json_arr_end(w);
}

/* the time figure summing hist h's samples, or NULL */
static const struct fig_desc *hist_time_fig(int h)
{
	int i;

	for (i = 0; i < nr_figs; i++)
		if (fig_table[i].hist == h && fig_table[i].type == FIG_TIME)
			return &fig_table[i];
	return NULL;
}

void json_hist(struct json_writer *w, int h, const struct figures *f)
{
	const struct figure_hist *fh = &f->hist[h];
	const struct fig_desc *d = hist_time_fig(h);

	json_obj_begin(w, hist_table[h].key);
	json_str(w, "unit", hist_table[h].unit);
	json_u64(w, "samples", fh->samples);
	if (d)
		json_u64(w, "total", fig_total(d, f));
	json_u64(w, "p50", figure_hist_pct(fh, PCT_MEDIAN));
	json_u64(w, "p99", figure_hist_pct(fh, PCT_TAIL));
	json_u64(w, "max", fh->max);
	json_log2_hist(w, "buckets", fh->slots, PCPTOP_HIST_SLOTS);
	json_obj_end(w);
}

/* a split: its total, and each part under its own key */
static void json_split(struct json_writer *w, const struct facts *fa,
		       const struct fig_desc *d, const struct figures *f)
{
	int k;

	json_str(w, "unit", d->unit);
	json_u64(w, "total", fig_split_total(d, f));
	json_obj_begin(w, "parts");
	for (k = 0; k < fig_nr_parts(d); k++)
		json_u64(w, d->parts[k].key, fig_part(d, k, f));
	json_obj_end(w);
	json_bool(w, "estimated", facts_pages_estimated(fa, d));
}

static void json_bpf_figure(struct json_writer *w, const struct facts *fa,
			    const struct fig_desc *d, const struct figures *f,
			    double secs)
{
	bool estimated = facts_events_estimated(fa, d);
	int r;

	json_obj_begin(w, d->key);
	switch (d->type) {
	case FIG_BATCH:
		json_u64(w, d->events_key, fig_events(d, f));
		json_u64(w, fig_pages_key(d), fig_pages(d, f));
		json_u64(w, "max", fig_max(d, f));
		json_double(w, "avg", fig_avg(d, f));
		if (secs > 0)
			json_double(w, "per_s",
				    (double)fig_events(d, f) / secs);
		for (r = 0; r < FIG_MAX_RATIOS && d->ratios[r].key; r++)
			json_double(w, d->ratios[r].key,
				    fig_ratio(&d->ratios[r], f));
		json_bool(w, "estimated", estimated);
		break;
	case FIG_TIME:
		json_u64(w, "total", fig_total(d, f));
		json_u64(w, "p50", fig_pct_capped(d, f, PCT_MEDIAN));
		json_u64(w, "p99", fig_pct_capped(d, f, PCT_TAIL));
		json_u64(w, "max", fig_max(d, f));
		json_u64(w, "samples",
			 d->hist >= 0 ? f->hist[d->hist].samples : 0);
		if (d->events >= 0)
			json_u64(w, d->events_key, fig_events(d, f));
		if ((d->flags & FIG_PER_S) && secs > 0)
			json_double(w, "per_s", (double)fig_total(d, f) / secs);
		json_bool(w, "estimated", estimated);
		break;
	case FIG_SPLIT:
		json_split(w, fa, d, f);
		break;
	case FIG_CHECK:
		json_u64(w, d->pages_key, fig_pages(d, f));
		break;
	case FIG_COUNT:
		json_u64(w, "count", fig_total(d, f));
		break;
	case FIG_SAMPLED:
		break;
	}
	for (r = 0; r < FIG_MAX_EXTRAS && d->extras[r].key; r++)
		if (facts_extra_shown(fa, d, r))
			json_u64(w, d->extras[r].key,
				 f->cnt[d->extras[r].counter]);
	json_by_mt(w, fa, d, f);
	json_obj_end(w);
}

static void json_cell(struct json_writer *w, const char *key,
		      const struct fig_desc *d, const struct sample_cell *c)
{
	if (sample_present(c))
		json_int(w, key, sample_value(d, c));
	else
		json_null(w, key);
}

/* "orders": a zone's value at each order, up to its last read one */
static void json_orders(struct json_writer *w, const struct fig_desc *d,
			const struct samples *s, int z)
{
	int o, last = -1;

	for (o = 0; o < SAMPLE_ORDERS; o++)
		if (sample_present(samples_cell(s, d, sample_order_cell(z, o))))
			last = o;
	json_arr_begin(w, "orders");
	for (o = 0; o <= last; o++)
		json_cell(w, NULL, d,
			  samples_cell(s, d, sample_order_cell(z, o)));
	json_arr_end(w);
}

/*
 * A sampled figure: where it was read, its value (a counter's increase,
 * a gauge's level), a gauge's peak and mean over the span, a counter's
 * rate, and per zone (CPU, device) its value.
 */
static void json_sampled(struct json_writer *w, const struct fig_desc *d,
			 const struct facts *fa, const struct samples *s,
			 double secs)
{
	const struct sample_cell *c = samples_cell(s, d, 0);
	int z;

	json_obj_begin(w, d->key);
	json_str(w, "unit", d->sample.unit);
	json_str(w, "kind", sample_kind_name(d->sample.kind));
	json_str(w, "source", sample_src_name(d->sample.src));
	json_str(w, "field", d->sample.field);
	json_cell(w, "value", d, c);
	if (d->sample.kind == SAMPLE_COUNTER && secs > 0 && sample_present(c))
		json_double(w, "per_s", (double)sample_value(d, c) / secs);
	if (d->sample.kind == SAMPLE_GAUGE && sample_present(c)) {
		json_int(w, "peak", c->peak);
		json_double(w, "mean", sample_mean(c));
	}
	if (d->sample.scope != SCOPE_MACHINE) {
		/* "zones": [{"zone": ...}], "cpus": [{"cpu": ...}], "devices" */
		const char *label = facts_instance_label(d->sample.scope);
		char arr[16], name[FACTS_STR_LEN];

		snprintf(arr, sizeof(arr), "%ss", label);
		json_arr_begin(w, arr);
		for (z = 0; z < sample_instances(d->sample.scope); z++) {
			const struct sample_cell *zc =
				samples_cell(s, d, sample_zone_cell(z));

			if (!sample_present(zc))
				continue;
			facts_instance_name(fa, d->sample.scope, z, name,
					    sizeof(name));
			json_obj_begin(w, NULL);
			json_str(w, label, name);
			json_cell(w, "value", d, zc);
			if (d->sample.scope == SCOPE_ZONE_ORDER)
				json_orders(w, d, s, z);
			json_obj_end(w);
		}
		json_arr_end(w);
	}
	json_obj_end(w);
}

void json_figures(struct json_writer *w, const struct facts *fa,
		  const struct figures *f, const struct samples *s, double secs)
{
	int i;

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (!facts_fig_shown(fa, d))
			json_null(w, d->key);
		else if (d->type == FIG_SAMPLED)
			json_sampled(w, d, fa, s, secs);
		else
			json_bpf_figure(w, fa, d, f, secs);
	}
}
