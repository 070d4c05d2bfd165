// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inline SVG plots for the HTML pages: log2 histograms as bar charts and
 * rates over time as line charts, drawn as plain text so the page needs
 * no script, no font and no network. Sizes are in CSS pixels.
 */
#include <math.h>
#include <stdio.h>
#include "hist.h"
#include "svg.h"

#define NUM_LEN 32

/* bar charts two to a row, the timeline across the page */
#define BAR_W 560
#define BAR_H 270
#define LINE_W 1140
#define LINE_H 320
#define PAD_L 70
#define PAD_R 20
#define PAD_T 34
#define PAD_B 52
#define Y_TICKS 5
#define BAR_FILL 0.8
/* more x labels than this and only every other one is written */
#define MAX_X_LABELS 16
/* a long run is averaged down to about one point per pixel */
#define MAX_LINE_POINTS 1100
#define KILO 1024.0

/* the first eight of matplotlib's tab10 */
static const char *const colors[SVG_MAX_LINES] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
	"#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
};

void html_esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

/* 1, 2 or 5 times a power of ten, at least v (loops: pcptop has no libm) */
static double nice_ceil(double v)
{
	double p = 1, m;

	if (!(v > 0))
		return 1;
	while (p * 10 <= v)
		p *= 10;
	while (p > v)
		p /= 10;
	m = v / p;
	if (m <= 1)
		return p;
	if (m <= 2)
		return 2 * p;
	if (m <= 5)
		return 5 * p;
	return 10 * p;
}

/* compact axis numbers: 950, 1.5k, 20M */
static void fmt_axis(char *buf, size_t len, double v)
{
	static const char *const sfx[] = { "", "k", "M", "G", "T" };
	int i = 0;

	while (fabs(v) >= 1000 && i < 4) {
		v /= 1000;
		i++;
	}
	if (v == (double)(long long)v)
		snprintf(buf, len, "%.0f%s", v, sfx[i]);
	else
		snprintf(buf, len, "%.1f%s", v, sfx[i]);
}

/* log2 slot bounds are powers of two: 1K = 1024, 1M = 2^20 */
static void fmt_pow2(char *buf, size_t len, uint64_t v)
{
	static const char *const sfx[] = { "", "K", "M", "G", "T" };
	int i = 0;

	while (v >= KILO && !(v % 1024) && i < 4) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%llu%s", (unsigned long long)v, sfx[i]);
}

static void svg_open(FILE *f, const char *title, int w, int h)
{
	fprintf(f, "<svg class=\"plot\" role=\"img\" aria-label=\"");
	html_esc(f, title);
	fprintf(f,
		"\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n<title>",
		w, h, w, h);
	html_esc(f, title);
	fprintf(f,
		"</title>\n<text class=\"title\" x=\"%d\" y=\"20\" text-anchor=\"middle\">",
		w / 2);
	html_esc(f, title);
	fputs("</text>\n", f);
}

/* horizontal grid lines and y labels from 0 to ymax */
static void y_axis(FILE *f, int w, int h, double ymax, const char *label)
{
	char num[NUM_LEN];
	double y;
	int i;

	for (i = 0; i <= Y_TICKS; i++) {
		y = h - PAD_B - (double)(h - PAD_T - PAD_B) * i / Y_TICKS;
		fprintf(f,
			"<line class=\"grid-line\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
			PAD_L, y, w - PAD_R, y);
		fmt_axis(num, sizeof(num), ymax * i / Y_TICKS);
		fprintf(f,
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
			PAD_L - 6, y + 4, num);
	}
	fprintf(f,
		"<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
		PAD_L, h - PAD_B, w - PAD_R, h - PAD_B);
	fprintf(f,
		"<text x=\"16\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 16 %d)\">",
		(h - PAD_B + PAD_T) / 2, (h - PAD_B + PAD_T) / 2);
	html_esc(f, label);
	fputs("</text>\n", f);
}

/*
 * Two recordings' lines share colours, one per quantity, B's dashed;
 * with dashed_second_half false every series gets its own colour.
 */
static const char *series_color(int k, int n, bool dashed_second_half)
{
	return colors[(dashed_second_half ? k % (n / 2) : k) % SVG_MAX_LINES];
}

static void legend(FILE *f, int w, const char *const *names, int n,
		   bool dashed_second_half)
{
	int i, x = w - PAD_R - 150 * n;

	for (i = 0; i < n; i++, x += 150) {
		bool dash = dashed_second_half && i >= n / 2;

		fprintf(f,
			"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"%s/>\n",
			x, PAD_T - 4, x + 18, PAD_T - 4,
			series_color(i, n, dashed_second_half),
			dash ? " stroke-dasharray=\"5,3\"" : "");
		fprintf(f, "<text x=\"%d\" y=\"%d\">", x + 22, PAD_T);
		html_esc(f, names[i]);
		fputs("</text>\n", f);
	}
}

