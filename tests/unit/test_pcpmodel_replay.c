// SPDX-License-Identifier: GPL-2.0-only
/*
 * The replay model on whole streams (pcpmodel_synth.c): a stream written
 * by the model at a scale replays to the same counts at that scale, with
 * and without resync; at another scale the snapshots say how far it
 * drifted; each figure moves with the scale the way the kernel's bounds
 * say; the result's own identities hold; bad input is refused and
 * counted. The pricing of locked calls is in test_pcpmodel_cost.c.
 */
#include <errno.h>
#include <string.h>

#include "hist.h"
#include "pcpmodel_fixture.h"
#include "pcpmodel_synth.h"
#include "unit.h"

#define NR_CPUS 2
#define NR_ZONES 2
#define WORKLOAD 60000
/* the largest overshoot of one order-0..3 entry: 8 - 1 pages */
#define ORDER3_OVERSHOOT 7

static struct pcpmodel *model(enum pcpmodel_ruleset rules, int scale,
			      bool resync)
{
	struct pcpmodel_config cfg = { 0 };
	struct pcpmodel *m;

	pcpmodel_rules_init(&cfg.rules, rules);
	cfg.scale = scale;
	cfg.nr_cpus = NR_CPUS;
	cfg.nr_zones = NR_ZONES;
	cfg.thp_order = PCPM_THP_ORDER_4K;
	cfg.resync = resync;
	return pcpmodel_new(&cfg, &m) ? NULL : m;
}

/* the kernel model and the stream it wrote */
static struct pcpmodel *written_lists(enum pcpmodel_ruleset rules, int scale,
				      bool thp, uint64_t seed, bool lists,
				      struct pcpm_synth *s)
{
	struct pcpm_synth_opts o;
	struct pcpmodel *k = model(rules, scale, false);

	if (!k)
		return NULL;
	pcpm_synth_defaults(&o, seed);
	o.nr_workload = WORKLOAD;
	o.thp = thp;
	o.snapshot_lists = lists;
	if (pcpm_synth_make(&o, k, s)) {
		pcpmodel_free(k);
		return NULL;
	}
	return k;
}

static struct pcpmodel *written(enum pcpmodel_ruleset rules, int scale,
				bool thp, uint64_t seed, struct pcpm_synth *s)
{
	return written_lists(rules, scale, thp, seed, true, s);
}

static bool same_pagesets(const struct pcpmodel *a, const struct pcpmodel *b)
{
	struct pcpmodel_pcp_state sa, sb;
	unsigned int cpu, zone;
	int ua, ub;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		for (zone = 0; zone < NR_ZONES; zone++) {
			if (pcpmodel_get_pcp(a, cpu, zone, &sa) ||
			    pcpmodel_get_pcp(b, cpu, zone, &sb) ||
			    memcmp(&sa, &sb, sizeof(sa)))
				return false;
			if (pcpmodel_unknown_pages(a, cpu, zone, &ua) ||
			    pcpmodel_unknown_pages(b, cpu, zone, &ub) ||
			    ua != ub)
				return false;
		}
	return true;
}

/*
 * Replayed at the scale it was written at, the stream gives the writer's
 * result to the byte and its pagesets to the entry: with resync (the
 * snapshots agree, so it changes nothing) and without, with lists in the
 * snapshots and without (the count alone, as /proc/zoneinfo gives it).
 */
static void self_consistent(enum pcpmodel_ruleset rules, int scale, bool resync,
			    bool lists)
{
	struct pcpmodel *k, *m;
	const struct pcpmodel_result *kr, *mr;
	struct pcpm_synth s;

	k = written_lists(rules, scale, true, 1 + scale, lists, &s);
	REQUIRE(k);
	m = model(rules, scale, resync);
	REQUIRE(m);
	pcpmodel_replay(m, &s.stream);
	kr = pcpmodel_result(k);
	mr = pcpmodel_result(m);
	/* the stream did something worth reproducing */
	CHECK(mr->bulk_calls > 0 && mr->refill_calls > 0);
	CHECK(mr->flush[PCPM_FLUSH_DRAIN].flushes > 0);
	CHECK(mr->snapshots > 0);
	CHECK_EQ_U64(mr->events_rejected, 0);
	CHECK_EQ_U64(mr->events_unseeded, 0);
	CHECK_EQ_U64(mr->snapshots_drifted, 0);
	CHECK_EQ_U64(mr->snapshots_inconsistent, 0);
	CHECK(!memcmp(kr, mr, sizeof(*kr)));
	CHECK(same_pagesets(k, m));
	pcpmodel_free(m);
	pcpmodel_free(k);
	pcpm_synth_free(&s);
}

