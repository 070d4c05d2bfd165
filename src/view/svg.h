/* SPDX-License-Identifier: GPL-2.0-only */
/* Inline SVG plots and HTML text escaping for the report pages. */
#ifndef PCPTOP_SVG_H
#define PCPTOP_SVG_H

#include <stdbool.h>
#include <stdio.h>
#include "figures.h"

/* <, >, & and " as entities: text and attribute values alike */
void html_esc(FILE *f, const char *s);

/*
 * A log2 histogram as a bar chart, n (1 or 2) recordings side by side in
 * each slot; names label them in the legend and tooltips. The <svg> has
 * aria-label="title" so tests and screen readers find it.
 */
void svg_bars(FILE *f, const char *title, const char *unit,
	      const struct figure_hist *const *hs, const char *const *names,
	      int n);

/* lines (or bars) a chart draws: one colour each; more are left out */
#define SVG_MAX_LINES 8

struct svg_series {
	const char *name;
	int n;
	double *x; /* seconds since the start */
	double *y;
};

/*
 * Lines over time. With dashed_second_half the series are two
 * recordings' same quantities, A's first: B's lines are dashed and share
 * A's colours.
 */
void svg_lines(FILE *f, const char *title, const char *ylabel,
	       const struct svg_series *sr, int n, bool dashed_second_half);
/* the same against another x than time: xlabel says what it is */
void svg_lines_x(FILE *f, const char *title, const char *xlabel,
		 const char *ylabel, const struct svg_series *sr, int n,
		 bool dashed_second_half);

#endif /* PCPTOP_SVG_H */
