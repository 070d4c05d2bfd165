// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sampled figures' path: /proc/vmstat and zoneinfo's zone lines
 * parsed, zones summed by name over nodes, counters turned into an
 * interval's increase, and the cells a run adds up.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "procfs.h"
#include "sampler.h"
#include "synth.h"
#include "unit.h"

static struct proc_field f_normal0[] = { { "managed", 1000 } };
static struct proc_field f_normal1[] = { { "managed", 3000 } };

static void test_zones_add_up_by_name(void)
{
	struct pcp_cpu n0[] = { { 0, 10, 100, 16, 50, 200 },
				{ 1, 20, 100, 16, 50, 200 } };
	struct pcp_cpu n1[] = { { 2, 30, 100, 16, PCP_FIELD_ABSENT, 200 } };
	struct zone_pcp zones[] = {
		{ 0, "Normal", 2, n0, { 1, 1, f_normal0 } },
		{ 0, "Movable", 0, NULL, { 0, 0, NULL } }, /* no pagesets */
		{ 1, "Normal", 1, n1, { 1, 1, f_normal1 } },
	};
	struct zoneinfo zi = { 3, zones };
	int64_t v[SAMPLE_ZONES];
	bool have[SAMPLE_ZONES];

	sample_zone_values(&zi, "pcp.count", v, have);
	/* Normal is node 0's first zone: index 0, both nodes summed */
	CHECK(have[0] && !have[1]);
	CHECK_EQ_INT(v[0], 60);
	sample_zone_values(&zi, "managed", v, have);
	CHECK(have[0]);
	CHECK_EQ_INT(v[0], 4000);
	/* one CPU without high_min: the zone has none */
	sample_zone_values(&zi, "pcp.high_min", v, have);
	CHECK(!have[0]);
	sample_zone_values(&zi, "pcp.no_such", v, have);
	CHECK(!have[0]);
}

/* the procfs fuzzer's find: two zones of LONG_MAX managed pages */
static void test_sum_past_int64_is_absent(void)
{
	struct proc_field big[] = { { "managed", LLONG_MAX } };
	struct proc_field small[] = { { "managed", 3840 } };
	struct zone_pcp zones[] = {
		{ 0, "DMA", 0, NULL, { 1, 1, big } },
		{ 1, "DMA", 0, NULL, { 1, 1, small } },
	};
	struct zoneinfo zi = { 2, zones };
	int64_t v[SAMPLE_ZONES];
	bool have[SAMPLE_ZONES];

	sample_zone_values(&zi, "managed", v, have);
	CHECK(!have[0]);
}

static void test_vmstat_and_zone_lines(void)
{
	struct proc_fields pf;
	struct zoneinfo zi;
	char name[PROC_FIELD_LEN];
	int64_t v;
	int i;

	REQUIRE(vmstat_parse(fixture("vmstat-6.18"), &pf) == 0);
	CHECK(pf.n > 100);
	CHECK(proc_field_find(&pf, "compact_stall", &v) == 0 && v == 10);
	CHECK(proc_field_find(&pf, "nr_free_pages", &v) == 0 && v > 0);
	CHECK(proc_field_find(&pf, "no_such_field", &v) == -ENOENT);
	proc_fields_free(&pf);
	CHECK(vmstat_parse(fixture("no-such-file"), &pf) == -ENOENT);

	CHECK(name_value("pages free     3840", name, sizeof(name), &v) == 0);
	CHECK_EQ_STR(name, "pages_free");
	CHECK_EQ_INT(v, 3840);
	CHECK(name_value("protection: (0, 3018)", name, sizeof(name), &v) < 0);
	CHECK(name_value("12", name, sizeof(name), &v) < 0);
	CHECK(name_value("min 4x", name, sizeof(name), &v) < 0);

	REQUIRE(zoneinfo_parse(fixture("zoneinfo-6.18"), &zi) == 0);
	for (i = 0; i < zi.nr_zones; i++)
		if (!strcmp(zi.zones[i].name, "Normal"))
			break;
	REQUIRE(i < zi.nr_zones);
	CHECK(proc_field_find(&zi.zones[i].fields, "min", &v) == 0 && v > 0);
	CHECK(proc_field_find(&zi.zones[i].fields, "pages_free", &v) == 0);
	CHECK(proc_field_find(&zi.zones[i].fields, "managed", &v) == 0);
	/* the node's own stats, before "pages free", are not the zone's */
	CHECK(proc_field_find(&zi.zones[0].fields, "nr_inactive_anon", &v) ==
	      -ENOENT);
	zoneinfo_free(&zi);
}

