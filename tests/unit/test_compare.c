// SPDX-License-Identifier: GPL-2.0-only
/*
 * diff's model and words on synthetic recordings (synth.c): a change
 * beyond its spread is named and one inside it is not, repeats give the
 * spread between runs, the ranking puts what the run paid before
 * percentages, and two runs alike say nothing moved.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "explain.h"
#include "synth.h"
#include "unit.h"

#define RUNS 3
#define NS_MS 1000000.0

struct sides {
	struct rec_summary a[RUNS], b[RUNS];
	struct cmp_result r;
};

/* a counter's total and each interval's share of it, moved by delta */
static void bump(struct rec_summary *s, int counter, double delta)
{
	int i;

	s->total.cnt[counter] += (uint64_t)delta;
	for (i = 0; i < s->nr_points; i++)
		s->points[i].cnt[counter] += (uint64_t)(delta / s->nr_points);
}

/* n runs a side in fentry mode; run i's seed is i, B's as A's */
static void make(struct sides *x, int n)
{
	int i;

	memset(x, 0, sizeof(*x));
	for (i = 0; i < n; i++) {
		synth_summary(&x->a[i], "a.data", MODE_FENTRY, i);
		synth_summary(&x->b[i], "b.data", MODE_FENTRY, i);
	}
	x->r.a.n = x->r.b.n = n;
}

static void build(struct sides *x)
{
	int i;

	for (i = 0; i < x->r.a.n; i++) {
		x->r.a.run[i] = &x->a[i];
		x->r.b.run[i] = &x->b[i];
	}
	REQUIRE(cmp_build(&x->r) == 0);
}

static void drop(struct sides *x)
{
	int i;

	for (i = 0; i < x->r.a.n; i++) {
		synth_summary_free(&x->a[i]);
		synth_summary_free(&x->b[i]);
	}
}

static const struct cmp_metric *metric(const struct cmp_result *r,
				       const char *key)
{
	int k = cmp_find(r, key);

	return k < 0 ? NULL : &r->m[k];
}

static void test_alike_nothing_moved(void)
{
	static struct sides x;
	char words[EXPLAIN_LEN];

	make(&x, RUNS);
	build(&x);
	CHECK_EQ_INT(x.r.nr_moved, 0);
	explain_paragraph(&x.r, words, sizeof(words));
	CHECK(strstr(words, "nothing moved"));
	CHECK(strstr(words, "Over 3 runs of A and 3 of B"));
	CHECK(strstr(words, "between runs"));
	drop(&x);
}

/* 1 ms more with interrupts off in every B run: named, and first */
static void test_change_beyond_spread_is_named_first(void)
{
	static struct sides x;
	const struct cmp_metric *c;
	char words[EXPLAIN_LEN], name[EXPLAIN_LEN];
	int i;

	make(&x, RUNS);
	for (i = 0; i < RUNS; i++) {
		bump(&x.b[i], CNT_IRQS_OFF_NS, NS_MS);
		/* and 30 % more bulk-free pages, and a 31 times larger one */
		bump(&x.b[i], CNT_BULK_FREE_PAGES,
		     0.3 * (double)x.a[i].total.cnt[CNT_BULK_FREE_PAGES]);
		x.b[i].total.hist[HIST_BULK_FREE_PAGES].max *= 32;
	}
	build(&x);
	c = metric(&x.r, "irqs_off_ns.total");
	REQUIRE(c);
	CHECK(c->moved && c->from == SPREAD_RUNS);
	CHECK(fabs(c->cost_ns - NS_MS) < 1);
	/* what the run paid leads, the largest percentage does not */
	REQUIRE(x.r.nr_moved >= 3);
	CHECK_EQ_STR(x.r.m[x.r.rank[0]].m.key, "irqs_off_ns.total");
	c = metric(&x.r, "bulk_free.max");
	REQUIRE(c && c->moved);
	CHECK(x.r.m[x.r.rank[x.r.nr_moved - 1]].m.cost == COST_SHAPE);
	explain_paragraph(&x.r, words, sizeof(words));
	explain_name(metric(&x.r, "irqs_off_ns.total"), name, sizeof(name));
	CHECK(strstr(words, name));
	CHECK(strstr(words, "+1.00 ms"));
	CHECK(strstr(words, "B paid more than A in"));
	/* a figure that did not move is not in it */
	explain_name(metric(&x.r, "refill.pages"), name, sizeof(name));
	CHECK(!strstr(words, name));
	CHECK(!strstr(words, "refills"));
	CHECK(!strstr(words, "nothing moved"));
	drop(&x);
}

