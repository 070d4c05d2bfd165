// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pricing of locked calls by their pages' log2 bucket
 * (pcpmodel_cost.c) on recordings worked by hand: the buckets' means
 * give the measured total back, a bucket's calls spread over the time
 * slots its recorded calls were in, a size never seen is priced from the
 * nearest bucket at its ns a page and counted apart, and the priced
 * histogram adds up to the calls.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "hist.h"
#include "pcpmodel_fixture.h"
#include "unit.h"

#define REL_EPS 1e-9

static bool near_rel(double a, double b)
{
	return fabs(a - b) <= REL_EPS * (fabs(b) > 1 ? fabs(b) : 1);
}

/*
 * 300 calls of 64 pages at 2048..4095 ns and 100 of 2016 pages at
 * 131072..262143 ns (the longest 250000): the pairing puts the slow
 * calls on the large ones. Each slot's calls stand at its midpoint (the
 * top one's between its floor and the longest, 190536), scaled by
 * 20.9e6 / (300 * 3071.5 + 100 * 190536) to the measured total.
 */
static struct pcpmodel_cost_in two_sizes(uint64_t *pages, uint64_t *ns)
{
	struct pcpmodel_cost_in in = { 0 };

	memset(pages, 0, sizeof(uint64_t) * PCPTOP_HIST_SLOTS);
	memset(ns, 0, sizeof(uint64_t) * PCPTOP_HIST_SLOTS);
	pages[hist_slot_of(64)] = 300;
	pages[hist_slot_of(2016)] = 100;
	ns[hist_slot_of(3000)] = 300;
	ns[hist_slot_of(200000)] = 100;
	in.pages_slots = pages;
	in.pages = 300 * 64 + 100 * 2016;
	in.max_pages = 2016;
	in.ns_slots = ns;
	in.ns = 300 * 3000 + 100 * 200000;
	in.max_ns = 250000;
	return in;
}

/* two_sizes()'s own calls priced under t: into sum and whole slots */
static void price_own(const struct pcpmodel_cost_table *t,
		      struct pcpmodel_cost_sum *sum, uint64_t *slots)
{
	static struct pcpmodel_call_sizes sz;

	memset(&sz, 0, sizeof(sz));
	memset(sum, 0, sizeof(*sum));
	sz.calls_of[64] = 300;
	sz.calls_of[2016] = 100;
	pcpmodel_cost_price(&sz, t, sum);
	pcpmodel_cost_slots(sum, slots);
}

void test_pcpmodel_cost_table(void)
{
	uint64_t pages[PCPTOP_HIST_SLOTS], ns[PCPTOP_HIST_SLOTS];
	uint64_t slots[PCPTOP_HIST_SLOTS];
	static struct pcpmodel_call_sizes sz;
	struct pcpmodel_cost_in in = two_sizes(pages, ns);
	struct pcpmodel_cost_table t;
	struct pcpmodel_cost_sum sum;
	const double k = 20.9e6 / (300 * 3071.5 + 100 * 190536.0);

	REQUIRE(pcpmodel_cost_table(&in, &t) == 0);
	CHECK_EQ_INT(t.lo, hist_slot_of(64));
	CHECK_EQ_INT(t.hi, hist_slot_of(2016));
	CHECK_EQ_INT(t.nr_seen, 2);
	CHECK_EQ_U64(t.calls, 400);
	CHECK_EQ_U64(t.timed, 400);
	CHECK(near_rel(t.b[6].mean_ns, 3071.5 * k));
	CHECK(near_rel(t.b[10].mean_ns, 190536 * k));
	CHECK(near_rel(t.b[6].share[11], 1));
	CHECK(near_rel(t.b[10].share[17], 1));
	/* the small calls' longest is their slot's bound; the top's, measured */
	CHECK(near_rel(t.b[6].max_ns, 4095));
	CHECK(near_rel(t.b[10].max_ns, 250000));
	/*
	 * mean pages: midpoints 95.5 and (1024 + 2016) / 2 scaled by
	 * 220800 / 180650 to the recorded pages
	 */
	CHECK(near_rel(t.b[6].pages, 95.5 * 220800 / 180650));
	CHECK(near_rel(t.b[10].pages, 1520.0 * 220800 / 180650));
	/* the recording's own calls, priced: its total, its histogram */
	price_own(&t, &sum, slots);
	CHECK(near_rel(sum.total_ns, (double)in.ns));
	CHECK(near_rel(sum.max_ns, 250000));
	CHECK_EQ_U64(sum.calls, 400);
	CHECK_EQ_U64(sum.outside, 0);
	CHECK(!memcmp(slots, ns, sizeof(slots)));
	/* the same sizes, a call of 100 pages costs what one of 64 does */
	memset(&sz, 0, sizeof(sz));
	memset(&sum, 0, sizeof(sum));
	sz.calls_of[100] = 3;
	pcpmodel_cost_price(&sz, &t, &sum);
	CHECK(near_rel(sum.total_ns, 3 * 3071.5 * k));
	CHECK(near_rel(sum.max_ns, 4095));
	/* nothing timed, or no calls: no table */
	memset(ns, 0, sizeof(ns));
	CHECK_EQ_INT(pcpmodel_cost_table(&in, &t), -ENODATA);
	in = two_sizes(pages, ns);
	memset(pages, 0, sizeof(pages));
	CHECK_EQ_INT(pcpmodel_cost_table(&in, &t), -ENODATA);
}

