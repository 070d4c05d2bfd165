// SPDX-License-Identifier: GPL-2.0-only
/*
 * What each figure is, in one place. docs/ACCURACY.md says, row by row,
 * what a figure counts in each mode and what kernel count proves it.
 */
#include "figtab.h"

/* estimated in tracepoint mode (event runs) and as a heuristic */
#define EST_RUNS PROBE_MODES_ESTIMATED
#define EST_HEUR PROBE_MODE_BIT(MODE_HEURISTIC)
#define EXACT 0u
/* free_high: probed on the commit function, or inferred at the bulk free */
#define AVAIL_FREE_HIGH (AVAIL_FN | PROBE_MODE_BIT(MODE_HEURISTIC))

const struct counter_desc counter_table[NR_PCPTOP_COUNTERS] = {
	[CNT_BULK_FREE_CALLS] = { "bulk_free_calls" },
	[CNT_BULK_FREE_PAGES] = { "bulk_free_pages" },
	[CNT_BULK_COUNT_ARG] = { "bulk_free_count_arg" },
	[CNT_REFILL_CALLS] = { "refill_calls" },
	[CNT_REFILL_REQ_PAGES] = { "refill_req_pages" },
	[CNT_REFILL_PAGES] = { "refill_pages" },
	[CNT_FREE_HIGH_COUNT] = { "free_high_count" },
	[CNT_FREE_HIGH_PAGES] = { "free_high_pages" },
	[CNT_FREE_HIGH_HIGH_CUT] = { "free_high_high_cut" },
	[CNT_HI_ORDER_RUNS] = { "hi_order_runs" },
	[CNT_HI_ORDER_PAGES] = { "hi_order_pages" },
	[CNT_DECAY_CALLS] = { "decay_calls" },
	[CNT_DECAY_TRIMS] = { "decay_trims" },
	[CNT_DECAY_FREES] = { "decay_frees" },
	[CNT_DECAY_PAGES] = { "decay_pages" },
	[CNT_DECAY_HIGH_BEFORE] = { "decay_high_before" },
	[CNT_DECAY_HIGH_AFTER] = { "decay_high_after" },
	[CNT_DRAIN_CALLS] = { "drain_calls" },
	[CNT_DRAIN_CHUNKS] = { "drain_chunks" },
	[CNT_DRAIN_PAGES] = { "drain_pages" },
	[CNT_BULK_CALL_NS] = { "bulk_free_call_ns" },
	[CNT_REFILL_CALL_NS] = { "refill_call_ns" },
	[CNT_LOCK_HOLD_NS] = { "lock_hold_ns" },
	[CNT_LOCK_WAIT_NS] = { "lock_wait_ns" },
	[CNT_LOCK_WAITS] = { "lock_waits" },
	[CNT_LOCK_BUSY] = { "lock_busy" },
	[CNT_IRQS_OFF_NS] = { "irqs_off_ns" },
	[CNT_IRQ_IN_CALL_NS] = { "irq_in_calls_ns" },
	[CNT_BULK_SPAN_NS] = { "bulk_free_span_ns" },
	[CNT_REFILL_SPAN_NS] = { "refill_span_ns" },
	[CNT_XCHECK_DRAIN_PAGES] = { "xcheck_drain_pages" },
};

