// SPDX-License-Identifier: GPL-2.0-only
/*
 * What each figure is, in one place: the rows of the pcp lists and
 * zone->lock here, what tasks wait for in figtab_waits.c, the sampled
 * ones in figtab_sampled.c, put together below into the one table.
 * docs/ACCURACY.md says, row by row, what a figure counts in each mode
 * and what kernel count proves it.
 */
#include "arrays.h"
#include "figtab.h"
#include "figtab_est.h"

/* free_high: probed on the commit function, or inferred at the bulk free */
#define AVAIL_FREE_HIGH (AVAIL_FN | PROBE_MODE_BIT(MODE_HEURISTIC))

/* what the pcp lists and zone->lock do, in the order every output lists them */
static const struct fig_desc pcp_figs[] = {
	{
		.key = "bulk_free",
		.title = "bulk frees (free_pcppages_bulk)",
		.type = FIG_BATCH,
		.probe = PROBE_BULK_FREE,
		.events = CNT_BULK_FREE_CALLS, .events_key = "calls",
		.pages = CNT_BULK_FREE_PAGES,
		.hist = HIST_BULK_FREE_PAGES, .total = -1,
		.est_events = EST_RUNS, .est_pages = EXACT,
		.extras = {
			{ "count_arg", CNT_BULK_COUNT_ARG,
			  "pcptop_bulk_free_count_arg_total",
			  "Pages free_pcppages_bulk was asked to free (function probes).", AVAIL_FN },
		},
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
		/*
		 * A flush is what one decision freed: the commit function's
		 * (count >= high or free_high), one decay_pcp_high call's or
		 * one drain_pages_zone call's. Up to 6.18 a commit flush is
		 * one bulk call; 7.x frees it in calls of at most pcp->batch,
		 * so bulk_free's sizes stop at batch and this keeps the size
		 * the scale sets. Every bulk call belongs to one flush.
		 */
		.key = "flush",
		.title = "flushes: what the commit function, a decay_pcp_high or a drain_pages_zone call freed at once, in one bulk call or several (7.x)",
		.type = FIG_BATCH,
		.probe = PROBE_BULK_FREE,
		.events = CNT_FLUSHES, .events_key = "count",
		.pages = CNT_FLUSH_PAGES,
		.hist = HIST_FLUSH_PAGES, .total = -1,
		.avail = AVAIL_FN,
		.est_events = EXACT, .est_pages = EXACT,
		.ratios = {
			{ "bulk_calls_per_flush", CNT_FLUSH_CALLS, CNT_FLUSHES,
			  "calls" },
		},
		.extras = {
			{ "bulk_calls", CNT_FLUSH_CALLS,
			  "pcptop_flush_bulk_calls_total",
			  "free_pcppages_bulk calls the flushes were freed in.", AVAIL_FN },
		},
		.flags = FIG_TL_EVENTS | FIG_TL_PAGES | FIG_TL_MAX |
			 FIG_RATE_DIFF | FIG_PROM_MAX,
		.col_events = "FLU/s", .col_max = "FMAX",
		.prom_events = "pcptop_flushes_total",
		.prom_events_help = "Flushes: commit, decay and drain decisions that freed pages.",
		.prom_pages = "pcptop_flush_pages_total",
		.prom_pages_help = "Pages the flushes freed (all bulk-freed pages).",
		.prom_gauge = "pcptop_flush_pages",
		.prom_gauge_help = "Largest flush in the last interval, pages.",
	},
	{
		.key = "refill",
		.title = "refills (rmqueue_bulk)",
		.type = FIG_BATCH,
		.probe = PROBE_REFILL,
		.events = CNT_REFILL_CALLS, .events_key = "calls",
		.pages = CNT_REFILL_PAGES,
		.hist = HIST_REFILL_PAGES, .total = -1,
		.est_events = EST_RUNS, .est_pages = EST_RUNS,
		.extras = {
			{ "asked", CNT_REFILL_REQ_PAGES,
			  "pcptop_refill_asked_pages_total",
			  "Pages rmqueue_bulk was asked for (function probes).", AVAIL_FN },
		},
		.flags = FIG_TL_EVENTS | FIG_TL_PAGES | FIG_TL_MAX |
			 FIG_RATE_DIFF | FIG_HTML_RATE | FIG_BY_MT,
		.col_events = "REF/s", .col_pages = "RPG/s",
		.prom_events = "pcptop_refill_calls_total",
		.prom_events_help = "rmqueue_bulk calls (event runs when estimated).",
		.prom_pages = "pcptop_refill_pages_total",
		.prom_pages_help = "Pages taken from the buddy allocator by refills.",
	},
	{
		.key = "free_high",
		.title = "free_high flushes (a high-order freeing streak past its threshold)",
		.type = FIG_BATCH,
		.probe = PROBE_FREE_HIGH,
		.events = CNT_FREE_HIGH_COUNT, .events_key = "count",
		.pages = CNT_FREE_HIGH_PAGES,
		.hist = HIST_FREE_HIGH_PAGES, .total = -1,
		.avail = AVAIL_FREE_HIGH,
		.est_events = EST_HEUR, .est_pages = EST_HEUR,
		.extras = {
			{ "high_cut", CNT_FREE_HIGH_HIGH_CUT,
			  "pcptop_free_high_high_cut_pages_total",
			  "Pages free_high flushes took off pcp->high (6.7+, --exact-free-high).",
			  AVAIL_FN },
		},
		.flags = FIG_TL_PAGES,
		.col_events = "FHI/s",
		.prom_events = "pcptop_free_high_total",
		.prom_events_help = "free_high flushes.",
		.prom_pages = "pcptop_free_high_pages_total",
		.prom_pages_help = "Pages freed by free_high flushes.",
	},
	{
		.key = "hi_order_runs",
		.title = "bulk-free runs starting at an order 1-3 list (free_high flushes are among them)",
		.type = FIG_BATCH,
		.probe = PROBE_BULK_FREE,
		.events = CNT_HI_ORDER_RUNS, .events_key = "runs",
		.pages = CNT_HI_ORDER_PAGES,
		.hist = HIST_HI_ORDER_PAGES, .total = -1,
		.avail = AVAIL_TP,
		.est_events = EST_RUNS, .est_pages = EST_RUNS,
		.flags = FIG_TL_PAGES,
		.col_events = "HIO/s",
		.prom_events = "pcptop_hi_order_runs_total",
		.prom_events_help = "Bulk-free event runs starting at an order 1-3 list (tracepoint mode).",
		.prom_pages = "pcptop_hi_order_pages_total",
		.prom_pages_help = "Pages of those runs.",
	},
	{
		.key = "decay",
		.title = "decay_pcp_high calls (vmstat's periodic cut of pcp->high)",
		.type = FIG_BATCH,
		.probe = PROBE_DECAY,
		.events = CNT_DECAY_CALLS, .events_key = "calls",
		.pages = CNT_DECAY_PAGES,
		.hist = HIST_DECAY_PAGES, .total = -1,
		.est_events = EXACT, .est_pages = EXACT,
		.ratios = {
			{ "high_before_avg", CNT_DECAY_HIGH_BEFORE, CNT_DECAY_CALLS,
			  "pages" },
			{ "high_after_avg", CNT_DECAY_HIGH_AFTER, CNT_DECAY_CALLS,
			  "pages" },
		},
		.extras = {
			{ "trims", CNT_DECAY_TRIMS, "pcptop_decay_trims_total",
			  "decay_pcp_high calls that lowered pcp->high." },
			{ "frees", CNT_DECAY_FREES, "pcptop_decay_frees_total",
			  "decay_pcp_high calls that freed pages." },
		},
		.flags = FIG_TL_PAGES,
		.col_events = "DEC/s",
		.prom_events = "pcptop_decay_calls_total",
		.prom_events_help = "decay_pcp_high calls.",
		.prom_pages = "pcptop_decay_pages_total",
		.prom_pages_help = "Pages freed by decay_pcp_high.",
	},
	{
		.key = "drain",
		.title = "drain_pages_zone chunks, charged to the CPU owning the pageset",
		.type = FIG_BATCH,
		.probe = PROBE_DRAIN,
		.events = CNT_DRAIN_CHUNKS, .events_key = "chunks",
		.pages = CNT_DRAIN_PAGES,
		.hist = HIST_DRAIN_PAGES, .total = -1,
		.est_events = EXACT, .est_pages = EXACT,
		.extras = {
			{ "calls", CNT_DRAIN_CALLS, "pcptop_drain_calls_total",
			  "drain_pages_zone calls." },
		},
		.flags = FIG_TL_PAGES,
		.prom_events = "pcptop_drain_chunks_total",
		.prom_events_help = "Bulk frees inside drain_pages_zone.",
		.prom_pages = "pcptop_drain_pages_total",
		.prom_pages_help = "Pages freed by drain_pages_zone.",
	},
	{
		.key = "bulk_free_by_order",
		.title = "bulk-freed pages by their own order (not the list a call began at); thp: the THP order",
		.type = FIG_SPLIT,
		.probe = PROBE_BULK_FREE,
		.beside = BESIDE(PROBE_BULK_ORDER),
		.events = -1, .pages = -1, .hist = -1, .total = -1,
		.est_events = EXACT, .est_pages = EXACT,
		.unit = "pages",
		.part_label = "order",
		.parts = {
			{ "0", CNT_BULK_ORDER_PAGES, FIG_ORDER(0) },
			{ "1", CNT_BULK_ORDER_PAGES, FIG_ORDER(1) },
			{ "2", CNT_BULK_ORDER_PAGES, FIG_ORDER(2) },
			{ "3", CNT_BULK_ORDER_PAGES, FIG_ORDER(3) },
			{ "thp", CNT_BULK_ORDER_PAGES,
			  FIG_ORDER(PCPTOP_ORDER_SLOT_THP) },
		},
		.prom_total = "pcptop_bulk_free_order_pages_total",
		.prom_total_help = "Bulk-freed pages by their order (thp: the THP order).",
		.live = LIVE_PANE,
	},
	{
		.key = "refill_by_order",
		.title = "pages refills took by order; thp: the THP order",
		.type = FIG_SPLIT,
		.probe = PROBE_REFILL,
		.events = -1, .pages = -1, .hist = -1, .total = -1,
		.est_events = EST_RUNS, .est_pages = EST_RUNS,
		.unit = "pages",
		.part_label = "order",
		.parts = {
			{ "0", CNT_REFILL_PAGES, FIG_ORDER(0) },
			{ "1", CNT_REFILL_PAGES, FIG_ORDER(1) },
			{ "2", CNT_REFILL_PAGES, FIG_ORDER(2) },
			{ "3", CNT_REFILL_PAGES, FIG_ORDER(3) },
			{ "thp", CNT_REFILL_PAGES, FIG_ORDER(PCPTOP_ORDER_SLOT_THP) },
		},
		.prom_total = "pcptop_refill_order_pages_total",
		.prom_total_help = "Pages refills took, by order (thp: the THP order).",
		.live = LIVE_PANE,
	},
	{
		/*
		 * Every bulk free has one reason: free_high's and decay's
		 * pages are those figures' own. Estimated where free_high is.
		 */
		.key = "bulk_free_by_reason",
		.title = "bulk-freed pages by why: the commit's flush at count >= high, free_high, decay, drains, drains of a CPU going offline",
		.type = FIG_SPLIT,
		.probe = PROBE_FREE_HIGH,
		.events = -1, .pages = -1, .hist = -1, .total = -1,
		.avail = AVAIL_FREE_HIGH,
		.est_events = EST_HEUR, .est_pages = EST_HEUR,
		.unit = "pages",
		.part_label = "reason",
		.parts = {
			{ "high", CNT_REASON_HIGH_PAGES, 0 },
			{ "free_high", CNT_FREE_HIGH_PAGES, 0 },
			{ "decay", CNT_DECAY_PAGES, 0 },
			{ "drain", CNT_REASON_DRAIN_PAGES, 0 },
			{ "offline", CNT_REASON_OFFLINE_PAGES, 0 },
		},
		.prom_total = "pcptop_bulk_free_reason_pages_total",
		.prom_total_help = "Bulk-freed pages by reason.",
		.live = LIVE_PANE,
	},
	{
		.key = "drain_by_caller",
		.title = "drain_pages_zone calls by who asked: direct reclaim, compaction, a CPU going offline, a sysctl write, the rest",
		.type = FIG_SPLIT,
		.probe = PROBE_DRAIN,
		.events = -1, .pages = -1, .hist = -1, .total = -1,
		.est_events = EXACT, .est_pages = EXACT,
		.unit = "calls",
		.part_label = "caller",
		.parts = {
			{ "reclaim", CNT_DRAIN_BY_RECLAIM, 0 },
			{ "compaction", CNT_DRAIN_BY_COMPACTION, 0 },
			{ "offline", CNT_DRAIN_BY_OFFLINE, 0 },
			{ "sysctl", CNT_DRAIN_BY_SYSCTL, 0 },
			{ "other", CNT_DRAIN_BY_OTHER, 0 },
		},
		.prom_total = "pcptop_drain_caller_calls_total",
		.prom_total_help = "drain_pages_zone calls by caller.",
		.live = LIVE_PANE,
	},
	{
		.key = "lock_hold_ns",
		.title = "zone->lock hold, interrupts off, per bulk call (a 7.x flush's chunk) and refill where rmqueue_bulk is probed",
		.type = FIG_TIME,
		.probe = PROBE_BULK_FREE,
		.events = -1, .pages = -1,
		.hist = HIST_LOCK_HOLD_NS, .total = CNT_LOCK_HOLD_NS,
		.avail = AVAIL_FN,
		.est_events = EXACT, .est_pages = EXACT,
		.extras = {
			{ "irq_ns_left_out", CNT_IRQ_IN_CALL_NS,
			  "pcptop_irq_in_calls_seconds_total",
			  "Interrupt time inside the calls, left out of hold, seconds.", AVAIL_FN },
		},
		.flags = FIG_TL_P99,
		.col_p99 = "HOLD", .col_max = "HMAX",
		.prom_total = "pcptop_lock_hold_seconds_total",
		.prom_total_help = "zone->lock hold in bulk frees and refills, seconds.",
		.prom_gauge = "pcptop_lock_hold_seconds",
		.prom_gauge_help = "zone->lock hold of a bulk free or refill in the last interval",
	},
	{
		.key = "lock_wait_ns",
		.title = "zone->lock wait, contended acquisitions",
		.type = FIG_TIME,
		.probe = PROBE_BULK_FREE,
		.events = CNT_LOCK_WAITS, .events_key = "waits",
		.pages = -1,
		.hist = HIST_LOCK_WAIT_NS, .total = CNT_LOCK_WAIT_NS,
		.avail = AVAIL_FN,
		.est_events = EXACT, .est_pages = EXACT,
		.extras = {
			{ "busy_at_entry", CNT_LOCK_BUSY, "pcptop_lock_busy_total",
			  "Bulk frees and refills that found zone->lock taken.", AVAIL_FN },
		},
		.col_p99 = "WAIT",
		.prom_total = "pcptop_lock_wait_seconds_total",
		.prom_total_help = "zone->lock wait in bulk frees and refills, seconds.",
		.prom_gauge = "pcptop_lock_wait_seconds",
		.prom_gauge_help = "zone->lock wait of a contended acquisition in the last interval",
	},
	{
		/*
		 * On SMP the pcp lock leaves interrupts on (pcp_spin_trylock):
		 * zone->lock's irqsave, inside the bulk free and the refill,
		 * is all the pcp paths turn interrupts off for. On !SMP the
		 * whole pcp section has them off, and this is a lower bound.
		 */
		.key = "irqs_off_ns",
		.title = "interrupts off for zone->lock (wait + hold; refills where rmqueue_bulk is probed)",
		.type = FIG_TIME,
		.probe = PROBE_BULK_FREE,
		.events = -1, .pages = -1,
		.hist = HIST_IRQS_OFF_NS, .total = CNT_IRQS_OFF_NS,
		.avail = AVAIL_FN,
		.est_events = EXACT, .est_pages = EXACT,
		.flags = FIG_TL_P99 | FIG_PER_S,
		.col_p99 = "IOFF", .col_max = "IMAX",
		.prom_total = "pcptop_irqs_off_seconds_total",
		.prom_total_help = "Interrupts-off time for zone->lock in bulk frees and refills, seconds.",
		.prom_gauge = "pcptop_irqs_off_seconds",
		.prom_gauge_help = "interrupts-off time of a bulk free or refill in the last interval",
	},
	{
		.key = "bulk_free_call_ns",
		.title = "bulk free call time (entry to exit, interrupts included)",
		.type = FIG_TIME,
		.probe = PROBE_BULK_FREE,
		.events = -1, .pages = -1,
		.hist = HIST_BULK_CALL_NS, .total = CNT_BULK_CALL_NS,
		.avail = AVAIL_FN,
		.est_events = EXACT, .est_pages = EXACT,
		.prom_total = "pcptop_bulk_free_call_seconds_total",
		.prom_total_help = "free_pcppages_bulk entry to exit, seconds.",
		.prom_gauge = "pcptop_bulk_free_call_seconds",
		.prom_gauge_help = "free_pcppages_bulk call time in the last interval",
	},
	{
		.key = "refill_call_ns",
		.title = "refill call time (entry to exit, interrupts included)",
		.type = FIG_TIME,
		.probe = PROBE_REFILL,
		.events = -1, .pages = -1,
		.hist = HIST_REFILL_CALL_NS, .total = CNT_REFILL_CALL_NS,
		.avail = AVAIL_FN,
		.est_events = EXACT, .est_pages = EXACT,
		.prom_total = "pcptop_refill_call_seconds_total",
		.prom_total_help = "rmqueue_bulk entry to exit, seconds.",
		.prom_gauge = "pcptop_refill_call_seconds",
		.prom_gauge_help = "rmqueue_bulk call time in the last interval",
	},
	{
		.key = "bulk_free_span_ns",
		.title = "bulk free event span (first to last page event of a run)",
		.type = FIG_TIME,
		.probe = PROBE_BULK_FREE,
		.events = -1, .pages = -1,
		.hist = HIST_BULK_SPAN_NS, .total = CNT_BULK_SPAN_NS,
		.avail = AVAIL_TP,
		.est_events = EST_RUNS, .est_pages = EST_RUNS,
		.flags = FIG_TL_P99 | FIG_PER_S,
		.col_p99 = "SPAN", .col_max = "SMAX",
		.prom_total = "pcptop_bulk_free_span_seconds_total",
		.prom_total_help = "Bulk-free event spans, seconds (tracepoint mode).",
		.prom_gauge = "pcptop_bulk_free_span_seconds",
		.prom_gauge_help = "bulk-free event span in the last interval",
	},
	{
		.key = "refill_span_ns",
		.title = "refill event span (first to last page event of a run)",
		.type = FIG_TIME,
		.probe = PROBE_REFILL,
		.events = -1, .pages = -1,
		.hist = HIST_REFILL_SPAN_NS, .total = CNT_REFILL_SPAN_NS,
		.avail = AVAIL_TP,
		.est_events = EST_RUNS, .est_pages = EST_RUNS,
		.flags = FIG_PER_S,
		.prom_total = "pcptop_refill_span_seconds_total",
		.prom_total_help = "Refill event spans, seconds (tracepoint mode).",
		.prom_gauge = "pcptop_refill_span_seconds",
		.prom_gauge_help = "refill event span in the last interval",
	},
};

