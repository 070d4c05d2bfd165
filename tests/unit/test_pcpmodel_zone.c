// SPDX-License-Identifier: GPL-2.0-only
/*
 * The zone's free pages and the reclaim they set off (pcpmodel_zone.c),
 * on hand-worked sequences: a model at scale 5 beside its reference at
 * scale 0 (or the reverse) fed the same events, where scale 5's doubling
 * refills (63, 126, 252, 504 pages) leave the zone fewer free pages than
 * scale 0's 63 at a time, against a control without a reference that
 * keeps the record's state. The kernel lines are v6.12's mm/page_alloc.c
 * (get_page_from_freelist(), free_unref_page_commit(),
 * __alloc_pages_direct_reclaim()) and mm/vmscan.c (balance_pgdat()).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "pcpmodel_fixture.h"
#include "unit.h"

#define MOVABLE PCPM_MIGRATE_MOVABLE
/* the zone's watermarks: min, low, high */
#define WM_MIN 1000
#define WM_LOW 1250
#define WM_HIGH 1500
/* the recorder's /proc/zoneinfo read: its time, the others' being 0 */
#define READ_NS 1
/* the allocations after which scale 5 has refilled 441, scale 0 252 */
#define THREE_REFILLS 190
/* ... 945 and 504 */
#define FOUR_REFILLS 442

/* a watermark read of free pages, with the pageset's count read beside */
static int read_zone(struct pcpmodel *m, uint64_t free, int32_t count)
{
	struct pcpmodel_zone_state z = { 0 };
	struct pcpmodel_pcp_state p = { 0 };
	struct pcpmodel_stream s = { 0 };
	struct pcpmodel_event ev = { 0 };
	int err;

	z.free_pages = free;
	z.wmark_min = WM_MIN;
	z.wmark_low = WM_LOW;
	z.wmark_high = WM_HIGH;
	z.fields = PCPM_ZFIELD_WMARK;
	p.count = count;
	p.high = 4000;
	p.batch = PM_BATCH;
	s.zone_states = &z;
	s.nr_zone_states = 1;
	s.pcp_states = &p;
	s.nr_pcp_states = 1;
	ev.time_ns = READ_NS;
	ev.type = PCPM_EV_ZONE_STATE;
	err = pcpmodel_apply(m, &ev, &s);
	ev.type = PCPM_EV_SNAPSHOT;
	return err ? err : pcpmodel_apply(m, &ev, &s);
}

/* high 4000 in [high_min, 8000], empty lists, the zone read at free */
static struct pcpmodel *zone_model(int scale, int high_min, uint64_t free)
{
	struct pcpmodel *m;
	struct pm_seed s;

	pm_seed_default(&s, 4000, high_min, 8000);
	m = pm_new_seeded_base(PCPM_RULES_6_12, scale, &s);
	if (m && read_zone(m, free, 0)) {
		pcpmodel_free(m);
		m = NULL;
	}
	return m;
}

/*
 * the model under test (m) and its reference, from the same start, and a
 * control at m's scale without a reference: the record's state
 */
struct trio {
	struct pcpmodel *ctl, *ref, *m;
};

static void trio_free(struct trio *t)
{
	pcpmodel_free(t->m);
	pcpmodel_free(t->ref);
	pcpmodel_free(t->ctl);
}

static int trio_new(struct trio *t, int ref_scale, int scale, int high_min,
		    uint64_t free)
{
	t->ctl = zone_model(scale, high_min, free);
	t->ref = zone_model(ref_scale, high_min, free);
	t->m = zone_model(scale, high_min, free);
	if (t->ctl && t->ref && t->m && !pcpmodel_set_reference(t->m, t->ref))
		return 0;
	trio_free(t);
	return -ENOMEM;
}

static int64_t zone_free(const struct pcpmodel *m)
{
	int64_t free = -1;

	return pcpmodel_zone_free(m, 0, &free) ? -1 : free;
}

/* each event to the reference first, as whatif feeds them */
static int both_allocs(struct pcpmodel *ref, struct pcpmodel *m, int n)
{
	int err = 0;

	while (n-- > 0 && !err) {
		err = pm_alloc(ref, 0, MOVABLE);
		if (!err)
			err = pm_alloc(m, 0, MOVABLE);
	}
	return err;
}

static int both_frees(struct pcpmodel *ref, struct pcpmodel *m, int n)
{
	int err = 0;

	while (n-- > 0 && !err) {
		err = pm_free(ref, 0, MOVABLE);
		if (!err)
			err = pm_free(m, 0, MOVABLE);
	}
	return err;
}

