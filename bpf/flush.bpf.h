/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Flushes: what the commit function, one decay_pcp_high or one
 * drain_pages_zone call decided to free at once, against bulk calls, each
 * free_pcppages_bulk. Up to 6.18 a commit flush is one bulk call; from
 * the chunked commit (compat_flush_chunked(), 7.x) it is as many calls of
 * at most pcp->batch as it takes, and the scale still sets the flush's
 * size, not the call's. Decay and drain calls book their flush at their
 * exit (pcptop.bpf.c); this file groups the commit's chunks.
 * Included by pcptop.bpf.c after calls.bpf.h.
 */
#ifndef PCPTOP_FLUSH_BPF_H
#define PCPTOP_FLUSH_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "compat.bpf.h"
#include "pcptop.h"
#include "state.bpf.h"

/*
 * A further chunk follows its predecessor after an unlock and a trylock,
 * or after the task was preempted there; two flushes of one task are
 * apart by at least a batch of frees. The count test does the work: this
 * only keeps a stale entry from matching much later.
 */
#define FLUSH_CHUNK_GAP_NS 10000000ULL

/*
 * free_high at a chunked flush's first chunk. The commit function passes
 * the freed page's list, so the order is the page's; it decided before
 * adding the page to free_count, which stops growing at batch << scale.
 * Whether the free before it was of a high order is not visible here:
 * an ordinary flush of an order 1-3 page past the threshold after an
 * order-0 free is taken for one (--exact-free-high decides exactly).
 */
static __always_inline bool infer_free_high_chunked(struct per_cpu_pages *pcp,
						    const struct inflight *f,
						    int batch)
{
	int rule = compat_free_high_rule();
	int order = compat_pindex_order_slot(f->pindex);
	int fc = compat_free_count(pcp), need = batch;
	__u8 flags;

	if (f->ctx != CTX_COMMIT || order < 1 ||
	    order > PCPTOP_PAGE_ALLOC_COSTLY_ORDER || fc < 0)
		return false;
	if (scale_in_force < 0 || scale_in_force > PCPTOP_SCALE_MAX ||
	    fc < (batch << scale_in_force))
		fc -= 1 << order;
	flags = BPF_CORE_READ(pcp, flags);
	if ((flags & PCPTOP_PCPF_FREE_HIGH_BATCH) && f->count_before < batch)
		return false;
	if (rule == FREE_HIGH_RULE_HIGH_MIN)
		need += BPF_CORE_READ(pcp, high_min) >> 1;
	return fc >= need;
}

/*
 * At a bulk call's entry in commit context, on a chunked kernel without
 * the commit function probed: whether it continues its task's flush.
 */
static __always_inline bool flush_continues(struct inflight *f,
					    struct per_cpu_pages *pcp,
					    __u64 tkey, __u64 now)
{
	struct flush_run *r = bpf_map_lookup_elem(&flush_runs, &tkey);

	if (!r || !r->open || r->pcp != f->pcp ||
	    r->count_after != f->count_before ||
	    r->free_count != compat_free_count(pcp) ||
	    now - r->exit_ns > FLUSH_CHUNK_GAP_NS)
		return false;
	f->free_high = r->free_high;
	return true;
}

/*
 * At a commit-context bulk call's exit, on a chunked kernel: book it as a
 * flush of its own, or add it to its task's flush. The flush's histogram
 * sample grows with it, so nothing waits for a last chunk that cannot be
 * told from the others. A flush whose chunks straddle an interval counts
 * in both (ACCURACY.md).
 */
static __always_inline void flush_chunk(__u32 ep, __u64 tkey,
					const struct inflight *f, __u64 pages,
					int count_after, int free_count,
					int batch, __u64 now)
{
	struct flush_run *r = bpf_map_lookup_elem(&flush_runs, &tkey);
	struct pcptop_counter_val *cnt = counters_of(ep, f->zone, 0, 0);
	int oslot = compat_pindex_order_slot(f->pindex);
	int mslot = compat_pindex_mt_slot(f->pindex);
	struct flush_run n = {};

	if (f->cont && r && r->epoch == ep) {
		hist_move(ep, f->zone, HIST_FLUSH_PAGES, r->pages,
			  r->pages + pages);
		hist_move(ep, f->zone, HIST_FLUSH_CALLS, r->calls,
			  r->calls + 1);
		count_in(cnt, CNT_FLUSH_PAGES, pages);
		count_in(cnt, CNT_FLUSH_CALLS, 1);
		if (r->free_high) {
			count_add(ep, f->zone, r->oslot, r->mslot,
				  CNT_FREE_HIGH_PAGES, pages);
			hist_move(ep, f->zone, HIST_FREE_HIGH_PAGES, r->pages,
				  r->pages + pages);
		} else {
			count_add(ep, f->zone, oslot, mslot,
				  CNT_REASON_HIGH_PAGES, pages);
		}
		n = *r;
	} else {
		flush_book(ep, f->zone, pages, 1);
		if (f->free_high) {
			count_add(ep, f->zone, oslot, mslot,
				  CNT_FREE_HIGH_COUNT, 1);
			count_add(ep, f->zone, oslot, mslot,
				  CNT_FREE_HIGH_PAGES, pages);
			hist_record(ep, f->zone, HIST_FREE_HIGH_PAGES, pages);
		} else {
			count_add(ep, f->zone, oslot, mslot,
				  CNT_REASON_HIGH_PAGES, pages);
		}
		n.pcp = f->pcp;
		n.zone = f->zone;
		n.oslot = oslot;
		n.mslot = mslot;
		n.free_high = f->free_high;
		n.epoch = ep;
	}
	n.pages += pages;
	n.calls++;
	n.exit_ns = now;
	n.count_after = count_after;
	n.free_count = free_count;
	/*
	 * The kernel stops at a part batch, or once the pcp ran empty. A
	 * chunk frees whole pages, so one of an order 1-3 list (free_high's
	 * chunks start there) frees up to 7 pages beyond its batch.
	 */
	n.open = f->count_arg == batch && pages >= (__u64)batch &&
		 count_after > 0;
	bpf_map_update_elem(&flush_runs, &tkey, &n, BPF_ANY);
}

/* a drain_pages_zone call's flush: in its copy of the maps as its chunks are */
static __always_inline void drain_flush(__u32 ep, const struct drain_call *d)
{
	__u32 hkey = pcptop_hist_key(d->zone, HIST_FLUSH_PAGES) +
		     ep * PCPTOP_NR_HIST_KEYS;
	__u32 ckey = pcptop_hist_key(d->zone, HIST_FLUSH_CALLS) +
		     ep * PCPTOP_NR_HIST_KEYS;
	__u32 key =
		pcptop_counter_key(d->zone, 0, 0) + ep * PCPTOP_NR_COUNTER_KEYS;
	struct pcptop_counter_val *cnt;
	struct pcptop_hist_val *h;

	cnt = bpf_map_lookup_percpu_elem(&counters, &key, d->owner);
	if (cnt) {
		__sync_fetch_and_add(&cnt->c[CNT_FLUSHES], 1);
		__sync_fetch_and_add(&cnt->c[CNT_FLUSH_PAGES], d->pages);
		__sync_fetch_and_add(&cnt->c[CNT_FLUSH_CALLS], d->calls);
	}
	h = bpf_map_lookup_percpu_elem(&hists, &hkey, d->owner);
	if (h)
		hist_at(h, d->pages, true);
	h = bpf_map_lookup_percpu_elem(&hists, &ckey, d->owner);
	if (h)
		hist_at(h, d->calls, true);
}

#endif /* PCPTOP_FLUSH_BPF_H */