/*
 * A time slot shared by two buckets: 300 small calls against 200 fast
 * and 150 middling ones, 100 large against the other 50 middling and 50
 * slow. The small bucket's longest is in the middling slot (8191).
 */
void test_pcpmodel_cost_split(void)
{
	uint64_t pages[PCPTOP_HIST_SLOTS], ns[PCPTOP_HIST_SLOTS];
	struct pcpmodel_cost_in in = two_sizes(pages, ns);
	uint64_t slots[PCPTOP_HIST_SLOTS];
	struct pcpmodel_cost_table t;
	struct pcpmodel_cost_sum sum;

	memset(ns, 0, sizeof(ns));
	ns[11] = 200;
	ns[12] = 150;
	ns[17] = 50;
	REQUIRE(pcpmodel_cost_table(&in, &t) == 0);
	CHECK(near_rel(t.b[6].share[11], 2.0 / 3));
	CHECK(near_rel(t.b[6].share[12], 1.0 / 3));
	CHECK(near_rel(t.b[10].share[12], 0.5));
	CHECK(near_rel(t.b[10].share[17], 0.5));
	CHECK(near_rel(t.b[6].max_ns, 8191));
	CHECK(near_rel(t.b[10].max_ns, 250000));
	CHECK(t.b[10].mean_ns > t.b[6].mean_ns);
	/* the recording's calls priced give its time slots back */
	price_own(&t, &sum, slots);
	CHECK(!memcmp(slots, ns, sizeof(slots)));
	CHECK(near_rel(sum.total_ns, (double)in.ns));
}

/*
 * Sizes the recording never saw: 4032 pages (the bucket above the top),
 * 8 pages (below the bottom) and 300 (between, as near the small bucket
 * as the large one: the smaller wins), each from that bucket at its ns
 * a page, and counted as extrapolated.
 */