/*
 * NR_FREE_PAGES as the replay's lists leave it: the read's free pages
 * plus the count read with them less the model's, then every page a
 * refill takes, a bulk free gives back, or the buddy path moves. A read
 * that seeds a pageset adds nothing (its pages are on both sides), and
 * a pageset read at another time is no part of the zone's read.
 */
void test_pcpmodel_zone_free(void)
{
	struct pcpmodel *m = pm_new(PCPM_RULES_6_12, 5, 2, 1);
	struct pcpmodel_pcp_state st = { 0 };
	struct pcpmodel_stream s = { 0 };
	struct pcpmodel_event ev = { 0 };
	int64_t free;
	struct pm_seed seed;

	REQUIRE(m);
	pm_seed_default(&seed, 4000, 500, 8000);
	seed.order0_movable = 100;
	REQUIRE(!pm_seed_pcp(m, 0, 0, &seed));
	CHECK_EQ_INT(pcpmodel_zone_free(m, 0, &free), -ENODATA);
	CHECK_EQ_INT(pcpmodel_zone_free(m, 1, &free), -EINVAL);
	/* the recorder read 120 on CPU 0's lists, the model has 100 */
	REQUIRE(!read_zone(m, 5000, 120));
	CHECK_EQ_INT(zone_free(m), 5020);
	/* CPU 1's first read seeds it at the read's time: no change */
	st.count = 40;
	st.high = 4000;
	st.batch = PM_BATCH;
	s.pcp_states = &st;
	s.nr_pcp_states = 1;
	ev.time_ns = READ_NS;
	ev.type = PCPM_EV_SNAPSHOT;
	ev.cpu = 1;
	REQUIRE(!pcpmodel_apply(m, &ev, &s));
	CHECK_EQ_INT(zone_free(m), 5020);
	/* ... and a decay's read later is not the zone's */
	ev.time_ns = READ_NS + 1;
	REQUIRE(!pcpmodel_apply(m, &ev, &s));
	CHECK_EQ_INT(zone_free(m), 5020);
	/* the 101st allocation refills 63 */
	CHECK_EQ_INT(pm_allocs(m, 101, 0, MOVABLE), 0);
	CHECK_EQ_INT(zone_free(m), 5020 - 63);
	CHECK_EQ_INT(pm_buddy(m, PCPM_EV_ALLOC, 2), 0);
	CHECK_EQ_INT(pm_buddy(m, PCPM_EV_FREE, 0), 0);
	CHECK_EQ_INT(zone_free(m), 5020 - 63 - 4 + 1);
	/* an order no page has moves nothing */
	CHECK_EQ_INT(pm_buddy(m, PCPM_EV_FREE, UINT8_MAX), -EINVAL);
	CHECK_EQ_INT(zone_free(m), 5020 - 63 - 4 + 1);
	/* a drain of CPU 0 gives back its 62 */
	CHECK_EQ_INT(pm_drain(m, 0, 0, PCPM_DRAIN_UNKNOWN), 0);
	CHECK_EQ_INT(zone_free(m), 5020 - 63 - 4 + 1 + 62);
	/*
	 * the next read starts over, from 6000 and CPU 0's count of 0: the
	 * 40 on CPU 1's lists, not read with it, come off the free pages
	 */
	REQUIRE(!read_zone(m, 6000, 0));
	CHECK_EQ_INT(zone_free(m), 6000 - 40);
	pcpmodel_free(m);
}

/*
 * A reference at the model's own scale agrees with it on every decision:
 * the record's state throughout, the same result to the byte as without
 * one, though the zone goes under every watermark.
 */
void test_pcpmodel_zone_same_scale(void)
{
	struct trio t;

	REQUIRE(!trio_new(&t, 5, 5, 500, 1900));
	CHECK_EQ_INT(pcpmodel_set_reference(t.m, t.m), -EINVAL);
	CHECK_EQ_INT(pm_allocs(t.ctl, FOUR_REFILLS + 1, 0, MOVABLE), 0);
	CHECK_EQ_INT(pm_frees(t.ctl, 300, 0, MOVABLE), 0);
	CHECK_EQ_INT(both_allocs(t.ref, t.m, FOUR_REFILLS + 1), 0);
	CHECK_EQ_INT(both_frees(t.ref, t.m, 300), 0);
	CHECK_EQ_INT(zone_free(t.m), zone_free(t.ctl));
	CHECK(zone_free(t.m) <= WM_MIN);
	CHECK(!memcmp(pcpmodel_result(t.m), pcpmodel_result(t.ctl),
		      sizeof(struct pcpmodel_result)));
	CHECK_EQ_U64(pcpmodel_result(t.m)->reclaim_added, 0);
	trio_free(&t);
}

