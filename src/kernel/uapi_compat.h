/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What newer kernels tell user space that Debian 12's headers (6.1 UAPI)
 * cannot name: an errno and a bpf_link_info layout. Each names the change
 * that caused it: commit, title, first kernel. Function-name quirks are
 * src/core/kernel_quirks.h, the BPF side's bpf/compat.bpf.h.
 */
#ifndef PCPTOP_UAPI_COMPAT_H
#define PCPTOP_UAPI_COMPAT_H

#include <stdint.h>

/*
 * arm64 fentry needs ftrace direct calls: commit 2aa6ac03516d ("arm64:
 * ftrace: Add direct call support"), v6.4. Before it, attaching fentry
 * fails with the kernel-internal ENOTSUPP, absent from user space's
 * errno.h.
 */
#define COMPAT_ENOTSUPP 524

/*
 * bpf_link_info of a perf-event link, as far as pcptop reads it. The perf_event
 * member comes with commit 1b715e1b0ec5 ("bpf: Support ->fill_link_info
 * for perf_event"), v6.6; missed with commit 3acf8ace6823 ("bpf: Add
 * missed value to kprobe perf link info"), v6.7. Debian 12's
 * <linux/bpf.h> has neither; older kernels leave the field 0.
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
	uint64_t cookie; /* added later; not read */
	uint8_t rest[64]; /* the rest of the kernel's union, zeroed */
};

#define COMPAT_LINK_TYPE_PERF_EVENT 7 /* BPF_LINK_TYPE_PERF_EVENT */
#define COMPAT_PERF_EVENT_KPROBE 3 /* BPF_PERF_EVENT_KPROBE */
#define COMPAT_PERF_EVENT_KRETPROBE 4

/*
 * BPF_ENABLE_STATS: commit d46edd671a14 ("bpf: Sharing bpf runtime stats
 * with BPF_ENABLE_STATS"), v5.8. Before it only the
 * kernel.bpf_stats_enabled sysctl turns run-time statistics on (cost.c
 * falls back to it).
 */

#endif /* PCPTOP_UAPI_COMPAT_H */
