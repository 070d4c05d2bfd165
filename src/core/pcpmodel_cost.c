// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a locked call costs, by the size of the call: a recording's calls
 * bucketed by their pages, each bucket given the time its own calls took
 * (pcpmodel.h says how and what that assumes), and a replay's calls
 * priced bucket by bucket.
 *
 * Why not a line fitted on the intervals (ns = a per call + b per page):
 * on the suite's guests the calls' time is nowhere near linear in their
 * pages, and such a line, fitted on the quantile pairs, priced the
 * replay at the recorded scale far from the recorded total (the misses in
 * docs/PERFORMANCE.md, "Figures the code's comments cite"). A bucket's
 * own mean gives the recorded total back wherever the replay's calls
 * fall in the buckets the recording's did.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "hist.h"
#include "pcpmodel.h"

/* a pairing's leftover below this is rounding, not calls */
#define PAIR_EPS 1e-12
/* a bucket's longest call is in the highest slot holding half a call */
#define MAX_MIN_CALLS 0.5
/* a bucket prices sizes never seen if it holds this share of the pages */
#define TRUST_PAGES_SHARE 0.05

static double slot_mid(int j)
{
	return ((double)hist_slot_lo(j) + (double)hist_slot_hi(j)) / 2;
}

/*
 * The walk of the two histograms' cumulative shares, one pages bucket
 * against one time slot at a time: share[j] of bucket i gets the part of
 * all calls that lies in both (as a share of all calls, normalised
 * later).
 */
static void pair(const uint64_t *pages, double tp, const uint64_t *ns,
		 double tn, struct pcpmodel_cost_table *t)
{
	double ra = pages[0] / tp, rb = ns[0] / tn;
	int i = 0, j = 0;

	while (i < PCPTOP_HIST_SLOTS && j < PCPTOP_HIST_SLOTS) {
		double m = ra < rb ? ra : rb;

		t->b[i].share[j] += m;
		ra -= m;
		rb -= m;
		if (ra <= PAIR_EPS && ++i < PCPTOP_HIST_SLOTS)
			ra = pages[i] / tp;
		if (rb <= PAIR_EPS && ++j < PCPTOP_HIST_SLOTS)
			rb = ns[j] / tn;
	}
}

/*
 * Each time slot's calls at one value: the slot's midpoint, the highest
 * slot's between its floor and the recorded longest; then all scaled so
 * that the recording's calls add up to its measured total. The
 * histogram says where each call's time lies within a factor of two, the
 * total what they add up to exactly.
 */
static void slot_values(const struct pcpmodel_cost_in *in, int top,
			double v[PCPTOP_HIST_SLOTS])
{
	double sum = 0, k;
	int j;

	for (j = 0; j < PCPTOP_HIST_SLOTS; j++)
		v[j] = slot_mid(j);
	if (top >= 0 && in->max_ns >= hist_slot_lo(top) &&
	    in->max_ns <= hist_slot_hi(top))
		v[top] = ((double)hist_slot_lo(top) + (double)in->max_ns) / 2;
	for (j = 0; j < PCPTOP_HIST_SLOTS; j++)
		sum += v[j] * (double)in->ns_slots[j];
	k = sum > 0 ? (double)in->ns / sum : 0;
	for (j = 0; j < PCPTOP_HIST_SLOTS; j++)
		v[j] *= k;
}

/*
 * The longest call of bucket b: in the highest slot holding half a call
 * of it (a sliver of a slot is the pairing's rounding), else its highest
 */
static double bucket_max(const struct pcpmodel_cost_bucket *b, int top,
			 uint64_t max_ns)
{
	int j, last = -1;

	for (j = PCPTOP_HIST_SLOTS - 1; j >= 0; j--) {
		if (last < 0 && b->share[j] > 0)
			last = j;
		if (b->share[j] * b->calls >= MAX_MIN_CALLS)
			break;
	}
	if (j < 0)
		j = last;
	if (j < 0)
		return 0;
	if (j == top || (double)max_ns < (double)hist_slot_hi(j))
		return (double)max_ns;
	return (double)hist_slot_hi(j);
}

