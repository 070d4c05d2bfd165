/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Synthetic pcp traffic for the replay model's tests and its bench: a
 * seeded workload of allocation and free runs (orders 0..3, THP, the
 * buddy path), decay ticks, drains, hotplug and zone flags, played
 * through a "kernel" model while it is written down, with that model's
 * pagesets read into snapshots as a trace would read the real ones.
 */
#ifndef PCPTOP_PCPMODEL_SYNTH_H
#define PCPTOP_PCPMODEL_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pcpmodel.h"

struct pcpm_synth_opts {
	size_t nr_workload; /* allocations and frees to write */
	uint64_t seed;
	unsigned int decay_every; /* workload events between decay rounds */
	unsigned int snapshot_every; /* ... between snapshot rounds */
	unsigned int drain_every; /* ... between drain_all_pages() rounds */
	unsigned int zone_flip_every; /* ... between BELOW_HIGH flips */
	bool thp; /* THP-order allocations and frees on the pcp path */
	bool hotplug; /* one CPU goes down and comes back midway */
	/* later snapshots carry the lists (a walk of pcp->lists[]) */
	bool snapshot_lists;
	/* the pagesets' start: batch, high and its bounds */
	int batch, high, high_min, high_max;
};

struct pcpm_synth {
	struct pcpmodel_event *events;
	size_t nr_events, cap_events;
	struct pcpmodel_pcp_state *pcp_states;
	size_t nr_pcp_states, cap_pcp_states;
	struct pcpmodel_zone_state *zone_states;
	size_t nr_zone_states, cap_zone_states;
	struct pcpmodel_stream stream; /* the three arrays above */
	uint64_t rng;
};

/* the defaults the tests start from: a 63-page batch, as on >1 GiB */
void pcpm_synth_defaults(struct pcpm_synth_opts *o, uint64_t seed);

/*
 * Writes the stream while `kernel` (a fresh model: its config says the
 * CPUs, zones, rules and scale) plays it. 0, -ENOMEM, or a model error.
 */
int pcpm_synth_make(const struct pcpm_synth_opts *o, struct pcpmodel *kernel,
		    struct pcpm_synth *s);
void pcpm_synth_free(struct pcpm_synth *s);

#endif /* PCPTOP_PCPMODEL_SYNTH_H */
