/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pageset trimmed or emptied other than by a free: decay_pcp_high(),
 * vmstat's periodic shrink of pcp->high, and drain_pages_zone(), whose
 * callers (hotplug, compaction, drain_all_pages()) caller.bpf.h tells
 * apart. Their fentry/fexit and kprobe twins stay in pcptop.bpf.c, under
 * its index.
 */
#ifndef PCPTOP_TRIM_BPF_H
#define PCPTOP_TRIM_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include "compat.bpf.h"
#include "pcptop.h"
#include "state.bpf.h"
#include "calls.bpf.h"
#include "caller.bpf.h"
#include "flush.bpf.h"

/* ---- decay_pcp_high(zone, pcp): vmstat's periodic shrink of pcp->high ---- */

static __always_inline int decay_enter(struct zone *zone,
				       struct per_cpu_pages *pcp)
{
	__u64 tkey = task_key(cpu_state());
	struct decay_call d = {};

	d.pcp = compat_addr(pcp);
	d.zone = compat_zone_idx(zone);
	d.high_before = BPF_CORE_READ(pcp, high);
	bpf_map_update_elem(&decays, &tkey, &d, BPF_ANY);
	return 0;
}

static __always_inline int decay_exit(void)
{
	__u64 tkey = task_key(cpu_state());
	struct pcptop_counter_val *cnt;
	struct per_cpu_pages *pcp;
	struct decay_call *d;
	__u32 ep = cur_epoch();
	int high;

	d = bpf_map_lookup_elem(&decays, &tkey);
	if (!d)
		return 0;
	pcp = (struct per_cpu_pages *)d->pcp;
	high = BPF_CORE_READ(pcp, high);
	cnt = counters_of(ep, d->zone, 0, 0);
	count_in(cnt, CNT_DECAY_CALLS, 1);
	count_in(cnt, CNT_DECAY_TRIMS, high < d->high_before);
	count_in(cnt, CNT_DECAY_FREES, d->pages > 0);
	count_in(cnt, CNT_DECAY_HIGH_BEFORE, d->high_before);
	count_in(cnt, CNT_DECAY_HIGH_AFTER, high);
	if (d->pages) {
		hist_record(ep, d->zone, HIST_DECAY_PAGES, d->pages);
		flush_book(ep, d->zone, d->pages, d->calls);
	}
	bpf_map_delete_elem(&decays, &tkey);
	return 0;
}

/* ---- drain_pages_zone(cpu, zone): hotplug, compaction, drain_all_pages() ---- */

static __always_inline int drain_enter(void *ctx, __u64 ret_ip,
				       unsigned int cpu, struct zone *zone)
{
	__u64 task = bpf_get_current_pid_tgid();
	struct drain_call d = {};

	d.owner = cpu;
	d.zone = compat_zone_idx(zone);
	d.caller = drain_caller(ctx, ret_ip);
	bpf_map_update_elem(&drains, &task, &d, BPF_ANY);
	return 0;
}

static __always_inline int drain_exit(void)
{
	__u64 task = bpf_get_current_pid_tgid();
	struct drain_call *d = bpf_map_lookup_elem(&drains, &task);
	__u32 key, ep = cur_epoch();
	struct pcptop_counter_val *cnt;

	if (!d)
		return 0;
	key = pcptop_counter_key(d->zone, 0, 0) + ep * PCPTOP_NR_COUNTER_KEYS;
	cnt = bpf_map_lookup_percpu_elem(&counters, &key, d->owner);
	if (cnt) {
		__sync_fetch_and_add(&cnt->c[CNT_DRAIN_CALLS], 1);
		if (d->caller >= 0 && d->caller < NR_DRAIN_CALLERS)
			__sync_fetch_and_add(
				&cnt->c[CNT_DRAIN_BY_RECLAIM + d->caller], 1);
	}
	if (d->pages)
		drain_flush(ep, d);
	bpf_map_delete_elem(&drains, &task);
	return 0;
}

#endif /* PCPTOP_TRIM_BPF_H */