/*
 * A bucket's mean pages: its calls are somewhere in [2^i, 2^(i+1) - 1]
 * (the top one up to the recorded largest call); their midpoints, scaled
 * so that all add up to the recorded pages and kept in each bucket's
 * range. Only the extrapolation reads them.
 */
static void bucket_pages(const struct pcpmodel_cost_in *in,
			 struct pcpmodel_cost_table *t)
{
	double mid[PCPTOP_HIST_SLOTS], sum = 0, g;
	int i;

	for (i = t->lo; i <= t->hi; i++) {
		double lo = (double)hist_slot_lo(i),
		       hi = (double)hist_slot_hi(i);

		if (i == t->hi && (double)in->max_pages >= lo &&
		    (double)in->max_pages < hi)
			hi = (double)in->max_pages;
		mid[i] = (lo + hi) / 2;
		sum += mid[i] * t->b[i].calls;
	}
	g = sum > 0 && in->pages ? (double)in->pages / sum : 1;
	for (i = t->lo; i <= t->hi; i++) {
		double lo = (double)hist_slot_lo(i),
		       hi = (double)hist_slot_hi(i);
		double p = mid[i] * g;

		if (i == t->hi && (double)in->max_pages >= lo &&
		    (double)in->max_pages < hi)
			hi = (double)in->max_pages;
		t->b[i].pages = p < lo ? lo : p > hi ? hi : p;
	}
}

/*
 * Which buckets may price a size the recording never saw: with the
 * kernel's means, those that hold TRUST_PAGES_SHARE of the recorded
 * pages. The kernel's work is per entry (__free_one_page() each), so a
 * bucket of a few calls of high-order entries costs far less a page than
 * the sizes around it: a 1 GiB scale-0 recording's 119 calls of 64-127
 * pages at 145 ns a page (THP and order-3 entries) beside its 23882 of
 * 32-63 at 484, where the scale-5 run's 6749 calls of 128-255 took 419.
 * A sparse bucket still prices its own size.
 */
static void trust(struct pcpmodel_cost_table *t, double all_pages)
{
	int i;

	for (i = 0; i < PCPTOP_HIST_SLOTS; i++)
		t->b[i].prices_others = t->b[i].calls > 0 &&
					(!t->exact_means ||
					 t->b[i].pages * t->b[i].calls >=
						 all_pages * TRUST_PAGES_SHARE);
}

/*
 * Each bucket's mean from the kernel's sum of its calls' time, where the
 * recording has the sums and they add up to its total: a recording whose
 * sums came from other calls than its pages histogram's is paired alone
 */
static void exact_means(const struct pcpmodel_cost_in *in,
			struct pcpmodel_cost_table *t)
{
	uint64_t sum = 0;
	int i;

	if (!in->ns_by_pages)
		return;
	for (i = 0; i < PCPTOP_HIST_SLOTS; i++) {
		if (in->ns_by_pages[i] && !in->pages_slots[i])
			return;
		sum += in->ns_by_pages[i];
	}
	if (!sum || sum != in->ns)
		return;
	for (i = 0; i < PCPTOP_HIST_SLOTS; i++)
		if (t->b[i].calls > 0)
			t->b[i].mean_ns =
				(double)in->ns_by_pages[i] / t->b[i].calls;
	t->exact_means = true;
}

int pcpmodel_cost_table(const struct pcpmodel_cost_in *in,
			struct pcpmodel_cost_table *t)
{
	double v[PCPTOP_HIST_SLOTS], tp, tn;
	int i, j, top;

