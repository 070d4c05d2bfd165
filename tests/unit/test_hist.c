// SPDX-License-Identifier: GPL-2.0-only
/* hist.c: slot bounds, percentiles and the runqlat-style text */
#include <linux/types.h>
#include <stdio.h>
#include <stdlib.h>

#include "hist.h"
#include "text.h"
#include "pcptop.h"
#include "unit.h"
#include "../../bpf/log2.bpf.h"

#define NR_SLOTS PCPTOP_HIST_SLOTS

/* the BPF side's branch-free slot (bpf/log2.bpf.h) against hist_slot_of */
static int bpf_slot(uint64_t v)
{
	uint32_t s = log2_slot(v);

	return s < NR_SLOTS ? (int)s : NR_SLOTS - 1;
}

static void test_bpf_slot(void)
{
	uint64_t x = 88172645463325252ULL, v;
	int k, d, i, bad = 0;

	for (k = 0; k < 64; k++)
		for (d = -2; d <= 2; d++) {
			v = (UINT64_C(1) << k) + (uint64_t)(int64_t)d;
			bad += bpf_slot(v) != hist_slot_of(v);
			CHECK_EQ_INT(log2_slot(UINT64_C(1) << k), k);
		}
	CHECK_EQ_INT(log2_slot(0), 0);
	CHECK_EQ_INT(log2_slot(UINT64_MAX), 63);
	/* xorshift64, values of every magnitude */
	for (i = 0; i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = x >> (x & 63);
		bad += bpf_slot(v) != hist_slot_of(v);
	}
	CHECK_EQ_INT(bad, 0);
}

static void test_slot_of(void)
{
	CHECK_EQ_INT(hist_slot_of(0), 0);
	CHECK_EQ_INT(hist_slot_of(1), 0);
	CHECK_EQ_INT(hist_slot_of(2), 1);
	CHECK_EQ_INT(hist_slot_of(3), 1);
	CHECK_EQ_INT(hist_slot_of(4), 2);
	CHECK_EQ_INT(hist_slot_of(63), 5);
	CHECK_EQ_INT(hist_slot_of(64), 6);
	/* batch 63 << 5: a full free_high flush at the default scale */
	CHECK_EQ_INT(hist_slot_of(2016), 10);
	CHECK_EQ_INT(hist_slot_of(2047), 10);
	CHECK_EQ_INT(hist_slot_of(2048), 11);
	CHECK_EQ_INT(hist_slot_of(1ULL << (NR_SLOTS - 1)), NR_SLOTS - 1);
	/* past the last slot, clamped there as the BPF side does */
	CHECK_EQ_INT(hist_slot_of(1ULL << NR_SLOTS), NR_SLOTS - 1);
	CHECK_EQ_INT(hist_slot_of(UINT64_MAX), NR_SLOTS - 1);
	test_bpf_slot();
}

static void test_slot_bounds(void)
{
	int i;

	CHECK_EQ_U64(hist_slot_lo(0), 0);
	CHECK_EQ_U64(hist_slot_hi(0), 1);
	CHECK_EQ_U64(hist_slot_lo(1), 2);
	CHECK_EQ_U64(hist_slot_hi(1), 3);
	CHECK_EQ_U64(hist_slot_lo(10), 1024);
	CHECK_EQ_U64(hist_slot_hi(10), 2047);
	CHECK_EQ_U64(hist_slot_hi(63), UINT64_MAX);
	for (i = 0; i < NR_SLOTS; i++) {
		CHECK_EQ_INT(hist_slot_of(hist_slot_lo(i)), i);
		CHECK_EQ_INT(hist_slot_of(hist_slot_hi(i)), i);
		if (i)
			CHECK_EQ_U64(hist_slot_lo(i), hist_slot_hi(i - 1) + 1);
	}
}

static void test_total_last(void)
{
	uint64_t slots[NR_SLOTS] = { 0 };

	CHECK_EQ_U64(hist_total(slots, NR_SLOTS), 0);
	CHECK_EQ_INT(hist_last_slot(slots, NR_SLOTS), -1);
	slots[0] = 2;
	slots[5] = 90;
	slots[10] = 8;
	CHECK_EQ_U64(hist_total(slots, NR_SLOTS), 100);
	CHECK_EQ_INT(hist_last_slot(slots, NR_SLOTS), 10);
}

static void test_percentile(void)
{
	uint64_t slots[NR_SLOTS] = { 0 };

	CHECK_EQ_U64(hist_percentile(slots, NR_SLOTS, 50), 0);
	/* 2 in [0,1], 90 in [32,63], 8 in [1024,2047] */
	slots[0] = 2;
	slots[5] = 90;
	slots[10] = 8;
	CHECK_EQ_U64(hist_percentile(slots, NR_SLOTS, 1), 1);
	CHECK_EQ_U64(hist_percentile(slots, NR_SLOTS, 2), 1);
	CHECK_EQ_U64(hist_percentile(slots, NR_SLOTS, 2.5), 63);
	CHECK_EQ_U64(hist_percentile(slots, NR_SLOTS, 50), 63);
	CHECK_EQ_U64(hist_percentile(slots, NR_SLOTS, 92), 63);
	CHECK_EQ_U64(hist_percentile(slots, NR_SLOTS, 92.01), 2047);
	CHECK_EQ_U64(hist_percentile(slots, NR_SLOTS, 99), 2047);
	CHECK_EQ_U64(hist_percentile(slots, NR_SLOTS, 100), 2047);
	/* out of (0, 100]: the first and the last value */
	CHECK_EQ_U64(hist_percentile(slots, NR_SLOTS, 0), 1);
	CHECK_EQ_U64(hist_percentile(slots, NR_SLOTS, 150), 2047);
}

static void test_add_sub(void)
{
	uint64_t a[NR_SLOTS] = { 0 }, b[NR_SLOTS] = { 0 }, d[NR_SLOTS];

	a[3] = 10;
	a[4] = 7;
	b[3] = 4;
	b[4] = 9; /* went down: the map was reset in between */
	hist_sub(d, a, b, NR_SLOTS);
	CHECK_EQ_U64(d[3], 6);
	CHECK_EQ_U64(d[4], 7);
	CHECK_EQ_U64(d[0], 0);
	hist_add(d, a, NR_SLOTS);
	CHECK_EQ_U64(d[3], 16);
	CHECK_EQ_U64(d[4], 14);
	/* in place, as an interval loop uses it */
	hist_sub(a, a, b, NR_SLOTS);
	CHECK_EQ_U64(a[3], 6);
}

static void test_print(void)
{
	static const char want[] =
		"     pages               : count    distribution\n"
		"         0 -> 1          : 1        |**********                              |\n"
		"         2 -> 3          : 0        |                                        |\n"
		"         4 -> 7          : 4        |****************************************|\n"
		"         8 -> 15         : 2        |********************                    |\n";
	uint64_t slots[NR_SLOTS] = { 0 };
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&text, &len);
	REQUIRE(f);
	text_log2_hist(f, "pages", slots, NR_SLOTS);
	fflush(f);
	CHECK_EQ_INT(len, 0);
	slots[0] = 1;
	slots[2] = 4;
	slots[3] = 2;
	text_log2_hist(f, "pages", slots, NR_SLOTS);
	fclose(f);
	CHECK_EQ_STR(text, want);
	free(text);
}

const struct unit_test hist_tests[] = {
	TEST(test_slot_of),
	TEST(test_slot_bounds),
	TEST(test_total_last),
	TEST(test_percentile),
	TEST(test_add_sub),
	TEST(test_print),
	TEST_END,
};