void test_pcpmodel_self_consistent(void)
{
	int rules;

	for (rules = 0; rules < NR_PCPM_RULES; rules++) {
		self_consistent(rules, 5, true, true);
		self_consistent(rules, 0, true, true);
		self_consistent(rules, 5, true, false);
	}
	self_consistent(PCPM_RULES_6_12, 3, true, true);
	self_consistent(PCPM_RULES_7_X, 6, true, true);
}

void test_pcpmodel_self_consistent_no_resync(void)
{
	int rules;

	for (rules = 0; rules < NR_PCPM_RULES; rules++) {
		self_consistent(rules, 5, false, true);
		self_consistent(rules, 5, false, false);
	}
}

/*
 * Written at scale 5, replayed at 0 without resync: the snapshots see
 * the model's pagesets away from the record, and say by how much.
 */
void test_pcpmodel_drift_other_scale(void)
{
	struct pcpmodel *k, *m;
	struct pcpm_synth s;

	k = written(PCPM_RULES_6_12, 5, true, 7, &s);
	REQUIRE(k);
	m = model(PCPM_RULES_6_12, 0, false);
	REQUIRE(m);
	pcpmodel_replay(m, &s.stream);
	CHECK(pcpmodel_result(m)->snapshots_drifted > 0);
	CHECK(pcpmodel_result(m)->count_drift_abs_max > 0);
	CHECK_EQ_U64(pcpmodel_result(k)->snapshots_drifted, 0);
	pcpmodel_free(m);
	pcpmodel_free(k);
	pcpm_synth_free(&s);
}

/* the largest pages of a chunk of one source, by its log2 slot */
static int last_chunk_slot(const struct pcpmodel_result *r, int src)
{
	return hist_last_slot(r->flush[src].chunk_pages_hist,
			      PCPTOP_HIST_SLOTS);
}

/*
 * Whether free_high can fire at all: 6.1.104+ only raises free_factor
 * below the scale (nr_pcp_free()), so at scale 0 free_factor stays 0;
 * 6.16+ needs free_count >= batch + high_min / 2, but the commit function
 * only adds to free_count while it is under batch << scale, so free_count
 * tops out at (batch << scale) - 1 + 8 (an order-3 free): under the
 * threshold, never.
 */
static bool free_high_possible(enum pcpmodel_ruleset rules, int scale,
			       const struct pcpm_synth_opts *o)
{
	int top = (o->batch << scale) - 1 + (1 << PCPM_COSTLY_ORDER);

	if (rules == PCPM_RULES_6_1_CAPPED)
		return scale > 0;
	if (rules >= PCPM_RULES_6_16)
		return top >= o->batch + o->high_min / 2;
	return true;
}

/*
 * One workload (no THP: a THP refill is 2 entries of 512 pages at any
 * scale) through every scale. The kernel's bounds: an order-0 refill is
 * at most batch << alloc_factor <= batch << scale (nr_pcp_alloc()); a
 * free_high flush asks min(count, batch << scale) (nr_pcp_free()) and a
 * drain chunk min(count, batch << scale) (drain_pages_zone()), each
 * overshooting by less than one order-3 entry; 7.x cuts commit flushes
 * into chunks of batch. Larger scales refill in fewer, larger calls. The
 * call counts are not monotonic in the scale: where a small scale turns
 * free_high off (above), it also saves the calls free_high makes. 6.1
 * without the cap has no scale at all.
 */
