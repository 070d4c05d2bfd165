/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Structures shared by bpf/pcptop.bpf.c and user space. The BPF side only
 * counts and buckets; every interpretation happens in user space, so these
 * layouts are also what a recording keeps. Recordings name every counter
 * and histogram (src/core/figtab_keys.c), so the enums may be reordered.
 */
#ifndef PCPTOP_H
#define PCPTOP_H

/* BPF code gets __u64 from vmlinux.h, user space from the UAPI headers */
#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* log2 buckets: slot i holds [2^i, 2^(i+1) - 1], slot 0 also holds 0 */
#define PCPTOP_HIST_SLOTS 32

/*
 * struct zone index: DMA, DMA32, Normal, Movable have pagesets (Device
 * never does); tracepoints carry a page but no zone, so their events and
 * any higher index go to the last slot.
 */
#define PCPTOP_MAX_ZONES 5
#define PCPTOP_ZONE_UNKNOWN (PCPTOP_MAX_ZONES - 1)

/* PCP lists hold orders 0..PAGE_ALLOC_COSTLY_ORDER (3) and the THP order */
#define PCPTOP_PAGE_ALLOC_COSTLY_ORDER 3
#define PCPTOP_ORDER_SLOTS 5
#define PCPTOP_ORDER_SLOT_THP 4

/* MIGRATE_UNMOVABLE, MOVABLE, RECLAIMABLE, then CMA alone, then the rest */
#define PCPTOP_MIGRATE_PCPTYPES 3
#define PCPTOP_MT_SLOT_CMA 3
#define PCPTOP_MT_SLOT_OTHER 4
#define PCPTOP_MT_SLOTS 5

enum pcptop_hist {
	HIST_BULK_FREE_PAGES, /* pages per free_pcppages_bulk call (or run) */
	HIST_REFILL_PAGES, /* pages per rmqueue_bulk call (or run) */
	HIST_FREE_HIGH_PAGES, /* pages per free_high flush */
	HIST_HI_ORDER_PAGES, /* tracepoint runs starting at an order 1-3 list */
	HIST_DECAY_PAGES, /* pages freed per decay_pcp_high call */
	HIST_DRAIN_PAGES, /* pages per drain_pages_zone chunk */
	HIST_LOCK_HOLD_NS, /* zone->lock held, bulk free and refill */
	HIST_LOCK_WAIT_NS, /* zone->lock waited for, when contended */
	HIST_IRQS_OFF_NS, /* interrupts off for zone->lock: wait + hold */
	HIST_BULK_CALL_NS, /* free_pcppages_bulk entry to exit */
	HIST_REFILL_CALL_NS, /* rmqueue_bulk entry to exit */
	HIST_BULK_SPAN_NS, /* tracepoint mode: first to last event of a run */
	HIST_REFILL_SPAN_NS,
	HIST_SCALE_AT_LEAST, /* a lower bound of the scale, per observation */
	HIST_SCALE_EXACT, /* the scale a capped chunk proves */
	HIST_RECLAIM_STALL_NS, /* a direct reclaim, begin to end */
	HIST_COMPACT_STALL_NS, /* a direct compaction (try_to_compact_pages) */
	/*
	 * A flush: what the commit function, one decay_pcp_high or one
	 * drain_pages_zone call decided to free at once, in as many bulk
	 * calls as the kernel cut it into (7.x: chunks of pcp->batch)
	 */
	HIST_FLUSH_PAGES, /* pages per flush */
	HIST_FLUSH_CALLS, /* free_pcppages_bulk calls per flush */
	/* wall time without CPU (bpf/waits.bpf.h) */
	HIST_DIRTY_SLEEP_NS, /* a writer's throttle sleep, as slept */
	HIST_THROTTLE_NS, /* a reclaim_throttle() sleep, usec_delayed */
	HIST_BLK_READ_SECTORS, /* a read request's size */
	HIST_BLK_WRITE_SECTORS,
	HIST_BLK_READ_NS, /* a read request, issue to complete */
	HIST_BLK_WRITE_NS,
	/*
	 * Weighted by time: slot i sums the nanoseconds of the locked calls
	 * (bulk frees and refills) whose pages fell in slot i, max is the
	 * largest call's pages. With HIST_BULK_FREE_PAGES and
	 * HIST_REFILL_PAGES they give each pages bucket its calls' mean time,
	 * which whatif prices other scales' calls at; the two time
	 * histograms alone cannot say which call took which time.
	 */
	HIST_LOCK_HOLD_NS_BY_PAGES,
	HIST_IRQS_OFF_NS_BY_PAGES,
	NR_PCPTOP_HISTS,
};

