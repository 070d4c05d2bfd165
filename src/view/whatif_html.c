// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop whatif --html: one self-contained page. The knee first: the
 * interrupts-off p99 and largest stretch, and zone->lock acquisitions,
 * against the scale, with the recording's own value as a point at its
 * scale; then the pages parked in the pcp lists over time, and the whole
 * table. Inline SVG (svg.c), nothing fetched.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "explain.h"
#include "svg.h"
#include "whatif_view.h"

#define LINE_LEN 1024
/* parked-pages lines: the recording and at most three scales (svg.c) */
#define PARKED_SCALES 3

static const char css[] =
	"body{font-family:sans-serif;margin:1em 2em;color:#222}"
	"table{border-collapse:collapse;font-size:90%}"
	"td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
	"td:first-child,th:first-child{text-align:left}"
	"th.rec{background:#eef}p.note{color:#555;font-size:90%}" SVG_CSS;

/* a row across the scales; the measured value as a one-point series */
static void knee_series(const struct whatif *w, const char *key,
			const char *name, struct svg_series *sr, double *x,
			double *y)
{
	const struct whatif_row *row = whatif_row_of(key);
	int i;

	sr->name = name;
	sr->x = x;
	sr->y = y;
	sr->n = 0;
	for (i = 0; row && i < w->nr_cols; i++)
		if (whatif_value(&w->cols[i], row, &y[sr->n]))
			x[sr->n++] = w->cols[i].scale;
}

static void measured_point(const struct whatif *w, const char *key,
			   const char *name, struct svg_series *sr, double *x,
			   double *y)
{
	const struct whatif_row *row = whatif_row_of(key);

	sr->name = name;
	sr->x = x;
	sr->y = y;
	sr->n = 0;
	if (row && w->have_measured && w->recorded_scale >= 0 &&
	    whatif_value(&w->measured, row, y)) {
		x[0] = w->recorded_scale;
		sr->n = 1;
	}
}

static void knee(FILE *f, const struct whatif *w)
{
	double x[4][WHATIF_MAX_COLS], y[4][WHATIF_MAX_COLS];
	struct svg_series sr[4];
	int n;

	knee_series(w, "irqs_off_ns.p99", "interrupts off, p99 (predicted)",
		    &sr[0], x[0], y[0]);
	knee_series(w, "irqs_off_ns.max", "interrupts off, max (predicted)",
		    &sr[1], x[1], y[1]);
	measured_point(w, "irqs_off_ns.p99", "p99, recorded", &sr[2], x[2],
		       y[2]);
	measured_point(w, "irqs_off_ns.max", "max, recorded", &sr[3], x[3],
		       y[3]);
	if (sr[0].n || sr[1].n)
		svg_lines_x(f,
			    "interrupts off for zone->lock against the scale",
			    "pcp batch scale", "ns", sr, 4, false);
	else
		fputs("<p class=\"note\">No interrupts-off chart: the recording did not time zone->lock, so there is no cost fit.</p>\n",
		      f);
	knee_series(w, "zone_lock.takes", "zone->lock acquisitions (predicted)",
		    &sr[0], x[0], y[0]);
	measured_point(w, "zone_lock.takes", "recorded", &sr[1], x[1], y[1]);
	n = sr[1].n ? 2 : 1;
	svg_lines_x(f, "zone->lock acquisitions against the scale",
		    "pcp batch scale", "bulk frees + refills", sr, n, false);
}

static void parked_line(const struct whatif *w, const struct whatif_col *c,
			const char *name, struct svg_series *sr, double *x,
			double *y)
{
	int b;

	sr->name = name;
	sr->x = x;
	sr->y = y;
	sr->n = WHATIF_SERIES_BINS;
	for (b = 0; b < WHATIF_SERIES_BINS; b++) {
		x[b] = (double)(b + 1) * (double)w->bin_ns / 1e9;
		y[b] = (double)c->x.parked[b];
	}
}