/* runs that scatter by 2 ms: a 1 ms change is inside, no change */
static void test_change_inside_spread_is_none(void)
{
	static struct sides x;
	const struct cmp_metric *c;
	char words[EXPLAIN_LEN];
	int i;

	make(&x, RUNS);
	for (i = 0; i < RUNS; i++) {
		bump(&x.a[i], CNT_IRQS_OFF_NS, 2 * NS_MS * i);
		bump(&x.b[i], CNT_IRQS_OFF_NS, 2 * NS_MS * (RUNS - 1 - i));
		bump(&x.b[i], CNT_IRQS_OFF_NS, NS_MS / 2);
	}
	build(&x);
	c = metric(&x.r, "irqs_off_ns.total");
	REQUIRE(c);
	CHECK(c->b > c->a);
	CHECK(!c->moved);
	explain_paragraph(&x.r, words, sizeof(words));
	CHECK(strstr(words, "nothing moved"));
	drop(&x);
}

/* one run a side: totals weighed against their intervals, tails not */
static void test_one_run_a_side(void)
{
	static struct sides x;
	const struct cmp_metric *c;
	char words[EXPLAIN_LEN];

	make(&x, 1);
	bump(&x.b[0], CNT_IRQS_OFF_NS, 1000 * NS_MS);
	x.b[0].total.hist[HIST_BULK_FREE_PAGES].max *= 4;
	build(&x);
	c = metric(&x.r, "irqs_off_ns.total");
	REQUIRE(c);
	CHECK(c->from == SPREAD_INTERVALS && c->moved);
	c = metric(&x.r, "bulk_free.max");
	REQUIRE(c);
	CHECK(c->from == SPREAD_UNKNOWN && !c->moved);
	explain_paragraph(&x.r, words, sizeof(words));
	CHECK(strstr(words, "from the intervals"));
	CHECK(strstr(words, "no spread to weigh"));
	drop(&x);
}

/* every counter half again as large in B: each moved figure is named */
static void test_every_moved_figure_named(void)
{
	static struct sides x;
	char words[EXPLAIN_LEN], name[EXPLAIN_LEN];
	int i, k, all[REC_MAX_METRICS], n;

	make(&x, RUNS);
	for (i = 0; i < RUNS; i++)
		for (k = 0; k < NR_PCPTOP_COUNTERS; k++)
			bump(&x.b[i], k,
			     0.5 * (double)x.a[i].total.cnt[k] + 64);
	build(&x);
	n = explain_leading(&x.r, all, REC_MAX_METRICS);
	/* more than get a sentence: the rest are named too */
	CHECK(n > 3 * EXPLAIN_PER_COST);
	explain_paragraph(&x.r, words, sizeof(words));
	CHECK(strstr(words, "Also moved: "));
	for (i = 0; i < n; i++) {
		explain_name(&x.r.m[all[i]], name, sizeof(name));
		if (!strstr(words, name))
			fprintf(stderr, "  not named: %s (%s)\n", name,
				x.r.m[all[i]].m.key);
		CHECK(strstr(words, name));
	}
	CHECK(strlen(words) + 1 < sizeof(words));
	drop(&x);
}

/* B holds interrupts off longer but takes zone->lock for fewer pages */
static void test_tradeoff_both_ways(void)
{
	static struct sides x;
	char words[EXPLAIN_LEN], more[EXPLAIN_LEN], less[EXPLAIN_LEN];
	char want[2 * EXPLAIN_LEN];
	int i;

	make(&x, RUNS);
	for (i = 0; i < RUNS; i++) {
		bump(&x.b[i], CNT_IRQS_OFF_NS, NS_MS);
		bump(&x.a[i], CNT_BULK_FREE_PAGES, 4096);
	}
	build(&x);
	explain_paragraph(&x.r, words, sizeof(words));
	explain_name(metric(&x.r, "irqs_off_ns.total"), more, sizeof(more));
	explain_name(metric(&x.r, "bulk_free.pages"), less, sizeof(less));
	snprintf(want, sizeof(want), "B paid more than A in: %s", more);
	CHECK(strstr(words, want));
	snprintf(want, sizeof(want), "B paid less than A in: %s", less);
	CHECK(strstr(words, want));
	CHECK(!strstr(words, "every cost that moved"));
	drop(&x);
}

const struct unit_test compare_tests[] = {
	TEST(test_alike_nothing_moved),
	TEST(test_change_beyond_spread_is_named_first),
	TEST(test_change_inside_spread_is_none),
	TEST(test_one_run_a_side),
	TEST(test_every_moved_figure_named),
	TEST(test_tradeoff_both_ways),
	TEST_END,
};
