/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One interval as `pcptop stat` prints it: a table and histograms as
 * text, or one JSON object a line. Every row and key comes from figtab.
 */
#ifndef PCPTOP_STAT_PRINT_H
#define PCPTOP_STAT_PRINT_H

#include <stdbool.h>
#include <stdio.h>
#include "facts.h"
#include "figures.h"
#include "samples.h"

/* the lines above the first interval: scale, kernel, probe modes */
void stat_print_header(FILE *out, const struct facts *fa);
void stat_print_text(FILE *out, const struct facts *fa, const struct figures *f,
		     const struct samples *s, double secs, bool hists);
void stat_print_json(FILE *out, const struct facts *fa, const struct figures *f,
		     const struct samples *s, double secs);

#endif /* PCPTOP_STAT_PRINT_H */
