// SPDX-License-Identifier: GPL-2.0-only
/*
 * The replay model's other events on hand-worked sequences: vmstat's
 * decay_pcp_high(), the drains, CPU hotplug, zone states and snapshots,
 * each following the lines of mm/page_alloc.c it names (sources and
 * line notation as in test_pcpmodel.c).
 */
#include <errno.h>

#include "pcpmodel_fixture.h"
#include "pcptrace.h"
#include "unit.h"

#define MOVABLE PCPM_MIGRATE_MOVABLE

/*
 * decay_pcp_high() (6.12.117:2409, 7.3:2586): "pcp->high =
 * max3(pcp->count - (batch << CONFIG_PCP_BATCH_SCALE_MAX), pcp->high -
 * (pcp->high >> 3), high_min)", then count - high is freed. From high
 * 4000, count 3000, high_min 1000 at scale 5, high steps down by an
 * eighth to high_min; the pages go once high passes under count.
 */
static const int decay_highs[] = { 3500, 3063, 2681, 2346, 2053, 1797,
				   1573, 1377, 1205, 1055, 1000, 1000 };
static const int decay_drains[] = { 0,	 0,   319, 335, 293, 256,
				    224, 196, 172, 150, 55,  0 };
#define DECAY_STEPS 12

static struct pcpmodel *decay_setup(const struct pcpmodel_rules *rules,
				    int scale)
{
	struct pm_seed s;

	pm_seed_default(&s, 4000, 1000, 8000);
	s.order0_movable = 3000;
	return pm_new_seeded(rules, scale, &s);
}

void test_pcpmodel_decay(void)
{
	const struct pcpmodel_result *r;
	struct pcpmodel_rules rules;
	struct pcpmodel *m;
	int i, count = 3000;

	pcpmodel_rules_init(&rules, PCPM_RULES_6_12);
	m = decay_setup(&rules, 5);
	REQUIRE(m);
	r = pcpmodel_result(m);
	for (i = 0; i < DECAY_STEPS; i++) {
		CHECK_EQ_INT(pm_decay(m), 0);
		count -= decay_drains[i];
		CHECK_EQ_INT(pm_state(m).high, decay_highs[i]);
		CHECK_EQ_INT(pm_state(m).count, count);
	}
	CHECK_EQ_U64(r->decay_calls, DECAY_STEPS);
	CHECK_EQ_U64(r->decay_trims, DECAY_STEPS - 1);
	CHECK_EQ_U64(r->decay_high_cut, 4000 - 1000);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_DECAY].flushes, 9);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_DECAY].pages, 2000);
	/* v6.12 mainline: "free_pcppages_bulk(zone, to_drain, pcp, 0)" */
	CHECK_EQ_U64(r->bulk_calls, 9);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_DECAY].max_flush_pages, 335);
	pcpmodel_free(m);
}

/*
 * Debian 6.12.117 and 7.3 decay_pcp_high(): "while (to_drain > 0) {
 * to_drain_batched = min(to_drain, batch); ... }": the same nine frees
 * in 6 + 6 + 5 + 5 + 4 + 4 + 3 + 3 + 1 = 37 calls.
 */
void test_pcpmodel_decay_chunked(void)
{
	struct pcpmodel_rules rules;
	struct pcpmodel *m;
	int i;

	pcpmodel_rules_init(&rules, PCPM_RULES_6_12);
	rules.decay_chunked = true;
	m = decay_setup(&rules, 5);
	REQUIRE(m);
	for (i = 0; i < DECAY_STEPS; i++)
		CHECK_EQ_INT(pm_decay(m), 0);
	CHECK_EQ_U64(pcpmodel_result(m)->bulk_calls, 37);
	CHECK_EQ_U64(pcpmodel_result(m)->flush[PCPM_FLUSH_DECAY].flushes, 9);
	CHECK_EQ_U64(pcpmodel_result(m)->flush[PCPM_FLUSH_DECAY].pages, 2000);
	CHECK_EQ_U64(pcpmodel_result(m)->bulk_sizes.max_pages, PM_BATCH);
	pcpmodel_free(m);
}

