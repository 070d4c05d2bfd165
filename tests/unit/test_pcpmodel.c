// SPDX-License-Identifier: GPL-2.0-only
/*
 * The replay model on hand-worked sequences, each following the lines of
 * mm/page_alloc.c it names. Sources: v6.1 and v6.12 mainline (read
 * through the code search), Debian's 6.12.117 (linux-source-6.12, lines
 * given as "6.12.117:N"), linux-source-7.3 7.3.4 ("7.3:N"), and 6.16's
 * one-line c544a952ba61. The numbers in the comments are the kernel's
 * arithmetic, step by step.
 */
#include <errno.h>

#include "hist.h"
#include "pcpmodel_fixture.h"
#include "unit.h"

#define MOVABLE PCPM_MIGRATE_MOVABLE
#define SLOT_63 5 /* hist_slot_of(63): 32..63 */

/*
 * v6.12 nr_pcp_alloc() (6.12.117:3018, 7.3:3284): an order-0 refill is
 * batch << alloc_factor, alloc_factor grows by one per refill while
 * "batch <= max_nr_alloc && pcp->alloc_factor < CONFIG_PCP_BATCH_SCALE_MAX",
 * and "high = pcp->high = min(high + batch, high_max)" on the way. Each
 * refill is used up before the next, so count is 0 at each refill.
 */
static void refill_run(int scale, const int *sizes, const int *highs, int n)
{
	struct pcpmodel *m;
	const struct pcpmodel_result *r;
	struct pcpmodel_pcp_state st;
	struct pm_seed s;
	int i;

	pm_seed_default(&s, 1000, 500, 4000);
	m = pm_new_seeded_base(PCPM_RULES_6_12, scale, &s);
	REQUIRE(m);
	r = pcpmodel_result(m);
	for (i = 0; i < n; i++) {
		CHECK_EQ_INT(pm_alloc(m, 0, MOVABLE), 0);
		CHECK_EQ_U64(r->refill_calls, i + 1);
		st = pm_state(m);
		CHECK_EQ_INT(st.count, sizes[i] - 1);
		CHECK_EQ_INT(st.high, highs[i]);
		CHECK_EQ_INT(st.alloc_factor, i + 1 < scale ? i + 1 : scale);
		CHECK_EQ_INT(pm_allocs(m, sizes[i] - 1, 0, MOVABLE), 0);
		CHECK_EQ_U64(r->refill_calls, i + 1);
		CHECK_EQ_INT(pm_state(m).count, 0);
		CHECK_EQ_U64(r->refill_pages_hist[hist_slot_of(sizes[i])] > 0,
			     1);
	}
	CHECK_EQ_U64(r->refill_sizes.max_pages, sizes[n - 1]);
	pcpmodel_free(m);
}

static void test_pcpmodel_refill_alloc_factor(void)
{
	/* 1000 + 63 = 1063, + 126 = 1189, ..., + 1008 = 2953, then 4000 */
	static const int s5[] = { 63, 126, 252, 504, 1008, 2016, 2016 };
	static const int h5[] = { 1063, 1189, 1441, 1945, 2953, 4000, 4000 };
	/* alloc_factor stops at 3: 63 << 3 = 504 */
	static const int s3[] = { 63, 126, 252, 504, 504 };
	static const int h3[] = { 1063, 1189, 1441, 1945, 2449 };
	/* at scale 0 it never grows */
	static const int s0[] = { 63, 63, 63 };
	static const int h0[] = { 1063, 1126, 1189 };

	refill_run(5, s5, h5, 7);
	refill_run(3, s3, h3, 5);
	refill_run(0, s0, h0, 3);
}

/*
 * v6.12 free_unref_page_commit() (6.12.117:2673): "pcp->alloc_factor
 * >>= 1" on every free; the next order-0 refill is 63 << 2 = 252.
 */
