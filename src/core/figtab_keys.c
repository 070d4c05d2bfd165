// SPDX-License-Identifier: GPL-2.0-only
/*
 * The recording keys of every BPF counter and histogram (bpf/pcptop.h),
 * and each histogram's title, unit and Prometheus name: the rows
 * figtab.c's figures point into.
 */
#include "figtab.h"

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
	[CNT_BULK_ORDER_PAGES] = { "bulk_free_order_pages" },
	[CNT_REASON_HIGH_PAGES] = { "reason_high_pages" },
	[CNT_REASON_DRAIN_PAGES] = { "reason_drain_pages" },
	[CNT_REASON_OFFLINE_PAGES] = { "reason_offline_pages" },
	[CNT_DRAIN_BY_RECLAIM] = { "drain_by_reclaim" },
	[CNT_DRAIN_BY_COMPACTION] = { "drain_by_compaction" },
	[CNT_DRAIN_BY_OFFLINE] = { "drain_by_offline" },
	[CNT_DRAIN_BY_SYSCTL] = { "drain_by_sysctl" },
	[CNT_DRAIN_BY_OTHER] = { "drain_by_other" },
	[CNT_RECLAIM_STALL_NS] = { "reclaim_stall_ns" },
	[CNT_COMPACT_STALL_NS] = { "compact_stall_ns" },
	[CNT_FLUSHES] = { "flushes" },
	[CNT_FLUSH_PAGES] = { "flush_pages" },
	[CNT_FLUSH_CALLS] = { "flush_bulk_calls" },
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
	[HIST_RECLAIM_STALL_NS] = {
		"reclaim_stall_ns", "direct reclaim stall", "nsecs",
		PROBE_RECLAIM, "pcptop_reclaim_stall_seconds",
		"Direct reclaim stalls since start, seconds.", PANE_NONE, false,
		AVAIL_ANY,
	},
	[HIST_COMPACT_STALL_NS] = {
		"compact_stall_ns", "direct compaction stall", "nsecs",
		PROBE_COMPACT, "pcptop_compact_stall_seconds",
		"Direct compaction stalls since start, seconds.", PANE_NONE,
		false, AVAIL_ANY,
	},
	[HIST_FLUSH_PAGES] = {
		"flush_pages", "flush size", "pages", PROBE_BULK_FREE,
		"pcptop_flush_size_pages",
		"Pages per flush (a commit, decay or drain decision) since start.",
		PANE_BATCH, true, AVAIL_FN,
	},
	[HIST_FLUSH_CALLS] = {
		"flush_bulk_calls", "bulk calls per flush", "calls",
		PROBE_BULK_FREE, "pcptop_flush_bulk_calls",
		"free_pcppages_bulk calls per flush since start.", PANE_NONE,
		false, AVAIL_FN,
	},
};
