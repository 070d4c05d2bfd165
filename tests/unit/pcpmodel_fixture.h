/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Small hands for the replay model's tests: a model with one rule set and
 * scale, a pageset seeded with known lists, one event at a time, and the
 * tests of test_pcpmodel_events.c, test_pcpmodel_replay.c and
 * test_pcpmodel_zone.c, listed in test_pcpmodel.c's table.
 */
#ifndef PCPTOP_PCPMODEL_FIXTURE_H
#define PCPTOP_PCPMODEL_FIXTURE_H

#include "pcpmodel.h"

/* the 63-page batch of a zone over 1 GiB (zone_batchsize()) */
#define PM_BATCH 63
#define PM_ORDER0_MOVABLE (PCPM_MIGRATE_PCPTYPES * 0 + PCPM_MIGRATE_MOVABLE)
#define PM_ORDER1_MOVABLE (PCPM_MIGRATE_PCPTYPES * 1 + PCPM_MIGRATE_MOVABLE)

/* a model of nr_cpus and nr_zones, THP order 9, no series; NULL on error */
struct pcpmodel *pm_new(enum pcpmodel_ruleset rules, int scale,
			unsigned int nr_cpus, unsigned int nr_zones);
/* the same with rules edited by the caller */
struct pcpmodel *pm_new_rules(const struct pcpmodel_rules *rules, int scale,
			      unsigned int nr_cpus, unsigned int nr_zones);
/* pm_new_rules()' config, for a caller that sets more of it */
void pm_config(struct pcpmodel_config *cfg, const struct pcpmodel_rules *rules,
	       int scale, unsigned int nr_cpus, unsigned int nr_zones);

/* a pageset's start: every field read, lists given */
struct pm_seed {
	int high, high_min, high_max, batch, free_count;
	int alloc_factor, free_factor, flags;
	/* pages on the order-0 MOVABLE list */
	int order0_movable;
};

void pm_seed_default(struct pm_seed *s, int high, int high_min, int high_max);
int pm_seed_pcp(struct pcpmodel *m, unsigned int cpu, unsigned int zone,
		const struct pm_seed *s);
/* one CPU, one zone, seeded; NULL on error */
struct pcpmodel *pm_new_seeded(const struct pcpmodel_rules *rules, int scale,
			       const struct pm_seed *s);
struct pcpmodel *pm_new_seeded_base(enum pcpmodel_ruleset base, int scale,
				    const struct pm_seed *s);
/* CPU 0, zone 0 of a model of cfg, seeded; NULL on error */
struct pcpmodel *pm_new_seeded_cfg(const struct pcpmodel_config *cfg,
				   const struct pm_seed *s);

/* events on CPU 0, zone 0, pcp path */
int pm_alloc(struct pcpmodel *m, int order, int mt);
int pm_free(struct pcpmodel *m, int order, int mt);
/* an ALLOC or a FREE of order on the buddy path, CPU 0, zone 0 */
int pm_buddy(struct pcpmodel *m, int type, int order);
/* n of them; the first error, or 0 */
int pm_frees(struct pcpmodel *m, int n, int order, int mt);
int pm_allocs(struct pcpmodel *m, int n, int order, int mt);
int pm_decay(struct pcpmodel *m);
int pm_drain(struct pcpmodel *m, unsigned int cpu, unsigned int zone,
	     int reason);
int pm_event(struct pcpmodel *m, int type, unsigned int cpu, unsigned int zone);

/* the state of CPU 0, zone 0 (zeroed when it cannot be read) */
struct pcpmodel_pcp_state pm_state(const struct pcpmodel *m);
/* modelled pages over every list and the unknown pool == count */
int pm_lists_consistent(const struct pcpmodel *m, unsigned int cpu,
			unsigned int zone);

/* test_pcpmodel_events.c */
void test_pcpmodel_decay(void);
void test_pcpmodel_decay_chunked(void);
void test_pcpmodel_decay_scale0(void);
void test_pcpmodel_decay_v61_ignored(void);
void test_pcpmodel_decay_end(void);
void test_pcpmodel_drain_chunks(void);
void test_pcpmodel_drain_high_order_overshoot(void);
void test_pcpmodel_cpu_offline(void);
void test_pcpmodel_zone_below_high(void);
void test_pcpmodel_zone_pageset_update(void);
void test_pcpmodel_snapshot_resync(void);
void test_pcpmodel_resync_down(void);
void test_pcpmodel_seed_without_lists(void);

/* test_pcpmodel_replay.c */
void test_pcpmodel_self_consistent(void);
void test_pcpmodel_self_consistent_no_resync(void);
void test_pcpmodel_drift_other_scale(void);
void test_pcpmodel_scale_direction(void);
void test_pcpmodel_identities(void);
void test_pcpmodel_rejects(void);
void test_pcpmodel_rules_names(void);

/* test_pcpmodel_zone.c */
void test_pcpmodel_zone_free(void);
void test_pcpmodel_zone_same_scale(void);
void test_pcpmodel_zone_kswapd(void);
void test_pcpmodel_zone_direct_reclaim(void);
void test_pcpmodel_zone_drains_as_given(void);
void test_pcpmodel_zone_below_high_moved(void);

/* test_pcpmodel_reclaim.c */
void test_pcpmodel_reclaim_judged(void);
void test_pcpmodel_reclaim_unmarked(void);
void test_pcpmodel_reclaim_mark_over_min(void);
void test_pcpmodel_reclaim_isolate(void);
void test_pcpmodel_reclaim_window(void);
void test_pcpmodel_reclaim_anchor(void);

/* test_pcpmodel_cost.c */
void test_pcpmodel_cost_table(void);
void test_pcpmodel_cost_split(void);
void test_pcpmodel_cost_extrapolate(void);
void test_pcpmodel_cost_slots(void);
void test_pcpmodel_cost_exact_means(void);
void test_pcpmodel_cost_sparse(void);

#endif /* PCPTOP_PCPMODEL_FIXTURE_H */