/*
 * At scale 0 "pcp->count - (batch << 0)" wins the max3 from the third
 * step: high = count - 63, so each step frees exactly one batch.
 */
void test_pcpmodel_decay_scale0(void)
{
	static const int highs[] = { 3500, 3063, 2937, 2874, 2811 };
	struct pcpmodel_rules rules;
	struct pcpmodel *m;
	int i;

	pcpmodel_rules_init(&rules, PCPM_RULES_6_12);
	m = decay_setup(&rules, 0);
	REQUIRE(m);
	for (i = 0; i < 5; i++) {
		CHECK_EQ_INT(pm_decay(m), 0);
		CHECK_EQ_INT(pm_state(m).high, highs[i]);
	}
	CHECK_EQ_U64(pcpmodel_result(m)->flush[PCPM_FLUSH_DECAY].pages,
		     3 * PM_BATCH);
	CHECK_EQ_U64(
		pcpmodel_result(m)->flush[PCPM_FLUSH_DECAY].max_flush_pages,
		PM_BATCH);
	pcpmodel_free(m);
}

/* v6.1 has no decay_pcp_high(): a tick does nothing, and is counted */
void test_pcpmodel_decay_v61_ignored(void)
{
	struct pcpmodel_rules rules;
	struct pcpmodel *m;

	pcpmodel_rules_init(&rules, PCPM_RULES_6_1);
	m = decay_setup(&rules, 5);
	REQUIRE(m);
	CHECK_EQ_INT(pm_decay(m), 0);
	CHECK_EQ_U64(pcpmodel_result(m)->decay_ignored, 1);
	CHECK_EQ_U64(pcpmodel_result(m)->decay_calls, 0);
	CHECK_EQ_INT(pm_state(m).count, 3000);
	pcpmodel_free(m);
}

/*
 * 7.3 decay_pcp_high() (2586-2617) takes "to_drain = pcp->count -
 * pcp->high" once, then frees it in chunks with "pcp_spin_unlock_nopin"
 * between them: a free on that CPU in between (free_frozen_page_commit(),
 * "if (pcp->count >= high)") flushes against the high already lowered.
 * From count 3000, high 2000, high_min 1000: high max3(3000 - 2016, 2000
 * - 250, 1000) = 1750, to_drain 1250 (19 chunks of 63 and one of 53).
 * Five frees before its return each find count over 1750 and flush
 * nr_pcp_free()'s clamp(free_count, batch, high - batch) = 63: 25 calls,
 * count 3005 - 315 - 1250 = 1440. Replayed with the decay whole at its
 * entry, the first free finds count 1751 and flushes 63, the other four
 * find it under 1750: 21 calls, count 1692.
 */
static struct pcpmodel *decay_end_run_rules(enum pcpmodel_ruleset base,
					    bool ends, int frees, int end_zone)
{
	struct pcpmodel_config cfg;
	struct pcpmodel_rules rules;
	struct pcpmodel *m;
	struct pm_seed s;

	pcpmodel_rules_init(&rules, base);
	pm_config(&cfg, &rules, 5, 1, 1);
	cfg.decay_ends = ends;
	pm_seed_default(&s, 2000, 1000, 8000);
	s.order0_movable = 3000;
	m = pm_new_seeded_cfg(&cfg, &s);
	if (!m)
		return NULL;
	if (pm_decay(m) || pm_frees(m, frees, 0, MOVABLE) ||
	    (end_zone >= 0 && pm_event(m, PCPM_EV_DECAY_END, 0, end_zone))) {
		pcpmodel_free(m);
		return NULL;
	}
	return m;
}

/* 7.x rules; end_zone -1: no DECAY_END */
static struct pcpmodel *decay_end_run(bool ends, int frees, int end_zone)
{
	return decay_end_run_rules(PCPM_RULES_7_X, ends, frees, end_zone);
}

