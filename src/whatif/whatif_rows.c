// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rows of a what-if table, each one number of a column: the figures
 * through figtab (so a prediction and a recording read alike, with
 * diff's metric keys), then what only a replay knows.
 */
#include <stdio.h>
#include <string.h>

#include "arrays.h"
#include "hist.h"
#include "whatif.h"

/* clang-format off */
const struct whatif_row whatif_rows[] = {
	{ "bulk_free.calls", "bulk frees (free_pcppages_bulk calls)", "", "bulk_free", WP_EVENTS, 0 },
	{ "bulk_free.pages", "pages bulk-freed", "pages", "bulk_free", WP_PAGES, 0 },
	{ "bulk_free.p50", "bulk free p50", "pages", "bulk_free", WP_P50, WR_BOUND },
	{ "bulk_free.p99", "bulk free p99", "pages", "bulk_free", WP_P99, WR_BOUND },
	{ "bulk_free.max", "largest bulk free", "pages", "bulk_free", WP_MAX, 0 },
	{ "bulk_free.asked_max", "largest bulk free asked for", "pages", NULL, WP_EXTRA, WR_REPLAY },
	{ "refill.calls", "refills (rmqueue_bulk calls)", "", "refill", WP_EVENTS, 0 },
	{ "refill.pages", "pages refilled", "pages", "refill", WP_PAGES, 0 },
	{ "refill.p50", "refill p50", "pages", "refill", WP_P50, WR_BOUND },
	{ "refill.p99", "refill p99", "pages", "refill", WP_P99, WR_BOUND },
	{ "refill.max", "largest refill", "pages", "refill", WP_MAX, 0 },
	{ "free_high.count", "free_high flushes", "", "free_high", WP_EVENTS, 0 },
	{ "free_high.pages", "pages free_high flushed", "pages", "free_high", WP_PAGES, 0 },
	{ "free_high.max", "largest free_high flush", "pages", "free_high", WP_MAX, 0 },
	{ "flush.count", "flushes at count >= high", "", NULL, WP_EXTRA, WR_REPLAY },
	{ "flush.pages", "pages they flushed", "pages", NULL, WP_EXTRA, WR_REPLAY },
	{ "flush.max", "largest of them", "pages", NULL, WP_EXTRA, WR_REPLAY },
	{ "decay.calls", "decay_pcp_high calls", "", "decay", WP_EVENTS, 0 },
	{ "decay.pages", "pages decay freed", "pages", "decay", WP_PAGES, 0 },
	{ "decay.max", "largest decay free", "pages", "decay", WP_MAX, 0 },
	{ "drain.chunks", "drain chunks", "", "drain", WP_EVENTS, 0 },
	{ "drain.pages", "pages drained", "pages", "drain", WP_PAGES, 0 },
	{ "drain.max", "largest drain chunk", "pages", "drain", WP_MAX, 0 },
	{ "zone_lock.takes", "zone->lock: bulk frees + refills", "", NULL, WP_EXTRA, 0 },
	{ "zone_lock.pages", "zone->lock: their pages", "pages", NULL, WP_EXTRA, 0 },
	{ "zone_lock.buddy_takes", "zone->lock: buddy-path calls", "", NULL, WP_EXTRA, WR_REPLAY },
	{ "lock_hold_ns.p50", "lock hold p50", "ns", "lock_hold_ns", WP_P50, WR_BOUND },
	{ "lock_hold_ns.p99", "lock hold p99", "ns", "lock_hold_ns", WP_P99, WR_BOUND },
	{ "lock_hold_ns.max", "lock hold max", "ns", "lock_hold_ns", WP_MAX, 0 },
	{ "lock_hold_ns.total", "lock hold total", "ns", "lock_hold_ns", WP_TOTAL, 0 },
	{ "irqs_off_ns.p50", "irqs off p50", "ns", "irqs_off_ns", WP_P50, WR_BOUND },
	{ "irqs_off_ns.p99", "irqs off p99", "ns", "irqs_off_ns", WP_P99, WR_BOUND },
	{ "irqs_off_ns.max", "irqs off max", "ns", "irqs_off_ns", WP_MAX, 0 },
	{ "irqs_off_ns.total", "irqs off total", "ns", "irqs_off_ns", WP_TOTAL, 0 },
	{ "parked.mean", "pages parked in pcp lists, mean", "pages", NULL, WP_EXTRA, 0 },
	{ "parked.max", "pages parked, highest", "pages", NULL, WP_EXTRA, 0 },
	{ "below_high.pct", "pcp events with the zone below high", "%", NULL, WP_EXTRA, WR_REPLAY },
	{ "reclaim.added", "direct reclaims the scale adds (zone under min)", "", NULL, WP_EXTRA, WR_REPLAY },
	{ "drains.added", "drain_all_pages after them", "", NULL, WP_EXTRA, WR_REPLAY },
	{ "drains.spared", "the record's the scale spares", "", NULL, WP_EXTRA, WR_REPLAY },
	{ "reclaim.traced", "direct reclaims in the trace (1.7)", "", NULL, WP_EXTRA, WR_REPLAY },
	{ "reclaim.explained_pct", "of order 0, drained as the mark says", "%", NULL, WP_EXTRA, WR_REPLAY },
	{ "reclaim.kernel_explained_pct", "the same by the kernel's free pages", "%", NULL, WP_EXTRA, WR_REPLAY },
	{ "reclaim.mark_over_min", "the kernel's mark over min at them, mean", "pages", NULL, WP_EXTRA, WR_REPLAY },
	{ "drift.snapshots_pct", "snapshots the replay drifted at", "%", NULL, WP_EXTRA, WR_REPLAY },
	{ "drift.count_mean", "its drift of pcp->count, mean", "pages", NULL, WP_EXTRA, WR_REPLAY },
	{ "drift.count_max", "its drift of pcp->count, largest", "pages", NULL, WP_EXTRA, WR_REPLAY },
};
/* clang-format on */
const int whatif_nr_rows = ARRAY_SIZE(whatif_rows);

const struct whatif_row *whatif_row_of(const char *key)
{
	int r;

	for (r = 0; r < whatif_nr_rows; r++)
		if (!strcmp(whatif_rows[r].key, key))
			return &whatif_rows[r];
	return NULL;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

/*
 * of the trace's order-0 direct reclaims, those the replay's zone at or
 * under min drained and those over it did not, as the record did; none
 * decided: no figure
 */
static bool decided_pct(const uint64_t (*d)[2], double *v)
{
	uint64_t all = d[0][0] + d[0][1] + d[1][0] + d[1][1];

	if (!all)
		return false;
	*v = pct(d[0][0] + d[1][1], all);
	return true;
}

/* the kernel's marks at the trace's reclaims over min, mean; none read: none */
static bool mark_over_min(const struct whatif_extra *x, double *v)
{
	if (!x->reclaim_marks_counted)
		return false;
	*v = (double)x->reclaim_mark_over_min_sum /
	     (double)x->reclaim_marks_counted;
	return true;
}

static bool extra(const struct whatif_col *c, const char *key, double *v)
{
	const struct whatif_extra *x = &c->x;
	static const struct {
		const char *key;
		size_t off;
	} u64s[] = {
		{ "flush.count",
		  offsetof(struct whatif_extra, commit_flushes) },
		{ "flush.pages", offsetof(struct whatif_extra, commit_pages) },
		{ "flush.max", offsetof(struct whatif_extra, commit_max) },
		{ "bulk_free.asked_max",
		  offsetof(struct whatif_extra, bulk_asked_max) },
		{ "zone_lock.takes",
		  offsetof(struct whatif_extra, lock_takes) },
		{ "zone_lock.pages",
		  offsetof(struct whatif_extra, lock_pages) },
		{ "zone_lock.buddy_takes",
		  offsetof(struct whatif_extra, buddy_takes) },
		{ "parked.max", offsetof(struct whatif_extra, parked_max) },
		{ "drift.count_max",
		  offsetof(struct whatif_extra, count_drift_max) },
		{ "reclaim.added",
		  offsetof(struct whatif_extra, reclaim_added) },
		{ "drains.added", offsetof(struct whatif_extra, drains_added) },
		{ "drains.spared",
		  offsetof(struct whatif_extra, drains_spared) },
		{ "reclaim.traced",
		  offsetof(struct whatif_extra, reclaims_traced) },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(u64s); i++)
		if (!strcmp(key, u64s[i].key)) {
			*v = (double)*(const uint64_t *)((const char *)x +
							 u64s[i].off);
			return true;
		}
	if (!strcmp(key, "parked.mean"))
		*v = x->parked_mean;
	else if (!strcmp(key, "below_high.pct"))
		*v = pct(x->events_below_high, x->pcp_events);
	else if (!strcmp(key, "drift.snapshots_pct"))
		*v = pct(x->snapshots_drifted, x->snapshots);
	else if (!strcmp(key, "drift.count_mean"))
		*v = x->count_drift_mean;
	else if (!strcmp(key, "reclaim.explained_pct"))
		return decided_pct(x->reclaim_decided, v);
	else if (!strcmp(key, "reclaim.kernel_explained_pct"))
		return decided_pct(x->reclaim_kernel_decided, v);
	else if (!strcmp(key, "reclaim.mark_over_min"))
		return mark_over_min(x, v);
	else
		return false;
	return true;
}

bool whatif_estimated(const struct whatif_col *col,
		      const struct whatif_row *row)
{
	const struct fig_desc *d = row->fig ? fig_find(row->fig) : NULL;

	return col->measured && d && fig_index(d) < FIGTAB_MAX &&
	       col->fig_estimated[fig_index(d)] &&
	       (row->part == WP_EVENTS || row->part == WP_P50 ||
		row->part == WP_P99 || row->part == WP_MAX);
}

bool whatif_value(const struct whatif_col *col, const struct whatif_row *row,
		  double *v)
{
	const struct fig_desc *d = row->fig ? fig_find(row->fig) : NULL;
	const struct figures *f = &col->fig;

	if (row->part == WP_EXTRA) {
		if (col->measured && (row->flags & WR_REPLAY))
			return false;
		if (col->measured && !strncmp(row->key, "zone_lock.", 10) &&
		    !col->x.lock_takes && !col->x.lock_pages)
			return false;
		if (!strncmp(row->key, "parked.", 7) && !col->x.have_parked)
			return false;
		if (!strncmp(row->key, "reclaim.", 8) &&
		    strcmp(row->key, "reclaim.added") && !col->x.reclaims_known)
			return false;
		return extra(col, row->key, v);
	}
	if (!d || fig_index(d) >= FIGTAB_MAX || !col->fig_on[fig_index(d)])
		return false;
	switch (row->part) {
	case WP_EVENTS:
		*v = (double)fig_events(d, f);
		break;
	case WP_PAGES:
		*v = (double)fig_pages(d, f);
		break;
	case WP_P50:
		*v = (double)fig_pct(d, f, 50.0);
		break;
	case WP_P99:
		*v = (double)fig_pct(d, f, 99.0);
		break;
	case WP_MAX:
		*v = (double)fig_max(d, f);
		break;
	case WP_TOTAL:
		*v = (double)fig_total(d, f);
		break;
	default:
		return false;
	}
	return true;
}

/* "64-127 pages 2220 calls 6706 ns" for every bucket seen */
static int bucket_words(char *buf, size_t len, const struct whatif_fit *fit)
{
	const struct pcpmodel_cost_table *t = &fit->table;
	int i, n = 0, k;

	for (i = t->lo; i >= 0 && i <= t->hi; i++) {
		const struct pcpmodel_cost_bucket *b = &t->b[i];

		if (!(b->calls > 0))
			continue;
		k = snprintf(buf + n, len - n,
			     "%s%llu-%llu pages %.0f calls %.0f ns",
			     n ? ", " : "", (unsigned long long)hist_slot_lo(i),
			     (unsigned long long)hist_slot_hi(i), b->calls,
			     b->mean_ns);
		if (k < 0 || (size_t)k >= len - n)
			return (int)len;
		n += k;
	}
	return n;
}

void whatif_fit_line(char *buf, size_t len, const struct whatif *w,
		     const struct whatif_fit *fit)
{
	int n, k, i;
	bool any = false;

	if (fit->err) {
		snprintf(buf, len, "not priced (%s): from %s",
			 strerror(-fit->err), fit->on);
		return;
	}
	n = snprintf(
		buf, len,
		"by each call's pages, at the mean of the recording's %llu timed calls in that log2 bucket (",
		(unsigned long long)fit->table.timed);
	if (n < 0 || (size_t)n >= len)
		return;
	n += bucket_words(buf + n, len - n, fit);
	if ((size_t)n >= len)
		return;
	k = snprintf(
		buf + n, len - n,
		"); from %s. A call of a size the recording never saw is priced from the nearest bucket at its ns a page: ",
		fit->on);
	if (k < 0 || (size_t)k >= len - n)
		return;
	n += k;
	for (i = 0; i < w->nr_cols; i++) {
		uint64_t out = w->cols[i].x.priced_outside[fit->which];

		if (!out)
			continue;
		k = snprintf(buf + n, len - n, "%sscale %d: %llu calls",
			     any ? ", " : "", w->cols[i].scale,
			     (unsigned long long)out);
		if (k < 0 || (size_t)k >= len - n)
			return;
		n += k;
		any = true;
	}
	if (!any)
		snprintf(buf + n, len - n, "none here");
}

void whatif_window_line(char *buf, size_t len, const struct whatif *w)
{
	const struct rec_trace *t = w->trace;
	double secs = t->last_ns > t->first_ns ?
			      (double)(t->last_ns - t->first_ns) / 1e9 :
			      0;
	int n;

	n = snprintf(buf, len, "%zu trace events over %.2f s; ",
		     t->stream.nr_events, secs);
	if (n < 0 || (size_t)n >= len)
		return;
	if (w->events_before_start || w->events_after_end) {
		n += snprintf(
			buf + n, len - n,
			"%llu before the recording's start replayed for state only, %llu after its last interval left out; ",
			(unsigned long long)w->events_before_start,
			(unsigned long long)w->events_after_end);
		if ((size_t)n >= len)
			return;
	}
	if (!t->lost_events)
		snprintf(buf + n, len - n, "no events lost");
	else
		snprintf(
			buf + n, len - n,
			"%llu events LOST in %zu stretches (%llu inside the replayed window): the figures undercount there",
			(unsigned long long)t->lost_events, t->nr_losses,
			(unsigned long long)w->lost_in_window);
}

void whatif_below_line(char *buf, size_t len, const struct whatif *w)
{
	const struct whatif_extra *x = w->nr_cols ? &w->cols[0].x : NULL;

	if (!x || !x->pcp_events) {
		snprintf(buf, len, "no pcp allocations or frees replayed");
		return;
	}
	snprintf(
		buf, len,
		"%.1f %% of the pcp allocations and frees ran with the zone below its high watermark or reclaiming: the replay takes that state from the trace and moves it only where a scale's lists move the zone across a watermark, so there it is weakest",
		pct(x->events_below_high, x->pcp_events));
}

bool whatif_marks_line(char *buf, size_t len, const struct whatif *w)
{
	const struct whatif_extra *x = w->nr_cols ? &w->cols[0].x : NULL;
	double over;

	if (!x || !mark_over_min(x, &over))
		return false;
	snprintf(
		buf, len,
		"At %llu of the trace's %llu direct reclaims the kernel's order-0 mark stood\n"
		"%.0f pages over the lowest min read, on average: watermark_boost and the free\n"
		"highatomic pages, which an allocation must clear besides min. At another scale\n"
		"the boost moves with the buddy's fallbacks between migratetypes, which the\n"
		"trace does not carry (docs/ACCURACY.md, \"What moves the reclaims\").\n",
		(unsigned long long)x->reclaim_marks_counted,
		(unsigned long long)x->reclaims_traced, over);
	return true;
}
