/* SPDX-License-Identifier: GPL-2.0-only */
/* log2 histogram math on the slots filled by the BPF side (bpf/pcptop.h) */
#ifndef PCPTOP_HIST_H
#define PCPTOP_HIST_H

#include <stdint.h>

/* bounds of slot i: slot 0 is [0, 1], slot i is [2^i, 2^(i+1) - 1] */
uint64_t hist_slot_lo(int slot);
uint64_t hist_slot_hi(int slot);
/* the slot a value falls in (the same rule as the BPF side) */
int hist_slot_of(uint64_t v);

uint64_t hist_total(const uint64_t *slots, int nr);
/* index of the highest non-empty slot, -1 when empty */
int hist_last_slot(const uint64_t *slots, int nr);

/*
 * Upper bound of the slot holding the p-th percentile (0 < p <= 100);
 * 0 for an empty histogram. Log2 slots only bound a percentile: the
 * returned figure is "at most".
 */
uint64_t hist_percentile(const uint64_t *slots, int nr, double p);

/* dst[i] += src[i]; dst[i] = a[i] - b[i] (wrapping counters stay sane) */
void hist_add(uint64_t *dst, const uint64_t *src, int nr);
void hist_sub(uint64_t *dst, const uint64_t *a, const uint64_t *b, int nr);

#endif /* PCPTOP_HIST_H */
