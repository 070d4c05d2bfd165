/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every kernel-version quirk the BPF side depends on, in one place, each
 * with the change that caused it (commit, title, first kernel), as
 * libbpf-tools' core_fixes.bpf.h does. The rest of bpf/ calls only these
 * helpers. The names and argument counts the loader tries are user
 * space's half: src/core/kernel_quirks.h and src/kernel/uapi_compat.h.
 *
 * vmlinux.h comes from Debian's 6.12 kernel; older and newer layouts are
 * reached through CO-RE "___flavour" structs and field-existence checks, so
 * one object loads on 6.1 through 6.18.
 */
#ifndef PCPTOP_COMPAT_BPF_H
#define PCPTOP_COMPAT_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "pcptop.h"

/*
 * commit 6ccdcb6d3a74 ("mm, pcp: reduce detecting time of consecutive
 * high order page freeing"), v6.7, replaces pcp->free_factor with
 * free_count; commit ca71fe1ad922 ("mm, pcp: avoid to drain PCP when
 * process exit"), v6.7, adds pcp->flags; commit 90b41691b988 ("mm: add
 * framework for PCP high auto-tuning"), v6.7, adds high_min and high_max.
 * This flavour names the one field of 6.1/6.6 read here.
 */
struct per_cpu_pages___v61 {
	short free_factor;
} __attribute__((preserve_access_index));

/*
 * PCPF_* bits are #defines, absent from BTF. commit ca71fe1ad922 ("mm,
 * pcp: avoid to drain PCP when process exit"), v6.7, adds
 * PCPF_PREV_FREE_HIGH_ORDER; commit 362d37a106dd ("mm, pcp: reduce lock
 * contention for draining high-order pages"), v6.7, PCPF_FREE_HIGH_BATCH.
 */
#define PCPTOP_PCPF_PREV_FREE_HIGH_ORDER (1 << 0)
#define PCPTOP_PCPF_FREE_HIGH_BATCH (1 << 1)

/*
 * commit c544a952ba61 ("mm: pcp: increase pcp->free_count threshold to
 * trigger free_high"), v6.16, raises the threshold from batch to batch +
 * high_min / 2. Nothing in BTF tells the two apart, and a vendor 6.12 may
 * carry the change: the loader takes the rule from its evidence
 * (src/kernel/kernel_facts.c: a chunked commit function postdates it) and
 * sets free_high_rule_set; without it the version decides.
 */
