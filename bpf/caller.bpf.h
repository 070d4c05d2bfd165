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
#include <bpf/bpf_tracing.h>
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

/*
 * Where a function probed by a kprobe at its first instruction returns
 * to: x86 pushed it on the stack, arm64 has it in its link register.
 * libbpf 1.1's BPF_KPROBE_READ_RET_IP() reads memory at the link register
 * on arm64 (it gave the two instructions there as a number), hence this.
 */
static __always_inline __u64 kprobe_ret_ip(struct pt_regs *ctx)
{
	__u64 ip = 0;

#if defined(__TARGET_ARCH_x86)
	bpf_probe_read_kernel(&ip, sizeof(ip), (void *)PT_REGS_SP(ctx));
#else
	ip = PT_REGS_RET(ctx);
#endif
	return ip;
}

/*
 * The caller whose function holds return address ip, or -1. A global
 * function: the verifier walks it once, on its own, instead of once for
 * each of the stack's frames (fentry/drain_pages_zone: 9 696 instructions
 * verified, on arm64 6.12).
 */
__noinline int pcptop_caller_at(__u64 ip)
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
 * ctx is the probe's own (fentry or kprobe on drain_pages_zone); ret_ip
 * the address drain_pages_zone returns to, where the probe can read it
 * (a kprobe's registers), else 0. A kprobe at a function's first
 * instruction on arm64 runs before the function pushes its frame record:
 * the frame-pointer walk from its registers goes from the function's pc
 * to its caller's caller, and the caller is only in the link register
 * (page_alloc_cpu_dead() was lost so on arm64 6.1). A stack that cannot
 * be read, or names none of the callers, is "other".
 */
static __always_inline int drain_caller(void *ctx, __u64 ret_ip)
{
	__u32 zero = 0;
	__u64 *ips = bpf_map_lookup_elem(&drain_stack, &zero);
	long len;
	int i, c;

	if (!nr_caller_ranges)
		return DRAIN_BY_OTHER;
	c = ret_ip ? pcptop_caller_at(ret_ip) : -1;
	if (c >= 0 && c < NR_DRAIN_CALLERS)
		return c;
	if (!ips)
		return DRAIN_BY_OTHER;
	len = bpf_get_stack(ctx, ips, PCPTOP_DRAIN_STACK_DEPTH * sizeof(__u64),
			    0);
	if (len <= 0)
		return DRAIN_BY_OTHER;
	for (i = 0; i < PCPTOP_DRAIN_STACK_DEPTH; i++) {
		if (i * (long)sizeof(__u64) >= len)
			break;
		c = pcptop_caller_at(ips[i]);
		if (c >= 0 && c < NR_DRAIN_CALLERS)
			return c;
	}
	return DRAIN_BY_OTHER;
}

#endif /* PCPTOP_CALLER_BPF_H */