static void test_pcpmodel_free_halves_alloc_factor(void)
{
	struct pcpmodel *m;
	struct pm_seed s;

	pm_seed_default(&s, 1000, 500, 4000);
	s.alloc_factor = 5;
	m = pm_new_seeded_base(PCPM_RULES_6_12, 5, &s);
	REQUIRE(m);
	CHECK_EQ_INT(pm_free(m, 0, MOVABLE), 0);
	CHECK_EQ_INT(pm_state(m).alloc_factor, 2);
	/* the freed page serves the next allocation: no refill */
	CHECK_EQ_INT(pm_alloc(m, 0, MOVABLE), 0);
	CHECK_EQ_U64(pcpmodel_result(m)->refill_calls, 0);
	CHECK_EQ_INT(pm_alloc(m, 0, MOVABLE), 0);
	CHECK_EQ_U64(pcpmodel_result(m)->refill_pages, 252);
	pcpmodel_free(m);
}

/*
 * nr_pcp_alloc(): "max_nr_alloc = max(high - pcp->count - base_batch,
 * base_batch)" caps a refill by the room high leaves; with high_min ==
 * high_max (percpu_pagelist_high_fraction set) high never grows: 200 -
 * 0 - 63 = 137, so 63, 126, then 137 with alloc_factor stuck at 2.
 */
static void test_pcpmodel_refill_capped_by_high(void)
{
	static const int sizes[] = { 63, 126, 137, 137 };
	struct pcpmodel *m;
	struct pm_seed s;
	int i;

	pm_seed_default(&s, 200, 200, 200);
	m = pm_new_seeded_base(PCPM_RULES_6_12, 5, &s);
	REQUIRE(m);
	for (i = 0; i < 4; i++) {
		uint64_t before = pcpmodel_result(m)->refill_pages;

		CHECK_EQ_INT(pm_allocs(m, sizes[i], 0, MOVABLE), 0);
		CHECK_EQ_U64(pcpmodel_result(m)->refill_pages - before,
			     sizes[i]);
	}
	CHECK_EQ_INT(pm_state(m).alloc_factor, 2);
	CHECK_EQ_INT(pm_state(m).high, 200);
	pcpmodel_free(m);
}

/*
 * v6.1 __rmqueue_pcplist(): "if (batch > 1) batch = max(batch >> order,
 * 2)" entries: order 2 gets 15 (60 pages), order 3 gets 7 (56). v6.12
 * nr_pcp_alloc() does the same for order > 0 with base_batch, leaves
 * alloc_factor alone ("if (!order)"), and still raises high by 63.
 */
static void test_pcpmodel_refill_high_order(void)
{
	struct pcpmodel *m61 = pm_new(PCPM_RULES_6_1, 5, 1, 1);
	struct pcpmodel *m612 = pm_new(PCPM_RULES_6_12, 5, 1, 1);
	struct pm_seed s;

	REQUIRE(m61 && m612);
	pm_seed_default(&s, 1000, 1000, 1000);
	REQUIRE(!pm_seed_pcp(m61, 0, 0, &s));
	CHECK_EQ_INT(pm_alloc(m61, 2, MOVABLE), 0);
	CHECK_EQ_U64(pcpmodel_result(m61)->refill_pages, 60);
	CHECK_EQ_INT(pm_alloc(m61, 3, MOVABLE), 0);
	CHECK_EQ_U64(pcpmodel_result(m61)->refill_pages, 60 + 56);
	CHECK_EQ_INT(pm_state(m61).count, 56 + 60 - 4 - 8);

	pm_seed_default(&s, 1000, 500, 4000);
	REQUIRE(!pm_seed_pcp(m612, 0, 0, &s));
	CHECK_EQ_INT(pm_alloc(m612, 2, MOVABLE), 0);
	CHECK_EQ_U64(pcpmodel_result(m612)->refill_pages, 60);
	CHECK_EQ_INT(pm_state(m612).alloc_factor, 0);
	CHECK_EQ_INT(pm_state(m612).high, 1063);
	pcpmodel_free(m61);
	pcpmodel_free(m612);
}

