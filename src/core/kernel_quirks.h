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
 * The commit function is free_unref_page_commit() in 6.1 and 6.12 (their
 * BTF) and free_frozen_page_commit() in 6.18 (this host's BTF): the
 * rename came with the frozen-page work after 6.12 (commit not confirmed;
 * first kernel believed to be v6.15). Newest name first: the first one
 * the kernel's BTF knows is the one probed.
 */
#define QUIRK_COMMIT_FNS                                            \
	{                                                           \
		"free_frozen_page_commit", "free_unref_page_commit" \
	}

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
 * "mm/page_alloc: fix tracepoint mm_page_alloc_zone_locked()", v5.19
 * (commit not confirmed: the patch was rebased several times on its way
 * in). The loader counts the tracepoint's BTF arguments and leaves
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
 * /proc/zoneinfo prints a pageset's high_min and high_max from commit
 * f8780515fe91 ("mm: add pcp high_min high_max to proc zoneinfo"), v6.13.
 * The fields themselves are older: commit 90b41691b988 ("mm: add
 * framework for PCP high auto-tuning"), v6.7. So 6.7 to 6.12 have them
 * without printing them; procfs.c parses both shapes.
 */

#endif /* PCPTOP_KERNEL_QUIRKS_H */
