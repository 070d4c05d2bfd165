/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The user-space half of pcptop's kernel-version quirks: the function
 * names and tracepoint argument counts the probe table tries, and the
 * /proc shapes the parsers accept. Each names the change that caused it,
 * as libbpf-tools' core_fixes.bpf.h does: commit, title, first kernel.
 * The BPF half, CO-RE flavours of fields that moved, is bpf/compat.bpf.h;
 * UAPI layouts older headers lack are src/kernel/uapi_compat.h.
 */
#ifndef PCPTOP_KERNEL_QUIRKS_H
#define PCPTOP_KERNEL_QUIRKS_H

/*
 * The commit function is free_unref_page_commit() up to v6.13 and
 * free_frozen_page_commit() from v6.14 (BTF: 6.1 and 6.12 the old name,
 * 6.16 to 7.3 the new, docs/KERNELS.md). Commit 520128a1d1f0
 * "mm/page_alloc: export free_frozen_pages() instead of free_unref_page()"
 * (Matthew Wilcox, merged for v6.14) renamed it with its caller
 * free_unref_page(): mm/page_alloc.c from 6.7 to 6.13-rc has both old
 * names, trees from the v6.14 merge window on (6.14-rc to 6.15-rc) both
 * new ones, and no other commit of that series renames either. Newest
 * name first: the first one the kernel's BTF knows is the one probed.
 */
#define QUIRK_COMMIT_FNS                                            \
	{                                                           \
		"free_frozen_page_commit", "free_unref_page_commit" \
	}

/*
 * Commit 91e691296646 "mm/page_alloc: batch page freeing in
 * free_frozen_page_commit" (Joshua Hahn, v6.19; Debian's 7.2.13 and 7.3.4
 * have it, 6.18.15 not) frees a flush in chunks
 * of at most pcp->batch and makes the commit function return bool (the
 * pcp still locked) where it returned void. The return type is the mark:
 * core/kshape.c reads it from BTF, no version test. The BPF half is
 * compat_flush_chunked() in bpf/compat.bpf.h.
 */
#define QUIRK_CHUNKED_COMMIT "the commit function returns bool"

/*
 * Zone-lock tracepoints: "mm: add tracepoints for zone lock" (Dmitry
 * Ilvokhin, v4 2026-02-27, linux-next; in no kernel up to 7.3.4), with
 * the rename of zone->lock to zone->_lock (bpf/compat.bpf.h). info says
 * whether the kernel has them; pcptop times zone->lock itself.
 */
#define QUIRK_ZONE_LOCK_TP "zone_lock_acquire_returned"

/*
 * decay_pcp_high(): commit 51a755c56dc0 ("mm: tune PCP high
 * automatically"), v6.7. Before it the decay probe finds nothing in BTF,
 * and info says so.
 */

/*
 * The allocator's and the free path's entry points (--latency), newest
 * name first; the innermost function is probed, so a call through any
 * wrapper is timed once.
 *
 * commit b951aaff5035 ("mm: enable page allocation tagging"), v6.10,
 * renames __alloc_pages() to __alloc_pages_noprof().
 * commit 49249a2a5eeb ("mm/page_alloc: add __alloc_frozen_pages()"),
 * v6.14, moves its body into __alloc_frozen_pages_noprof(), which the
 * wrapper calls.
 * commit 520128a1d1f0 ("mm/page_alloc: export free_frozen_pages() instead
 * of free_unref_page()"), v6.14, renames free_unref_page().
 */
#define QUIRK_ALLOC_FNS                                                \
	{                                                              \
		"__alloc_frozen_pages_noprof", "__alloc_pages_noprof", \
			"__alloc_pages"                                \
	}
#define QUIRK_FREE_FNS                                 \
	{                                              \
		"free_frozen_pages", "free_unref_page" \
	}

/*
 * kmem:mm_page_alloc_zone_locked gains its percpu_refill argument in
 * commit 10e0f7530205 "mm/page_alloc: fix tracepoint
 * mm_page_alloc_zone_locked()" (Wonhyuk Yang), v5.19, also backported to
 * 5.15.171: a version test would be wrong, so the loader counts the tracepoint's BTF arguments and leaves
 * refills unprobed on the 3-argument form rather than misread them.
 * kmem:mm_page_pcpu_drain has had (page, order, migratetype) since
 * before v5.0: not a quirk, the count the program reads.
 */
#define QUIRK_ZONE_LOCKED_TP_NARGS 4
#define QUIRK_PCPU_DRAIN_TP_NARGS 3

/*
 * lock:contention_begin/end: commit 16edd9b511a1 ("locking: Add lock
 * contention tracepoints"), v5.19. Before it, lock_wait has no hook.
 */
#define QUIRK_LOCK_TP_NARGS 1

/*
 * The stall tracepoints (bpf/stall.bpf.h), as 6.1 through 6.18 have them:
 * vmscan:mm_vmscan_direct_reclaim_begin(order, gfp_flags) and _end
 * (nr_reclaimed) around do_try_to_free_pages();
 * compaction:mm_compaction_try_to_compact_pages(order, gfp_mask, prio) at
 * try_to_compact_pages()'s start and mm_compaction_end(cc, zone_start,
 * zone_end, sync, status) at each compact_zone()'s end. The programs read
 * the first argument of each; older kernels passed start_pfn first to
 * mm_compaction_end, before cc: commit abd4349ff9b8 "mm: compaction:
 * cleanup the compaction trace events" (Baolin Wang), v5.18, before
 * pcptop's oldest kernel.
 */