static void scale_direction(enum pcpmodel_ruleset rules)
{
	struct pcpmodel *m[PCPM_SCALE_MAX + 1], *k;
	const struct pcpmodel_result *r[PCPM_SCALE_MAX + 1];
	struct pcpm_synth_opts o;
	struct pcpm_synth s;
	int sc;

	pcpm_synth_defaults(&o, 11);
	k = written(rules, 5, false, 11, &s);
	REQUIRE(k);
	for (sc = 0; sc <= PCPM_SCALE_MAX; sc++) {
		m[sc] = model(rules, sc, false);
		REQUIRE(m[sc]);
		pcpmodel_replay(m[sc], &s.stream);
		r[sc] = pcpmodel_result(m[sc]);
	}
	for (sc = 0; sc <= PCPM_SCALE_MAX; sc++) {
		uint64_t cap = (uint64_t)PM_BATCH << sc;
		uint64_t fh = r[sc]->flush[PCPM_FLUSH_FREE_HIGH].flushes;

		if (rules == PCPM_RULES_6_1) {
			CHECK(!memcmp(r[sc], r[0], sizeof(*r[0])));
			continue;
		}
		CHECK_EQ_INT(fh > 0, free_high_possible(rules, sc, &o));
		if (rules >= PCPM_RULES_6_12)
			CHECK(r[sc]->refill_sizes.max_pages <= cap);
		CHECK(last_chunk_slot(r[sc], PCPM_FLUSH_DRAIN) <=
		      hist_slot_of(cap + ORDER3_OVERSHOOT));
		if (rules >= PCPM_RULES_6_12 && rules != PCPM_RULES_7_X)
			CHECK(r[sc]->flush[PCPM_FLUSH_FREE_HIGH]
				      .max_flush_pages <=
			      cap + ORDER3_OVERSHOOT);
		if (rules == PCPM_RULES_7_X)
			CHECK(last_chunk_slot(r[sc], PCPM_FLUSH_FREE_HIGH) <=
			      hist_slot_of(PM_BATCH + ORDER3_OVERSHOOT));
		if (sc && rules >= PCPM_RULES_6_12)
			CHECK(r[sc]->refill_sizes.max_pages >=
			      r[sc - 1]->refill_sizes.max_pages);
	}
	if (rules != PCPM_RULES_6_1)
		CHECK(r[0]->flush[PCPM_FLUSH_DRAIN].chunks >
		      r[PCPM_SCALE_MAX]->flush[PCPM_FLUSH_DRAIN].chunks);
	if (rules >= PCPM_RULES_6_12)
		CHECK(r[0]->refill_calls > r[PCPM_SCALE_MAX]->refill_calls);
	/* free_high on at both ends: the small scale takes the lock more */
	if (rules == PCPM_RULES_6_12)
		CHECK(pcpmodel_zone_lock_acquisitions(r[0]) >
		      pcpmodel_zone_lock_acquisitions(r[PCPM_SCALE_MAX]));
	for (sc = 0; sc <= PCPM_SCALE_MAX; sc++)
		pcpmodel_free(m[sc]);
	pcpmodel_free(k);
	pcpm_synth_free(&s);
}

void test_pcpmodel_scale_direction(void)
{
	int rules;

	for (rules = 0; rules < NR_PCPM_RULES; rules++)
		scale_direction(rules);
}

static uint64_t sizes_calls(const struct pcpmodel_call_sizes *sz)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < PCPM_CALL_PAGES_EXACT; i++)
		n += sz->calls_of[i];
	for (i = 0; i < PCPTOP_HIST_SLOTS; i++)
		n += sz->over_calls[i];
	return n;
}

/* what every replay must satisfy, whatever the rules and scale */
static void identities(enum pcpmodel_ruleset rules, int scale)
{
	uint64_t chunks = 0, pages = 0;
	const struct pcpmodel_result *r;
	unsigned int cpu, zone;
	struct pcpmodel *k;
	struct pcpm_synth s;
	int src;

	k = written(rules, scale, true, 3, &s);
	REQUIRE(k);
	r = pcpmodel_result(k);
	for (src = 0; src < NR_PCPM_FLUSH; src++) {
		chunks += r->flush[src].chunks;
		pages += r->flush[src].pages;
		CHECK(hist_total(r->flush[src].flush_pages_hist,
				 PCPTOP_HIST_SLOTS) == r->flush[src].flushes);
	}
	CHECK_EQ_U64(chunks, r->bulk_calls);
	CHECK_EQ_U64(pages, r->bulk_pages);
	CHECK_EQ_U64(hist_total(r->bulk_pages_hist, PCPTOP_HIST_SLOTS),
		     r->bulk_calls);
	CHECK_EQ_U64(sizes_calls(&r->bulk_sizes), r->bulk_calls);
	CHECK_EQ_U64(sizes_calls(&r->refill_sizes), r->refill_calls);
	CHECK_EQ_U64(r->pcp_allocs + r->buddy_allocs, r->events[PCPM_EV_ALLOC]);
	CHECK_EQ_U64(r->pcp_frees + r->buddy_frees, r->events[PCPM_EV_FREE]);
	CHECK_EQ_U64(pcpmodel_zone_lock_acquisitions(r),
		     r->bulk_calls + r->refill_calls + r->buddy_allocs +
			     r->buddy_frees);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		for (zone = 0; zone < NR_ZONES; zone++)
			CHECK(pm_lists_consistent(k, cpu, zone));
	pcpmodel_free(k);
	pcpm_synth_free(&s);
}

void test_pcpmodel_identities(void)
{
	int rules;

	for (rules = 0; rules < NR_PCPM_RULES; rules++)
		identities(rules, rules % (PCPM_SCALE_MAX + 1));
}