void test_pcpmodel_decay_end(void)
{
	struct pcpmodel *m = decay_end_run(true, 5, PCPT_ZONE_UNKNOWN);
	const struct pcpmodel_result *r;

	REQUIRE(m);
	r = pcpmodel_result(m);
	CHECK_EQ_INT(pm_state(m).high, 1750);
	CHECK_EQ_U64(r->bulk_calls, 25);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_DECAY].pages, 1250);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_COMMIT].flushes, 5);
	CHECK_EQ_INT(pm_state(m).count, 1440);
	/* a second end, or one with no decay open, frees nothing more */
	CHECK_EQ_INT(pm_event(m, PCPM_EV_DECAY_END, 0, 0), 0);
	CHECK_EQ_U64(r->bulk_calls, 25);
	pcpmodel_free(m);

	/* without the ends (older recordings), the DECAY_END is ignored */
	m = decay_end_run(false, 5, PCPT_ZONE_UNKNOWN);
	REQUIRE(m);
	r = pcpmodel_result(m);
	CHECK_EQ_U64(r->bulk_calls, 21);
	CHECK_EQ_INT(pm_state(m).count, 1692);
	pcpmodel_free(m);

	/* a decay whose end never came frees its chunks at the stream's end */
	m = decay_end_run(true, 0, -1);
	REQUIRE(m);
	r = pcpmodel_result(m);
	CHECK_EQ_U64(r->bulk_calls, 0);
	pcpmodel_end(m);
	CHECK_EQ_U64(r->bulk_calls, 20);
	CHECK_EQ_INT(pm_state(m).count, 1750);
	pcpmodel_free(m);

	/* an fexit's return names its zone: the same as the CPU's */
	m = decay_end_run(true, 5, 0);
	REQUIRE(m);
	CHECK_EQ_U64(pcpmodel_result(m)->bulk_calls, 25);
	CHECK_EQ_INT(pm_state(m).count, 1440);
	/* a zone neither the model's nor unknown is refused */
	CHECK_EQ_INT(pm_event(m, PCPM_EV_DECAY_END, 0, 7), -EINVAL);
	pcpmodel_free(m);

	/* a drain of the pageset ends its decay first: 20 chunks, then 1750 */
	m = decay_end_run(true, 0, -1);
	REQUIRE(m);
	CHECK_EQ_INT(pm_drain(m, 0, 0, PCPM_DRAIN_ALL), 0);
	CHECK_EQ_U64(pcpmodel_result(m)->flush[PCPM_FLUSH_DECAY].pages, 1250);
	CHECK_EQ_U64(pcpmodel_result(m)->flush[PCPM_FLUSH_DRAIN].pages, 1750);
	pcpmodel_free(m);

	/*
	 * 6.12 mainline frees to_drain in one locked call at the entry:
	 * nothing of its CPU comes between, the ends change nothing
	 */
	m = decay_end_run_rules(PCPM_RULES_6_12, true, 5, PCPT_ZONE_UNKNOWN);
	REQUIRE(m);
	CHECK_EQ_U64(pcpmodel_result(m)->flush[PCPM_FLUSH_DECAY].pages, 1250);
	CHECK_EQ_INT(pm_state(m).count, 1692);
	pcpmodel_free(m);
}

/*
 * drain_pages_zone() (6.12.117:2467, 7.3:2642): "to_drain = min(count,
 * pcp->batch << CONFIG_PCP_BATCH_SCALE_MAX)" per locked chunk: 5000
 * pages at scale 5 are 2016 + 2016 + 968; at scale 0, 80 chunks (79 of
 * 63 and one of 23). v6.1 before 55f77df7d715: "free_pcppages_bulk(zone,
 * pcp->count, pcp, 0)", one call.
 */
