/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Who asked for a drain: drain_pages_zone() is reached from direct
 * reclaim, compaction, CPU hotplug, CMA and memory offlining through
 * drain_all_pages(), drain_local_pages() and drain_pages(), static helpers
 * the compiler inlines differently in every build. Drains are rare (a few
 * a second under reclaim, none otherwise), so each one can afford a look
 * at its kernel stack: the innermost frame inside one of the functions
 * the loader found in kallsyms names the caller (src/core/kernel_quirks.h
 * lists them and why). A per-task window between the reclaim tracepoints
 * would also see direct reclaim's drain, which comes right after
 * mm_vmscan_direct_reclaim_end, but nothing closes that window when the
 * allocation then succeeds, and it would say nothing of the other callers.
 * Included by pcptop.bpf.c before the drain probe's handlers.
 */
#ifndef PCPTOP_CALLER_BPF_H
#define PCPTOP_CALLER_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "pcptop.h"

/*
 * Set by the loader before the load: constants to the verifier, which
 * then walks the loops below once, for the ranges this kernel has
 * (written after the load, an unknown count made it walk every way out
 * of every loop and give up, E2BIG)
 */
const volatile struct pcptop_caller_range
	caller_ranges[PCPTOP_MAX_CALLER_RANGES] = {};
const volatile __u32 nr_caller_ranges;

/* a stack per CPU: 256 bytes is half the BPF stack */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64[PCPTOP_DRAIN_STACK_DEPTH]);
} drain_stack SEC(".maps");

/* the caller whose function holds return address ip, or -1 */
static __always_inline int caller_at(__u64 ip)
{
	__u32 r;

	for (r = 0; r < PCPTOP_MAX_CALLER_RANGES; r++) {
		if (r >= nr_caller_ranges)
			break;
		/* a return address follows its call: a call may end the text */
		if (ip > caller_ranges[r].lo && ip <= caller_ranges[r].hi)
			return caller_ranges[r].caller;
	}
	return -1;
}

/*
 * ctx is the probe's own (fentry or kprobe on drain_pages_zone). A stack
 * that cannot be read, or names none of the callers, is "other".
 */
static __always_inline int drain_caller(void *ctx)
{
	__u32 zero = 0;
	__u64 *ips = bpf_map_lookup_elem(&drain_stack, &zero);
	long len;
	int i, c;

	if (!ips || !nr_caller_ranges)
		return DRAIN_BY_OTHER;
	len = bpf_get_stack(ctx, ips, PCPTOP_DRAIN_STACK_DEPTH * sizeof(__u64),
			    0);
	if (len <= 0)
		return DRAIN_BY_OTHER;
	for (i = 0; i < PCPTOP_DRAIN_STACK_DEPTH; i++) {
		if (i * (long)sizeof(__u64) >= len)
			break;
		c = caller_at(ips[i]);
		if (c >= 0 && c < NR_DRAIN_CALLERS)
			return c;
	}
	return DRAIN_BY_OTHER;
}

#endif /* PCPTOP_CALLER_BPF_H */