/* per (zone, hist) histogram, a per-CPU array element */
struct pcptop_hist_val {
	__u64 slots[PCPTOP_HIST_SLOTS];
	__u64 max;
};

enum pcptop_counter {
	CNT_BULK_FREE_CALLS,
	CNT_BULK_FREE_PAGES, /* what pcp->count lost (or events counted) */
	CNT_BULK_COUNT_ARG, /* what free_pcppages_bulk was asked for */
	CNT_REFILL_CALLS,
	CNT_REFILL_REQ_PAGES, /* what rmqueue_bulk was asked for */
	CNT_REFILL_PAGES, /* what it returned (or events counted) */
	CNT_FREE_HIGH_COUNT,
	CNT_FREE_HIGH_PAGES,
	CNT_FREE_HIGH_HIGH_CUT, /* what free_high flushes cut from pcp->high */
	CNT_HI_ORDER_RUNS, /* tracepoint runs starting at an order 1-3 list */
	CNT_HI_ORDER_PAGES,
	CNT_DECAY_CALLS,
	CNT_DECAY_TRIMS, /* calls that lowered pcp->high */
	CNT_DECAY_FREES, /* calls that freed pages */
	CNT_DECAY_PAGES,
	CNT_DECAY_HIGH_BEFORE, /* sum of pcp->high at decay_pcp_high entry */
	CNT_DECAY_HIGH_AFTER, /* ... and at its return */
	CNT_DRAIN_CALLS, /* drain_pages_zone calls, by the owning CPU */
	CNT_DRAIN_CHUNKS, /* bulk frees inside them, by the owning CPU */
	CNT_DRAIN_PAGES,
	CNT_BULK_CALL_NS, /* sum of HIST_BULK_CALL_NS samples */
	CNT_REFILL_CALL_NS,
	CNT_LOCK_HOLD_NS,
	CNT_LOCK_WAIT_NS,
	CNT_LOCK_WAITS, /* contended acquisitions timed */
	CNT_LOCK_BUSY, /* calls that found zone->lock taken at entry */
	CNT_IRQS_OFF_NS,
	CNT_IRQ_IN_CALL_NS, /* interrupts run inside the calls, left out */
	CNT_BULK_SPAN_NS, /* tracepoint mode */
	CNT_REFILL_SPAN_NS,
	CNT_XCHECK_DRAIN_PAGES, /* mm_page_pcpu_drain pages, --cross-check */
	/*
	 * Bulk-freed pages at each page's own order slot, not the list the
	 * call started at: kmem:mm_page_pcpu_drain, every mode
	 */
	CNT_BULK_ORDER_PAGES,
	/*
	 * Bulk-freed pages by why they were freed, beside free_high's and
	 * decay's own: the commit's ordinary flush (count >= high), drains
	 * other than a CPU going offline, and those of a CPU going offline
	 */
	CNT_REASON_HIGH_PAGES,
	CNT_REASON_DRAIN_PAGES,
	CNT_REASON_OFFLINE_PAGES,
	/* drain_pages_zone calls by who asked (enum pcptop_drain_caller) */
	CNT_DRAIN_BY_RECLAIM,
	CNT_DRAIN_BY_COMPACTION,
	CNT_DRAIN_BY_OFFLINE,
	CNT_DRAIN_BY_SYSCTL,
	CNT_DRAIN_BY_OTHER,
	CNT_RECLAIM_STALL_NS, /* sum of HIST_RECLAIM_STALL_NS samples */
	CNT_COMPACT_STALL_NS,
	/* flushes (HIST_FLUSH_PAGES), their pages and their bulk calls */
	CNT_FLUSHES,
	CNT_FLUSH_PAGES,
	CNT_FLUSH_CALLS,
	/*
	 * Wall time without CPU (bpf/waits.bpf.h), at PCPTOP_ZONE_UNKNOWN:
	 * writers' throttle sleeps (balance_dirty_pages), those events that
	 * did not sleep, and the sleeps' time as slept and as planned
	 */
	CNT_DIRTY_SLEEPS,
	CNT_DIRTY_NO_SLEEP,
	CNT_DIRTY_SLEPT_NS,
	CNT_DIRTY_PLANNED_NS,
	/* reclaim_throttle() sleeps by reason (WAIT_THROTTLE_*), then time */
	CNT_THROTTLE_WRITEBACK,
	CNT_THROTTLE_ISOLATED,
	CNT_THROTTLE_NOPROGRESS,
	CNT_THROTTLE_CONGESTED,
	CNT_THROTTLE_WRITEBACK_NS,
	CNT_THROTTLE_ISOLATED_NS,
	CNT_THROTTLE_NOPROGRESS_NS,
	CNT_THROTTLE_CONGESTED_NS,
	CNT_THROTTLE_NS,
	/* block requests completed, by direction: read, then write */
	CNT_BLK_READS,
	CNT_BLK_WRITES,
	CNT_BLK_READ_SECTORS,
	CNT_BLK_WRITE_SECTORS,
	CNT_BLK_READ_NS,
	CNT_BLK_WRITE_NS,
	CNT_BLK_OTHER, /* flushes, discards, ...: counted, not sized */
	/* each CPU's idle time, by the wait pending while it was idle */
	CNT_IDLE_DIRTY_NS,
	CNT_IDLE_BLOCK_NS,
	CNT_IDLE_NO_IOWAIT_NS, /* else no task of the CPU in iowait */
	CNT_IDLE_REST_NS, /* else a task in iowait on nothing named */
	/*
	 * --latency: allocations that returned no page, at their order
	 * slot, all of them and by cause: made by readahead (its function
	 * on the stack), other __GFP_NORETRY ones, the rest
	 */
	CNT_ALLOC_FAILS,
	CNT_ALLOC_FAIL_READAHEAD,
	CNT_ALLOC_FAIL_NORETRY,
	CNT_ALLOC_FAIL_OTHER,
	NR_PCPTOP_COUNTERS,
};