static void drain_run(enum pcpmodel_ruleset rules, int scale, uint64_t chunks,
		      uint64_t max_chunk)
{
	struct pcpmodel *m;
	const struct pcpmodel_result *r;
	struct pm_seed s;

	pm_seed_default(&s, 8000, 8000, 8000);
	s.order0_movable = 5000;
	m = pm_new_seeded_base(rules, scale, &s);
	REQUIRE(m);
	r = pcpmodel_result(m);
	CHECK_EQ_INT(pm_drain(m, 0, 0, PCPM_DRAIN_ALL), 0);
	CHECK_EQ_U64(r->drain_calls[PCPM_DRAIN_ALL], 1);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_DRAIN].chunks, chunks);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_DRAIN].pages, 5000);
	CHECK_EQ_U64(r->bulk_sizes.max_pages, max_chunk);
	CHECK_EQ_INT(pm_state(m).count, 0);
	pcpmodel_free(m);
}

void test_pcpmodel_drain_chunks(void)
{
	drain_run(PCPM_RULES_6_12, 5, 3, 2016);
	drain_run(PCPM_RULES_7_X, 5, 3, 2016);
	drain_run(PCPM_RULES_6_1_CAPPED, 5, 3, 2016);
	drain_run(PCPM_RULES_6_12, 0, 80, PM_BATCH);
	drain_run(PCPM_RULES_6_1, 5, 1, 5000);
	drain_run(PCPM_RULES_6_1, 0, 1, 5000);
}

/*
 * free_pcppages_bulk() empties whole entries: two order-3 entries (16
 * pages), batch 1, scale 2. drain_pages_zone() asks min(16, 4) = 4, gets
 * 8 and leaves its local "count -= to_drain" at 12; the next pass reads
 * pcp->count 8, asks 4, gets 8; the third reads 0 and stops: 2 calls.
 * drain_zone_pages() (7.3:2625) asks min(count, batch) once.
 */
void test_pcpmodel_drain_high_order_overshoot(void)
{
	struct pcpmodel *m = pm_new(PCPM_RULES_6_12, 2, 1, 1);
	struct pcpmodel_pcp_state st = { 0 };
	const struct pcpmodel_result *r;

	REQUIRE(m);
	st.count = 16;
	st.high = st.high_min = st.high_max = 100;
	st.batch = 1;
	st.fields = PCPM_FIELD_AUTO_HIGH | PCPM_FIELD_LISTS;
	st.list_entries[PCPM_MIGRATE_PCPTYPES * 3] = 2;
	REQUIRE(!pcpmodel_set_pcp(m, 0, 0, &st));
	r = pcpmodel_result(m);
	CHECK_EQ_INT(pm_drain(m, 0, 0, PCPM_DRAIN_LOCAL), 0);
	CHECK_EQ_U64(r->bulk_calls, 2);
	CHECK_EQ_U64(r->bulk_pages, 16);
	CHECK_EQ_U64(r->bulk_asked_max, 4);
	CHECK_EQ_U64(r->bulk_sizes.max_pages, 8);

	REQUIRE(!pcpmodel_set_pcp(m, 0, 0, &st));
	CHECK_EQ_INT(pm_drain(m, 0, 0, PCPM_DRAIN_NUMA_REMOTE), 0);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_NUMA].pages, 8);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_NUMA].chunks, 1);
	pcpmodel_free(m);
}

/*
 * page_alloc_cpu_dead() (7.3:6486) -> drain_pages(cpu) ->
 * drain_pages_zone() for every zone: CPU 1's 3000 + 100 pages go in
 * 2016 + 984 and 100; CPU 0 keeps its own. Later traffic on the dead
 * CPU is counted as such until it comes back. The hotplug events come
 * at the zone the recorder writes for them (PCPT_ZONE_UNKNOWN).
 */