void test_pcpmodel_rejects(void)
{
	struct pcpmodel_config cfg = { 0 };
	struct pcpmodel_event ev = { 0 };
	struct pcpmodel_stream pl = { 0 };
	struct pcpmodel *m;
	struct pm_seed seed;

	pcpmodel_rules_init(&cfg.rules, PCPM_RULES_6_12);
	cfg.nr_cpus = cfg.nr_zones = 1;
	cfg.scale = PCPM_SCALE_MAX + 1;
	CHECK_EQ_INT(pcpmodel_new(&cfg, &m), -EINVAL);
	cfg.scale = 5;
	cfg.nr_zones = PCPTOP_MAX_ZONES + 1;
	CHECK_EQ_INT(pcpmodel_new(&cfg, &m), -EINVAL);
	cfg.nr_zones = 1;
	cfg.thp_order = PCPM_COSTLY_ORDER;
	CHECK_EQ_INT(pcpmodel_new(&cfg, &m), -EINVAL);
	cfg.thp_order = 0;
	cfg.series_cap = 4;
	CHECK_EQ_INT(pcpmodel_new(&cfg, &m), -EINVAL);
	cfg.series_cap = 0;
	REQUIRE(!pcpmodel_new(&cfg, &m));

	/* a pageset no snapshot seeded */
	ev.type = PCPM_EV_ALLOC;
	CHECK_EQ_INT(pcpmodel_apply(m, &ev, NULL), -ENODATA);
	CHECK_EQ_U64(pcpmodel_result(m)->events_unseeded, 1);
	pm_seed_default(&seed, 1000, 500, 4000);
	REQUIRE(!pm_seed_pcp(m, 0, 0, &seed));
	ev.zone = 1;
	CHECK_EQ_INT(pcpmodel_apply(m, &ev, NULL), -EINVAL);
	ev.zone = 0;
	/* order 9 without THP, order 4 on the pcp path */
	ev.order = PCPM_THP_ORDER_4K;
	CHECK_EQ_INT(pcpmodel_apply(m, &ev, NULL), -EINVAL);
	ev.order = PCPM_COSTLY_ORDER + 1;
	CHECK_EQ_INT(pcpmodel_apply(m, &ev, NULL), -EINVAL);
	/* ... which the buddy path takes, one zone->lock */
	ev.path = PCPM_PATH_BUDDY;
	CHECK_EQ_INT(pcpmodel_apply(m, &ev, NULL), 0);
	CHECK_EQ_U64(pcpmodel_result(m)->buddy_allocs, 1);
	ev.path = PCPM_PATH_BUDDY + 1;
	CHECK_EQ_INT(pcpmodel_apply(m, &ev, NULL), -EINVAL);
	ev.path = PCPM_PATH_PCP;
	ev.order = 0;
	ev.type = NR_PCPM_EV;
	CHECK_EQ_INT(pcpmodel_apply(m, &ev, NULL), -EINVAL);
	ev.type = PCPM_EV_SNAPSHOT;
	CHECK_EQ_INT(pcpmodel_apply(m, &ev, &pl), -EINVAL);
	ev.type = PCPM_EV_DRAIN;
	ev.reason = NR_PCPM_DRAIN;
	CHECK_EQ_INT(pcpmodel_apply(m, &ev, NULL), -EINVAL);
	CHECK_EQ_U64(pcpmodel_result(m)->events_rejected, 7);
	/* batch 0 would never end a chunk loop */
	seed.batch = 0;
	CHECK_EQ_INT(pm_seed_pcp(m, 0, 0, &seed), -EINVAL);
	pcpmodel_free(m);
}

void test_pcpmodel_rules_names(void)
{
	enum pcpmodel_ruleset base;
	struct pcpmodel_rules r;
	int i;

	for (i = 0; i < NR_PCPM_RULES; i++) {
		CHECK_EQ_INT(pcpmodel_rules_by_name(pcpmodel_rules_name(i),
						    &base),
			     0);
		CHECK_EQ_INT(base, i);
	}
	CHECK_EQ_INT(pcpmodel_rules_by_name("6.13", &base), -EINVAL);
	CHECK(!pcpmodel_rules_name(NR_PCPM_RULES));
	CHECK_EQ_INT(pcpmodel_rules_init(&r, NR_PCPM_RULES), -EINVAL);
	REQUIRE(!pcpmodel_rules_init(&r, PCPM_RULES_6_1));
	CHECK(!r.auto_high && !r.drain_chunked && r.thp_lists == 1);
	REQUIRE(!pcpmodel_rules_init(&r, PCPM_RULES_6_1_CAPPED));
	CHECK(!r.auto_high && r.drain_chunked && r.free_factor_capped);
	REQUIRE(!pcpmodel_rules_init(&r, PCPM_RULES_6_12));
	CHECK(r.auto_high && !r.free_high_half_high_min && !r.decay_chunked);
	REQUIRE(!pcpmodel_rules_init(&r, PCPM_RULES_6_16));
	CHECK(r.free_high_half_high_min && !r.commit_chunked);
	REQUIRE(!pcpmodel_rules_init(&r, PCPM_RULES_7_X));
	CHECK(r.commit_chunked && r.decay_chunked && r.drain_chunked &&
	      r.free_high_half_high_min && r.thp_lists == 2);
}
