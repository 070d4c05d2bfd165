/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every kernel-version quirk pcptop depends on, in one place, each with the
 * kernel change that caused it. The rest of bpf/ calls only these helpers,
 * and the loader takes the names and numbers of the first part from here
 * too (user space sees only that part: it has no vmlinux.h).
 *
 * vmlinux.h comes from Debian's 6.12 kernel; older and newer layouts are
 * reached through CO-RE "___flavour" structs and field-existence checks, so
 * one object loads on 6.1 through 6.18.
 */
#ifndef PCPTOP_COMPAT_BPF_H
#define PCPTOP_COMPAT_BPF_H

/* ---- what the loader needs as well ---- */

/*
 * The commit function, free_unref_page_commit() through v6.14, was renamed
 * free_frozen_page_commit() by the v6.15 frozen-page rework (and became
 * static bool with batched chunks later). The loader tries the new name
 * first: the first one the kernel's BTF knows is the one probed.
 */
#define COMPAT_COMMIT_FNS                                           \
	{                                                           \
		"free_frozen_page_commit", "free_unref_page_commit" \
	}

/*
 * The allocator's entry points (--latency), newest name first. v6.10's
 * memory allocation profiling ("mm: enable page allocation tagging")
 * renamed __alloc_pages to __alloc_pages_noprof; v6.14's frozen-page work
 * (Matthew Wilcox, "mm/page_alloc: add __alloc_frozen_pages()") moved the
 * body into __alloc_frozen_pages_noprof, which the wrapper calls, and
 * renamed free_unref_page to free_frozen_pages. The innermost function is
 * probed, so a call through any wrapper is timed once. Checked against
 * the BTF of 6.1, 6.12 and 6.18 kernels.
 */
#define COMPAT_ALLOC_FNS                                               \
	{                                                              \
		"__alloc_frozen_pages_noprof", "__alloc_pages_noprof", \
			"__alloc_pages"                                \
	}
#define COMPAT_FREE_FNS                                \
	{                                              \
		"free_frozen_pages", "free_unref_page" \
	}

/*
 * kmem:mm_page_alloc_zone_locked gained its percpu_refill argument in v5.19
 * ("mm/page_alloc: fix tracepoint mm_page_alloc_zone_locked()"): the loader
 * counts the tracepoint's BTF arguments and leaves refills unprobed on the
 * 3-argument form rather than misread them. mm_page_pcpu_drain has had
 * (page, order, migratetype) since v3.x.
 */
#define COMPAT_ZONE_LOCKED_TP_NARGS 4
#define COMPAT_PCPU_DRAIN_TP_NARGS 3

/*
 * arm64 gained ftrace direct calls, which fentry trampolines need, in v6.4
 * ("arm64: ftrace: Add direct call support"); before, attaching fentry
 * fails with the kernel-internal ENOTSUPP, absent from user space's errno.h.
 */
#define COMPAT_ENOTSUPP 524

#ifndef __bpf__
#include <stdint.h>

/*
 * bpf_link_info of a perf-event link as v6.7 lays it out ("bpf: Add
 * missed value to kprobe perf link info", v6.7-rc1; the perf_event member
 * itself came in v6.6);
 * Debian 12's <linux/bpf.h> (6.1) has neither the perf_event member nor
 * missed. Older kernels leave the field 0.
 */
struct compat_perf_link_info {
	uint32_t type, id, prog_id;
	uint32_t pad0;
	uint32_t perf_type; /* enum bpf_perf_event_type */
	uint32_t pad1;
	uint64_t func_name;
	uint32_t name_len, offset;
	uint64_t addr;
	uint64_t missed; /* the kprobe's and kretprobe's nmissed */
	uint64_t cookie;
	uint8_t rest[64]; /* the rest of the kernel's union, zeroed */
};

#define COMPAT_LINK_TYPE_PERF_EVENT 7 /* BPF_LINK_TYPE_PERF_EVENT */
#define COMPAT_PERF_EVENT_KPROBE 3 /* BPF_PERF_EVENT_KPROBE */
#define COMPAT_PERF_EVENT_KRETPROBE 4
#endif /* !__bpf__ */

