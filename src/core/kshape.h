/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The shape of the running kernel's pcp code that the figures depend on,
 * and the evidence for each: whether the commit function frees a flush
 * in chunks, which free_high rule is in force, what zone->lock is called
 * and whether the kernel has zone-lock tracepoints. Gathered from BTF by
 * kernel/kernel_facts.c, decided here (pure: unit-tested), said by info.
 */
#ifndef PCPTOP_KSHAPE_H
#define PCPTOP_KSHAPE_H

#include <stdbool.h>
#include <stddef.h>

#define KSHAPE_WHY_LEN 200

struct kshape {
	bool known; /* filled from BTF */
	/* the commit function's BTF prototype returns a value (bool) */
	bool commit_returns;
	bool commit_in_btf;
	bool pcp_free_count; /* per_cpu_pages.free_count (v6.7+) */
	bool pcp_free_factor; /* per_cpu_pages.free_factor (6.1..6.6) */
	bool zone_lock_renamed; /* struct zone has _lock, not lock */
	bool zone_lock_tps; /* zone_lock:* tracepoints in BTF */
	/* decided by kshape_decide() */
	bool flush_chunked;
	int free_high_rule; /* enum pcptop_free_high_rule */
	char free_high_why[KSHAPE_WHY_LEN];
};

/*
 * Decide the flush shape and the free_high rule from the BTF facts in k
 * and the kernel release ("6.12.117+deb12-amd64"): evidence first, the
 * version where there is none. 0, or -EINVAL for a release it cannot read.
 */
int kshape_decide(struct kshape *k, const char *release);

/*
 * Under the batch + high_min / 2 rule, whether a pageset of this batch and
 * high_min can reach the threshold at this scale: 1 or 0; -EINVAL for
 * another rule or values it cannot judge.
 */
int kshape_free_high_reachable(int rule, int batch, int high_min, int scale);

/* "batch + high_min / 2", "batch", "free_factor" */
const char *kshape_rule_name(int rule);

#endif /* PCPTOP_KSHAPE_H */
