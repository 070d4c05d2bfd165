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

static void json_limit(struct json_writer *w, const char *key, int64_t v)
{
	if (v == PCPMEM_ABSENT)
		json_null(w, key);
	else
		json_int(w, key, v);
}

void json_pcp(struct json_writer *w, const struct figures *f)
{
	int i;

	if (!f->pcp.nr_zones) {
		json_null(w, "pcp");
		return;
	}
	json_obj_begin(w, "pcp");
	json_int(w, "pages", pcpmem_pages(&f->pcp));
	json_arr_begin(w, "zones");
	for (i = 0; i < f->pcp.nr_zones; i++) {
		const struct pcpmem_zone *z = &f->pcp.z[i];
		double pct = pcpmem_pct(z);

		json_obj_begin(w, NULL);
		json_str(w, "zone", z->name);
		json_int(w, "cpus", z->nr_cpus);
		json_limit(w, "count", z->count);
		json_limit(w, "high", z->high);
		json_limit(w, "high_min", z->high_min);
		json_limit(w, "high_max", z->high_max);
		json_limit(w, "batch", z->batch);
		json_limit(w, "managed", z->managed);
		if (pct >= 0)
			json_double(w, "pct_of_managed", pct);
		else
			json_null(w, "pct_of_managed");
		json_obj_end(w);
	}
	json_arr_end(w);
	json_obj_end(w);
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

void json_figure(struct json_writer *w, const struct facts *fa,
		 const struct fig_desc *d, const struct figures *f, double secs)
{
	bool estimated = facts_events_estimated(fa, d);
	int r;

	json_obj_begin(w, d->key);
	switch (d->type) {
	case FIG_BATCH:
		json_u64(w, d->events_key, fig_events(d, f));
		json_u64(w, "pages", fig_pages(d, f));
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
		json_bool(w, "estimated", estimated);
		break;
	case FIG_CHECK:
		json_u64(w, d->pages_key, fig_pages(d, f));
		break;
	case FIG_COUNT:
		json_u64(w, "count", fig_total(d, f));
		break;
	}
	for (r = 0; r < FIG_MAX_EXTRAS && d->extras[r].key; r++)
		if (facts_extra_shown(fa, d, r))
			json_u64(w, d->extras[r].key,
				 f->cnt[d->extras[r].counter]);
	json_by_mt(w, fa, d, f);
	json_obj_end(w);
}