/*
 * From 1690 free pages, 190 allocations leave scale 5 at 1249 (441
 * refilled), under low, and scale 0 at 1438. The next allocation wakes
 * scale 5's kswapd; RECLAIM_ACTIVE holds from the event after it
 * ("set_reclaim_active()" once kswapd runs): nr_pcp_high() cuts high by
 * max(free_count, batch) and flushes at batch * 4 = 252, the second free
 * reaching it, clamp(free_count 2, 63, 189) = 63 pages. Once a buddy
 * free lifts the zone over high, kswapd sleeps (pgdat_balanced()): no
 * flush at 252 again. The control, with the record's state, never
 * flushes.
 */
void test_pcpmodel_zone_kswapd(void)
{
	struct trio t;
	const struct pcpmodel_result *r;

	REQUIRE(!trio_new(&t, 0, 5, 500, 1690));
	r = pcpmodel_result(t.m);
	CHECK_EQ_INT(both_allocs(t.ref, t.m, THREE_REFILLS), 0);
	CHECK_EQ_INT(zone_free(t.m), 1690 - 441);
	CHECK_EQ_INT(zone_free(t.ref), 1690 - 252);
	CHECK_EQ_INT(both_allocs(t.ref, t.m, 1), 0);
	CHECK_EQ_INT(pm_state(t.m).count, 250);
	CHECK_EQ_INT(both_frees(t.ref, t.m, 1), 0);
	CHECK_EQ_U64(r->bulk_calls, 0);
	CHECK_EQ_INT(pm_state(t.m).high, 4441 - PM_BATCH);
	CHECK_EQ_INT(both_frees(t.ref, t.m, 1), 0);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_COMMIT].flushes, 1);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_COMMIT].pages, PM_BATCH);
	CHECK_EQ_INT(pm_state(t.m).high, 4441 - 2 * PM_BATCH);
	CHECK_EQ_INT(zone_free(t.m), 1690 - 441 + PM_BATCH);
	CHECK_EQ_U64(r->reclaim_added, 0);
	/* 1312 + 256 over high: kswapd sleeps, 63 frees to 252 flush none */
	CHECK_EQ_INT(pm_buddy(t.ref, PCPM_EV_FREE, 8), 0);
	CHECK_EQ_INT(pm_buddy(t.m, PCPM_EV_FREE, 8), 0);
	CHECK_EQ_INT(both_frees(t.ref, t.m, PM_BATCH), 0);
	CHECK_EQ_INT(pm_state(t.m).count, 252);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_COMMIT].flushes, 1);
	/* the control: high as nr_pcp_alloc() left it, no flush */
	CHECK_EQ_INT(pm_allocs(t.ctl, THREE_REFILLS + 1, 0, MOVABLE), 0);
	CHECK_EQ_INT(pm_frees(t.ctl, 2, 0, MOVABLE), 0);
	CHECK_EQ_U64(pcpmodel_result(t.ctl)->bulk_calls, 0);
	CHECK_EQ_INT(pm_state(t.ctl).high, 4441);
	trio_free(&t);
}

/*
 * From 1900, 442 allocations leave scale 5 at 955 (945 refilled), under
 * min, and scale 0 at 1396. The 443rd enters direct reclaim: 32 pages
 * reclaimed onto the lists (no flush: RECLAIM_ACTIVE waits for kswapd to
 * run, and both replays are below high, so the record's BELOW_HIGH, off,
 * holds), the zone still under min, so drain_all_pages(): one chunk of
 * the 503 + 32 pages, 1490 free; then the allocation refills 63 (the
 * frees halved alloc_factor to 0) and takes one.
 */
void test_pcpmodel_zone_direct_reclaim(void)
{
	struct trio t;
	const struct pcpmodel_result *r;

	REQUIRE(!trio_new(&t, 0, 5, 500, 1900));
	r = pcpmodel_result(t.m);
	CHECK_EQ_INT(both_allocs(t.ref, t.m, FOUR_REFILLS), 0);
	CHECK_EQ_INT(zone_free(t.m), 1900 - 945);
	CHECK_EQ_INT(pm_state(t.m).count, 503);
	CHECK_EQ_U64(r->reclaim_added, 0);
	CHECK_EQ_INT(both_allocs(t.ref, t.m, 1), 0);
	CHECK_EQ_U64(r->reclaim_added, 1);
	CHECK_EQ_U64(r->reclaim_pages, 32);
	CHECK_EQ_U64(r->drains_added, 1);
	CHECK_EQ_U64(r->drain_calls[PCPM_DRAIN_ALL], 1);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_DRAIN].chunks, 1);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_DRAIN].pages, 503 + 32);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_COMMIT].flushes, 0);
	CHECK_EQ_U64(r->pcp_frees, 0);
	CHECK_EQ_INT(zone_free(t.m), 1900 - 945 + 535 - PM_BATCH);
	CHECK_EQ_INT(pm_state(t.m).count, PM_BATCH - 1);
	CHECK_EQ_INT(zone_free(t.ref), 1900 - 504);
	CHECK_EQ_U64(pcpmodel_result(t.ref)->reclaim_added, 0);
	/* without a reference, the record: no reclaim, no drain */
	CHECK_EQ_INT(pm_allocs(t.ctl, FOUR_REFILLS + 1, 0, MOVABLE), 0);
	CHECK_EQ_U64(pcpmodel_result(t.ctl)->bulk_calls, 0);
	CHECK_EQ_INT(zone_free(t.ctl), 1900 - 945);
	trio_free(&t);
}

