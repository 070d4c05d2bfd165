/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tracepoint mode: where no function probe attaches, kmem:mm_page_pcpu_drain
 * and kmem:mm_page_alloc_zone_locked stand in for free_pcppages_bulk and
 * rmqueue_bulk. Pages are exact; calls and their sizes are estimated from
 * runs of events on one CPU (run_gap_ns, run_max_pages; docs/ACCURACY.md).
 */
#ifndef PCPTOP_TPMODE_BPF_H
#define PCPTOP_TPMODE_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "compat.bpf.h"
#include "latency.bpf.h"
#include "pcptop.h"
#include "rawtp.bpf.h"
#include "state.bpf.h"

/* ---- tracepoint mode: calls and spans estimated from event runs ---- */

static __always_inline void run_close(struct event_run *run)
{
	int oslot = compat_order_slot(run->order);
	int mslot = compat_mt_slot(run->mt);
	int zone = PCPTOP_ZONE_UNKNOWN;
	__u64 ns = run->last_ns - run->start_ns;
	__u32 ep = cur_epoch();

	if (run->kind == RUN_FREE) {
		count_add(ep, zone, oslot, mslot, CNT_BULK_SPAN_NS, ns);
		hist_record(ep, zone, HIST_BULK_FREE_PAGES, run->pages);
		hist_record(ep, zone, HIST_BULK_SPAN_NS, ns);
		/* free_high flushes start here, but so may other flushes */
		if (oslot > 0 && oslot <= PCPTOP_PAGE_ALLOC_COSTLY_ORDER) {
			count_add(ep, zone, oslot, mslot, CNT_HI_ORDER_RUNS, 1);
			count_add(ep, zone, oslot, mslot, CNT_HI_ORDER_PAGES,
				  run->pages);
			hist_record(ep, zone, HIST_HI_ORDER_PAGES, run->pages);
		}
	} else if (run->kind == RUN_REFILL) {
		count_add(ep, zone, oslot, mslot, CNT_REFILL_SPAN_NS, ns);
		hist_record(ep, zone, HIST_REFILL_PAGES, run->pages);
		hist_record(ep, zone, HIST_REFILL_SPAN_NS, ns);
	}
	run->kind = RUN_NONE;
}

static __always_inline void run_event(int kind, unsigned int order, int mt)
{
	struct cpu_state *st = cpu_state();
	__u64 now = bpf_ktime_get_ns();
	__u64 pages = 1ULL << (order & 31);
	struct pcptop_counter_val *cnt;
	struct event_run *run;
	__u32 ep = cur_epoch();

	if (!st)
		return;
	run = &st->run;
	cnt = counters_of(ep, PCPTOP_ZONE_UNKNOWN, compat_order_slot(order),
			  compat_mt_slot(mt));
	count_in(cnt, kind == RUN_FREE ? CNT_BULK_FREE_PAGES : CNT_REFILL_PAGES,
		 pages);
	/* each page at its own order, as beside the function probes */
	if (kind == RUN_FREE)
		count_in(cnt, CNT_BULK_ORDER_PAGES, pages);
	if (run->kind == kind && now - run->last_ns <= run_gap_ns &&
	    (!run_max_pages || run->pages + pages <= run_max_pages)) {
		run->pages += pages;
		run->last_ns = now;
		return;
	}
	run_close(run);
	if (latency_on)
		lat_mark(kind == RUN_FREE ? LAT_FREE : LAT_ALLOC);
	/*
	 * A run only closes at the next event, which may come intervals
	 * later: the call is counted as it starts, in the interval its pages
	 * are counted in; its size and span go to the histograms at close.
	 */
	count_add(ep, PCPTOP_ZONE_UNKNOWN, compat_order_slot(order),
		  compat_mt_slot(mt),
		  kind == RUN_FREE ? CNT_BULK_FREE_CALLS : CNT_REFILL_CALLS, 1);
	run->kind = kind;
	run->start_ns = now;
	run->last_ns = now;
	run->pages = pages;
	run->order = order;
	run->mt = mt;
}

/* a refill's pages, among the zone-locked allocations of any kind */
static __always_inline int on_zone_locked(unsigned int order, int migratetype,
					  int percpu_refill)
{
	if (percpu_refill)
		run_event(RUN_REFILL, order, migratetype);
	return 0;
}

TP_TWIN(mm_page_pcpu_drain, tp_drain,
	(run_event(RUN_FREE, order, migratetype), 0), struct page *page,
	unsigned int order, int migratetype)
TP_TWIN(mm_page_alloc_zone_locked, tp_zone_locked,
	on_zone_locked(order, migratetype, percpu_refill), struct page *page,
	unsigned int order, int migratetype, int percpu_refill)

/*
 * --cross-check: the tracepoint's page count beside the function probe's.
 * Pages of a bulk free this CPU is inside are booked by its exit, in the
 * same map copy as the call's own pages: were they booked here, a call
 * running across the loader's epoch flip would put its events in the
 * interval just read and its exit in the next one. Events outside any
 * call seen at entry are booked at once, so calls the function probe
 * missed still show as a difference.
 */
static __always_inline int on_drain_xcheck(unsigned int order, int migratetype)
{
	struct cpu_state *st = cpu_state();
	__u64 pages = 1ULL << (order & 31);
	struct inflight *f = NULL;
	__u64 key;

	if (st && st->cur_call) {
		key = st->cur_call;
		f = bpf_map_lookup_elem(&inflight, &key);
	}
	if (f) {
		f->xcheck += pages;
		return 0;
	}
	count_add(cur_epoch(), PCPTOP_ZONE_UNKNOWN, compat_order_slot(order),
		  compat_mt_slot(migratetype), CNT_XCHECK_DRAIN_PAGES, pages);
	return 0;
}

TP_TWIN(mm_page_pcpu_drain, tp_drain_xcheck,
	on_drain_xcheck(order, migratetype), struct page *page,
	unsigned int order, int migratetype)

/*
 * The bulk_order support probe: beside a function probe on the bulk free,
 * which sees what pcp->count lost but not of which orders, each page at
 * its own order and migratetype, in the zone of the call it is inside.
 * Counted at once rather than at the call's exit as --cross-check does:
 * a per-page hash lookup was the larger part of this program's cost, and
 * a call running across an epoch flip moves some pages to the next
 * interval, which the run's totals do not see.
 */
static __always_inline int on_drain_order(unsigned int order, int migratetype)
{
	struct cpu_state *st = cpu_state();
	int zone = st && st->cur_call ? st->cur_zone : PCPTOP_ZONE_UNKNOWN;

	if (zone < 0 || zone >= PCPTOP_MAX_ZONES)
		zone = PCPTOP_ZONE_UNKNOWN;
	count_add(cur_epoch(), zone, compat_order_slot(order),
		  compat_mt_slot(migratetype), CNT_BULK_ORDER_PAGES,
		  1ULL << (order & 31));
	return 0;
}

TP_TWIN(mm_page_pcpu_drain, tp_drain_order, on_drain_order(order, migratetype),
	struct page *page, unsigned int order, int migratetype)

#endif /* PCPTOP_TPMODE_BPF_H */
