/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pcptop's own cost, from the kernel's BPF run-time statistics: ns per
 * program run and the share of one CPU. Turning the statistics on makes
 * every BPF program on the system read the clock twice per run, so they
 * are on only while a view shows the figure.
 */
#ifndef PCPTOP_COST_H
#define PCPTOP_COST_H

#include <stdbool.h>
#include <stdint.h>

struct attach;

#define COST_OFF_LEN 96

struct cost_src {
	int stats_fd; /* BPF_ENABLE_STATS: on while it is open */
	bool sysctl_set; /* the fallback wrote the sysctl: put it back */
	long sysctl_old;
	uint64_t run_ns; /* totals at the last sample */
	uint64_t run_cnt;
	char off[COST_OFF_LEN]; /* why there is no cost figure, or "" */
};

struct cost_sample {
	bool valid;
	double ns_per_event;
	double cpu_pct; /* of one CPU */
};

/* statistics on; on failure cs->off says why and sampling gives nothing */
void cost_on(struct cost_src *cs, const struct attach *a);
/* back as they were, however pcptop ends (also on a failed cost_on) */
void cost_off(struct cost_src *cs);
/* what the programs cost over the last secs seconds */
void cost_sample(struct cost_src *cs, const struct attach *a, double secs,
		 struct cost_sample *out);

#endif /* PCPTOP_COST_H */