void test_pcpmodel_cpu_offline(void)
{
	struct pcpmodel *m = pm_new(PCPM_RULES_6_12, 5, 2, 2);
	const struct pcpmodel_result *r;
	struct pcpmodel_pcp_state st;
	struct pcpmodel_event ev = { 0 };
	struct pm_seed s;

	REQUIRE(m);
	pm_seed_default(&s, 4000, 1000, 8000);
	s.order0_movable = 500;
	REQUIRE(!pm_seed_pcp(m, 0, 0, &s) && !pm_seed_pcp(m, 0, 1, &s));
	s.order0_movable = 3000;
	REQUIRE(!pm_seed_pcp(m, 1, 0, &s));
	s.order0_movable = 100;
	REQUIRE(!pm_seed_pcp(m, 1, 1, &s));
	r = pcpmodel_result(m);
	CHECK_EQ_INT(pm_event(m, PCPM_EV_CPU_DEAD, 1, PCPT_ZONE_UNKNOWN), 0);
	CHECK_EQ_U64(r->drain_calls[PCPM_DRAIN_CPU_DEAD], 2);
	CHECK_EQ_U64(r->bulk_calls, 3);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_DRAIN].pages, 3100);
	CHECK_EQ_INT(pcpmodel_get_pcp(m, 1, 0, &st), 0);
	CHECK_EQ_INT(st.count, 0);
	CHECK_EQ_INT(pcpmodel_get_pcp(m, 1, 1, &st), 0);
	CHECK_EQ_INT(st.count, 0);
	CHECK_EQ_INT(pcpmodel_get_pcp(m, 0, 1, &st), 0);
	CHECK_EQ_INT(st.count, 500);
	ev.type = PCPM_EV_FREE;
	ev.cpu = 1;
	CHECK_EQ_INT(pcpmodel_apply(m, &ev, NULL), 0);
	CHECK_EQ_U64(r->events_offline, 1);
	CHECK_EQ_INT(pm_event(m, PCPM_EV_CPU_ONLINE, 1, PCPT_ZONE_UNKNOWN), 0);
	CHECK_EQ_INT(pcpmodel_apply(m, &ev, NULL), 0);
	CHECK_EQ_U64(r->events_offline, 1);
	pcpmodel_free(m);
}

/*
 * v6.12 nr_pcp_high() with ZONE_BELOW_HIGH: "pcp->high = max(high -
 * free_count, high_min); high = max(pcp->count, high_min)" with
 * free_count = max(free_count, batch): one order-0 free on 500 pages
 * cuts high 1000 -> 937 and flushes clamp(1, 63, 438) = 63. And
 * nr_pcp_alloc() stops raising high ("!test_bit(ZONE_BELOW_HIGH, ...)").
 */
void test_pcpmodel_zone_below_high(void)
{
	struct pcpmodel *m;
	struct pcpmodel_zone_state z = { 0 };
	const struct pcpmodel_result *r;
	struct pm_seed s;

	pm_seed_default(&s, 1000, 200, 2000);
	s.order0_movable = 500;
	m = pm_new_seeded_base(PCPM_RULES_6_12, 5, &s);
	REQUIRE(m);
	z.below_high = 1;
	z.fields = PCPM_ZFIELD_FLAGS;
	REQUIRE(!pcpmodel_set_zone(m, 0, &z));
	r = pcpmodel_result(m);
	CHECK_EQ_INT(pm_free(m, 0, MOVABLE), 0);
	CHECK_EQ_INT(pm_state(m).high, 937);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_COMMIT].pages, PM_BATCH);
	CHECK_EQ_U64(r->events_below_high, 1);
	/* 500 - 62 = 438 pages left on the order-0 list */
	CHECK_EQ_INT(pm_allocs(m, 439, 0, MOVABLE), 0);
	CHECK_EQ_U64(r->refill_calls, 1);
	CHECK_EQ_INT(pm_state(m).high, 937);
	pcpmodel_free(m);
}

/*
 * A zone state carrying zone->pageset_* is zone_pcp_update(): every
 * CPU's batch, high_min, high_max change ("pageset_update()"); on v6.1
 * pcp->high itself.
 */