/* per (zone, order slot, migratetype slot) counters, a per-CPU array element */
struct pcptop_counter_val {
	__u64 c[NR_PCPTOP_COUNTERS];
};

static inline int pcptop_hist_key(int zone, int hist)
{
	return zone * NR_PCPTOP_HISTS + hist;
}

static inline int pcptop_counter_key(int zone, int order_slot, int mt_slot)
{
	return (zone * PCPTOP_ORDER_SLOTS + order_slot) * PCPTOP_MT_SLOTS +
	       mt_slot;
}

#define PCPTOP_NR_HIST_KEYS (PCPTOP_MAX_ZONES * NR_PCPTOP_HISTS)
#define PCPTOP_NR_COUNTER_KEYS \
	(PCPTOP_MAX_ZONES * PCPTOP_ORDER_SLOTS * PCPTOP_MT_SLOTS)

/*
 * Both maps hold two copies of every key. The probes write the copy of
 * the current epoch; each interval the loader flips the epoch, then reads
 * and zeroes the copy the probes just left, so a reset never races with
 * the kernel's increments.
 */
#define PCPTOP_EPOCHS 2

/* free_high detection rules, chosen in BPF by compat_free_high_rule() */
enum pcptop_free_high_rule {
	FREE_HIGH_RULE_FREE_FACTOR, /* 6.1 .. 6.6: pcp->free_factor */
	FREE_HIGH_RULE_FREE_COUNT, /* 6.7 .. 6.15: free_count >= batch */
	FREE_HIGH_RULE_HIGH_MIN, /* 6.16+: free_count >= batch + high_min / 2 */
};