/* a run's cells: counters add their increases, gauges keep last and peak */
static void test_samples_add(void)
{
	const struct fig_desc *pages = fig_find("pcp_pages");
	const struct fig_desc *miss = fig_find("recursion_misses");
	struct samples a, b;
	const struct sample_cell *c;

	REQUIRE(pages && miss);
	REQUIRE(!samples_alloc(&a) && !samples_alloc(&b));
	samples_set(&a, pages, 2, 100);
	samples_set(&a, pages, 0, 5);
	samples_set(&a, miss, -1, 3);
	samples_sum_zones(&a);
	samples_set(&b, pages, 2, 40);
	samples_set(&b, miss, -1, 4);
	samples_sum_zones(&b);
	c = samples_cell(&a, pages, 0);
	CHECK_EQ_INT(sample_value(pages, c), 105);
	samples_add(&a, &b);
	c = samples_cell(&a, pages, 0);
	CHECK_EQ_INT(sample_value(pages, c), 40);
	CHECK_EQ_INT(c->peak, 105);
	CHECK_EQ_INT((long long)sample_mean(c), 72);
	c = samples_cell(&a, miss, 0);
	CHECK_EQ_INT(sample_value(miss, c), 7);
	/* a zone never read stays absent, and out of the sum */
	CHECK(!sample_present(samples_cell(&a, pages, 2)));
	/* setting a machine-wide cell on a per-zone figure does nothing */
	samples_set(&b, pages, -1, 9);
	CHECK_EQ_INT(sample_value(pages, samples_cell(&b, pages, 0)), 40);
	samples_free(&a);
	samples_free(&b);
}

static void test_buddyinfo(void)
{
	struct buddyinfo bi;
	int i;

	REQUIRE(buddyinfo_parse(fixture("buddyinfo-6.18"), &bi) == 0);
	REQUIRE(bi.nr_zones == 3);
	CHECK_EQ_STR(bi.zones[2].name, "Normal");
	CHECK_EQ_INT(bi.zones[2].node, 0);
	CHECK_EQ_INT(bi.zones[2].nr_orders, 11);
	for (i = 0; i < bi.nr_zones; i++)
		CHECK(bi.zones[i].free[0] >= 0);
	buddyinfo_free(&bi);
	/* zoneinfo is no buddyinfo */
	CHECK(buddyinfo_parse(fixture("zoneinfo-6.18"), &bi) == -EINVAL);
}

/* orders sum into their zone, zones into cell 0; out-of-range is dropped */
static void test_orders_sum_up(void)
{
	const struct fig_desc *b = fig_find("buddy_free");
	struct samples s;

	REQUIRE(b && b->sample.scope == SCOPE_ZONE_ORDER);
	REQUIRE(!samples_alloc(&s));
	samples_set_order(&s, b, 2, 0, 100);
	samples_set_order(&s, b, 2, 10, 5);
	samples_set_order(&s, b, 1, 3, 7);
	samples_set_order(&s, b, 1, SAMPLE_ORDERS, 1000);
	samples_set(&s, b, 2, 999); /* a zone's cell is a sum, not read */
	samples_sum_zones(&s);
	CHECK_EQ_INT(sample_value(b, samples_cell(&s, b, sample_zone_cell(2))),
		     105);
	CHECK_EQ_INT(sample_value(b, samples_cell(&s, b, sample_zone_cell(1))),
		     7);
	CHECK_EQ_INT(sample_value(b, samples_cell(&s, b, 0)), 112);
	CHECK(!sample_present(samples_cell(&s, b, sample_order_cell(2, 1))));
	samples_free(&s);
}

const struct unit_test sampler_tests[] = {
	TEST(test_zones_add_up_by_name),
	TEST(test_sum_past_int64_is_absent),
	TEST(test_vmstat_and_zone_lines),
	TEST(test_samples_add),
	TEST(test_buddyinfo),
	TEST(test_orders_sum_up),
	TEST_END,
};
