/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pcptop's own cost, from the kernel's BPF run-time statistics: ns per
 * program run and the share of one CPU. Turning the statistics on makes
 * every BPF program on the system read the clock twice per run, pcptop's
 * and everyone else's, so they are sampled: on for COST_ON_S seconds in
 * every COST_PERIOD_S, and the figure is the last window's.
 */
#ifndef PCPTOP_COST_H
#define PCPTOP_COST_H

#include <stdbool.h>
#include <stdint.h>

struct attach;

#define COST_OFF_LEN 96
#define COST_ON_S 2.0
#define COST_PERIOD_S 30.0

struct cost_sample {
	bool valid;
	double ns_per_event;
	double cpu_pct; /* of one CPU, over the sampled window */
};

struct cost_src {
	int stats_fd; /* BPF_ENABLE_STATS: on while it is open */
	bool sysctl_set; /* the fallback wrote the sysctl: put it back */
	long sysctl_old;
	bool on; /* inside a sampling window */
	double since; /* when the window (or the pause) began */
	uint64_t run_ns; /* totals when the window began */
	uint64_t run_cnt;
	struct cost_sample last; /* the last window's figure */
	char off[COST_OFF_LEN]; /* why there is no cost figure, or "" */
};

/* first window opens; on failure cs->off says why, sampling gives nothing */
void cost_on(struct cost_src *cs, const struct attach *a);
/* statistics back as they were, however pcptop ends */
void cost_off(struct cost_src *cs);
/*
 * Called at every refresh: closes a window that has run COST_ON_S (its
 * figure becomes the one shown), opens the next when COST_PERIOD_S has
 * passed; out is the last closed window's figure.
 */
void cost_sample(struct cost_src *cs, const struct attach *a,
		 struct cost_sample *out);

#endif /* PCPTOP_COST_H */