/*
 * v6.13 began printing high_min and high_max in /proc/zoneinfo's pagesets
 * (procfs.c parses both shapes); BPF_ENABLE_STATS came in v5.8, before it
 * only the kernel.bpf_stats_enabled sysctl (kernel/cost.c falls back).
 */

#ifdef __bpf__

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include "pcptop.h"

/*
 * 6ccdcb6d3a74 ("mm, pcp: reduce detecting time of consecutive high order
 * page freeing", v6.7) replaced pcp->free_factor with free_count and flags;
 * 51a755c56dc0 ("mm: tune PCP high automatically", v6.7) added high_min and
 * high_max. This is the 6.1/6.6 layout for the fields that moved.
 */
struct per_cpu_pages___v61 {
	int count;
	int high;
	int batch;
	short free_factor;
} __attribute__((preserve_access_index));

/*
 * PCPF_* bits are #defines, absent from BTF. PREV_FREE_HIGH_ORDER came with
 * 6ccdcb6d3a74; FREE_HIGH_BATCH with the v6.7 PCP auto-tuning series.
 */
#define PCPTOP_PCPF_PREV_FREE_HIGH_ORDER (1 << 0)
#define PCPTOP_PCPF_FREE_HIGH_BATCH (1 << 1)

/*
 * c544a952ba61 ("mm: pcp: increase pcp->free_count threshold to trigger
 * free_high", v6.16) raised the threshold from batch to batch + high_min / 2.
 * Nothing in BTF tells the two apart, so the kernel version decides.
 */
#define PCPTOP_FREE_HIGH_HIGH_MIN_VERSION KERNEL_VERSION(6, 16, 0)
#ifndef KERNEL_VERSION
#define KERNEL_VERSION(a, b, c) \
	(((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#endif

extern int LINUX_KERNEL_VERSION __kconfig;

static __always_inline int compat_free_high_rule(void)
{
	struct per_cpu_pages *pcp = NULL;

	if (!bpf_core_field_exists(pcp->free_count))
		return FREE_HIGH_RULE_FREE_FACTOR;
	if (LINUX_KERNEL_VERSION >= PCPTOP_FREE_HIGH_HIGH_MIN_VERSION)
		return FREE_HIGH_RULE_HIGH_MIN;
	return FREE_HIGH_RULE_FREE_COUNT;
}

/*
 * Whether the commit function (free_unref_page_commit, renamed
 * free_frozen_page_commit in v6.15) will flush with free_high set, evaluated
 * at its entry. The function adds the page to pcp->count before testing, so
 * count is taken as it will be then.
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
 * raises it only while it is below the scale), 6.7's alloc_factor
 * (nr_pcp_alloc, likewise). Either way it never exceeds the scale in force.
 */
static __always_inline int compat_pcp_factor(struct per_cpu_pages *pcp)
{
	if (!bpf_core_field_exists(pcp->free_count)) {
		struct per_cpu_pages___v61 *old = (void *)pcp;

		return BPF_CORE_READ(old, free_factor);
	}
	return BPF_CORE_READ(pcp, alloc_factor);
}

/* pcp->free_count (6.7+), or -1 where the kernel has none */
static __always_inline int compat_free_count(struct per_cpu_pages *pcp)
{
	if (!bpf_core_field_exists(pcp->free_count))
		return -1;
	return BPF_CORE_READ(pcp, free_count);
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
	struct spinlock___qspin *l = (void *)&zone->lock;

	if (!bpf_core_field_exists(l->rlock))
		return false;
	return BPF_CORE_READ(l, rlock.raw_lock.val.counter) != 0;
}

/* the address lock:contention_begin names when zone->lock is contended */
static __always_inline __u64 compat_zone_lock_addr(struct zone *zone)
{
	return compat_addr(zone) + bpf_core_field_offset(struct zone, lock);
}

/*
 * pindex_to_order(): NR_LOWORDER_PCP_LISTS = MIGRATE_PCPTYPES *
 * (PAGE_ALLOC_COSTLY_ORDER + 1) lists, then the THP list(s) (one before
 * 6.8, one per movability after).
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

#endif /* __bpf__ */

#endif /* PCPTOP_COMPAT_BPF_H */