/*
 * v6.1 free_unref_page_commit(): the 1000th order-0 free meets high;
 * nr_pcp_free() frees batch << free_factor = 63 and raises free_factor to
 * 1. Then one order-2 free: "free_high = (pcp->free_factor && order &&
 * order <= PAGE_ALLOC_COSTLY_ORDER)", nr_pcp_high() returns 0 and
 * nr_pcp_free() "Free everything if batch freeing high-order pages": all
 * 937 + 4 pages in one free_pcppages_bulk(). The 6.1.104 backport caps
 * free_factor below the scale ("pcp->free_factor <
 * CONFIG_PCP_BATCH_SCALE_MAX"), so at scale 0 free_factor stays 0 and
 * free_high never fires: the order-2 page just parks. At any other scale
 * it still frees everything.
 */
static void free_high_v61(enum pcpmodel_ruleset rules, int scale, bool flushes)
{
	struct pcpmodel *m;
	const struct pcpmodel_result *r;
	struct pm_seed s;

	pm_seed_default(&s, 1000, 1000, 1000);
	m = pm_new_seeded_base(rules, scale, &s);
	REQUIRE(m);
	r = pcpmodel_result(m);
	CHECK_EQ_INT(pm_frees(m, 999, 0, MOVABLE), 0);
	CHECK_EQ_U64(r->bulk_calls, 0);
	CHECK_EQ_INT(pm_free(m, 0, MOVABLE), 0);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_COMMIT].pages, 63);
	CHECK_EQ_INT(pm_state(m).free_factor, flushes ? 1 : 0);
	CHECK_EQ_INT(pm_free(m, 2, MOVABLE), 0);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_FREE_HIGH].flushes, flushes);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_FREE_HIGH].max_flush_pages,
		     flushes ? 941 : 0);
	CHECK_EQ_U64(r->bulk_calls, flushes ? 2 : 1);
	CHECK_EQ_INT(pm_state(m).count, flushes ? 0 : 941);
	pcpmodel_free(m);
}

static void test_pcpmodel_free_high_v61(void)
{
	free_high_v61(PCPM_RULES_6_1, 5, true);
	free_high_v61(PCPM_RULES_6_1, 0, true);
	free_high_v61(PCPM_RULES_6_1_CAPPED, 5, true);
	free_high_v61(PCPM_RULES_6_1_CAPPED, 1, true);
	free_high_v61(PCPM_RULES_6_1_CAPPED, 0, false);
}

/*
 * v6.1 nr_pcp_free(): "batch <<= pcp->free_factor; if (batch <
 * max_nr_free) pcp->free_factor++": flushes of 63, 126, 252, 504, then
 * 1008 clamped to high - batch = 937. The 6.1.104 backport of
 * 52166607ecc9 adds "&& pcp->free_factor < CONFIG_PCP_BATCH_SCALE_MAX":
 * at scale 2 the flushes stop growing at 252.
 */
static void free_factor_run(enum pcpmodel_ruleset rules, int scale,
			    const int *sizes, int n)
{
	struct pcpmodel *m;
	const struct pcpmodel_flushes *f;
	struct pm_seed s;
	int i;

	pm_seed_default(&s, 1000, 1000, 1000);
	m = pm_new_seeded_base(rules, scale, &s);
	REQUIRE(m);
	f = &pcpmodel_result(m)->flush[PCPM_FLUSH_COMMIT];
	for (i = 0; i < n; i++) {
		uint64_t before = f->pages;
		int room = 1000 - pm_state(m).count;

		/* the free that brings count to high flushes */
		CHECK_EQ_INT(pm_frees(m, room, 0, MOVABLE), 0);
		CHECK_EQ_U64(f->flushes, i + 1);
		CHECK_EQ_U64(f->pages - before, sizes[i]);
	}
	pcpmodel_free(m);
}

static void test_pcpmodel_free_factor_v61(void)
{
	static const int plain[] = { 63, 126, 252, 504, 937, 937 };
	static const int capped2[] = { 63, 126, 252, 252, 252 };

	free_factor_run(PCPM_RULES_6_1, 2, plain, 6);
	free_factor_run(PCPM_RULES_6_1_CAPPED, 2, capped2, 5);
	free_factor_run(PCPM_RULES_6_1_CAPPED, 5, plain, 6);
}