void test_pcpmodel_zone_pageset_update(void)
{
	struct pcpmodel *m = pm_new(PCPM_RULES_6_1, 5, 2, 1);
	struct pcpmodel_zone_state z = { 0 };
	struct pcpmodel_pcp_state st;
	struct pm_seed s;

	REQUIRE(m);
	pm_seed_default(&s, 1000, 1000, 1000);
	REQUIRE(!pm_seed_pcp(m, 0, 0, &s) && !pm_seed_pcp(m, 1, 0, &s));
	z.pageset_batch = 31;
	z.pageset_high_min = z.pageset_high_max = 1500;
	z.fields = PCPM_ZFIELD_PAGESET;
	REQUIRE(!pcpmodel_set_zone(m, 0, &z));
	CHECK_EQ_INT(pcpmodel_get_pcp(m, 1, 0, &st), 0);
	CHECK_EQ_INT(st.batch, 31);
	CHECK_EQ_INT(st.high, 1500);
	z.pageset_batch = 0;
	CHECK_EQ_INT(pcpmodel_set_zone(m, 0, &z), -EINVAL);
	pcpmodel_free(m);
}

/*
 * A later snapshot measures drift (model 10, record 25) and, with
 * resync, the record wins; the 15 pages of no known list go to the
 * unknown pool and a drain reaches them last. Without resync the model
 * keeps its 10. A read with high_min/high_max sets those either way.
 */
void test_pcpmodel_snapshot_resync(void)
{
	struct pcpmodel_series_point pts[2];
	struct pcpmodel_config cfg = { 0 };
	struct pcpmodel_pcp_state rec = { 0 };
	struct pcpmodel_stream pl = { 0 };
	struct pcpmodel_event ev = { 0 };
	const struct pcpmodel_result *r;
	struct pcpmodel *m;
	struct pm_seed s;
	int resync, unknown;

	for (resync = 0; resync < 2; resync++) {
		pcpmodel_rules_init(&cfg.rules, PCPM_RULES_6_12);
		cfg.scale = 5;
		cfg.nr_cpus = cfg.nr_zones = 1;
		cfg.resync = resync;
		cfg.series = pts;
		cfg.series_cap = 1;
		REQUIRE(!pcpmodel_new(&cfg, &m));
		pm_seed_default(&s, 1000, 500, 4000);
		REQUIRE(!pm_seed_pcp(m, 0, 0, &s));
		CHECK_EQ_INT(pm_frees(m, 10, 0, MOVABLE), 0);
		rec.count = 25;
		rec.high = 1000;
		rec.batch = PM_BATCH;
		pl.pcp_states = &rec;
		pl.nr_pcp_states = 1;
		ev.type = PCPM_EV_SNAPSHOT;
		ev.time_ns = 7;
		CHECK_EQ_INT(pcpmodel_apply(m, &ev, &pl), 0);
		CHECK_EQ_INT(pcpmodel_apply(m, &ev, &pl), 0);
		r = pcpmodel_result(m);
		CHECK_EQ_U64(r->snapshots, 2);
		CHECK_EQ_U64(r->snapshots_drifted, resync ? 1 : 2);
		CHECK_EQ_U64(r->count_drift_abs_max, 15);
		CHECK_EQ_U64(r->series_len, 1);
		CHECK_EQ_U64(r->series_dropped, 1);
		CHECK_EQ_INT(pts[0].model_count, 10);
		CHECK_EQ_INT(pts[0].recorded_count, 25);
		CHECK_EQ_U64(pts[0].time_ns, 7);
		CHECK_EQ_INT(pm_state(m).count, resync ? 25 : 10);
		CHECK_EQ_INT(pcpmodel_unknown_pages(m, 0, 0, &unknown), 0);
		CHECK_EQ_INT(unknown, resync ? 15 : 0);
		CHECK(pm_lists_consistent(m, 0, 0));
		CHECK_EQ_INT(pm_drain(m, 0, 0, PCPM_DRAIN_ALL), 0);
		CHECK_EQ_U64(r->flush[PCPM_FLUSH_DRAIN].pages,
			     resync ? 25 : 10);
		/*
		 * the pageset's limits as zone_pcp_update() rewrote them are
		 * followed, resync or not; its high stays the model's
		 */
		rec.fields = PCPM_FIELD_AUTO_HIGH;
		rec.high_min = 600;
		rec.high_max = 5000;
		rec.high = 3000;
		CHECK_EQ_INT(pcpmodel_apply(m, &ev, &pl), 0);
		CHECK_EQ_INT(pm_state(m).high_min, 600);
		CHECK_EQ_INT(pm_state(m).high_max, 5000);
		CHECK_EQ_INT(pm_state(m).high, resync ? 3000 : 1000);
		pcpmodel_free(m);
	}
}

