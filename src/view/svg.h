/* SPDX-License-Identifier: GPL-2.0-only */
/* Inline SVG plots and HTML text escaping for the report pages. */
#ifndef PCPTOP_SVG_H
#define PCPTOP_SVG_H

#include <stdbool.h>
#include <stdio.h>
#include "figures.h"

/*
 * The pages' style for the charts: colours only. Fonts and sizes are
 * the charts' own attributes, which their layout measured text by.
 */
#define SVG_CSS                                         \
	"svg{background:#fff;border:1px solid #ddd}"    \
	"svg text{fill:#333}.grid-line{stroke:#e6e6e6}" \
	".axis{stroke:#888}"

/* the charts' font sizes in px: their text and their titles (bold) */
#define SVG_FONT_PX 12
#define SVG_TITLE_PX 14

/* <, >, & and " as entities: text and attribute values alike */
void html_esc(FILE *f, const char *s);

/*
 * The width in px that s (UTF-8) takes at a font size of px in the
 * sans-serif font, bold or not: at least what Debian's sans-serif (DejaVu
 * Sans) takes, so that text laid out by it does not run into other text.
 */
double svg_text_width(const char *s, double px, bool bold);

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