/* 3000 order-0 pages parked, high 4000 in [256, 4096], free_count 0 */
static struct pcpmodel *free_high_setup(enum pcpmodel_ruleset rules, int scale,
					int flags)
{
	struct pm_seed s;

	pm_seed_default(&s, 4000, 256, 4096);
	s.order0_movable = 3000;
	s.flags = flags;
	return pm_new_seeded_base(rules, scale, &s);
}

/*
 * v6.12 free_unref_page_commit() (6.12.117:2673) on order-1 frees:
 * free_count grows by 2 a free; the 33rd sees free_count 64 >= batch
 * with PCPF_PREV_FREE_HIGH_ORDER set: free_high. nr_pcp_high()
 * (6.12.117:2625) "pcp->high = max(high - (batch <<
 * CONFIG_PCP_BATCH_SCALE_MAX), high_min)": 4000 - 2016 = 1984, and
 * nr_pcp_free() (6.12.117:2600) "min(pcp->count, batch <<
 * CONFIG_PCP_BATCH_SCALE_MAX)" = min(3066, 2016). The 34th flushes the
 * remaining 1052 and cuts high to high_min; frees 35..40 each flush their
 * 2 pages: 8 free_high flushes in all.
 */
static void test_pcpmodel_free_high_v612(void)
{
	struct pcpmodel *m = free_high_setup(PCPM_RULES_6_12, 5, 0);
	const struct pcpmodel_flushes *fh;

	REQUIRE(m);
	fh = &pcpmodel_result(m)->flush[PCPM_FLUSH_FREE_HIGH];
	CHECK_EQ_INT(pm_frees(m, 32, 1, MOVABLE), 0);
	CHECK_EQ_U64(fh->flushes, 0);
	CHECK_EQ_INT(pm_free(m, 1, MOVABLE), 0);
	CHECK_EQ_U64(fh->flushes, 1);
	CHECK_EQ_U64(fh->pages, 2016);
	CHECK_EQ_INT(pm_state(m).high, 1984);
	CHECK_EQ_INT(pm_state(m).count, 3066 - 2016);
	CHECK_EQ_INT(pm_free(m, 1, MOVABLE), 0);
	CHECK_EQ_U64(fh->pages, 2016 + 1052);
	CHECK_EQ_INT(pm_state(m).high, 256);
	CHECK_EQ_INT(pm_frees(m, 6, 1, MOVABLE), 0);
	CHECK_EQ_U64(fh->flushes, 8);
	CHECK_EQ_U64(fh->max_flush_pages, 2016);
	CHECK_EQ_U64(pcpmodel_result(m)->free_high_high_cut, 4000 - 256);
	CHECK_EQ_INT(pm_state(m).count, 0);
	pcpmodel_free(m);
}

/*
 * The same at scale 0: nr_pcp_free() asks min(3066, 63 << 0) = 63, and
 * free_pcppages_bulk() (6.12.117:1218) takes whole entries from the
 * order-1 list until "count -= nr_pages" reaches <= 0: 32 entries, 64
 * pages, one past the batch. high drops by 63 only.
 */
static void test_pcpmodel_free_high_scale0(void)
{
	struct pcpmodel *m = free_high_setup(PCPM_RULES_6_12, 0, 0);
	const struct pcpmodel_flushes *fh;

	REQUIRE(m);
	fh = &pcpmodel_result(m)->flush[PCPM_FLUSH_FREE_HIGH];
	CHECK_EQ_INT(pm_frees(m, 33, 1, MOVABLE), 0);
	CHECK_EQ_U64(fh->flushes, 1);
	CHECK_EQ_U64(fh->pages, 64);
	/* the request stays what nr_pcp_free() decided, overshoot apart */
	CHECK_EQ_U64(pcpmodel_result(m)->bulk_asked_max, 63);
	CHECK_EQ_U64(pcpmodel_result(m)->bulk_sizes.max_pages, 64);
	CHECK_EQ_INT(pm_state(m).high, 4000 - 63);
	pcpmodel_free(m);
}

