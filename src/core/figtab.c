// SPDX-License-Identifier: GPL-2.0-only
#include <stddef.h>
#include <string.h>
#include "figtab.h"

/* estimated in tracepoint mode (event runs) and as a heuristic */
#define EST_RUNS PROBE_MODES_ESTIMATED
#define EXACT 0u

const struct counter_desc counter_table[NR_PCPTOP_COUNTERS] = {
	[CNT_BULK_FREE_CALLS] = { "bulk_free_calls" },
	[CNT_BULK_FREE_PAGES] = { "bulk_free_pages" },
	[CNT_REFILL_CALLS] = { "refill_calls" },
	[CNT_REFILL_REQ_PAGES] = { "refill_req_pages" },
	[CNT_REFILL_PAGES] = { "refill_pages" },
	[CNT_FREE_HIGH_COUNT] = { "free_high_count" },
	[CNT_FREE_HIGH_PAGES] = { "free_high_pages" },
	[CNT_DECAY_CALLS] = { "decay_calls" },
	[CNT_DECAY_PAGES] = { "decay_pages" },
	[CNT_DRAIN_CALLS] = { "drain_calls" },
	[CNT_DRAIN_PAGES] = { "drain_pages" },
	[CNT_BULK_FREE_NS] = { "bulk_free_lock_ns" },
	[CNT_REFILL_NS] = { "refill_lock_ns" },
	[CNT_DECAY_HIGH_BEFORE] = { "decay_high_before" },
	[CNT_DECAY_HIGH_AFTER] = { "decay_high_after" },
	[CNT_XCHECK_DRAIN_PAGES] = { "xcheck_drain_pages" },
};

const struct hist_desc hist_table[NR_PCPTOP_HISTS] = {
	[HIST_BULK_FREE_PAGES] = {
		"bulk_free_pages", "bulk free size", "pages", PROBE_BULK_FREE,
		"pcptop_bulk_free_size_pages", "Pages per bulk free since start.",
		PANE_BATCH, true,
	},
	[HIST_REFILL_PAGES] = {
		"refill_pages", "refill size", "pages", PROBE_REFILL,
		"pcptop_refill_size_pages", "Pages per refill since start.",
		PANE_BATCH, true,
	},
	[HIST_LOCK_NS] = {
		"lock_ns", "zone->lock, bulk free", "nsecs", PROBE_BULK_FREE,
		"pcptop_lock_ns",
		"zone->lock time per bulk free since start, nanoseconds.",
		PANE_HOLD, true,
	},
	[HIST_REFILL_NS] = {
		"refill_lock_ns", "zone->lock, refill", "nsecs", PROBE_REFILL,
		"pcptop_refill_lock_ns",
		"zone->lock time per refill since start, nanoseconds.",
		PANE_HOLD, false,
	},
	[HIST_FREE_HIGH_PAGES] = {
		"free_high_pages", "free_high flush size", "pages",
		PROBE_FREE_HIGH, "pcptop_free_high_size_pages",
		"Pages per free_high flush since start.", PANE_NONE, true,
	},
	[HIST_DECAY_PAGES] = {
		"decay_pages", "decay drain size", "pages", PROBE_DECAY,
		"pcptop_decay_size_pages",
		"Pages per decay_pcp_high drain since start.", PANE_NONE, false,
	},
	[HIST_DRAIN_PAGES] = {
		"drain_pages", "drain chunk size", "pages", PROBE_DRAIN,
		"pcptop_drain_size_pages",
		"Pages per drain_pages_zone chunk since start.", PANE_NONE,
		false,
	},
};

