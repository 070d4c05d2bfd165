// SPDX-License-Identifier: GPL-2.0-only
/*
 * The replays: one model per scale asked, fed the trace event by event,
 * its result turned into the figures a recording counts, and the pages
 * parked in the pcp lists sampled at fixed points of the trace's time.
 * No resync: a snapshot taken at the recorded scale would pull a replay
 * at another scale back to the record; the snapshots measure drift only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pcptrace.h"
#include "units.h"
#include "whatif.h"

static int parse_one(const char **p, int *v)
{
	char *end;
	long n;

	if (**p < '0' || **p > '9')
		return -EINVAL;
	n = strtol(*p, &end, 10);
	if (n < 0 || n > PCPM_SCALE_MAX)
		return -ERANGE;
	*v = (int)n;
	*p = end;
	return 0;
}

int whatif_parse_scales(const char *list, bool scales[WHATIF_MAX_COLS],
			char *msg, size_t len)
{
	const char *p = list;
	int a, b, i, err;

	memset(scales, 0, sizeof(bool) * WHATIF_MAX_COLS);
	if (!p || !*p)
		goto bad;
	for (;;) {
		err = parse_one(&p, &a);
		if (err)
			goto bad;
		b = a;
		if (*p == '-') {
			p++;
			err = parse_one(&p, &b);
			if (err || b < a)
				goto bad;
		}
		for (i = a; i <= b; i++)
			scales[i] = true;
		if (!*p)
			return 0;
		if (*p++ != ',')
			goto bad;
	}
bad:
	snprintf(
		msg, len,
		"bad --scale '%s': scales 0..%d as a list or ranges, like 0-6 or 0,3,5",
		list ? list : "", PCPM_SCALE_MAX);
	return -EINVAL;
}

static void set_batch(struct figures *f, int events_cnt, int pages_cnt,
		      int hist, uint64_t events, uint64_t pages,
		      const uint64_t *slots, uint64_t max)
{
	if (events_cnt >= 0)
		f->cnt[events_cnt] = events;
	if (pages_cnt >= 0)
		f->cnt[pages_cnt] = pages;
	memcpy(f->hist[hist].slots, slots, sizeof(f->hist[hist].slots));
	f->hist[hist].max = max;
	f->hist[hist].samples = events;
}

static void mark(struct whatif_col *c, const char *key)
{
	const struct fig_desc *d = fig_find(key);

	if (d && fig_index(d) < FIGTAB_MAX)
		c->fig_on[fig_index(d)] = true;
}

void whatif_figures(const struct pcpmodel_rules *rules,
		    const struct pcpmodel_result *r, struct whatif_col *c)
{
	const struct pcpmodel_flushes *fh = &r->flush[PCPM_FLUSH_FREE_HIGH];
	const struct pcpmodel_flushes *dc = &r->flush[PCPM_FLUSH_DECAY];
	const struct pcpmodel_flushes *dr = &r->flush[PCPM_FLUSH_DRAIN];
	const struct pcpmodel_flushes *cm = &r->flush[PCPM_FLUSH_COMMIT];
	struct figures *f = &c->fig;
	uint64_t drains = 0;
	int i;

	set_batch(f, CNT_BULK_FREE_CALLS, CNT_BULK_FREE_PAGES,
		  HIST_BULK_FREE_PAGES, r->bulk_calls, r->bulk_pages,
		  r->bulk_pages_hist, r->bulk_sizes.max_pages);
	set_batch(f, CNT_REFILL_CALLS, CNT_REFILL_PAGES, HIST_REFILL_PAGES,
		  r->refill_calls, r->refill_pages, r->refill_pages_hist,
		  r->refill_sizes.max_pages);
	/* rmqueue_bulk() always finds what it asks for (pcpmodel.h) */
	f->cnt[CNT_REFILL_REQ_PAGES] = r->refill_pages;
	for (i = 0; i < PCPTOP_ORDER_SLOTS; i++)
		f->ord_cnt[i][CNT_REFILL_PAGES] = r->refill_order_pages[i];
	set_batch(f, CNT_FREE_HIGH_COUNT, CNT_FREE_HIGH_PAGES,
		  HIST_FREE_HIGH_PAGES, fh->flushes, fh->pages,
		  fh->flush_pages_hist, fh->max_flush_pages);
	f->cnt[CNT_FREE_HIGH_HIGH_CUT] = r->free_high_high_cut;
	set_batch(f, CNT_DECAY_CALLS, CNT_DECAY_PAGES, HIST_DECAY_PAGES,
		  r->decay_calls, dc->pages, dc->flush_pages_hist,
		  dc->max_flush_pages);
	/* the histogram holds the calls that freed pages */
	f->hist[HIST_DECAY_PAGES].samples = dc->flushes;
	f->cnt[CNT_DECAY_TRIMS] = r->decay_trims;
	f->cnt[CNT_DECAY_FREES] = dc->flushes;
	/* pcptop probes drain_pages_zone(), not NUMA's drain_zone_pages() */
	for (i = 0; i < NR_PCPM_DRAIN; i++)
		if (i != PCPM_DRAIN_NUMA_REMOTE)
			drains += r->drain_calls[i];
	set_batch(f, CNT_DRAIN_CHUNKS, CNT_DRAIN_PAGES, HIST_DRAIN_PAGES,
		  dr->chunks, dr->pages, dr->chunk_pages_hist,
		  dr->max_chunk_pages);
	f->cnt[CNT_DRAIN_CALLS] = drains;
	mark(c, "bulk_free");
	mark(c, "refill");
	mark(c, "refill_by_order");
	mark(c, "free_high");
	mark(c, "drain");
	if (rules->auto_high)
		mark(c, "decay");

	c->x.commit_flushes = cm->flushes;
	c->x.commit_pages = cm->pages;
	c->x.commit_max = cm->max_flush_pages;
	c->x.bulk_asked_max = r->bulk_asked_max;
	c->x.lock_takes = r->bulk_calls + r->refill_calls;
	c->x.lock_pages = r->bulk_pages + r->refill_pages;
	c->x.buddy_takes = r->buddy_allocs + r->buddy_frees;
	c->x.pcp_events = r->pcp_allocs + r->pcp_frees;
	c->x.events_below_high = r->events_below_high;
	c->x.reclaim_added = r->reclaim_added;
	c->x.drains_added = r->drains_added;
	c->x.drains_spared = r->drains_spared;
	c->x.reclaims_traced = r->reclaims;
	c->x.reclaim_marks_counted = r->reclaim_marks_counted;
	c->x.reclaim_mark_over_min_sum = r->reclaim_mark_over_min_sum;
	memcpy(c->x.reclaim_decided, r->reclaim_decided,
	       sizeof(c->x.reclaim_decided));
	memcpy(c->x.reclaim_kernel_decided, r->reclaim_kernel_decided,
	       sizeof(c->x.reclaim_kernel_decided));
	c->x.snapshots = r->snapshots;
	c->x.snapshots_drifted = r->snapshots_drifted;
	c->x.count_drift_max = r->count_drift_abs_max;
	c->x.high_drift_max = r->high_drift_abs_max;
	c->x.count_drift_mean =
		r->snapshots ? (double)r->count_drift_abs_sum / r->snapshots :
			       0;
	c->x.events_rejected = r->events_rejected;
	c->x.events_unseeded = r->events_unseeded;
}

