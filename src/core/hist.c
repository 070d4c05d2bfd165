// SPDX-License-Identifier: GPL-2.0-only
/*
 * log2 histogram math on the BPF side's slots; view/text.c prints them as
 * libbpf-tools' print_log2_hist() does.
 */
#include <inttypes.h>
#include <linux/types.h>
#include <stdio.h>

#include "hist.h"
#include "pcptop.h"

#define U64_BITS 64
#define PCT_MAX 100.0

uint64_t hist_slot_lo(int slot)
{
	if (slot <= 0)
		return 0;
	if (slot >= U64_BITS)
		return UINT64_MAX;
	return UINT64_C(1) << slot;
}

uint64_t hist_slot_hi(int slot)
{
	if (slot < 0)
		return 0;
	if (slot + 1 >= U64_BITS)
		return UINT64_MAX;
	return (UINT64_C(1) << (slot + 1)) - 1;
}

/*
 * floor(log2(v)), 0 and 1 sharing slot 0; larger values than the last
 * slot holds land in it, as the BPF side clamps them.
 */
int hist_slot_of(uint64_t v)
{
	int slot = 0;

	while (v > 1) {
		v >>= 1;
		slot++;
	}
	return slot < PCPTOP_HIST_SLOTS ? slot : PCPTOP_HIST_SLOTS - 1;
}

uint64_t hist_total(const uint64_t *slots, int nr)
{
	uint64_t total = 0;
	int i;

	for (i = 0; i < nr; i++)
		total += slots[i];
	return total;
}

int hist_last_slot(const uint64_t *slots, int nr)
{
	int i;

	for (i = nr - 1; i >= 0; i--)
		if (slots[i])
			return i;
	return -1;
}

uint64_t hist_percentile(const uint64_t *slots, int nr, double p)
{
	uint64_t total = hist_total(slots, nr), rank, seen = 0;
	double want;
	int i;

	if (!total)
		return 0;
	if (!(p > 0)) /* also NaN */
		p = 0;
	if (p > PCT_MAX)
		p = PCT_MAX;
	/* the rank of the p-th percentile, rounded up, at least the first */
	want = (double)total * p / PCT_MAX;
	rank = (uint64_t)want;
	if ((double)rank < want)
		rank++;
	if (!rank)
		rank = 1;
	for (i = 0; i < nr; i++) {
		seen += slots[i];
		if (seen >= rank)
			return hist_slot_hi(i);
	}
	return hist_slot_hi(nr - 1);
}

void hist_add(uint64_t *dst, const uint64_t *src, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		dst[i] += src[i];
}

/*
 * A slot that went down was reset between the readings (map cleared,
 * program reloaded): what it holds now is all that happened since, where
 * a plain subtraction would wrap to ~2^64.
 */
void hist_sub(uint64_t *dst, const uint64_t *a, const uint64_t *b, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		dst[i] = a[i] >= b[i] ? a[i] - b[i] : a[i];
}