void test_pcpmodel_cost_extrapolate(void)
{
	uint64_t pages[PCPTOP_HIST_SLOTS], ns[PCPTOP_HIST_SLOTS];
	static struct pcpmodel_call_sizes sz;
	struct pcpmodel_cost_in in = two_sizes(pages, ns);
	struct pcpmodel_cost_table t;
	struct pcpmodel_cost_sum sum;
	double f_top, f_low, f_mid;

	REQUIRE(pcpmodel_cost_table(&in, &t) == 0);
	f_top = 4032 / t.b[10].pages;
	f_low = 8 / t.b[6].pages;
	f_mid = 300 / t.b[6].pages;
	memset(&sz, 0, sizeof(sz));
	memset(&sum, 0, sizeof(sum));
	sz.calls_of[4032] = 2;
	pcpmodel_cost_price(&sz, &t, &sum);
	CHECK(near_rel(sum.total_ns, 2 * t.b[10].mean_ns * f_top));
	CHECK(near_rel(sum.max_ns, 250000 * f_top));
	CHECK_EQ_U64(sum.outside, 2);
	/* the slot moved up by the factor: (131072 + 262143) / 2 * f */
	CHECK(sum.slots[hist_slot_of((uint64_t)llround((131072 + 262143) / 2.0 *
						       f_top))] == 2);
	memset(&sz, 0, sizeof(sz));
	memset(&sum, 0, sizeof(sum));
	sz.calls_of[8] = 1;
	sz.calls_of[300] = 1;
	sz.calls_of[64] = 1;
	pcpmodel_cost_price(&sz, &t, &sum);
	CHECK(near_rel(sum.total_ns, t.b[6].mean_ns * (f_low + f_mid + 1)));
	CHECK_EQ_U64(sum.outside, 2);
	CHECK_EQ_U64(sum.calls, 3);
	/* past the exact sizes: by slot, at its mean size */
	memset(&sz, 0, sizeof(sz));
	memset(&sum, 0, sizeof(sum));
	sz.over_calls[hist_slot_of(10000)] = 2;
	sz.over_pages[hist_slot_of(10000)] = 20000;
	pcpmodel_cost_price(&sz, &t, &sum);
	CHECK(near_rel(sum.total_ns,
		       2 * t.b[10].mean_ns * 10000 / t.b[10].pages));
	CHECK_EQ_U64(sum.outside, 2);
}

/*
 * The kernel's sums by pages bucket (HIST_LOCK_HOLD_NS_BY_PAGES): the
 * small calls took 3500 ns each, not the 3000 their time slot's pairing
 * says, and the large the rest. The means are the sums' exactly; sums
 * that are not the recording's calls' (another total, or time in a
 * bucket without calls) are left out and the pairing prices alone.
 */
void test_pcpmodel_cost_exact_means(void)
{
	uint64_t pages[PCPTOP_HIST_SLOTS], ns[PCPTOP_HIST_SLOTS];
	uint64_t by[PCPTOP_HIST_SLOTS] = { 0 };
	static struct pcpmodel_call_sizes sz;
	struct pcpmodel_cost_in in = two_sizes(pages, ns);
	struct pcpmodel_cost_table t, paired;
	struct pcpmodel_cost_sum sum;
	uint64_t slots[PCPTOP_HIST_SLOTS];

	REQUIRE(pcpmodel_cost_table(&in, &paired) == 0);
	CHECK(!paired.exact_means);
	by[hist_slot_of(64)] = 300 * 3500;
	by[hist_slot_of(2016)] = in.ns - 300 * 3500;
	in.ns_by_pages = by;
	REQUIRE(pcpmodel_cost_table(&in, &t) == 0);
	CHECK(t.exact_means);
	CHECK(near_rel(t.b[6].mean_ns, 3500));
	CHECK(near_rel(t.b[10].mean_ns, (in.ns - 300 * 3500) / 100.0));
	/* the spread over time slots is still the pairing's */
	CHECK(!memcmp(t.b[6].share, paired.b[6].share, sizeof(t.b[6].share)));
	price_own(&t, &sum, slots);
	CHECK(near_rel(sum.total_ns, (double)in.ns));
	CHECK(!memcmp(slots, ns, sizeof(slots)));
	/* 5 calls of 32 pages, between the buckets: the nearest, per page */
	memset(&sz, 0, sizeof(sz));
	memset(&sum, 0, sizeof(sum));
	sz.calls_of[32] = 5;
	pcpmodel_cost_price(&sz, &t, &sum);
	CHECK(near_rel(sum.total_ns, 5 * 3500 * 32 / t.b[6].pages));
	/* sums of other calls than these: one ns off the total */
	by[hist_slot_of(2016)]++;
	REQUIRE(pcpmodel_cost_table(&in, &t) == 0);
	CHECK(!t.exact_means);
	CHECK(near_rel(t.b[6].mean_ns, paired.b[6].mean_ns));
	by[hist_slot_of(2016)]--;
	/* time in a bucket the pages histogram has no call in */
	by[hist_slot_of(2016)] -= 7;
	by[hist_slot_of(500)] = 7;
	REQUIRE(pcpmodel_cost_table(&in, &t) == 0);
	CHECK(!t.exact_means);
	/* none recorded (an older recording): all zero */
	memset(by, 0, sizeof(by));
	REQUIRE(pcpmodel_cost_table(&in, &t) == 0);
	CHECK(!t.exact_means);
}