const struct fig_desc fig_table[] = {
	{
		.key = "bulk_free",
		.title = "bulk frees (free_pcppages_bulk)",
		.type = FIG_BATCH,
		.probe = PROBE_BULK_FREE,
		.events = CNT_BULK_FREE_CALLS, .events_key = "calls",
		.pages = CNT_BULK_FREE_PAGES,
		.hist = HIST_BULK_FREE_PAGES, .total = -1,
		.est_events = EST_RUNS, .est_pages = EXACT,
		.flags = FIG_TL_EVENTS | FIG_TL_PAGES | FIG_TL_MAX |
			 FIG_RATE_DIFF | FIG_PROM_MAX | FIG_HTML_RATE,
		.col_events = "BULK/s", .col_pages = "BPG/s",
		.col_avg = "AVG", .col_max = "MAX",
		.prom_events = "pcptop_bulk_free_calls_total",
		.prom_events_help = "free_pcppages_bulk calls (event runs when estimated).",
		.prom_pages = "pcptop_bulk_free_pages_total",
		.prom_pages_help = "Pages returned to the buddy allocator by bulk frees.",
		.prom_gauge = "pcptop_bulk_free_pages",
		.prom_gauge_help = "Largest bulk free in the last interval, pages.",
	},
	{
		.key = "refill",
		.title = "refills (rmqueue_bulk)",
		.type = FIG_BATCH,
		.probe = PROBE_REFILL,
		.events = CNT_REFILL_CALLS, .events_key = "calls",
		.pages = CNT_REFILL_PAGES,
		.hist = HIST_REFILL_PAGES, .total = -1,
		.est_events = EST_RUNS, .est_pages = EXACT,
		.flags = FIG_TL_EVENTS | FIG_TL_PAGES | FIG_TL_MAX |
			 FIG_RATE_DIFF | FIG_HTML_RATE,
		.col_events = "REF/s", .col_pages = "RPG/s",
		.prom_events = "pcptop_refill_calls_total",
		.prom_events_help = "rmqueue_bulk calls (event runs when estimated).",
		.prom_pages = "pcptop_refill_pages_total",
		.prom_pages_help = "Pages taken from the buddy allocator by refills.",
	},
	{
		.key = "free_high",
		.title = "free_high flushes (pages freed past pcp->high)",
		.type = FIG_BATCH,
		.probe = PROBE_FREE_HIGH,
		.events = CNT_FREE_HIGH_COUNT, .events_key = "count",
		.pages = CNT_FREE_HIGH_PAGES,
		.hist = HIST_FREE_HIGH_PAGES, .total = -1,
		.est_events = EST_RUNS, .est_pages = EST_RUNS,
		.flags = FIG_TL_PAGES | FIG_INFER_SCALE,
		.col_events = "FHI/s",
		.prom_events = "pcptop_free_high_total",
		.prom_events_help = "free_high flushes.",
		.prom_pages = "pcptop_free_high_pages_total",
		.prom_pages_help = "Pages freed by free_high flushes.",
	},
	{
		.key = "decay",
		.title = "decay_pcp_high calls",
		.type = FIG_BATCH,
		.probe = PROBE_DECAY,
		.events = CNT_DECAY_CALLS, .events_key = "calls",
		.pages = CNT_DECAY_PAGES,
		.hist = HIST_DECAY_PAGES, .total = -1,
		.est_events = EST_RUNS, .est_pages = EST_RUNS,
		.ratios = {
			{ "high_before_avg", CNT_DECAY_HIGH_BEFORE, CNT_DECAY_CALLS },
			{ "high_after_avg", CNT_DECAY_HIGH_AFTER, CNT_DECAY_CALLS },
		},
		.flags = FIG_TL_PAGES | FIG_INFER_SCALE,
		.col_events = "DEC/s",
		.prom_events = "pcptop_decay_calls_total",
		.prom_events_help = "decay_pcp_high calls.",
		.prom_pages = "pcptop_decay_pages_total",
		.prom_pages_help = "Pages freed by decay_pcp_high.",
	},
	{
		.key = "drain",
		.title = "drain_pages_zone chunks",
		.type = FIG_BATCH,
		.probe = PROBE_DRAIN,
		.events = CNT_DRAIN_CALLS, .events_key = "calls",
		.pages = CNT_DRAIN_PAGES,
		.hist = HIST_DRAIN_PAGES, .total = -1,
		.est_events = EST_RUNS, .est_pages = EST_RUNS,
		.flags = FIG_TL_PAGES | FIG_INFER_SCALE,
		.prom_events = "pcptop_drain_calls_total",
		.prom_events_help = "drain_pages_zone chunks.",
		.prom_pages = "pcptop_drain_pages_total",
		.prom_pages_help = "Pages freed by drain_pages_zone.",
	},
	{
		.key = "lock_ns",
		.title = "zone->lock (bulk free)",
		.type = FIG_TIME,
		.probe = PROBE_BULK_FREE,
		.events = -1, .pages = -1,
		.hist = HIST_LOCK_NS, .total = CNT_BULK_FREE_NS,
		.est_events = EST_RUNS, .est_pages = EST_RUNS,
		.flags = FIG_TL_P99,
		.col_p50 = "P50", .col_p99 = "P99", .col_max = "HMAX",
		.prom_total = "pcptop_lock_ns_total",
		.prom_total_help = "zone->lock wait + hold on the bulk free path, nanoseconds.",
		.prom_gauge = "pcptop_lock_ns",
		.prom_gauge_help = "zone->lock time of a bulk free in the last interval",
	},
	{
		.key = "refill_lock_ns",
		.title = "zone->lock (refill)",
		.type = FIG_TIME,
		.probe = PROBE_REFILL,
		.events = -1, .pages = -1,
		.hist = HIST_REFILL_NS, .total = CNT_REFILL_NS,
		.est_events = EST_RUNS, .est_pages = EST_RUNS,
		.prom_total = "pcptop_refill_lock_ns_total",
		.prom_total_help = "zone->lock wait + hold on the refill path, nanoseconds.",
		.prom_gauge = "pcptop_refill_lock_ns",
		.prom_gauge_help = "zone->lock time of a refill in the last interval",
	},
	{
		.key = "cross_check",
		.title = "kmem:mm_page_pcpu_drain pages beside the function probe",
		.type = FIG_CHECK,
		.probe = PROBE_BULK_FREE,
		.events = -1,
		.pages = CNT_XCHECK_DRAIN_PAGES,
		.pages_key = "drain_tracepoint_pages",
		.hist = -1, .total = -1,
		.est_events = EXACT, .est_pages = EXACT,
		.flags = FIG_NEEDS_XCHECK,
		.prom_pages = "pcptop_cross_check_drain_pages_total",
		.prom_pages_help = "Pages kmem:mm_page_pcpu_drain saw beside the function probe (--cross-check).",
	},
};

const int nr_figs = sizeof(fig_table) / sizeof(fig_table[0]);

const char *counter_key(int counter)
{
	if (counter < 0 || counter >= NR_PCPTOP_COUNTERS)
		return NULL;
	return counter_table[counter].key;
}

int counter_find(const char *key)
{
	int i;

	for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
		if (!strcmp(counter_table[i].key, key))
			return i;
	return -1;
}

int hist_find(const char *key)
{
	int i;

	for (i = 0; i < NR_PCPTOP_HISTS; i++)
		if (!strcmp(hist_table[i].key, key))
			return i;
	return -1;
}

const struct fig_desc *fig_find(const char *key)
{
	int i;

	for (i = 0; i < nr_figs; i++)
		if (!strcmp(fig_table[i].key, key))
			return &fig_table[i];
	return NULL;
}

bool fig_events_estimated(const struct fig_desc *d, enum probe_mode mode)
{
	return (unsigned int)mode < NR_PROBE_MODES &&
	       (d->est_events & PROBE_MODE_BIT(mode));
}

bool fig_pages_estimated(const struct fig_desc *d, enum probe_mode mode)
{
	return (unsigned int)mode < NR_PROBE_MODES &&
	       (d->est_pages & PROBE_MODE_BIT(mode));
}
