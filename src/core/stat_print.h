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

/* the lines above the first interval: scale, kernel, probe modes */
void stat_print_header(FILE *out, const struct facts *fa);
void stat_print_text(FILE *out, const struct facts *fa, const struct figures *f,
		     double secs, bool hists);
void stat_print_json(FILE *out, const struct facts *fa, const struct figures *f,
		     double secs);

/* "  (trims 3, frees 2)" and the newline: a figure's extras in this run */
/* ", N calls" after a time figure with an event counter */
void fig_print_events(FILE *out, const struct fig_desc *d,
		      const struct figures *f);
/* the line of a FIG_CHECK or FIG_COUNT figure, without its newline */
void fig_print_count(FILE *out, const struct fig_desc *d,
		     const struct figures *f);
void fig_print_extras(FILE *out, const struct facts *fa,
		      const struct fig_desc *d, const struct figures *f);

/*
 * What the probes proved of the scale this interval (HIST_SCALE_*) feeds
 * the one inference over the whole run.
 */
void stat_observe_scale(struct facts *fa, const struct figures *f);

#endif /* PCPTOP_STAT_PRINT_H */