#define QUIRK_RECLAIM_TP_NARGS 1
#define QUIRK_COMPACT_TP_NARGS 1

/*
 * The wait probes (bpf/waits.bpf.h): sched:sched_switch(preempt, prev,
 * next, prev_state), whose fourth argument the writers' sleeps need
 * (v5.18, commit fa2c3254d7cf "sched/tracing: Don't re-read p->state when
 * emitting sched_switch event", which put it second, and 9c2136be0878
 * "sched/tracing: Append prev_state to tp args instead", which moved it
 * last before v5.18 shipped); balance_dirty_pages has 8 or 12
 * (bpf/compat.bpf.h), both more. vmscan:mm_vmscan_throttled(nid,
 * usec_timeout, usec_delayed, reason), v5.16. block:block_rq_issue(rq) and
 * block_rq_complete(rq, error, nr_bytes): the request first since v5.11
 * (commit a54895fa057c "block: remove the request_queue to argument
 * request based tracepoints"), before pcptop's oldest kernel.
 */
#define QUIRK_WAITS_TP_NARGS 4
#define QUIRK_THROTTLE_TP_NARGS 4
#define QUIRK_BLOCK_TP_NARGS 1

/*
 * Who asked for a drain (bpf/caller.bpf.h): a return address inside one of
 * these functions, the innermost such frame of drain_pages_zone()'s stack.
 * Every caller of drain_all_pages(), __drain_all_pages(), drain_pages()
 * and drain_local_pages() in mm/ of 6.1, 6.12 and 6.18:
 *  - direct reclaim: __alloc_pages_direct_reclaim(), after a reclaim pass
 *    that left the allocation failing; inlined into __alloc_pages_slowpath()
 *    (6.18 BTF) or further into the allocator's entry point (6.1, 6.12
 *    BTF: no slowpath of its own), named as QUIRK_ALLOC_FNS lists. No other
 *    drain is made from those functions' own code;
 *  - compaction: kcompactd_do_work() drains the zone after a failed pass
 *    (it may be inlined into kcompactd()); compact_zone() drains its own
 *    pageset through lru_add_drain_cpu_zone() (mm/swap.c) once migration
 *    leaves an order-aligned block, in direct compaction, kcompactd and
 *    proactive compaction alike;
 *  - CPU offline: page_alloc_cpu_dead(), the CPUHP_PAGE_ALLOC teardown
 *    (called through a pointer, never inlined);
 *  - sysctl: no sysctl handler drains a pageset itself on these kernels
 *    (vm.percpu_pagelist_high_fraction only sets high and batch); a drain
 *    inside a write with none of the callers above nearer, such as
 *    vm.nr_hugepages allocating gigantic pages through
 *    alloc_contig_range(), counts here;
 *  - other: alloc_contig_range() (CMA), zone_pcp_disable() (memory
 *    offline, memory failure), shake_page() (memory failure), hibernation's
 *    drain_local_pages(), /proc/pagetypeinfo with page_owner.
 * The last two are not a drain's callers: a failed allocation (--latency)
 * with one of them on its stack was readahead's, which allocates a folio
 * at a time and stops at the first that fails (mm/readahead.c of 6.1.192,
 * 6.12.118, 7.3.4: filemap_alloc_folio() from page_cache_ra_unbounded(),
 * ra_alloc_folio() from page_cache_ra_order()).
 * Names absent from a kernel are skipped; the rest of the list still holds.
 * The compiler's parts of a name (.cold, .constprop.0) count as the name.
 */
/* one caller a line, as clang-format would not keep them */
/* clang-format off */
#define QUIRK_DRAIN_CALLERS                                            \
	{                                                              \
		{ "page_alloc_cpu_dead", DRAIN_BY_OFFLINE },           \
		{ "lru_add_drain_cpu_zone", DRAIN_BY_COMPACTION },     \
		{ "kcompactd_do_work", DRAIN_BY_COMPACTION },          \
		{ "kcompactd", DRAIN_BY_COMPACTION },                  \
		{ "__alloc_pages_direct_reclaim", DRAIN_BY_RECLAIM },  \
		{ "__alloc_pages_slowpath", DRAIN_BY_RECLAIM },        \
		{ "__alloc_frozen_pages_noprof", DRAIN_BY_RECLAIM },   \
		{ "__alloc_pages_noprof", DRAIN_BY_RECLAIM },          \
		{ "__alloc_pages", DRAIN_BY_RECLAIM },                 \
		{ "proc_sys_call_handler", DRAIN_BY_SYSCTL },          \
		{ "page_cache_ra_unbounded", PCPTOP_CALLER_READAHEAD },\
		{ "page_cache_ra_order", PCPTOP_CALLER_READAHEAD },    \
	}
/* clang-format on */

/*
 * /proc/zoneinfo prints a pageset's high_min and high_max from commit
 * f8780515fe91 ("mm: add pcp high_min high_max to proc zoneinfo"), v6.13.
 * The fields themselves are older: commit 90b41691b988 ("mm: add
 * framework for PCP high auto-tuning"), v6.7. So 6.7 to 6.12 have them
 * without printing them; procfs.c parses both shapes.
 */

#endif /* PCPTOP_KERNEL_QUIRKS_H */