/* a log2 histogram as bars, one colour per recording */
void svg_bars(FILE *f, const char *title, const char *unit,
	      const struct figure_hist *const *hs, const char *const *names,
	      int n)
{
	int first = PCPTOP_HIST_SLOTS, last = -1, i, k, nb;
	double ymax = 0, gw, bw, x, bh, plot_h = BAR_H - PAD_T - PAD_B;
	char lo[NUM_LEN], hi[NUM_LEN];

	for (k = 0; k < n; k++) {
		int l = hist_last_slot(hs[k]->slots, PCPTOP_HIST_SLOTS);

		for (i = 0; i <= l; i++) {
			if (hs[k]->slots[i] && i < first)
				first = i;
			if ((double)hs[k]->slots[i] > ymax)
				ymax = (double)hs[k]->slots[i];
		}
		if (l > last)
			last = l;
	}
	svg_open(f, title, BAR_W, BAR_H);
	if (last < 0) {
		y_axis(f, BAR_W, BAR_H, 1, "count");
		fprintf(f,
			"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">no samples</text>\n</svg>\n",
			BAR_W / 2, BAR_H / 2);
		return;
	}
	ymax = nice_ceil(ymax);
	y_axis(f, BAR_W, BAR_H, ymax, "count");
	if (n > 1)
		legend(f, BAR_W, names, n, false);
	nb = last - first + 1;
	gw = (double)(BAR_W - PAD_L - PAD_R) / nb;
	bw = gw * BAR_FILL / n;
	for (i = first; i <= last; i++) {
		for (k = 0; k < n; k++) {
			bh = plot_h * (double)hs[k]->slots[i] / ymax;
			x = PAD_L + gw * (i - first) + gw * (1 - BAR_FILL) / 2 +
			    bw * k;
			fmt_pow2(lo, sizeof(lo), hist_slot_lo(i));
			fmt_pow2(hi, sizeof(hi), hist_slot_hi(i) + 1);
			fprintf(f,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s: %s..%s %s: %llu</title></rect>\n",
				x, BAR_H - PAD_B - bh, bw, bh,
				colors[k % SVG_MAX_LINES], names[k], lo, hi,
				unit, (unsigned long long)hs[k]->slots[i]);
		}
		if (nb > MAX_X_LABELS && (i - first) % 2)
			continue;
		fmt_pow2(lo, sizeof(lo), hist_slot_lo(i));
		fprintf(f,
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			PAD_L + gw * (i - first + 0.5), BAR_H - PAD_B + 16, lo);
	}
	fprintf(f,
		"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s (bucket lower bound, log2)</text>\n</svg>\n",
		(BAR_W + PAD_L) / 2, BAR_H - 12, unit);
}

void svg_lines(FILE *f, const char *title, const char *ylabel,
	       const struct svg_series *sr, int n, bool dashed_second_half)
{
	svg_lines_x(f, title, "seconds since the start", ylabel, sr, n,
		    dashed_second_half);
}

void svg_lines_x(FILE *f, const char *title, const char *xlabel,
		 const char *ylabel, const struct svg_series *sr, int n,
		 bool dashed_second_half)
{
	const char *names[SVG_MAX_LINES];
	double xmax = 0, ymax = 0, pw = LINE_W - PAD_L - PAD_R;
	double ph = LINE_H - PAD_T - PAD_B;
	char num[NUM_LEN];
	int k, i, j, step;

	if (n > SVG_MAX_LINES)
		n = SVG_MAX_LINES;
	for (k = 0; k < n; k++) {
		names[k] = sr[k].name;
		for (i = 0; i < sr[k].n; i++) {
			if (sr[k].x[i] > xmax)
				xmax = sr[k].x[i];
			if (sr[k].y[i] > ymax)
				ymax = sr[k].y[i];
		}
	}
	xmax = nice_ceil(xmax);
	ymax = nice_ceil(ymax);
	svg_open(f, title, LINE_W, LINE_H);
	y_axis(f, LINE_W, LINE_H, ymax, ylabel);
	legend(f, LINE_W, names, n, dashed_second_half);
	for (i = 0; i <= Y_TICKS * 2; i++) {
		fmt_axis(num, sizeof(num), xmax * i / (Y_TICKS * 2));
		fprintf(f,
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			PAD_L + pw * i / (Y_TICKS * 2), LINE_H - PAD_B + 16,
			num);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
		(LINE_W + PAD_L) / 2, LINE_H - 12);
	html_esc(f, xlabel);
	fputs("</text>\n", f);
	for (k = 0; k < n; k++) {
		const struct svg_series *s = &sr[k];
		bool dash = dashed_second_half && k >= n / 2;

		if (!s->n)
			continue;
		step = (s->n + MAX_LINE_POINTS - 1) / MAX_LINE_POINTS;
		fprintf(f,
			"<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"%s points=\"",
			series_color(k, n, dashed_second_half),
			dash ? " stroke-dasharray=\"6,3\"" : "");
		for (i = 0; i < s->n; i += step) {
			double sx = 0, sy = 0;
			int m = 0;

			for (j = i; j < s->n && j < i + step; j++, m++) {
				sx += s->x[j];
				sy += s->y[j];
			}
			fprintf(f, "%.1f,%.1f ", PAD_L + pw * (sx / m) / xmax,
				LINE_H - PAD_B - ph * (sy / m) / ymax);
		}
		fputs("\"/>\n", f);
		if (s->n == 1)
			fprintf(f,
				"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
				PAD_L + pw * s->x[0] / xmax,
				LINE_H - PAD_B - ph * s->y[0] / ymax,
				series_color(k, n, dashed_second_half));
	}
	fputs("</svg>\n", f);
}