const struct hist_desc hist_table[NR_PCPTOP_HISTS] = {
	[HIST_BULK_FREE_PAGES] = {
		"bulk_free_pages", "bulk free size", "pages", PROBE_BULK_FREE,
		"pcptop_bulk_free_size_pages", "Pages per bulk free since start.",
		PANE_BATCH, true, AVAIL_ANY,
	},
	[HIST_REFILL_PAGES] = {
		"refill_pages", "refill size", "pages", PROBE_REFILL,
		"pcptop_refill_size_pages", "Pages per refill since start.",
		PANE_BATCH, true, AVAIL_ANY,
	},
	[HIST_FREE_HIGH_PAGES] = {
		"free_high_pages", "free_high flush size", "pages",
		PROBE_FREE_HIGH, "pcptop_free_high_size_pages",
		"Pages per free_high flush since start.", PANE_NONE, true,
		AVAIL_FREE_HIGH,
	},
	[HIST_HI_ORDER_PAGES] = {
		"hi_order_pages", "order 1-3 run size", "pages",
		PROBE_BULK_FREE, "pcptop_hi_order_size_pages",
		"Pages per bulk-free run starting at an order 1-3 list since start.",
		PANE_NONE, false, AVAIL_TP,
	},
	[HIST_DECAY_PAGES] = {
		"decay_pages", "decay drain size", "pages", PROBE_DECAY,
		"pcptop_decay_size_pages",
		"Pages per decay_pcp_high drain since start.", PANE_NONE, false,
		AVAIL_ANY,
	},
	[HIST_DRAIN_PAGES] = {
		"drain_pages", "drain chunk size", "pages", PROBE_DRAIN,
		"pcptop_drain_size_pages",
		"Pages per drain_pages_zone chunk since start.", PANE_NONE,
		false, AVAIL_ANY,
	},
	[HIST_LOCK_HOLD_NS] = {
		"lock_hold_ns", "zone->lock hold", "nsecs", PROBE_BULK_FREE,
		"pcptop_lock_hold_seconds",
		"zone->lock hold per bulk free or refill since start, seconds.",
		PANE_HOLD, true, AVAIL_FN,
	},
	[HIST_LOCK_WAIT_NS] = {
		"lock_wait_ns", "zone->lock wait (contended)", "nsecs",
		PROBE_BULK_FREE, "pcptop_lock_wait_seconds",
		"zone->lock wait per contended acquisition since start, seconds.",
		PANE_NONE, false, AVAIL_FN,
	},
	[HIST_IRQS_OFF_NS] = {
		"irqs_off_ns", "interrupts off for zone->lock", "nsecs",
		PROBE_BULK_FREE, "pcptop_irqs_off_seconds",
		"Interrupts-off time per bulk free or refill since start, seconds.",
		PANE_HOLD, true, AVAIL_FN,
	},
	[HIST_BULK_CALL_NS] = {
		"bulk_free_call_ns", "bulk free call time", "nsecs",
		PROBE_BULK_FREE, "pcptop_bulk_free_call_seconds",
		"free_pcppages_bulk entry to exit since start, seconds.",
		PANE_NONE, false, AVAIL_FN,
	},
	[HIST_REFILL_CALL_NS] = {
		"refill_call_ns", "refill call time", "nsecs", PROBE_REFILL,
		"pcptop_refill_call_seconds",
		"rmqueue_bulk entry to exit since start, seconds.", PANE_NONE,
		false, AVAIL_FN,
	},
	[HIST_BULK_SPAN_NS] = {
		"bulk_free_span_ns", "bulk free event span", "nsecs",
		PROBE_BULK_FREE, "pcptop_bulk_free_span_seconds",
		"First to last mm_page_pcpu_drain of a run since start, seconds.",
		PANE_HOLD, false, AVAIL_TP,
	},
	[HIST_REFILL_SPAN_NS] = {
		"refill_span_ns", "refill event span", "nsecs", PROBE_REFILL,
		"pcptop_refill_span_seconds",
		"First to last refill event of a run since start, seconds.",
		PANE_HOLD, false, AVAIL_TP,
	},
	[HIST_SCALE_AT_LEAST] = {
		"scale_at_least", "scale lower bounds seen", "scale",
		PROBE_BULK_FREE, "pcptop_scale_at_least",
		"Lower bounds of the PCP batch scale the bulk frees proved since start.",
		PANE_NONE, false, AVAIL_FN,
	},
	[HIST_SCALE_EXACT] = {
		"scale_exact", "scale proved by capped chunks", "scale",
		PROBE_BULK_FREE, "pcptop_scale_exact",
		"The PCP batch scale drain chunks cut at batch << scale proved since start.",
		PANE_NONE, false, AVAIL_FN,
	},
};

/* the figures the BPF programs count, in the order every output lists them */
static const struct fig_desc bpf_figs[] = {
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
			{ "high_before_avg", CNT_DECAY_HIGH_BEFORE, CNT_DECAY_CALLS },
			{ "high_after_avg", CNT_DECAY_HIGH_AFTER, CNT_DECAY_CALLS },
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
		.key = "lock_hold_ns",
		.title = "zone->lock hold (bulk frees, and refills where rmqueue_bulk is probed)",
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
		.key = "irqs_off_ns",
		.title = "interrupts off for zone->lock (wait + hold)",
		.type = FIG_TIME,
		.probe = PROBE_BULK_FREE,
		.events = -1, .pages = -1,
		.hist = HIST_IRQS_OFF_NS, .total = CNT_IRQS_OFF_NS,
		.avail = AVAIL_FN,
		.est_events = EXACT, .est_pages = EXACT,
		.flags = FIG_TL_P99,
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
		.flags = FIG_TL_P99,
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
		.prom_total = "pcptop_refill_span_seconds_total",
		.prom_total_help = "Refill event spans, seconds (tracepoint mode).",
		.prom_gauge = "pcptop_refill_span_seconds",
		.prom_gauge_help = "refill event span in the last interval",
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
		.avail = AVAIL_FN,
		.est_events = EXACT, .est_pages = EXACT,
		.flags = FIG_NEEDS_XCHECK,
		.prom_pages = "pcptop_cross_check_drain_pages_total",
		.prom_pages_help = "Pages kmem:mm_page_pcpu_drain saw beside the function probe (--cross-check).",
	},
};

/*
 * The built-in table: the BPF rows above, then the sampled ones
 * (figtab_sampled.c), put together before main() runs so that every
 * reader sees one array.
 */
static struct fig_desc builtin_figs[FIGTAB_MAX];
static int nr_builtin;

const struct fig_desc *fig_table = builtin_figs;
int nr_figs;

static void __attribute__((constructor)) figtab_assemble(void)
{
	int n = sizeof(bpf_figs) / sizeof(bpf_figs[0]), i;

	for (i = 0; i < n && nr_builtin < FIGTAB_MAX; i++)
		builtin_figs[nr_builtin++] = bpf_figs[i];
	for (i = 0; i < nr_sampled_figs && nr_builtin < FIGTAB_MAX; i++)
		builtin_figs[nr_builtin++] = sampled_figs[i];
	nr_figs = nr_builtin;
}

const struct fig_desc *figtab_builtin(int *n)
{
	*n = nr_builtin;
	return builtin_figs;
}
