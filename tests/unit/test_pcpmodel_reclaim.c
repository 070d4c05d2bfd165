// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace's own direct reclaims (pcpmodel_reclaim.c, format 1.7),
 * judged on hand-worked sequences: each reclaim's end against the zone's
 * order-0 mark, by the replay's free pages and by the kernel's (read in
 * BPF with the mark), beside what the record did after it (a drain, or
 * the retry's allocation); and compaction's isolations, which take free
 * pages with no allocation. The kernel lines are v6.12's mm/page_alloc.c
 * (__alloc_pages_direct_reclaim(), zone_watermark_fast(),
 * __isolate_free_page()).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "pcpmodel_fixture.h"
#include "unit.h"

/* the recorder's read: the zone's free pages and its watermarks */
#define FREE_READ 5000
#define WM_MIN 1000
/* a mark under the replay's free pages, and one over them */
#define MARK_UNDER 4000
#define MARK_OVER 6000
/* a watermark_boost: a read's min (min_wmark_pages()) holds it */
#define BOOST 500
/* SWAP_CLUSTER_MAX: what a reclaim that made progress reports */
#define RECLAIMED 32

static int zone_state(struct pcpmodel *m, uint64_t free, uint64_t min,
		      uint8_t fields)
{
	struct pcpmodel_zone_state z = { 0 };
	struct pcpmodel_stream s = { 0 };
	struct pcpmodel_event ev = { 0 };

	z.free_pages = free;
	z.wmark_min = min;
	z.wmark_low = min + 1;
	z.wmark_high = min + 2;
	z.fields = fields;
	s.zone_states = &z;
	s.nr_zone_states = 1;
	ev.type = PCPM_EV_ZONE_STATE;
	return pcpmodel_apply(m, &ev, &s);
}

/* a reclaim's end; its zone unknown (255), as BPF sends it */
static int reclaim_end(struct pcpmodel *m, int order, uint32_t reclaimed)
{
	struct pcpmodel_event ev = { 0 };

	ev.type = PCPM_EV_RECLAIM;
	ev.zone = 0xff;
	ev.order = (uint8_t)order;
	ev.payload = reclaimed;
	return pcpmodel_apply(m, &ev, NULL);
}

/* the kernel's mark and free pages, then the end of its reclaim */
static int marked_reclaim(struct pcpmodel *m, uint64_t kfree, uint64_t mark)
{
	int err = zone_state(m, kfree, mark, PCPM_ZFIELD_MARK);

	return err ? err : reclaim_end(m, 0, RECLAIMED);
}

/* one CPU and zone at scale, the zone not read yet */
static struct pcpmodel *unread_model(int scale)
{
	struct pm_seed s;

	pm_seed_default(&s, 4000, 4000, 8000);
	return pm_new_seeded_base(PCPM_RULES_6_12, scale, &s);
}

/* the same, the zone read at FREE_READ */
static struct pcpmodel *scale_model(int scale)
{
	struct pcpmodel *m = unread_model(scale);

	if (m && zone_state(m, FREE_READ, WM_MIN, PCPM_ZFIELD_WMARK)) {
		pcpmodel_free(m);
		m = NULL;
	}
	return m;
}

void test_pcpmodel_reclaim_judged(void)
{
	struct pcpmodel *m = scale_model(0);
	const struct pcpmodel_result *r;

	REQUIRE(m);
	/*
	 * the kernel under its mark drained; the replay's free pages (the
	 * read's 5000) are over it: the replay misjudged, the kernel did not
	 */
	CHECK_EQ_INT(marked_reclaim(m, MARK_UNDER - 10, MARK_UNDER), 0);
	CHECK_EQ_INT(pm_drain(m, 0, 0, PCPM_DRAIN_UNKNOWN), 0);
	CHECK_EQ_INT(pm_alloc(m, 0, PCPM_MIGRATE_MOVABLE), 0);
	/* both under a higher mark, no drain: the retry found its page */
	CHECK_EQ_INT(marked_reclaim(m, MARK_OVER - 10, MARK_OVER), 0);
	CHECK_EQ_INT(pm_alloc(m, 0, PCPM_MIGRATE_MOVABLE), 0);
	/* both under it, drained */
	CHECK_EQ_INT(marked_reclaim(m, MARK_OVER - 10, MARK_OVER), 0);
	CHECK_EQ_INT(pm_drain(m, 0, 0, PCPM_DRAIN_UNKNOWN), 0);
	/* nothing reclaimed: no retry, not judged; nor a higher order */
	CHECK_EQ_INT(reclaim_end(m, 0, 0), 0);
	CHECK_EQ_INT(reclaim_end(m, 3, RECLAIMED), 0);
	/* the reclaim before is closed by the next one */
	CHECK_EQ_INT(pm_alloc(m, 0, PCPM_MIGRATE_MOVABLE), 0);
	r = pcpmodel_result(m);
	CHECK_EQ_U64(r->reclaims, 5);
	CHECK_EQ_U64(r->events_rejected, 0);
	CHECK_EQ_U64(r->reclaim_decided[0][1], 1);
	CHECK_EQ_U64(r->reclaim_decided[1][0], 1);
	CHECK_EQ_U64(r->reclaim_decided[1][1], 1);
	CHECK_EQ_U64(r->reclaim_decided[0][0], 0);
	CHECK_EQ_U64(r->reclaim_kernel_decided[1][1], 2);
	CHECK_EQ_U64(r->reclaim_kernel_decided[1][0], 1);
	/* the record's drains stay: every one made, none added */
	CHECK_EQ_U64(r->drains_added, 0);
	pcpmodel_free(m);
}

/* without the kernel's mark the min read last judges, and only it */
void test_pcpmodel_reclaim_unmarked(void)
{
	struct pcpmodel *m = scale_model(0);
	const struct pcpmodel_result *r;

	REQUIRE(m);
	CHECK_EQ_INT(pm_alloc(m, 0, PCPM_MIGRATE_MOVABLE), 0);
	CHECK_EQ_INT(reclaim_end(m, 0, RECLAIMED), 0);
	CHECK_EQ_INT(pm_drain(m, 0, 0, PCPM_DRAIN_UNKNOWN), 0);
	CHECK_EQ_INT(pm_alloc(m, 0, PCPM_MIGRATE_MOVABLE), 0);
	r = pcpmodel_result(m);
	CHECK_EQ_U64(r->reclaim_decided[0][1], 1);
	CHECK_EQ_U64(r->reclaim_kernel_decided[0][1] +
			     r->reclaim_kernel_decided[1][1],
		     0);
	pcpmodel_free(m);
}

/*
 * The marks over min: against the lowest min read so far, since
 * zoneinfo's min is min_wmark_pages(), its boost included. A mark before
 * any read is not counted (no min to take it from); one under the lowest
 * min counts, as none over.
 */
void test_pcpmodel_reclaim_mark_over_min(void)
{
	struct pcpmodel *m = unread_model(0);
	const struct pcpmodel_result *r;

	REQUIRE(m);
	CHECK_EQ_INT(marked_reclaim(m, MARK_UNDER - 10, MARK_UNDER), 0);
	CHECK_EQ_INT(
		zone_state(m, FREE_READ, WM_MIN + BOOST, PCPM_ZFIELD_WMARK), 0);
	CHECK_EQ_INT(marked_reclaim(m, MARK_UNDER - 10, MARK_UNDER), 0);
	CHECK_EQ_INT(zone_state(m, FREE_READ, WM_MIN, PCPM_ZFIELD_WMARK), 0);
	CHECK_EQ_INT(
		zone_state(m, FREE_READ, WM_MIN + BOOST, PCPM_ZFIELD_WMARK), 0);
	CHECK_EQ_INT(marked_reclaim(m, MARK_OVER - 10, MARK_OVER), 0);
	CHECK_EQ_INT(marked_reclaim(m, WM_MIN - 20, WM_MIN - 10), 0);
	r = pcpmodel_result(m);
	CHECK_EQ_U64(r->reclaims, 4);
	CHECK_EQ_U64(r->reclaim_marks_counted, 3);
	CHECK_EQ_U64(r->reclaim_mark_over_min_sum,
		     (MARK_UNDER - WM_MIN - BOOST) + (MARK_OVER - WM_MIN));
	pcpmodel_free(m);
}

/* __isolate_free_page(): the block leaves the free pages, nothing else */
void test_pcpmodel_reclaim_isolate(void)
{
	struct pcpmodel *m = scale_model(0);
	struct pcpmodel_event ev = { 0 };
	const struct pcpmodel_result *r;
	int64_t before = -1, after = -1;

	REQUIRE(m);
	ev.type = PCPM_EV_ISOLATE;
	ev.order = 3;
	ev.path = PCPM_PATH_BUDDY;
	CHECK_EQ_INT(pcpmodel_zone_free(m, 0, &before), 0);
	CHECK_EQ_INT(pcpmodel_apply(m, &ev, NULL), 0);
	CHECK_EQ_INT(pcpmodel_zone_free(m, 0, &after), 0);
	CHECK_EQ_INT((int)(before - after), 8);
	r = pcpmodel_result(m);
	CHECK_EQ_U64(r->isolated_pages, 8);
	CHECK_EQ_U64(r->buddy_allocs, 0);
	CHECK_EQ_U64(r->pcp_allocs, 0);
	pcpmodel_free(m);
}

/* the allocations after which scale 5 has refilled 441 pages, scale 0 252 */
#define THREE_REFILLS 190
/* the kernel's free pages this far from its mark at a reclaim's end */
#define NEAR_MARK 5

/* a model at scale and its reference at ref_scale, both read at FREE_READ */
struct pair {
	struct pcpmodel *ref, *m;
};

static void pair_free(struct pair *p)
{
	pcpmodel_free(p->m);
	pcpmodel_free(p->ref);
}

static int pair_new(struct pair *p, int ref_scale, int scale)
{
	p->ref = scale_model(ref_scale);
	p->m = scale_model(scale);
	if (p->ref && p->m && !pcpmodel_set_reference(p->m, p->ref))
		return 0;
	pair_free(p);
	return -ENOMEM;
}

/*
 * The record up to a reclaim's end, fed as whatif feeds it (reference
 * first): THREE_REFILLS allocations, the zone found reclaiming
 * (ZONE_RECLAIM_ACTIVE: high min(batch << 2, high), 252), then the
 * reclaim's two frees, which take scale 5's 251 pages over it and flush
 * a batch (nr_pcp_free(): free_count under batch), not scale 0's 62;
 * its end with the kernel's free pages kdelta from the mark
 */
static int pair_reclaim(struct pair *p, int64_t kdelta)
{
	struct pcpmodel_zone_state z = { 0 };
	struct pcpmodel_stream s = { 0 };
	struct pcpmodel_event ev = { 0 };
	struct pcpmodel *both[2] = { p->ref, p->m };
	int i, err = 0;

	z.reclaim_active = 1;
	z.fields = PCPM_ZFIELD_FLAGS;
	s.zone_states = &z;
	s.nr_zone_states = 1;
	ev.type = PCPM_EV_ZONE_STATE;
	for (i = 0; i < THREE_REFILLS && !err; i++)
		err = pm_alloc(p->ref, 0, PCPM_MIGRATE_MOVABLE) ?:
			      pm_alloc(p->m, 0, PCPM_MIGRATE_MOVABLE);
	for (i = 0; i < 2 && !err; i++)
		err = pcpmodel_apply(both[i], &ev, &s);
	for (i = 0; i < 2 && !err; i++)
		err = pm_free(p->ref, 0, PCPM_MIGRATE_MOVABLE) ?:
			      pm_free(p->m, 0, PCPM_MIGRATE_MOVABLE);
	for (i = 0; i < 2 && !err; i++)
		err = marked_reclaim(both[i], MARK_UNDER + kdelta, MARK_UNDER);
	return err;
}

/*
 * At another scale a reclaim's retry fails by the kernel's free pages
 * moved by what the two replays' lists did apart since the CPU's last
 * allocation, not since the zone was read: scale 5's refills left it 189
 * pages under scale 0's before the reclaim, and those the kernel's
 * reclaim made up for; its flush of 63 in the reclaim is what moves the
 * retry (by the whole difference, -126, it would not).
 */
void test_pcpmodel_reclaim_window(void)
{
	const struct pcpmodel_result *r;
	struct pair p;
	int32_t count;

	/* scale 5 from scale 0's record: its flush clears the mark */
	REQUIRE(!pair_new(&p, 0, 5));
	CHECK_EQ_INT(pair_reclaim(&p, -NEAR_MARK), 0);
	count = pm_state(p.m).count;
	CHECK(count > 0);
	CHECK_EQ_INT(pm_drain(p.ref, 0, 0, PCPM_DRAIN_UNKNOWN), 0);
	CHECK_EQ_INT(pm_drain(p.m, 0, 0, PCPM_DRAIN_UNKNOWN), 0);
	CHECK_EQ_INT(pm_state(p.ref).count, 0);
	CHECK_EQ_INT(pm_state(p.m).count, count);
	r = pcpmodel_result(p.m);
	CHECK_EQ_U64(r->drains_spared, 1);
	CHECK_EQ_U64(r->drain_calls[PCPM_DRAIN_UNKNOWN], 0);
	CHECK_EQ_U64(pcpmodel_result(p.ref)->drains_spared, 0);
	pair_free(&p);

	/* scale 0 from scale 5's: no flush, so the retry fails; one added */
	REQUIRE(!pair_new(&p, 5, 0));
	CHECK_EQ_INT(pair_reclaim(&p, NEAR_MARK), 0);
	CHECK_EQ_INT(pm_alloc(p.ref, 0, PCPM_MIGRATE_MOVABLE), 0);
	CHECK_EQ_INT(pm_alloc(p.m, 0, PCPM_MIGRATE_MOVABLE), 0);
	r = pcpmodel_result(p.m);
	CHECK_EQ_U64(r->drains_added, 1);
	CHECK_EQ_U64(r->drain_calls[PCPM_DRAIN_ALL], 1);
	CHECK_EQ_U64(pcpmodel_result(p.ref)->drains_added, 0);
	pair_free(&p);

	/* the same reclaim, the kernel's retry failed: the record stands */
	REQUIRE(!pair_new(&p, 5, 0));
	CHECK_EQ_INT(pair_reclaim(&p, -NEAR_MARK), 0);
	CHECK_EQ_INT(pm_drain(p.ref, 0, 0, PCPM_DRAIN_UNKNOWN), 0);
	CHECK_EQ_INT(pm_drain(p.m, 0, 0, PCPM_DRAIN_UNKNOWN), 0);
	r = pcpmodel_result(p.m);
	CHECK_EQ_U64(r->drains_added + r->drains_spared, 0);
	CHECK_EQ_U64(r->drain_calls[PCPM_DRAIN_UNKNOWN], 1);
	pair_free(&p);
}

/*
 * BPF's read of NR_FREE_PAGES at a reclaim's end is where the replay's
 * free pages start over, as from a 1 s read; the judgement is of the
 * pages tracked before it. A replay at another scale moves by as much
 * as its reference, keeping the pages its lists hold apart.
 */
void test_pcpmodel_reclaim_anchor(void)
{
	struct pcpmodel *m = scale_model(0);
	int64_t free = -1, ref_free = -1;
	struct pair p;

	REQUIRE(m);
	CHECK_EQ_INT(marked_reclaim(m, MARK_UNDER - NEAR_MARK, MARK_UNDER), 0);
	CHECK_EQ_INT(pcpmodel_zone_free(m, 0, &free), 0);
	CHECK_EQ_INT((int)free, MARK_UNDER - NEAR_MARK);
	/* judged by the 5000 tracked, over the mark: not as the kernel */
	CHECK_EQ_INT(pm_alloc(m, 0, PCPM_MIGRATE_MOVABLE), 0);
	CHECK_EQ_U64(pcpmodel_result(m)->reclaim_decided[0][0], 1);
	pcpmodel_free(m);

	REQUIRE(!pair_new(&p, 0, 5));
	CHECK_EQ_INT(pair_reclaim(&p, -NEAR_MARK), 0);
	CHECK_EQ_INT(pcpmodel_zone_free(p.ref, 0, &ref_free), 0);
	CHECK_EQ_INT(pcpmodel_zone_free(p.m, 0, &free), 0);
	CHECK_EQ_INT((int)ref_free, MARK_UNDER - NEAR_MARK);
	/* scale 5 refilled 189 more, and flushed a batch in the reclaim */
	CHECK_EQ_INT((int)(free - ref_free), -189 + PM_BATCH);
	pair_free(&p);
}
