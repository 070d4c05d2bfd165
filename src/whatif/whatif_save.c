// SPDX-License-Identifier: GPL-2.0-only
/*
 * A prediction as a recording of one interval spanning the trace: every
 * count machine-wide on CPU 0 in the zone of events without a zone
 * (PCPTOP_ZONE_UNKNOWN), refills at their order's slot so that
 * refill_by_order reads right, the other counters at order slot 0.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "arrays.h"
#include "recfile.h"
#include "whatif_save.h"

static void keep_fig(struct facts *f, const struct fig_desc *d)
{
	int k;

	if (d->events >= 0)
		f->counted[d->events] = true;
	if (d->pages >= 0)
		f->counted[d->pages] = true;
	if (d->total >= 0)
		f->counted[d->total] = true;
	if (d->hist >= 0)
		f->hist_kept[d->hist] = true;
	for (k = 0; k < fig_nr_parts(d); k++)
		if (d->parts[k].counter >= 0)
			f->counted[d->parts[k].counter] = true;
}

/* the counters a replay fills beside its figures' own */
static const int extra_counters[] = {
	CNT_REFILL_REQ_PAGES, CNT_FREE_HIGH_HIGH_CUT, CNT_DECAY_TRIMS,
	CNT_DECAY_FREES,      CNT_DRAIN_CALLS,
};

static void prediction_facts(struct facts *f, const struct whatif *w,
			     const struct whatif_col *col)
{
	const struct fig_desc *dc = fig_find("decay");
	size_t i;

	memset(f->counted, 0, sizeof(f->counted));
	memset(f->hist_kept, 0, sizeof(f->hist_kept));
	memset(f->sampled, 0, sizeof(f->sampled));
	for (i = 0; i < (size_t)nr_figs && i < FIGTAB_MAX; i++)
		if (col->fig_on[i])
			keep_fig(f, &fig_table[i]);
	for (i = 0; i < ARRAY_SIZE(extra_counters); i++)
		f->counted[extra_counters[i]] = true;
	if (!dc || !col->fig_on[fig_index(dc)]) {
		f->counted[CNT_DECAY_TRIMS] = false;
		f->counted[CNT_DECAY_FREES] = false;
	}
	f->scale.value = col->scale;
	f->scale.source = SCALE_SRC_UNKNOWN;
	snprintf(f->scale.note, sizeof(f->scale.note),
		 "predicted by pcptop whatif from %s under rules %s", w->path,
		 pcpmodel_rules_name(w->rules.base));
	f->cross_check = false;
}

static void fill_snapshot(struct snapshot *snap, const struct whatif_col *col)
{
	const struct figures *fg = &col->fig;
	struct pcptop_counter_val *c0 =
		&snap->counters[pcptop_counter_key(PCPTOP_ZONE_UNKNOWN, 0, 0)];
	int i, o;

	for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
		c0->c[i] = fg->cnt[i];
	c0->c[CNT_REFILL_PAGES] = 0;
	for (o = 0; o < PCPTOP_ORDER_SLOTS; o++)
		snap->counters[pcptop_counter_key(PCPTOP_ZONE_UNKNOWN, o, 0)]
			.c[CNT_REFILL_PAGES] +=
			fg->ord_cnt[o][CNT_REFILL_PAGES];
	for (i = 0; i < NR_PCPTOP_HISTS; i++) {
		struct pcptop_hist_val *h =
			&snap->hists[pcptop_hist_key(PCPTOP_ZONE_UNKNOWN, i)];

		memcpy(h->slots, fg->hist[i].slots, sizeof(h->slots));
		h->max = fg->hist[i].max;
	}
}

static int write_all(const char *out, struct rec_header *h,
		     const struct whatif *w, const struct whatif_col *col)
{
	const struct rec_trace *t = w->trace;
	uint64_t span = t->last_ns > t->first_ns ? t->last_ns - t->first_ns : 1;
	struct rec_interval iv = { 0 };
	struct rec_end end = { 0 };
	struct snapshot snap;
	struct rec_writer wr;
	int err, err2;

	err = snapshot_alloc(&snap, 1);
	if (err)
		return err;
	snap.interval_s = (double)span / 1e9;
	fill_snapshot(&snap, col);
	err = rec_writer_open(&wr, out, h);
	if (err) {
		snapshot_free(&snap);
		return err;
	}
	iv.t_end_ns = span;
	iv.realtime_ns = h->start_realtime_ns + span;
	err = rec_write_interval(&wr, &iv, &snap);
	snprintf(end.reason, sizeof(end.reason), "whatif prediction");
	end.nr_intervals = 1;
	end.recorded_ns = span;
	if (!err)
		err = rec_write_end(&wr, h, &end);
	if (!err)
		err = rec_writer_sync(&wr);
	err2 = rec_writer_close(&wr);
	snapshot_free(&snap);
	return err ? err : err2;
}

int whatif_save(const char *out, const struct whatif *w,
		const struct whatif_col *col, struct rec_summary *s, char *msg,
		size_t len)
{
	struct rec_header *h = &s->h;
	struct facts saved = h->f;
	struct rec_dims dims = h->dims;
	uint64_t interval_ns = h->interval_ns;
	int argc = h->argc, err;
	char **argv = h->argv;

	/* the borrowed header, as a one-CPU recording of this build */
	rec_dims_own(&h->dims, 1);
	h->interval_ns = w->trace->last_ns - w->trace->first_ns;
	h->argc = 0;
	h->argv = NULL;
	prediction_facts(&h->f, w, col);
	err = write_all(out, h, w, col);
	h->f = saved;
	h->dims = dims;
	h->interval_ns = interval_ns;
	h->argc = argc;
	h->argv = argv;
	if (err)
		snprintf(msg, len, "writing the prediction to %s: %s", out,
			 strerror(-err));
	return err;
}