/*
 * 6.16 (c544a952ba61): "free_count >= (batch + pcp->high_min / 2)" =
 * 63 + 128 = 191: the forty frees that flushed eight times on 6.12 do
 * not flush at all; the 97th free (free_count 192) is the first.
 */
static void test_pcpmodel_free_high_v616_threshold(void)
{
	struct pcpmodel *m = free_high_setup(PCPM_RULES_6_16, 5, 0);
	const struct pcpmodel_result *r;

	REQUIRE(m);
	r = pcpmodel_result(m);
	CHECK_EQ_INT(pm_frees(m, 40, 1, MOVABLE), 0);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_FREE_HIGH].flushes, 0);
	CHECK_EQ_U64(r->bulk_calls, 0);
	CHECK_EQ_INT(pm_frees(m, 56, 1, MOVABLE), 0);
	CHECK_EQ_U64(r->bulk_calls, 0);
	CHECK_EQ_INT(pm_free(m, 1, MOVABLE), 0);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_FREE_HIGH].flushes, 1);
	/* one call: 97 order-1 entries (194 pages), then 1822 order-0 */
	CHECK_EQ_U64(r->bulk_calls, 1);
	CHECK_EQ_U64(r->flush[PCPM_FLUSH_FREE_HIGH].pages, 2016);
	pcpmodel_free(m);
}

/*
 * PCPF_FREE_HIGH_BATCH (zone_pcp_update_cacheinfo(), a large cache
 * slice): free_high also needs "pcp->count >= batch", so after the two
 * flushes of the 6.12 run the order-1 frees park again (2 pages each)
 * instead of flushing: nr_pcp_high()'s ordinary path returns high 256.
 */
static void test_pcpmodel_free_high_batch_flag(void)
{
	struct pcpmodel *m =
		free_high_setup(PCPM_RULES_6_12, 5, PCPM_PCPF_FREE_HIGH_BATCH);

	REQUIRE(m);
	CHECK_EQ_INT(pm_frees(m, 40, 1, MOVABLE), 0);
	CHECK_EQ_U64(pcpmodel_result(m)->flush[PCPM_FLUSH_FREE_HIGH].flushes,
		     2);
	CHECK_EQ_INT(pm_state(m).count, 12);
	pcpmodel_free(m);
}

/*
 * 7.3 free_frozen_page_commit() (7.3:2854): "to_free_batched =
 * min(to_free, batch); free_pcppages_bulk(...); to_free -= ..." until
 * to_free or count is 0. The 97th order-1 free asks 2016 pages: 32
 * calls of 63 asked. The first three take 32 order-1 entries each (64
 * pages, one over), the fourth the last entry and 61 order-0 pages, the
 * rest 63 order-0 pages: 3 * 64 + 29 * 63 = 2019 pages.
 */
static void test_pcpmodel_chunked_free_high_v7(void)
{
	struct pcpmodel *m = free_high_setup(PCPM_RULES_7_X, 5, 0);
	const struct pcpmodel_flushes *fh;

	REQUIRE(m);
	fh = &pcpmodel_result(m)->flush[PCPM_FLUSH_FREE_HIGH];
	CHECK_EQ_INT(pm_frees(m, 97, 1, MOVABLE), 0);
	CHECK_EQ_U64(fh->flushes, 1);
	CHECK_EQ_U64(fh->chunks, 32);
	CHECK_EQ_U64(pcpmodel_result(m)->bulk_calls, 32);
	CHECK_EQ_U64(fh->pages, 2019);
	CHECK_EQ_U64(fh->chunks_hist[hist_slot_of(32)], 1);
	CHECK_EQ_U64(fh->chunk_pages_hist[SLOT_63] +
			     fh->chunk_pages_hist[hist_slot_of(64)],
		     32);
	pcpmodel_free(m);
}