/* last of the BPF rows, after the waits', where every output has listed it */
static const struct fig_desc check_figs[] = {
	{
		.key = "cross_check",
		.title =
			"kmem:mm_page_pcpu_drain pages beside the function probe",
		.type = FIG_CHECK,
		.probe = PROBE_BULK_FREE,
		.events = -1,
		.pages = CNT_XCHECK_DRAIN_PAGES,
		.pages_key = "drain_tracepoint_pages",
		.hist = -1,
		.total = -1,
		.avail = AVAIL_FN,
		.est_events = EXACT,
		.est_pages = EXACT,
		.flags = FIG_NEEDS_XCHECK,
		.prom_pages = "pcptop_cross_check_drain_pages_total",
		.prom_pages_help =
			"Pages kmem:mm_page_pcpu_drain saw beside the function probe (--cross-check).",
	},
};

/*
 * The built-in table: the pcp rows above, the waits' rows
 * (figtab_waits.c), the cross-check, then the sampled ones
 * (figtab_sampled.c), put together before main() runs so that every
 * reader sees one array.
 */
static struct fig_desc builtin_figs[FIGTAB_MAX];
static int nr_builtin;

const struct fig_desc *fig_table = builtin_figs;
int nr_figs;

static void figtab_append(const struct fig_desc *rows, int n)
{
	int i;

	for (i = 0; i < n && nr_builtin < FIGTAB_MAX; i++)
		builtin_figs[nr_builtin++] = rows[i];
}

static void __attribute__((constructor)) figtab_assemble(void)
{
	figtab_append(pcp_figs, ARRAY_SIZE(pcp_figs));
	figtab_append(wait_figs, nr_wait_figs);
	figtab_append(check_figs, ARRAY_SIZE(check_figs));
	figtab_append(sampled_figs, nr_sampled_figs);
	nr_figs = nr_builtin;
}

const struct fig_desc *figtab_builtin(int *n)
{
	*n = nr_builtin;
	return builtin_figs;
}