/*
 * A resync to fewer pages takes them from the unknown pool, then from the
 * lists in free_pcppages_bulk()'s round robin from pindex 0; a high-order
 * entry's overshoot comes back as unknown order-0 pages. 10 order-0 and
 * two order-2 entries (18 pages) recorded as 5: the 10 go, then one
 * order-2 entry (4 pages, one too many), and the pool holds 1.
 */
void test_pcpmodel_resync_down(void)
{
	struct pcpmodel_config cfg = { 0 };
	struct pcpmodel_pcp_state rec = { 0 };
	struct pcpmodel_stream pl = { 0 };
	struct pcpmodel_event ev = { .type = PCPM_EV_SNAPSHOT };
	struct pcpmodel *m;
	struct pm_seed s;
	int unknown;

	pcpmodel_rules_init(&cfg.rules, PCPM_RULES_6_12);
	cfg.scale = 5;
	cfg.nr_cpus = cfg.nr_zones = 1;
	cfg.resync = true;
	REQUIRE(!pcpmodel_new(&cfg, &m));
	pm_seed_default(&s, 1000, 500, 4000);
	s.order0_movable = 10;
	REQUIRE(!pm_seed_pcp(m, 0, 0, &s));
	CHECK_EQ_INT(pm_frees(m, 2, 2, MOVABLE), 0);
	CHECK_EQ_INT(pm_state(m).count, 18);
	rec.count = 5;
	rec.high = 1000;
	rec.batch = PM_BATCH;
	pl.pcp_states = &rec;
	pl.nr_pcp_states = 1;
	CHECK_EQ_INT(pcpmodel_apply(m, &ev, &pl), 0);
	CHECK_EQ_INT(pm_state(m).count, 5);
	CHECK_EQ_INT(pm_state(m).list_entries[PM_ORDER0_MOVABLE], 0);
	CHECK_EQ_INT(
		pm_state(m).list_entries[PCPM_MIGRATE_PCPTYPES * 2 + MOVABLE],
		1);
	CHECK_EQ_INT(pcpmodel_unknown_pages(m, 0, 0, &unknown), 0);
	CHECK_EQ_INT(unknown, 1);
	CHECK(pm_lists_consistent(m, 0, 0));
	pcpmodel_free(m);
}

/*
 * A pageset seeded without its lists holds its pages in the unknown
 * pool, which no allocation takes from: the first order-0 allocation
 * refills although count is 100 (the model's stated limit).
 */
void test_pcpmodel_seed_without_lists(void)
{
	struct pcpmodel *m = pm_new(PCPM_RULES_6_12, 5, 1, 1);
	struct pcpmodel_pcp_state st = { 0 };
	int unknown;

	REQUIRE(m);
	st.count = 100;
	st.high = 1000;
	st.batch = PM_BATCH;
	REQUIRE(!pcpmodel_set_pcp(m, 0, 0, &st));
	CHECK_EQ_INT(pcpmodel_unknown_pages(m, 0, 0, &unknown), 0);
	CHECK_EQ_INT(unknown, 100);
	/* no high_min/high_max read: pinned at high */
	CHECK_EQ_INT(pm_state(m).high_min, 1000);
	CHECK_EQ_INT(pm_state(m).high_max, 1000);
	CHECK_EQ_INT(pm_alloc(m, 0, MOVABLE), 0);
	CHECK_EQ_U64(pcpmodel_result(m)->refill_calls, 1);
	pcpmodel_free(m);
}