/*
 * An ordinary flush, high fixed at 1000: the 1000th order-0 free has
 * free_count 1000 and nr_pcp_free() returns "clamp_t(int,
 * pcp->free_count, min_nr_free, max_nr_free)" = clamp(1000, 63, 937).
 * v6.12: one call of 937. 7.x: ceil(937 / 63) = 15 calls, 14 of 63 and
 * one of 55.
 */
static void ordinary_flush(enum pcpmodel_ruleset rules, uint64_t calls)
{
	struct pcpmodel *m;
	const struct pcpmodel_flushes *fc;
	struct pm_seed s;

	pm_seed_default(&s, 1000, 1000, 1000);
	m = pm_new_seeded_base(rules, 5, &s);
	REQUIRE(m);
	fc = &pcpmodel_result(m)->flush[PCPM_FLUSH_COMMIT];
	CHECK_EQ_INT(pm_frees(m, 1000, 0, MOVABLE), 0);
	CHECK_EQ_U64(fc->flushes, 1);
	CHECK_EQ_U64(fc->pages, 937);
	CHECK_EQ_U64(fc->chunks, calls);
	CHECK_EQ_U64(pcpmodel_result(m)->bulk_calls, calls);
	CHECK_EQ_U64(fc->chunks_hist[hist_slot_of(calls)], 1);
	CHECK_EQ_U64(pcpmodel_result(m)->bulk_sizes.max_pages,
		     calls == 1 ? 937 : PM_BATCH);
	pcpmodel_free(m);
}

static void test_pcpmodel_chunked_flush_v7(void)
{
	ordinary_flush(PCPM_RULES_6_12, 1);
	ordinary_flush(PCPM_RULES_6_16, 1);
	ordinary_flush(PCPM_RULES_7_X, (937 + PM_BATCH - 1) / PM_BATCH);
}

/* an allocation or a free from a given caller, CPU 0, zone 0 */
static int caller_event(struct pcpmodel *m, int type, int caller)
{
	struct pcpmodel_event ev = { 0 };

	ev.type = type;
	ev.migratetype = MOVABLE;
	ev.caller = caller;
	return pcpmodel_apply(m, &ev, NULL);
}

/*
 * 7.3 alloc_pages_bulk_noprof() (7.3:5292) takes pages with
 * __rmqueue_pcplist() alone: rmqueue_pcplist()'s "pcp->free_count >>=
 * 1" (7.3:3399) does not run, so free_count stays 100; a plain
 * allocation halves it.
 */
static void test_pcpmodel_alloc_bulk_caller(void)
{
	struct pcpmodel *m;
	struct pm_seed s;

	pm_seed_default(&s, 1000, 500, 4000);
	s.order0_movable = 10;
	s.free_count = 100;
	m = pm_new_seeded_base(PCPM_RULES_7_X, 5, &s);
	REQUIRE(m);
	CHECK_EQ_INT(caller_event(m, PCPM_EV_ALLOC, PCPM_CALLER_BULK), 0);
	CHECK_EQ_INT(pm_state(m).free_count, 100);
	CHECK_EQ_INT(caller_event(m, PCPM_EV_ALLOC, PCPM_CALLER_PLAIN), 0);
	CHECK_EQ_INT(pm_state(m).free_count, 50);
	CHECK_EQ_INT(pm_state(m).count, 8);
	pcpmodel_free(m);
}

/*
 * 7.3 free_frozen_page_commit() with FPI_NOLOCK (7.3:2895): "Do not
 * attempt to take a zone lock. Let pcp->count get over high mark
 * temporarily": the 10th page of a pcp with high 10 stays, free_count
 * still counts it; the next plain free flushes, and nr_pcp_free()'s
 * "if (unlikely(high < batch)) return 1" makes it one page. 6.1 has no
 * such path: its free flushes at once.
 */