/*
 * Allocation and free latency (--latency): entry to exit of the page
 * allocator's entry points, by direction, by what happened inside the
 * call and by order (0..3, then every higher order, THP among them).
 */
enum pcptop_lat_dir { LAT_ALLOC, LAT_FREE, NR_LAT_DIRS };
/* alloc: served from the pcp list, or refilled inside; free: flushed or not */
enum pcptop_lat_path { LAT_PATH_PCP, LAT_PATH_BULK, NR_LAT_PATHS };
#define PCPTOP_NR_LAT_KEYS (NR_LAT_DIRS * NR_LAT_PATHS * PCPTOP_ORDER_SLOTS)

struct pcptop_lat_val {
	__u64 slots[PCPTOP_HIST_SLOTS];
	__u64 max;
	__u64 sum; /* ns, for the mean reference 003's table shows */
};

static inline int pcptop_lat_key(int dir, int path, int order_slot)
{
	return (dir * NR_LAT_PATHS + path) * PCPTOP_ORDER_SLOTS + order_slot;
}

/*
 * Who asked for a drain (drain_pages_zone), found on its kernel stack:
 * the innermost frame inside one of the functions the loader names
 * (src/core/kernel_quirks.h), CNT_DRAIN_BY_RECLAIM + caller counts it.
 */
enum pcptop_drain_caller {
	DRAIN_BY_RECLAIM, /* __alloc_pages_direct_reclaim's drain_all_pages() */
	DRAIN_BY_COMPACTION, /* kcompactd's, and compact_zone()'s local drain */
	DRAIN_BY_OFFLINE, /* page_alloc_cpu_dead(): a CPU went offline */
	DRAIN_BY_SYSCTL, /* inside a sysctl write, nothing nearer */
	DRAIN_BY_OTHER, /* CMA, memory offline and failure, hibernation, ... */
	NR_DRAIN_CALLERS,
};

/*
 * Not a drain's caller: a caller range that names readahead for a failed
 * allocation (bpf/latency.bpf.h), which drain_caller() passes over
 */
#define PCPTOP_CALLER_READAHEAD NR_DRAIN_CALLERS

_Static_assert(CNT_DRAIN_BY_OTHER - CNT_DRAIN_BY_RECLAIM == DRAIN_BY_OTHER,
	       "a drain caller's counter is CNT_DRAIN_BY_RECLAIM + caller");

/* reclaim_throttle()'s reasons, as enum vmscan_throttle_state orders them */
enum pcptop_throttle_reason {
	WAIT_THROTTLE_WRITEBACK,
	WAIT_THROTTLE_ISOLATED,
	WAIT_THROTTLE_NOPROGRESS,
	WAIT_THROTTLE_CONGESTED,
	NR_WAIT_THROTTLE_REASONS,
};

_Static_assert(CNT_THROTTLE_CONGESTED - CNT_THROTTLE_WRITEBACK ==
			       WAIT_THROTTLE_CONGESTED &&
		       CNT_THROTTLE_CONGESTED_NS - CNT_THROTTLE_WRITEBACK_NS ==
			       WAIT_THROTTLE_CONGESTED,
	       "a throttle reason's counters are CNT_THROTTLE_*(_NS) + reason");
_Static_assert(CNT_BLK_WRITES == CNT_BLK_READS + 1 &&
		       CNT_BLK_WRITE_SECTORS == CNT_BLK_READ_SECTORS + 1 &&
		       CNT_BLK_WRITE_NS == CNT_BLK_READ_NS + 1,
	       "a block counter's write twin follows its read one");

/* a function's text, [lo, hi), whose frames name a drain's caller */
struct pcptop_caller_range {
	__u64 lo;
	__u64 hi;
	__u32 caller; /* enum pcptop_drain_caller */
	__u32 pad;
};

#define PCPTOP_MAX_CALLER_RANGES 16
/* frames looked at above drain_pages_zone */
#define PCPTOP_DRAIN_STACK_DEPTH 32

/* the scale no observation can exceed (the Kconfig range and CIP's clamp) */
#define PCPTOP_SCALE_MAX 6

#endif /* PCPTOP_H */
