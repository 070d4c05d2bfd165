/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Allocation and free latency (--latency): entry to exit of the page
 * allocator's entry points, as their callers wait for them, interrupts
 * inside included. Included by pcptop.bpf.c after its map helpers; the
 * refill and bulk-free probes mark the call they run inside, which is how
 * a call's path (served from the pcp list, or refilled / flushed inside)
 * is known. These programs run on every allocation and every free, so
 * the loader only loads them when asked.
 */
#ifndef PCPTOP_LATENCY_BPF_H
#define PCPTOP_LATENCY_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "compat.bpf.h"
#include "pcptop.h"
#include "caller.bpf.h"
#include "state.bpf.h"

struct lat_call {
	__u64 start_ns;
	__u32 order;
	__u32 gfp;
	bool bulk; /* a refill or flush ran inside */
};

/*
 * Keyed by the task, its interrupt nesting and the direction: an
 * interrupt that allocates while its task is inside the allocator runs on
 * the same task, one level deeper. task_struct is cache-line aligned, so
 * its low six bits are free for the other two.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct lat_call);
} lat_calls SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PCPTOP_NR_LAT_KEYS *PCPTOP_EPOCHS);
	__type(key, __u32);
	__type(value, struct pcptop_lat_val);
} lats SEC(".maps");

#define LAT_MAX_IRQ_DEPTH 3

static __always_inline __u64 lat_key(int dir)
{
	struct cpu_state *st = cpu_state();
	__u64 depth = st && st->irq_depth > 0 ? st->irq_depth : 0;

	if (depth > LAT_MAX_IRQ_DEPTH)
		depth = LAT_MAX_IRQ_DEPTH;
	return (__u64)bpf_get_current_task() | depth << 1 | dir;
}

static __always_inline int lat_enter(int dir, unsigned int order, __u32 gfp)
{
	struct lat_call c = { .order = order, .gfp = gfp };
	__u64 key = lat_key(dir);

	c.start_ns = bpf_ktime_get_ns();
	bpf_map_update_elem(&lat_calls, &key, &c, BPF_ANY);
	return 0;
}

/*
 * An allocation that returned no page, at its order: readahead's when
 * one of its functions is on the stack (failures are rare: the stack is
 * looked at only then), else by its __GFP_NORETRY bit
 */
static __always_inline void alloc_failed(void *ctx, const struct lat_call *c)
{
	__u32 zero = 0, ep = cur_epoch();
	__u64 *ips = bpf_map_lookup_elem(&drain_stack, &zero);
	int cause = c->gfp & COMPAT_GFP_NORETRY ? CNT_ALLOC_FAIL_NORETRY :
						  CNT_ALLOC_FAIL_OTHER;
	struct pcptop_counter_val *cnt;
	long len = 0;
	int i;

	if (ips && nr_caller_ranges)
		len = bpf_get_stack(
			ctx, ips, PCPTOP_DRAIN_STACK_DEPTH * sizeof(__u64), 0);
	for (i = 0; ips && i < PCPTOP_DRAIN_STACK_DEPTH; i++) {
		if (i * (long)sizeof(__u64) >= len)
			break;
		if (pcptop_caller_at(ips[i]) == PCPTOP_CALLER_READAHEAD) {
			cause = CNT_ALLOC_FAIL_READAHEAD;
			break;
		}
	}
	cnt = counters_of(ep, PCPTOP_ZONE_UNKNOWN, compat_order_slot(c->order),
			  0);
	count_in(cnt, CNT_ALLOC_FAILS, 1);
	count_in(cnt, cause, 1);
}

static __always_inline int lat_exit(int dir, void *ctx, bool failed)
{
	__u64 now = bpf_ktime_get_ns(), key = lat_key(dir), ns;
	struct pcptop_lat_val *v;
	struct lat_call *c;
	__u32 slot, k;

	c = bpf_map_lookup_elem(&lat_calls, &key);
	if (!c)
		return 0;
	ns = now - c->start_ns;
	if (failed)
		alloc_failed(ctx, c);
	k = pcptop_lat_key(dir, c->bulk ? LAT_PATH_BULK : LAT_PATH_PCP,
			   compat_order_slot(c->order)) +
	    cur_epoch() * PCPTOP_NR_LAT_KEYS;
	bpf_map_delete_elem(&lat_calls, &key);
	v = bpf_map_lookup_elem(&lats, &k);
	if (!v)
		return 0;
	slot = log2_slot(ns);
	if (slot >= PCPTOP_HIST_SLOTS)
		slot = PCPTOP_HIST_SLOTS - 1;
	v->slots[slot]++;
	v->sum += ns;
	if (ns > v->max)
		v->max = ns;
	return 0;
}

/* a refill or bulk free runs inside the allocation or free in flight */
static __always_inline void lat_mark(int dir)
{
	__u64 key = lat_key(dir);
	struct lat_call *c = bpf_map_lookup_elem(&lat_calls, &key);

	if (c)
		c->bulk = true;
}

/* fentry and kprobes alike go to the names this kernel has (probes.c) */
/*
 * every name QUIRK_ALLOC_FNS lists takes (gfp, order, preferred_nid,
 * nodemask) and returns the page, NULL when it failed
 */
SEC("pcptop.fentry/__alloc_pages")
int BPF_PROG(fe_alloc, gfp_t gfp, unsigned int order)
{
	return lat_enter(LAT_ALLOC, order, gfp);
}

SEC("pcptop.fexit/__alloc_pages")
int BPF_PROG(fx_alloc, gfp_t gfp, unsigned int order, int nid, void *nodemask,
	     struct page *ret)
{
	return lat_exit(LAT_ALLOC, ctx, !ret);
}

SEC("pcptop.fentry/free_unref_page")
int BPF_PROG(fe_free, struct page *page, unsigned int order)
{
	return lat_enter(LAT_FREE, order, 0);
}

SEC("pcptop.fexit/free_unref_page")
int BPF_PROG(fx_free)
{
	return lat_exit(LAT_FREE, ctx, false);
}

SEC("kprobe/__alloc_pages")
int BPF_KPROBE(kp_alloc, gfp_t gfp, unsigned int order)
{
	return lat_enter(LAT_ALLOC, order, gfp);
}

SEC("kretprobe/__alloc_pages")
int BPF_KRETPROBE(kr_alloc, void *ret)
{
	return lat_exit(LAT_ALLOC, ctx, !ret);
}

SEC("kprobe/free_unref_page")
int BPF_KPROBE(kp_free, struct page *page, unsigned int order)
{
	return lat_enter(LAT_FREE, order, 0);
}

SEC("kretprobe/free_unref_page")
int BPF_KRETPROBE(kr_free)
{
	return lat_exit(LAT_FREE, ctx, false);
}

#endif /* PCPTOP_LATENCY_BPF_H */