/* a recorded drain after three refills from `free`: drained? */
static bool drain_kept(int ref_scale, int scale, uint64_t free)
{
	bool kept = false;
	struct trio t;

	if (trio_new(&t, ref_scale, scale, 500, free))
		return false;
	if (!both_allocs(t.ref, t.m, THREE_REFILLS) &&
	    !pm_drain(t.ref, 0, 0, PCPM_DRAIN_UNKNOWN) &&
	    !pm_drain(t.m, 0, 0, PCPM_DRAIN_UNKNOWN))
		kept = pcpmodel_result(t.m)->drain_calls[PCPM_DRAIN_UNKNOWN] &&
		       !pm_state(t.m).count;
	trio_free(&t);
	return kept;
}

/*
 * A drain with no traced reclaim before it (a trace without the kernel's
 * mark, or a drain of another caller) stays, wherever the replay's free
 * pages are (test_pcpmodel_reclaim_window moves the others): scale
 * 0's replay at 1148 (1400 - 252) over scale 5's record at 959 (under
 * min) drains, as does scale 5's replay at 759 under scale 0's record at
 * 948, and a drain over every watermark (from 3000).
 */
void test_pcpmodel_zone_drains_as_given(void)
{
	CHECK(drain_kept(5, 0, 1400));
	CHECK(drain_kept(0, 5, 1200));
	CHECK(drain_kept(5, 0, 3000));
}

/*
 * BELOW_HIGH where the replays disagree: from 1900, scale 5 at 1459
 * after 190 allocations, at or under high, scale 0 at 1648 over it. The
 * next allocation sets it for scale 5 alone, so an order-1 refill does
 * not raise high (nr_pcp_alloc()), where the control's does by batch.
 * With high_min 200 each free then flushes (nr_pcp_high(): high =
 * max(count, high_min)); a buddy free and the second flush lift the
 * zone to 1587, over high, and the commit clears the flag: 20 more
 * frees past count 200 flush nothing.
 */
void test_pcpmodel_zone_below_high_moved(void)
{
	struct trio t;
	const struct pcpmodel_result *r;

	REQUIRE(!trio_new(&t, 0, 5, 200, 1900));
	r = pcpmodel_result(t.m);
	CHECK_EQ_INT(both_allocs(t.ref, t.m, THREE_REFILLS + 1), 0);
	CHECK_EQ_INT(pm_alloc(t.ref, 1, MOVABLE), 0);
	CHECK_EQ_INT(pm_alloc(t.m, 1, MOVABLE), 0);
	CHECK_EQ_INT(pm_state(t.m).high, 4441);
	CHECK_EQ_INT(pm_state(t.m).count, 250 + 60);
	CHECK_EQ_INT(pm_allocs(t.ctl, THREE_REFILLS + 1, 0, MOVABLE), 0);
	CHECK_EQ_INT(pm_alloc(t.ctl, 1, MOVABLE), 0);
	CHECK_EQ_INT(pm_state(t.ctl).high, 4441 + PM_BATCH);
	CHECK_EQ_INT(both_frees(t.ref, t.m, 1), 0);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_COMMIT].flushes, 1);
	CHECK_EQ_INT(zone_free(t.m), 1900 - 441 - 62 + PM_BATCH);
	CHECK_EQ_INT(pm_buddy(t.ref, PCPM_EV_FREE, 6), 0);
	CHECK_EQ_INT(pm_buddy(t.m, PCPM_EV_FREE, 6), 0);
	CHECK_EQ_INT(both_frees(t.ref, t.m, 1), 0);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_COMMIT].flushes, 2);
	CHECK_EQ_INT(zone_free(t.m), 1587);
	CHECK_EQ_INT(both_frees(t.ref, t.m, 20), 0);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_COMMIT].flushes, 2);
	CHECK_EQ_INT(pm_state(t.m).count, 186 + 20);
	trio_free(&t);
}
