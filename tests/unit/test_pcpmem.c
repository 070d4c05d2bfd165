// SPDX-License-Identifier: GPL-2.0-only
/* pcpmem.c: the memory parked in pcp lists, per zone name over nodes */
#include <limits.h>
#include "pcpmem.h"
#include "unit.h"

static void test_zones_add_up_by_name(void)
{
	struct pcp_cpu n0[] = { { 0, 10, 100, 16, 50, 200 },
				{ 1, 20, 100, 16, 50, 200 } };
	struct pcp_cpu n1[] = { { 2, 30, 100, 16, PCP_FIELD_ABSENT, 200 } };
	struct zone_pcp zones[] = {
		{ 0, "Normal", 1000, 2, n0 },
		{ 1, "Normal", 3000, 1, n1 },
		{ 0, "Movable", 0, 0, NULL }, /* no pagesets: left out */
	};
	struct zoneinfo zi = { 3, zones };
	struct pcpmem m;

	pcpmem_from_zoneinfo(&zi, &m);
	CHECK_EQ_INT(m.nr_zones, 1);
	CHECK_EQ_INT(m.z[0].nr_cpus, 3);
	CHECK_EQ_U64(m.z[0].count, 60);
	CHECK_EQ_U64(m.z[0].managed, 4000);
	/* one CPU without high_min: the zone's sum is unknown */
	CHECK(m.z[0].high_min == PCPMEM_ABSENT);
	CHECK_EQ_U64(pcpmem_pages(&m), 60);
	CHECK_EQ_U64(pcpmem_high(&m), 300);
}

/* the procfs fuzzer's find: two zones of LONG_MAX managed pages */
static void test_managed_sum_past_int64_is_unknown(void)
{
	struct pcp_cpu c[] = { { 0, 1, 2, 3, 4, 5 } };
	struct zone_pcp zones[] = {
		{ 0, "DMA", LONG_MAX, 1, c },
		{ 1, "DMA", 3840, 1, c },
	};
	struct zoneinfo zi = { 2, zones };
	struct pcpmem m;

	pcpmem_from_zoneinfo(&zi, &m);
	CHECK(m.z[0].managed == PCPMEM_ABSENT);
	CHECK(pcpmem_pct(&m.z[0]) < 0);
}

const struct unit_test pcpmem_tests[] = {
	TEST(test_zones_add_up_by_name),
	TEST(test_managed_sum_past_int64_is_unknown),
	TEST_END,
};