/* whether the replay takes event ev: those up to the recording's end */
static bool in_replay(const struct whatif *w, const struct pcpmodel_event *ev)
{
	return !w->end_ns || ev->time_ns <= w->end_ns;
}

static uint64_t bin_end(const struct whatif *w, int b)
{
	return w->trace->first_ns + (uint64_t)(b + 1) * w->bin_ns;
}

static uint64_t model_parked(const struct pcpmodel *m,
			     const struct pcpmodel_config *cfg)
{
	struct pcpmodel_pcp_state st;
	unsigned int cpu, zone;
	uint64_t sum = 0;

	for (cpu = 0; cpu < cfg->nr_cpus; cpu++)
		for (zone = 0; zone < cfg->nr_zones; zone++)
			if (!pcpmodel_get_pcp(m, cpu, zone, &st))
				sum += (uint64_t)st.count;
	return sum;
}

static void parked_stats(struct whatif_extra *x)
{
	double sum = 0;
	int b;

	x->parked_max = 0;
	for (b = 0; b < WHATIF_SERIES_BINS; b++) {
		sum += (double)x->parked[b];
		if (x->parked[b] > x->parked_max)
			x->parked_max = x->parked[b];
	}
	x->parked_mean = sum / WHATIF_SERIES_BINS;
	x->have_parked = true;
}

