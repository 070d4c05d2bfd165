/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One scale's prediction written as a recording (docs/FORMAT.md), so
 * that pcptop diff compares it with a real run figure by figure through
 * the same metrics (metrics.c, compare.c), and report reads it. The
 * header is the traced recording's with the predicted scale, a note that
 * says it is a prediction, and only the predicted counters and
 * histograms kept: the rest are named as not kept, so every reader
 * leaves those figures out instead of reading zeros.
 */
#ifndef PCPTOP_WHATIF_SAVE_H
#define PCPTOP_WHATIF_SAVE_H

#include <stddef.h>

#include "whatif.h"

/*
 * 0, or -errno with msg saying what failed on what. s is the traced
 * recording's summary: its header is borrowed and given back unchanged.
 */
int whatif_save(const char *out, const struct whatif *w,
		const struct whatif_col *col, struct rec_summary *s, char *msg,
		size_t len);

#endif /* PCPTOP_WHATIF_SAVE_H */