static void test_pcpmodel_free_nolock_caller(void)
{
	struct pcpmodel *m;
	struct pm_seed s;

	pm_seed_default(&s, 10, 10, 10);
	s.order0_movable = 9;
	m = pm_new_seeded_base(PCPM_RULES_7_X, 5, &s);
	REQUIRE(m);
	CHECK_EQ_INT(caller_event(m, PCPM_EV_FREE, PCPM_CALLER_NOLOCK), 0);
	CHECK_EQ_U64(pcpmodel_result(m)->bulk_calls, 0);
	CHECK_EQ_INT(pm_state(m).count, 10);
	CHECK_EQ_INT(pm_state(m).free_count, 1);
	CHECK_EQ_INT(caller_event(m, PCPM_EV_FREE, PCPM_CALLER_PLAIN), 0);
	CHECK_EQ_U64(pcpmodel_result(m)->flush[PCPM_FLUSH_COMMIT].pages, 1);
	pcpmodel_free(m);
	m = pm_new_seeded_base(PCPM_RULES_6_1, 5, &s);
	REQUIRE(m);
	CHECK_EQ_INT(caller_event(m, PCPM_EV_FREE, PCPM_CALLER_NOLOCK), 0);
	CHECK_EQ_U64(pcpmodel_result(m)->bulk_calls, 1);
	pcpmodel_free(m);
}

const struct unit_test pcpmodel_tests[] = {
	TEST(test_pcpmodel_refill_alloc_factor),
	TEST(test_pcpmodel_free_halves_alloc_factor),
	TEST(test_pcpmodel_refill_capped_by_high),
	TEST(test_pcpmodel_refill_high_order),
	TEST(test_pcpmodel_free_high_v61),
	TEST(test_pcpmodel_free_factor_v61),
	TEST(test_pcpmodel_free_high_v612),
	TEST(test_pcpmodel_free_high_scale0),
	TEST(test_pcpmodel_free_high_v616_threshold),
	TEST(test_pcpmodel_free_high_batch_flag),
	TEST(test_pcpmodel_chunked_free_high_v7),
	TEST(test_pcpmodel_chunked_flush_v7),
	TEST(test_pcpmodel_alloc_bulk_caller),
	TEST(test_pcpmodel_free_nolock_caller),
	TEST(test_pcpmodel_decay),
	TEST(test_pcpmodel_decay_chunked),
	TEST(test_pcpmodel_decay_scale0),
	TEST(test_pcpmodel_decay_v61_ignored),
	TEST(test_pcpmodel_decay_end),
	TEST(test_pcpmodel_drain_chunks),
	TEST(test_pcpmodel_drain_high_order_overshoot),
	TEST(test_pcpmodel_cpu_offline),
	TEST(test_pcpmodel_zone_below_high),
	TEST(test_pcpmodel_zone_pageset_update),
	TEST(test_pcpmodel_snapshot_resync),
	TEST(test_pcpmodel_resync_down),
	TEST(test_pcpmodel_seed_without_lists),
	TEST(test_pcpmodel_self_consistent),
	TEST(test_pcpmodel_self_consistent_no_resync),
	TEST(test_pcpmodel_drift_other_scale),
	TEST(test_pcpmodel_scale_direction),
	TEST(test_pcpmodel_identities),
	TEST(test_pcpmodel_rejects),
	TEST(test_pcpmodel_rules_names),
	TEST(test_pcpmodel_zone_free),
	TEST(test_pcpmodel_zone_same_scale),
	TEST(test_pcpmodel_zone_kswapd),
	TEST(test_pcpmodel_zone_direct_reclaim),
	TEST(test_pcpmodel_zone_drains_as_given),
	TEST(test_pcpmodel_zone_below_high_moved),
	TEST(test_pcpmodel_reclaim_judged),
	TEST(test_pcpmodel_reclaim_unmarked),
	TEST(test_pcpmodel_reclaim_mark_over_min),
	TEST(test_pcpmodel_reclaim_isolate),
	TEST(test_pcpmodel_reclaim_window),
	TEST(test_pcpmodel_reclaim_anchor),
	TEST(test_pcpmodel_cost_table),
	TEST(test_pcpmodel_cost_split),
	TEST(test_pcpmodel_cost_extrapolate),
	TEST(test_pcpmodel_cost_slots),
	TEST(test_pcpmodel_cost_exact_means),
	TEST(test_pcpmodel_cost_sparse),
	TEST_END,
};