#define PCPTOP_FREE_HIGH_HIGH_MIN_VERSION KERNEL_VERSION(6, 16, 0)
#ifndef KERNEL_VERSION
#define KERNEL_VERSION(a, b, c) \
	(((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#endif

extern int LINUX_KERNEL_VERSION __kconfig;
extern const volatile int free_high_rule_set;

static __always_inline int compat_free_high_rule(void)
{
	struct per_cpu_pages *pcp = NULL;

	if (!bpf_core_field_exists(pcp->free_count))
		return FREE_HIGH_RULE_FREE_FACTOR;
	if (free_high_rule_set == FREE_HIGH_RULE_FREE_COUNT ||
	    free_high_rule_set == FREE_HIGH_RULE_HIGH_MIN)
		return free_high_rule_set;
	if (LINUX_KERNEL_VERSION >= PCPTOP_FREE_HIGH_HIGH_MIN_VERSION)
		return FREE_HIGH_RULE_HIGH_MIN;
	return FREE_HIGH_RULE_FREE_COUNT;
}

/*
 * Commit 91e691296646 "mm/page_alloc: batch page freeing in
 * free_frozen_page_commit" (Joshua Hahn, v6.19; present in 7.2 and 7.3)
 * frees a flush in chunks of at most pcp->batch,
 * dropping the pcp lock and zone->lock between them; the function then
 * returns bool (whether the pcp is still locked) where it returned void.
 * BPF cannot see a return type: the loader reads it from BTF
 * (src/core/kernel_quirks.h QUIRK_CHUNKED_COMMIT) and sets flush_chunked.
 * "mm/page_alloc: batch page freeing in decay_pcp_high" (same series,
 * stable 6.18.7 and Debian's 6.12.117) chunks decay's drain the same way;
 * drain_pages_zone has cut its drain at batch << scale since v6.10: a
 * decay or drain call is one flush whatever its shape.
 */
extern const volatile bool flush_chunked;

static __always_inline bool compat_flush_chunked(void)
{
	return flush_chunked;
}

/*
 * Whether the commit function (free_unref_page_commit, renamed
 * free_frozen_page_commit: src/core/kernel_quirks.h) will flush with
 * free_high set, evaluated at its entry. The function adds the page to
 * pcp->count before testing, so count is taken as it will be then.
 */
static __always_inline bool compat_commit_free_high(struct per_cpu_pages *pcp,
						    unsigned int order)
{
	int rule = compat_free_high_rule();
	int batch, count, free_count, high_min;
	u8 flags;

	if (!order || order > PCPTOP_PAGE_ALLOC_COSTLY_ORDER)
		return false;

	if (rule == FREE_HIGH_RULE_FREE_FACTOR) {
		struct per_cpu_pages___v61 *old = (void *)pcp;

		return BPF_CORE_READ(old, free_factor) != 0;
	}

	batch = BPF_CORE_READ(pcp, batch);
	count = BPF_CORE_READ(pcp, count) + (1 << order);
	free_count = BPF_CORE_READ(pcp, free_count);
	flags = BPF_CORE_READ(pcp, flags);
	if (!(flags & PCPTOP_PCPF_PREV_FREE_HIGH_ORDER))
		return false;
	if ((flags & PCPTOP_PCPF_FREE_HIGH_BATCH) && count < batch)
		return false;
	if (rule == FREE_HIGH_RULE_HIGH_MIN) {
		high_min = BPF_CORE_READ(pcp, high_min);
		/* high_min is never negative: the shift is the kernel's "/ 2" */
		return free_count >= batch + (high_min >> 1);
	}
	return free_count >= batch;
}

/*
 * The address a pointer holds, as a plain number. fentry/fexit arguments
 * are trusted BTF pointers and the verifier refuses arithmetic between one
 * and an unbounded scalar ("math between ptr_ pointer and register with
 * unbounded min value is not allowed"); a copy read back through
 * bpf_probe_read_kernel() is a scalar. kprobe arguments already are.
 */
static __always_inline unsigned long compat_addr(const void *p)
{
	const void *volatile slot = p;
	unsigned long addr = 0;

	bpf_probe_read_kernel(&addr, sizeof(addr), (const void *)&slot);
	return addr;
}

/* index of a zone within its node: ZONE_DMA .. ZONE_DEVICE */
static __always_inline int compat_zone_idx(struct zone *zone)
{
	struct pglist_data *pgdat = BPF_CORE_READ(zone, zone_pgdat);
	unsigned long first, idx, addr;

	if (!pgdat)
		return PCPTOP_ZONE_UNKNOWN;
	/* zone_idx(): zone - zone->zone_pgdat->node_zones */
	first = (unsigned long)&pgdat->node_zones[0];
	addr = compat_addr(zone);
	if (addr < first)
		return PCPTOP_ZONE_UNKNOWN;
	idx = (addr - first) / bpf_core_type_size(struct zone);
	if (idx >= PCPTOP_ZONE_UNKNOWN)
		return PCPTOP_ZONE_UNKNOWN;
	return idx;
}

/*
 * The factor the scale caps, at a bulk free: 6.1's free_factor (nr_pcp_free
 * raises it only while it is below the scale), or alloc_factor (nr_pcp_alloc,
 * likewise) from commit c0a242394cb9 ("mm, page_alloc: scale the number of
 * pages that are batch allocated"), v6.7. Neither exceeds the scale in force.
 */
static __always_inline int compat_pcp_factor(struct per_cpu_pages *pcp)
{
	if (!bpf_core_field_exists(pcp->free_count)) {
		struct per_cpu_pages___v61 *old = (void *)pcp;

		return BPF_CORE_READ(old, free_factor);
	}
	return BPF_CORE_READ(pcp, alloc_factor);
}

/* pcp->free_count (6ccdcb6d3a74, v6.7), or -1 where the kernel has none */
static __always_inline int compat_free_count(struct per_cpu_pages *pcp)
{
	if (!bpf_core_field_exists(pcp->free_count))
		return -1;
	return BPF_CORE_READ(pcp, free_count);
}

/*
 * zone->lock, renamed zone->_lock when every user went through wrappers
 * that the zone-lock tracepoints hook: "mm: rename zone->lock to
 * zone->_lock" (Dmitry Ilvokhin, v4 2026-02-27, in linux-next; id varies
 * per tag, e.g. 3413c0868068; in no kernel up to 7.3.4). Both names are
 * flavours here: the one the kernel's BTF has is the one relocated.
 */
struct zone___lock {
	spinlock_t lock;
} __attribute__((preserve_access_index));

struct zone___ulock {
	spinlock_t _lock;
} __attribute__((preserve_access_index));

static __always_inline unsigned long compat_zone_lock_off(void)
{
	if (bpf_core_field_exists(struct zone___ulock, _lock))
		return bpf_core_field_offset(struct zone___ulock, _lock);
	return bpf_core_field_offset(struct zone___lock, lock);
}

/*
 * The free pages an order-0 allocation without ALLOC_RESERVES may not
 * count (__zone_watermark_unusable_free()): the highatomic reserve's.
 * "mm/page_alloc: keep track of free highatomic" (Yu Zhao, mm-hotfixes,
 * October 2024) counts only the reserve's free pages, nr_free_highatomic;
 * before it the whole reserve, nr_reserved_highatomic, was taken off.
 */
struct zone___hafree {
	unsigned long nr_free_highatomic;
} __attribute__((preserve_access_index));

static __always_inline unsigned long compat_zone_highatomic(struct zone *zone)
{
	struct zone___hafree *z = (void *)zone;

	if (bpf_core_field_exists(z->nr_free_highatomic))
		return BPF_CORE_READ(z, nr_free_highatomic);
	return BPF_CORE_READ(zone, nr_reserved_highatomic);
}

/*
 * The mark an order-0 allocation after direct reclaim must clear
 * (ALLOC_WMARK_MIN, zone_watermark_fast()): min_wmark_pages(), that is
 * _watermark[WMARK_MIN] + watermark_boost, plus what it may not count
 * (above); lowmem_reserve and free CMA pages left out. Both enums' values
 * are relocated, as their order may change.
 */
static __always_inline unsigned long compat_zone_order0_mark(struct zone *zone)
{
	int min = bpf_core_enum_value(enum zone_watermarks, WMARK_MIN);
	unsigned long wm = 0;

	bpf_core_read(&wm, sizeof(wm), &zone->_watermark[min & 3]);
	return wm + BPF_CORE_READ(zone, watermark_boost) +
	       compat_zone_highatomic(zone);
}

/* zone_page_state(zone, NR_FREE_PAGES) */
static __always_inline long compat_zone_free_pages(struct zone *zone)
{
	int i = bpf_core_enum_value(enum zone_stat_item, NR_FREE_PAGES);
	long v = 0;

	bpf_core_read(&v, sizeof(v), &zone->vm_stat[i & 63]);
	return v;
}

/* whether zone->lock is named _lock here (for the loader's tests) */
static __always_inline bool compat_zone_lock_renamed(void)
{
	return bpf_core_field_exists(struct zone___ulock, _lock);
}

/*
 * zone->lock's word, non-zero while someone holds or waits for it. Its
 * shape is the qspinlock's; PREEMPT_RT makes spinlock_t an rt_mutex, and
 * there this reads 0 (no information).
 */
struct spinlock___qspin {
	struct raw_spinlock rlock;
} __attribute__((preserve_access_index));

static __always_inline bool compat_lock_busy(struct zone *zone)
{
	struct spinlock___qspin *l =
		(void *)(compat_addr(zone) + compat_zone_lock_off());
	int v = 0;

	if (!bpf_core_field_exists(l->rlock))
		return false;
	bpf_core_read(&v, sizeof(v), &l->rlock.raw_lock.val.counter);
	return v != 0;
}

/* the address lock:contention_begin names when zone->lock is contended */
static __always_inline __u64 compat_zone_lock_addr(struct zone *zone)
{
	return compat_addr(zone) + compat_zone_lock_off();
}

/*
 * pindex_to_order(): NR_LOWORDER_PCP_LISTS = MIGRATE_PCPTYPES *
 * (PAGE_ALLOC_COSTLY_ORDER + 1) lists, then the THP list(s): one from
 * commit 5d0a661d808f ("mm/page_alloc: use only one PCP list for
 * THP-sized allocations"), two (movable, the rest) from commit
 * bf14ed81f571 ("mm/page_alloc: Separate THP PCP into movable and
 * non-movable categories"), v6.10 and stable backports. Every pindex
 * past the low orders is a THP one.
 */
#define PCPTOP_NR_LOWORDER_PCP_LISTS \
	(PCPTOP_MIGRATE_PCPTYPES * (PCPTOP_PAGE_ALLOC_COSTLY_ORDER + 1))

static __always_inline int compat_pindex_order_slot(int pindex)
{
	if (pindex >= 0 && pindex < PCPTOP_NR_LOWORDER_PCP_LISTS)
		return (unsigned int)pindex / PCPTOP_MIGRATE_PCPTYPES;
	return PCPTOP_ORDER_SLOT_THP;
}

static __always_inline int compat_pindex_mt_slot(int pindex)
{
	if (pindex >= 0 && pindex < PCPTOP_NR_LOWORDER_PCP_LISTS)
		return (unsigned int)pindex % PCPTOP_MIGRATE_PCPTYPES;
	return PCPTOP_MT_SLOT_OTHER;
}

static __always_inline int compat_order_slot(unsigned int order)
{
	return order <= PCPTOP_PAGE_ALLOC_COSTLY_ORDER ? order :
							 PCPTOP_ORDER_SLOT_THP;
}

/*
 * MIGRATE_CMA only exists with CONFIG_CMA (Debian's arm64 6.12 has it, its
 * amd64 6.12 does not), and MIGRATE_ISOLATE's value shifts with it: ask the
 * running kernel's BTF through a flavour the compiler always knows.
 */
enum migratetype___pcptop {
	MIGRATE_CMA___pcptop = 4,
};

static __always_inline int compat_mt_slot(int mt)
{
	if (mt >= 0 && mt < PCPTOP_MIGRATE_PCPTYPES)
		return mt;
	if (bpf_core_enum_value_exists(enum migratetype___pcptop,
				       MIGRATE_CMA___pcptop) &&
	    mt == bpf_core_enum_value(enum migratetype___pcptop,
				      MIGRATE_CMA___pcptop))
		return PCPTOP_MT_SLOT_CMA;
	return PCPTOP_MT_SLOT_OTHER;
}

/*
 * COMPACT_SKIPPED, which try_to_compact_pages() returns when it did not
 * try and the allocator then counts no compact_stall. Its value is 1 on
 * 6.1 through 7.3 (source and BTF of 6.1.192, 6.12.118, 6.18.44,
 * 7.3.4), after COMPACT_NOT_SUITABLE_ZONE; the order is v4.7's ("mm,
 * compaction: update compaction_result ordering", Michal Hocko; its hash
 * not found), and the enum was reordered before, so ask the running
 * kernel.
 */
static __always_inline int compat_compact_skipped(void)
{
	return bpf_core_enum_value(enum compact_result, COMPACT_SKIPPED);
}

/*
 * Whether try_to_compact_pages() returning RET is a stall the allocator
 * counts (compact_stall). 6.12.118's __alloc_pages_direct_compact() leaves
 * out COMPACT_SKIPPED alone; 7.3.4's COMPACT_DEFERRED too (mm/page_alloc.c
 * line 4211). The commit was not found here, nor the first version with
 * it: from 7.3 on, where the source was read, deferred is no stall, and
 * 6.13-7.2 keep 6.12's rule (clean clone cc29, amd64-7.3: pcptop 86
 * stalls against compact_stall's 60).
 */
#define PCPTOP_COMPACT_DEFERRED_NO_STALL_VERSION KERNEL_VERSION(7, 3, 0)

static __always_inline bool compat_compact_stalled(int ret)
{
	if (ret == compat_compact_skipped())
		return false;
	return LINUX_KERNEL_VERSION <
		       PCPTOP_COMPACT_DEFERRED_NO_STALL_VERSION ||
	       ret != bpf_core_enum_value(enum compact_result,
					  COMPACT_DEFERRED);
}

/*
 * page->flags became memdesc_flags_t, a struct around the unsigned long,
 * in v6.18: commit 53fbef56e07d "mm: introduce memdesc_flags_t" (Matthew
 * Wilcox); the bits are where they were.
 */
struct page___memdesc {
	struct {
		unsigned long f;
	} flags;
} __attribute__((preserve_access_index));

static __always_inline unsigned long compat_page_flags(const struct page *page)
{
	unsigned long flags = 0;

	if (bpf_core_field_exists(struct page___memdesc, flags))
		bpf_core_read(&flags, sizeof(flags),
			      &((const struct page___memdesc *)page)->flags.f);
	else
		bpf_core_read(&flags, sizeof(flags), &page->flags);
	return flags;
}

/*
 * page_zonenum() and page_to_nid() without the kernel's config: with
 * SPARSEMEM_VMEMMAP (every Debian amd64 and arm64 kernel) the top of
 * page->flags is the node, then the zone (include/linux/mmzone.h:
 * NODES_PGOFF = BITS_PER_LONG - NODES_WIDTH, ZONES_PGOFF = NODES_PGOFF -
 * ZONES_WIDTH). ZONES_SHIFT follows MAX_NR_ZONES (page-flags-layout.h),
 * NODES_SHIFT from the BTF: zonelist holds MAX_NUMNODES * MAX_NR_ZONES + 1
 * zonerefs. The shift of the zone's bits and their width, packed as
 * shift << 8 | width (0: unknown); a caller keeps it, it does not change.
 */
static __always_inline __u32 compat_page_zone_bits(void)
{
	__u32 zones = bpf_core_enum_value(enum zone_type, __MAX_NR_ZONES);
	__u32 refs = bpf_core_field_size(struct zonelist, _zonerefs) /
		     bpf_core_type_size(struct zoneref);
	__u32 nodes, node_shift = 0, zone_shift, i;

	if (!zones || refs <= zones)
		return 0;
	nodes = (refs - 1) / zones;
	for (i = 0; i < 16; i++)
		if (nodes > (1u << node_shift))
			node_shift++;
	zone_shift = zones <= 1 ? 0 : zones <= 2 ? 1 : zones <= 4 ? 2 : 3;
	if (!zone_shift)
		return 0;
	return (64 - node_shift - zone_shift) << 8 | zone_shift;
}

/* zone_idx() of the zone page->flags names, or -1; *nid gets the node */
static __always_inline int compat_flags_zone(unsigned long flags, __u32 bits,
					     int *nid)
{
	__u32 shift = bits >> 8, width = bits & 0xff;

	*nid = 0;
	if (!bits || shift >= 64 || width > 8)
		return -1;
	if (shift + width < 64)
		*nid = (int)(flags >> (shift + width));
	return (int)((flags >> shift) & ((1ul << width) - 1));
}

/* zone_idx(page_zone(page)), or -1; *nid gets page_to_nid() */
static __always_inline int compat_page_zone(const struct page *page, __u32 bits,
					    int *nid)
{
	return compat_flags_zone(compat_page_flags(page), bits, nid);
}

/*
 * writeback:balance_dirty_pages took the throttle control's numbers one
 * by one (12 arguments: wb, thresh, bg_thresh, dirty, bdi_thresh,
 * bdi_dirty, dirty_ratelimit, task_ratelimit, dirtied, period, pause,
 * start_time) until it took the struct dirty_throttle_control itself (8:
 * wb, dtc, dirty_ratelimit, task_ratelimit, dirtied, period, pause,
 * start_time): commit f1ab2831e2a4 "writeback: let
 * trace_balance_dirty_pages() take struct dtc as parameter", v6.15 (and
 * 6.14.y). pause is the second to last in both, in jiffies.
 */
#define COMPAT_DIRTY_TP_NARGS_OLD 12
#define COMPAT_DIRTY_TP_NARGS_NEW 8

/*
 * reclaim_throttle()'s reason, enum vmscan_throttle_state (v5.16,
 * commit 8cd7c588decf "mm/vmscan: throttle reclaim until some writeback
 * completes if congested"), as pcptop's slot: the values through CO-RE,
 * as the enum may grow or be reordered.
 */
enum vmscan_throttle_state___pcptop {
	VMSCAN_THROTTLE_WRITEBACK___pcptop,
	VMSCAN_THROTTLE_ISOLATED___pcptop,
	VMSCAN_THROTTLE_NOPROGRESS___pcptop,
	VMSCAN_THROTTLE_CONGESTED___pcptop,
};

static __always_inline int compat_throttle_reason_slot(int reason)
{
	if (reason == bpf_core_enum_value(enum vmscan_throttle_state___pcptop,
					  VMSCAN_THROTTLE_WRITEBACK___pcptop))
		return WAIT_THROTTLE_WRITEBACK;
	if (reason == bpf_core_enum_value(enum vmscan_throttle_state___pcptop,
					  VMSCAN_THROTTLE_ISOLATED___pcptop))
		return WAIT_THROTTLE_ISOLATED;
	if (reason == bpf_core_enum_value(enum vmscan_throttle_state___pcptop,
					  VMSCAN_THROTTLE_NOPROGRESS___pcptop))
		return WAIT_THROTTLE_NOPROGRESS;
	return WAIT_THROTTLE_CONGESTED;
}

/*
 * A request's operation: the low bits of cmd_flags, REQ_OP_MASK of
 * include/linux/blk_types.h (REQ_OP_BITS 8; REQ_OP_READ 0, REQ_OP_WRITE
 * 1), read alike in 6.1.192, 6.12.118 and 7.3.4 and their BTF: older
 * than pcptop's oldest kernel, so no flavour is needed (the commit that
 * set them was not looked for).
 */
#define COMPAT_REQ_OP_MASK 0xff
#define COMPAT_REQ_OP_READ 0
#define COMPAT_REQ_OP_WRITE 1

/*
 * __GFP_NORETRY is bit 16 in 6.1.192 (#define ___GFP_NORETRY 0x10000u),
 * 6.12.118, 6.18 and 7.3.4 (BIT(___GFP_NORETRY_BIT) of an anonymous enum,
 * which CO-RE cannot look up): the same value everywhere pcptop runs.
 */
#define COMPAT_GFP_NORETRY 0x10000u

#endif /* PCPTOP_COMPAT_BPF_H */