/*
 * At a scale other than the recorded one, the replay at the recorded
 * scale runs alongside (pcpmodel_set_reference()): where the pages the
 * scale's lists hold move the zone across a watermark the record's did
 * not, the flags, reclaim and drains move with them. At the recorded
 * scale the two would agree on every event: no reference, the record.
 */
static int new_reference(const struct whatif *w,
			 const struct pcpmodel_config *cfg,
			 struct pcpmodel **ref)
{
	struct pcpmodel_config rc = *cfg;

	*ref = NULL;
	if (w->recorded_scale < 0 || w->recorded_scale > PCPM_SCALE_MAX ||
	    w->recorded_scale == cfg->scale)
		return 0;
	rc.scale = w->recorded_scale;
	rc.series = NULL;
	rc.series_cap = 0;
	return pcpmodel_new(&rc, ref);
}

static int replay_one(struct whatif *w, int scale, struct whatif_col *c)
{
	const struct rec_trace *t = w->trace;
	const struct pcpmodel_stream *s = &t->stream;
	struct pcpmodel_config cfg = { 0 };
	struct pcpmodel *m, *ref;
	bool counting = false;
	size_t i;
	int err, b = 0;

	cfg.rules = w->rules;
	cfg.scale = scale;
	cfg.nr_cpus = t->meta.nr_cpus;
	cfg.nr_zones = t->meta.nr_zones;
	cfg.thp_order = t->meta.thp_order;
	cfg.decay_ends = t->hooks & PCPT_HOOK_DECAY_END;
	err = pcpmodel_new(&cfg, &m);
	if (err)
		return err;
	err = new_reference(w, &cfg, &ref);
	if (!err)
		err = pcpmodel_set_reference(m, ref);
	if (err) {
		pcpmodel_free(ref);
		pcpmodel_free(m);
		return err;
	}
	for (i = 0; i < s->nr_events && in_replay(w, &s->events[i]); i++) {
		while (b < WHATIF_SERIES_BINS &&
		       s->events[i].time_ns >= bin_end(w, b))
			c->x.parked[b++] = model_parked(m, &cfg);
		if (w->start_ns && !counting &&
		    s->events[i].time_ns >= w->start_ns) {
			pcpmodel_restart_count(m);
			counting = true;
		}
		if (ref)
			pcpmodel_apply(ref, &s->events[i], s);
		pcpmodel_apply(m, &s->events[i], s);
	}
	if (ref)
		pcpmodel_end(ref);
	pcpmodel_end(m);
	while (b < WHATIF_SERIES_BINS)
		c->x.parked[b++] = model_parked(m, &cfg);
	/* every event before the start: nothing the recording counted */
	if (w->start_ns && !counting)
		pcpmodel_restart_count(m);
	parked_stats(&c->x);
	c->scale = scale;
	whatif_figures(&w->rules, pcpmodel_result(m), c);
	c->x.reclaims_known = t->hooks & PCPT_HOOK_RECLAIM;
	whatif_price(w, pcpmodel_result(m), c);
	pcpmodel_free(ref);
	pcpmodel_free(m);
	return 0;
}

/* the pages the snapshots read, summed over the pagesets' latest */
static int recorded_parked(struct whatif *w, struct whatif_extra *x)
{
	const struct rec_trace *t = w->trace;
	const struct pcpmodel_stream *s = &t->stream;
	size_t n = (size_t)t->meta.nr_cpus * t->meta.nr_zones, i;
	int32_t *last = calloc(n, sizeof(*last));
	uint64_t sum = 0;
	int b = 0;

	if (!last)
		return -ENOMEM;
	for (i = 0; i < s->nr_events && in_replay(w, &s->events[i]); i++) {
		const struct pcpmodel_event *ev = &s->events[i];
		size_t k = (size_t)ev->cpu * t->meta.nr_zones + ev->zone;

		while (b < WHATIF_SERIES_BINS && ev->time_ns >= bin_end(w, b))
			x->parked[b++] = sum;
		if (ev->type != PCPM_EV_SNAPSHOT ||
		    ev->payload >= s->nr_pcp_states || k >= n)
			continue;
		sum -= (uint64_t)last[k];
		last[k] = s->pcp_states[ev->payload].count;
		sum += (uint64_t)last[k];
	}
	while (b < WHATIF_SERIES_BINS)
		x->parked[b++] = sum;
	free(last);
	parked_stats(x);
	return 0;
}

