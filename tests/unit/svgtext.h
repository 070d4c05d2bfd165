/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A page's charts read back from their SVG alone: each <text> as the box
 * it takes, from its x, y, font-size, font-weight, text-anchor and
 * rotation and a width by character (svg_text_width(), the charts' own
 * estimate, at least what the font takes). The checks: no box over
 * another, none out of its chart.
 */
#ifndef PCPTOP_SVGTEXT_H
#define PCPTOP_SVGTEXT_H

#include <stdbool.h>

#define SVGT_STR_LEN 160
/* more than any chart draws: more fail the check */
#define SVGT_MAX_TEXTS 256

struct svgt_text {
	char s[SVGT_STR_LEN]; /* entities decoded */
	double x, y; /* the anchor and the baseline, as written */
	double x0, y0, x1, y1; /* the box, rotation applied */
	bool unread; /* a transform or number this reader does not know */
};

struct svgt_chart {
	char label[SVGT_STR_LEN]; /* aria-label */
	double w, h;
	int n;
	bool too_many;
	struct svgt_text t[SVGT_MAX_TEXTS];
};

/*
 * The first <svg> of page at or after from, into c: returns where it
 * ends, NULL when there is none. page is the whole page, whose CSS wins
 * over the attributes, as in a browser.
 */
const char *svgt_next(const char *page, const char *from, struct svgt_chart *c);

/* each fault of c as a unit failure naming what and the chart: how many */
int svgt_faults(const struct svgt_chart *c, const char *what);

/* every chart of page checked: the faults; *charts how many it found */
int svgt_check_page(const char *page, const char *what, int *charts);

#endif /* PCPTOP_SVGTEXT_H */