	memset(t, 0, sizeof(*t));
	t->lo = t->hi = -1;
	t->calls = hist_total(in->pages_slots, PCPTOP_HIST_SLOTS);
	t->timed = hist_total(in->ns_slots, PCPTOP_HIST_SLOTS);
	t->total_ns = (double)in->ns;
	if (!t->calls || !t->timed)
		return -ENODATA;
	tp = (double)t->calls;
	tn = (double)t->timed;
	top = hist_last_slot(in->ns_slots, PCPTOP_HIST_SLOTS);
	slot_values(in, top, v);
	pair(in->pages_slots, tp, in->ns_slots, tn, t);
	for (i = 0; i < PCPTOP_HIST_SLOTS; i++) {
		struct pcpmodel_cost_bucket *b = &t->b[i];
		double s = 0, ns = 0;

		for (j = 0; j < PCPTOP_HIST_SLOTS; j++)
			s += b->share[j];
		if (!in->pages_slots[i] || !(s > 0)) {
			memset(b, 0, sizeof(*b));
			continue;
		}
		b->calls = (double)in->pages_slots[i];
		for (j = 0; j < PCPTOP_HIST_SLOTS; j++) {
			b->share[j] /= s;
			ns += b->share[j] * v[j];
		}
		b->mean_ns = ns;
		b->max_ns = bucket_max(b, top, in->max_ns);
		if (t->lo < 0)
			t->lo = i;
		t->hi = i;
		t->nr_seen++;
	}
	bucket_pages(in, t);
	exact_means(in, t);
	trust(t, (double)in->pages);
	return 0;
}

/*
 * the bucket a call of slot i is priced from: its own, else the nearest
 * that may price others (the lower one of two as near)
 */
static int nearest(const struct pcpmodel_cost_table *t, int i)
{
	int d;

	if (i >= 0 && i < PCPTOP_HIST_SLOTS && t->b[i].calls > 0)
		return i;
	for (d = 1; d < PCPTOP_HIST_SLOTS; d++) {
		if (i - d >= 0 && t->b[i - d].prices_others)
			return i - d;
		if (i + d < PCPTOP_HIST_SLOTS && t->b[i + d].prices_others)
			return i + d;
	}
	return -1;
}

static void price(const struct pcpmodel_cost_table *t, uint64_t n, double pages,
		  struct pcpmodel_cost_sum *sum)
{
	int own = hist_slot_of((uint64_t)llround(pages)), i = nearest(t, own);
	const struct pcpmodel_cost_bucket *b;
	double f = 1;
	int j, to;

	if (!n || i < 0)
		return;
	b = &t->b[i];
	/* a size never seen: the nearest bucket's ns a page, at its pages */
	if (i != own) {
		f = b->pages > 0 ? pages / b->pages : 1;
		sum->outside += n;
	}
	sum->calls += n;
	sum->total_ns += (double)n * b->mean_ns * f;
	if (b->max_ns * f > sum->max_ns)
		sum->max_ns = b->max_ns * f;
	for (j = 0; j < PCPTOP_HIST_SLOTS; j++) {
		if (!(b->share[j] > 0))
			continue;
		to = i == own ?
			     j :
			     hist_slot_of((uint64_t)llround(slot_mid(j) * f));
		sum->slots[to] += (double)n * b->share[j];
	}
}

void pcpmodel_cost_price(const struct pcpmodel_call_sizes *sizes,
			 const struct pcpmodel_cost_table *t,
			 struct pcpmodel_cost_sum *sum)
{
	int i;

	for (i = 0; i < PCPM_CALL_PAGES_EXACT; i++)
		price(t, sizes->calls_of[i], i, sum);
	for (i = 0; i < PCPTOP_HIST_SLOTS; i++)
		if (sizes->over_calls[i])
			price(t, sizes->over_calls[i],
			      (double)sizes->over_pages[i] /
				      (double)sizes->over_calls[i],
			      sum);
}

/* largest remainder: the whole calls first, then the largest leftovers */
void pcpmodel_cost_slots(const struct pcpmodel_cost_sum *sum,
			 uint64_t slots[PCPTOP_HIST_SLOTS])
{
	double rest[PCPTOP_HIST_SLOTS];
	uint64_t have = 0;
	int j, best;

	for (j = 0; j < PCPTOP_HIST_SLOTS; j++) {
		double whole = floor(sum->slots[j]);

		slots[j] = whole > 0 ? (uint64_t)whole : 0;
		rest[j] = sum->slots[j] - whole;
		have += slots[j];
	}
	/* the floors add up to at most the calls: at most one short a slot */
	while (have < sum->calls) {
		best = 0;
		for (j = 1; j < PCPTOP_HIST_SLOTS; j++)
			if (rest[j] > rest[best])
				best = j;
		slots[best]++;
		rest[best] = -1;
		have++;
	}
}