static int check_trace(const struct rec_trace *t, char *msg, size_t len)
{
	if (!t->stream.nr_events) {
		snprintf(msg, len, "the trace has no events to replay");
		return -EINVAL;
	}
	if (!t->meta.nr_cpus || t->meta.nr_cpus > PCPM_MAX_CPUS ||
	    !t->meta.nr_zones || t->meta.nr_zones > PCPTOP_MAX_ZONES) {
		snprintf(
			msg, len,
			"the trace's meta says %u CPUs and %u zones: a model holds 1..%d and 1..%d",
			t->meta.nr_cpus, t->meta.nr_zones, PCPM_MAX_CPUS,
			PCPTOP_MAX_ZONES);
		return -EINVAL;
	}
	return 0;
}

static int pick_rules(struct whatif *w, const struct rec_trace *t,
		      const struct whatif_opts *o, char *msg, size_t len)
{
	if (o->rules >= 0) {
		w->rules_given = true;
		return pcpmodel_rules_init(&w->rules, o->rules);
	}
	w->rules = t->meta.rules;
	if ((unsigned int)w->rules.base >= NR_PCPM_RULES ||
	    !w->rules.thp_lists) {
		snprintf(
			msg, len,
			"the trace does not say which rule set its kernel follows: give --rules");
		return -EINVAL;
	}
	return 0;
}

/*
 * the recording's start and its last interval's end on the trace's
 * clock, if it has them: the window its figures cover
 */
static void set_window(struct whatif *w, const struct rec_trace *t,
		       const struct rec_summary *s)
{
	size_t i;

	if (!s || s->nr_points <= 0 || !t->t0_ns ||
	    s->points[s->nr_points - 1].t <= 0)
		return;
	w->start_ns = t->t0_ns;
	w->end_ns = t->t0_ns +
		    (uint64_t)(s->points[s->nr_points - 1].t * NSEC_PER_SEC);
	for (i = 0; i < t->stream.nr_events; i++) {
		if (!in_replay(w, &t->stream.events[i]))
			w->events_after_end++;
		else if (t->stream.events[i].time_ns < w->start_ns)
			w->events_before_start++;
	}
}

int whatif_run(struct whatif *w, const char *path, const struct rec_trace *t,
	       const struct rec_summary *s, const struct whatif_opts *o,
	       char *msg, size_t len)
{
	uint64_t span, last;
	int sc, err;

	memset(w, 0, sizeof(*w));
	w->path = path;
	w->trace = t;
	w->recorded_scale = t->meta.scale;
	if (w->recorded_scale < 0 && s)
		w->recorded_scale = s->h.f.scale.value;
	err = check_trace(t, msg, len);
	if (!err)
		err = pick_rules(w, t, o, msg, len);
	if (err)
		return err;
	set_window(w, t, s);
	last = w->end_ns && w->end_ns < t->last_ns ? w->end_ns : t->last_ns;
	span = last > t->first_ns ? last - t->first_ns : 0;
	w->bin_ns = span / WHATIF_SERIES_BINS + 1;
	w->lost_in_window = rec_trace_lost_between(t, t->first_ns, last + 1);
	whatif_fit_costs(w, s);
	w->cols = calloc(WHATIF_MAX_COLS, sizeof(*w->cols));
	if (!w->cols)
		return -ENOMEM;
	for (sc = 0; sc < WHATIF_MAX_COLS; sc++) {
		if (!o->scales[sc])
			continue;
		err = replay_one(w, sc, &w->cols[w->nr_cols]);
		if (err) {
			snprintf(msg, len, "the replay at scale %d failed: %s",
				 sc, strerror(-err));
			return err;
		}
		w->nr_cols++;
	}
	if (s) {
		w->have_measured = true;
		w->measured.scale = w->recorded_scale;
		w->measured.measured = true;
		whatif_measured(s, &w->measured);
		err = recorded_parked(w, &w->measured.x);
	}
	return err;
}

void whatif_free(struct whatif *w)
{
	free(w->cols);
	w->cols = NULL;
	w->nr_cols = 0;
}

const struct whatif_col *whatif_col_of(const struct whatif *w, int sc)
{
	int i;

	for (i = 0; i < w->nr_cols; i++)
		if (w->cols[i].scale == sc)
			return &w->cols[i];
	return NULL;
}
