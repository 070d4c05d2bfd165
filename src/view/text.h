/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The text form of every figure, shared by the commands that print text:
 * stat prints one interval and report a whole recording through the same
 * rows, so a figure reads the same in both.
 */
#ifndef PCPTOP_TEXT_H
#define PCPTOP_TEXT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "facts.h"
#include "figures.h"
#include "samples.h"

/* what a block of rows covers: one interval, or a whole run */
enum text_span {
	TEXT_INTERVAL,
	TEXT_RUN, /* wider columns, and time figures' totals */
};

/*
 * The figure table as text: a header, the batch figures' rows, then one
 * line for each other figure this run measured, over secs seconds.
 */
void text_figures(FILE *out, const struct facts *fa, const struct figures *f,
		  double secs, enum text_span span);

/*
 * What batching costs beside the figure table: allocation and free
 * latency in the shape of reference 003's table (--latency), then refills
 * by migratetype. Lines start with ind.
 */
void text_latency(FILE *out, const struct facts *fa, const struct figures *f,
		  const char *ind);
void text_by_mt(FILE *out, const struct facts *fa, const struct figures *f,
		const char *ind);

/*
 * The sampled figures this run read, a line each: a counter's increase
 * and its rate over secs, a gauge's level; over a run (TEXT_RUN) a
 * counter's total and a gauge's last, peak and mean level. Per-zone
 * figures add their zones.
 */
void text_sampled(FILE *out, const struct facts *fa, const struct samples *s,
		  double secs, enum text_span span);

/*
 * runqlat-style text: "lo -> hi : count |****|" for the non-empty range,
 * with a header naming the unit. Prints nothing for an empty histogram.
 */
void text_log2_hist(FILE *f, const char *unit, const uint64_t *slots, int nr);
/* every histogram with samples, titled, except the scale evidence */
void text_hists(FILE *out, const struct figures *f);

#endif /* PCPTOP_TEXT_H */