/*
 * With the kernel's means only a bucket holding 5 % of the recorded pages
 * prices sizes never seen. 300 calls of 64 pages and 100 of 2016: both
 * do. 3000 of 64 and 3 of 2016 (6048 of 198048 pages, 3.1 %): a call of
 * 4032 is priced from the 64-page bucket, at its ns a page, though the
 * 2016-page bucket still prices its own size; paired, it would price
 * both.
 */
void test_pcpmodel_cost_sparse(void)
{
	uint64_t pages[PCPTOP_HIST_SLOTS], ns[PCPTOP_HIST_SLOTS];
	uint64_t by[PCPTOP_HIST_SLOTS] = { 0 };
	static struct pcpmodel_call_sizes sz;
	struct pcpmodel_cost_in in = two_sizes(pages, ns);
	struct pcpmodel_cost_table t;
	struct pcpmodel_cost_sum sum;

	by[hist_slot_of(64)] = 300 * 3500;
	by[hist_slot_of(2016)] = in.ns - 300 * 3500;
	in.ns_by_pages = by;
	REQUIRE(pcpmodel_cost_table(&in, &t) == 0);
	CHECK(t.b[6].prices_others && t.b[10].prices_others);
	memset(&sz, 0, sizeof(sz));
	memset(&sum, 0, sizeof(sum));
	sz.calls_of[4032] = 2;
	pcpmodel_cost_price(&sz, &t, &sum);
	CHECK(near_rel(sum.total_ns,
		       2 * t.b[10].mean_ns * 4032 / t.b[10].pages));
	/* the large bucket sparse */
	pages[hist_slot_of(64)] = 3000;
	pages[hist_slot_of(2016)] = 3;
	ns[hist_slot_of(3000)] = 3000;
	ns[hist_slot_of(200000)] = 3;
	in.pages = 3000 * 64 + 3 * 2016;
	in.ns = 3000 * 3500 + 3 * 200000;
	by[hist_slot_of(64)] = 3000 * 3500;
	by[hist_slot_of(2016)] = 3 * 200000;
	REQUIRE(pcpmodel_cost_table(&in, &t) == 0);
	REQUIRE(t.exact_means);
	CHECK(t.b[6].prices_others && !t.b[10].prices_others);
	memset(&sum, 0, sizeof(sum));
	pcpmodel_cost_price(&sz, &t, &sum);
	CHECK(near_rel(sum.total_ns, 2 * 3500 * 4032 / t.b[6].pages));
	CHECK_EQ_U64(sum.outside, 2);
	memset(&sz, 0, sizeof(sz));
	memset(&sum, 0, sizeof(sum));
	sz.calls_of[2016] = 1;
	pcpmodel_cost_price(&sz, &t, &sum);
	CHECK(near_rel(sum.total_ns, 200000));
	CHECK_EQ_U64(sum.outside, 0);
	/* paired: every bucket seen prices others */
	in.ns_by_pages = NULL;
	REQUIRE(pcpmodel_cost_table(&in, &t) == 0);
	CHECK(t.b[10].prices_others);
}

/* shares rounded to whole calls that add up */
void test_pcpmodel_cost_slots(void)
{
	struct pcpmodel_cost_sum sum;
	uint64_t slots[PCPTOP_HIST_SLOTS];

	memset(&sum, 0, sizeof(sum));
	sum.slots[3] = 1.5;
	sum.slots[4] = 1.2;
	sum.slots[9] = 0.3;
	sum.calls = 3;
	pcpmodel_cost_slots(&sum, slots);
	CHECK_EQ_U64(hist_total(slots, PCPTOP_HIST_SLOTS), 3);
	CHECK_EQ_U64(slots[3], 2);
	CHECK_EQ_U64(slots[4], 1);
	CHECK_EQ_U64(slots[9], 0);
}