static void parked(FILE *f, const struct whatif *w)
{
	static char names[PARKED_SCALES][32];
	double x[PARKED_SCALES + 1][WHATIF_SERIES_BINS];
	double y[PARKED_SCALES + 1][WHATIF_SERIES_BINS];
	struct svg_series sr[PARKED_SCALES + 1];
	int pick[PARKED_SCALES], np = 0, n = 0, i;

	/* the first scale, the recorded one, the last */
	pick[np++] = 0;
	for (i = 1; i < w->nr_cols - 1 && np < PARKED_SCALES - 1; i++)
		if (w->cols[i].scale == w->recorded_scale)
			pick[np++] = i;
	if (w->nr_cols > 1)
		pick[np++] = w->nr_cols - 1;
	if (w->have_measured) {
		parked_line(w, &w->measured, "recorded (snapshots)", &sr[n],
			    x[n], y[n]);
		n++;
	}
	for (i = 0; i < np; i++) {
		snprintf(names[i], sizeof(names[i]), "scale %d",
			 w->cols[pick[i]].scale);
		parked_line(w, &w->cols[pick[i]], names[i], &sr[n], x[n], y[n]);
		n++;
	}
	svg_lines(f, "pages parked in the pcp lists", "pages", sr, n, false);
}

static void table(FILE *f, const struct whatif *w)
{
	char buf[64];
	double v;
	int r, i;

	fputs("<table>\n<tr><th>figure</th>", f);
	if (w->have_measured)
		fputs("<th class=\"rec\">recorded</th>", f);
	for (i = 0; i < w->nr_cols; i++)
		fprintf(f, "<th%s>scale %d</th>",
			w->cols[i].scale == w->recorded_scale ?
				" class=\"rec\"" :
				"",
			w->cols[i].scale);
	fputs("</tr>\n", f);
	for (r = 0; r < whatif_nr_rows; r++) {
		const struct whatif_row *row = &whatif_rows[r];

		fputs("<tr><td>", f);
		html_esc(f, row->title);
		fputs("</td>", f);
		for (i = w->have_measured ? -1 : 0; i < w->nr_cols; i++) {
			const struct whatif_col *c = i < 0 ? &w->measured :
							     &w->cols[i];

			if (!whatif_value(c, row, &v))
				v = NAN;
			explain_value(buf, sizeof(buf), v, row->unit,
				      (row->flags & WR_BOUND) && !isnan(v));
			fputs("<td>", f);
			html_esc(f, buf);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void note(FILE *f, const char *what, const char *line)
{
	fputs("<p class=\"note\">", f);
	html_esc(f, what);
	html_esc(f, line);
	fputs("</p>\n", f);
}

/* which scale: the text's lines, under the knee */
static void picks(FILE *f, const struct whatif *w)
{
	struct whatif_pick p[NR_WHATIF_PICKS];
	char line[LINE_LEN];
	int k;

	whatif_picks(w, p);
	fputs("<h3>Which scale</h3>\n<ul class=\"picks\">\n", f);
	for (k = 0; k < NR_WHATIF_PICKS; k++) {
		whatif_pick_line(line, sizeof(line), w, &p[k]);
		fputs("<li>", f);
		html_esc(f, line);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

void whatif_html(FILE *f, const struct whatif *w)
{
	char line[LINE_LEN];

	fprintf(f,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>pcptop whatif</title>\n<style>%s</style>\n</head>\n<body>\n<h1>pcptop whatif: ",
		css);
	html_esc(f, w->path);
	fprintf(f, ", rules %s</h1>\n", pcpmodel_rules_name(w->rules.base));
	whatif_window_line(line, sizeof(line), w);
	note(f, "Trace: ", line);
	whatif_below_line(line, sizeof(line), w);
	note(f, "Below high: ", line);
	whatif_fit_line(line, sizeof(line), w, &w->hold);
	note(f, "Lock hold priced ", line);
	whatif_fit_line(line, sizeof(line), w, &w->irqs);
	note(f, "Interrupts off priced ", line);
	fputs("<h2>The knee</h2>\n", f);
	knee(f, w);
	picks(f, w);
	fputs("<h2>Pages parked in the pcp lists</h2>\n", f);
	parked(f, w);
	fputs("<h2>Every figure</h2>\n", f);
	table(f, w);
	fputs("</body>\n</html>\n", f);
}
