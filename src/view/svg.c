// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inline SVG plots for the HTML pages: log2 histograms as bar charts and
 * rates over time as line charts, drawn as plain text so the page needs
 * no script, no font and no network. Sizes are in CSS pixels.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "hist.h"
#include "svg.h"

#define NUM_LEN 32
#define LABEL_LEN 96

/* bar charts two to a row, the timeline across the page */
#define BAR_W 560
#define BAR_H 270
#define LINE_W 1140
#define LINE_H 320
#define PAD_L 70
#define PAD_R 20
#define PAD_B 52
#define Y_TICKS 5
/* the x axis's ticks: a round step near a tenth of the largest x */
#define X_TICKS 10
#define BAR_FILL 0.8
/* a long run is averaged down to about one point per pixel */
#define MAX_LINE_POINTS 1100
#define KILO 1024.0

/*
 * Text is laid out by svg_text_width() at these sizes, which every
 * <text> carries itself, so that no page's style can change them.
 */
#define FONT_PX SVG_FONT_PX
#define TITLE_PX SVG_TITLE_PX
#define TITLE_Y 20
/* baselines further apart than a line's ascent and descent */
#define ROW_H 18
/* from the baseline of the title or the legend's last row to the plot */
#define PLOT_GAP 14
#define SWATCH_W 18
#define SWATCH_GAP 4
#define ENTRY_GAP 16
/* the least room between two labels of an axis */
#define LABEL_GAP 8
/*
 * the x labels' baseline below the axis: their boxes clear of the y
 * axis's lowest label, which sits on the axis
 */
#define X_LABEL_DY 20

/*
 * Advance widths in ems by class of character: DejaVu Sans's widest of
 * each class, rounded up, and bold wider by more than DejaVu Sans Bold
 * is. A browser with another sans-serif draws other widths: the record
 * and trace suites check the pages as Chromium lays them out.
 */
#define EM_THIN 0.30
#define EM_NARROW 0.43
#define EM_PLAIN 0.64
#define EM_UPPER 0.79
#define EM_WIDE 0.84
#define EM_WIDEST 1.0
#define BOLD_WIDER 1.15

/* the first eight of matplotlib's tab10 */
static const char *const colors[SVG_MAX_LINES] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
	"#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
};

/* a chart's size and its plot's top (the plot ends PAD_B above h) */
struct frame {
	int w, h, top;
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

static double char_em(unsigned char c)
{
	/* outside ASCII: as wide as the widest, whatever it is */
	if (c >= 0x80)
		return EM_WIDEST;
	if (strchr("'ijl", c))
		return EM_THIN;
	if (strchr(" !(),-./:;IJ[\\]frt|", c))
		return EM_NARROW;
	if (strchr("%@MWm", c))
		return EM_WIDEST;
	if (strchr("#&+<=>^~w", c))
		return EM_WIDE;
	if (c >= 'A' && c <= 'Z')
		return EM_UPPER;
	return EM_PLAIN;
}

double svg_text_width(const char *s, double px, bool bold)
{
	double em = 0;

	/* a character a UTF-8 sequence: its continuation bytes add nothing */
	for (; *s; s++)
		if ((*s & 0xc0) != 0x80)
			em += char_em((unsigned char)*s);
	return em * px * (bold ? BOLD_WIDER : 1);
}

/* an escaped <text> of s at the axes' size; anchor NULL: start */
static void text_at(FILE *f, double x, double y, const char *anchor,
		    const char *s)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\"", x, y,
		FONT_PX);
	if (anchor)
		fprintf(f, " text-anchor=\"%s\"", anchor);
	fputc('>', f);
	html_esc(f, s);
	fputs("</text>\n", f);
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

/*
 * compact axis numbers: 950, 1.5k, 20M; below a step of 1, as many
 * decimals as the step has, so that ticks 0.01 apart do not all read 0.0
 */
static void fmt_axis(char *buf, size_t len, double v, double step)
{
	static const char *const sfx[] = { "", "k", "M", "G", "T" };
	int i = 0, dec = 0;

	if (v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	if (step < 1) {
		while (dec < 6 && fabs(step - (double)(long long)(step + 0.5)) >
					  step * 1e-6) {
			step *= 10;
			dec++;
		}
		snprintf(buf, len, "%.*f", dec, v);
		return;
	}
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

/* the room a chart's title and legend rows take above its plot */
static struct frame frame_of(int w, int plot_h, int legend_rows)
{
	struct frame fr = { .w = w };

	fr.top = TITLE_Y + legend_rows * ROW_H + PLOT_GAP;
	fr.h = fr.top + plot_h + PAD_B;
	return fr;
}

static void svg_open(FILE *f, const char *title, const struct frame *fr)
{
	fprintf(f, "<svg class=\"plot\" role=\"img\" aria-label=\"");
	html_esc(f, title);
	fprintf(f,
		"\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n<title>",
		fr->w, fr->h, fr->w, fr->h);
	html_esc(f, title);
	fprintf(f,
		"</title>\n<text class=\"title\" x=\"%d\" y=\"%d\" font-size=\"%d\" font-weight=\"bold\" text-anchor=\"middle\">",
		fr->w / 2, TITLE_Y, TITLE_PX);
	html_esc(f, title);
	fputs("</text>\n", f);
}

/* horizontal grid lines and y labels from 0 to ymax */
static void y_axis(FILE *f, const struct frame *fr, double ymax,
		   const char *label)
{
	int bottom = fr->h - PAD_B, mid = (bottom + fr->top) / 2, i;
	char num[NUM_LEN];
	double y;

	for (i = 0; i <= Y_TICKS; i++) {
		y = bottom - (double)(bottom - fr->top) * i / Y_TICKS;
		fprintf(f,
			"<line class=\"grid-line\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>\n",
			PAD_L, y, fr->w - PAD_R, y);
		fmt_axis(num, sizeof(num), ymax * i / Y_TICKS, ymax / Y_TICKS);
		text_at(f, PAD_L - 6, y + 4, "end", num);
	}
	fprintf(f,
		"<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>\n",
		PAD_L, bottom, fr->w - PAD_R, bottom);
	fprintf(f,
		"<text x=\"16\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 16 %d)\">",
		mid, FONT_PX, mid);
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

/*
 * The legend's entries left to right under the title, on a new row
 * where the next would run past the plot's right end: each entry's x and
 * row; returns the rows (0 for no entries).
 */
static int legend_layout(const char *const *names, int n, int w,
			 int x[SVG_MAX_LINES], int row[SVG_MAX_LINES])
{
	int i, at = PAD_L, r = 0, ew;

	for (i = 0; i < n && i < SVG_MAX_LINES; i++) {
		ew = SWATCH_W + SWATCH_GAP +
		     (int)(svg_text_width(names[i], FONT_PX, false) + 1);
		if (at > PAD_L && at + ew > w - PAD_R) {
			r++;
			at = PAD_L;
		}
		x[i] = at;
		row[i] = r;
		at += ew + ENTRY_GAP;
	}
	return n ? r + 1 : 0;
}

static int legend_rows(const char *const *names, int n, int w)
{
	int x[SVG_MAX_LINES], row[SVG_MAX_LINES];

	return legend_layout(names, n, w, x, row);
}

static void legend(FILE *f, int w, const char *const *names, int n,
		   bool dashed_second_half)
{
	int x[SVG_MAX_LINES], row[SVG_MAX_LINES], i, y;

	legend_layout(names, n, w, x, row);
	for (i = 0; i < n && i < SVG_MAX_LINES; i++) {
		bool dash = dashed_second_half && i >= n / 2;

		y = TITLE_Y + (row[i] + 1) * ROW_H;
		fprintf(f,
			"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"%s/>\n",
			x[i], y - 4, x[i] + SWATCH_W, y - 4,
			series_color(i, n, dashed_second_half),
			dash ? " stroke-dasharray=\"5,3\"" : "");
		text_at(f, x[i] + SWATCH_W + SWATCH_GAP, y, NULL, names[i]);
	}
}

/* 1 when every label fits between its ticks, else every k-th so they do */
static int label_stride(double widest, double spacing)
{
	int k = 1;

	while (k < 1000 && widest + LABEL_GAP > spacing * k)
		k++;
	return k;
}

/* a log2 histogram as bars, one colour per recording */
void svg_bars(FILE *f, const char *title, const char *unit,
	      const struct figure_hist *const *hs, const char *const *names,
	      int n)
{
	int first = PCPTOP_HIST_SLOTS, last = -1, i, k, nb, stride;
	double ymax = 0, gw, bw, x, bh, widest = 0;
	const int plot_h = BAR_H - TITLE_Y - PLOT_GAP - PAD_B;
	char lo[NUM_LEN], hi[NUM_LEN], label[LABEL_LEN];
	struct frame fr;

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
	fr = frame_of(BAR_W, plot_h,
		      n > 1 && last >= 0 ? legend_rows(names, n, BAR_W) : 0);
	svg_open(f, title, &fr);
	if (last < 0) {
		y_axis(f, &fr, 1, "count");
		text_at(f, fr.w / 2, fr.h / 2, "middle", "no samples");
		fputs("</svg>\n", f);
		return;
	}
	ymax = nice_ceil(ymax);
	y_axis(f, &fr, ymax, "count");
	if (n > 1)
		legend(f, fr.w, names, n, false);
	nb = last - first + 1;
	gw = (double)(fr.w - PAD_L - PAD_R) / nb;
	bw = gw * BAR_FILL / n;
	for (i = first; i <= last; i++) {
		fmt_pow2(lo, sizeof(lo), hist_slot_lo(i));
		if (svg_text_width(lo, FONT_PX, false) > widest)
			widest = svg_text_width(lo, FONT_PX, false);
	}
	stride = label_stride(widest, gw);
	for (i = first; i <= last; i++) {
		for (k = 0; k < n; k++) {
			bh = plot_h * (double)hs[k]->slots[i] / ymax;
			x = PAD_L + gw * (i - first) + gw * (1 - BAR_FILL) / 2 +
			    bw * k;
			fmt_pow2(lo, sizeof(lo), hist_slot_lo(i));
			fmt_pow2(hi, sizeof(hi), hist_slot_hi(i) + 1);
			fprintf(f,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s: %s..%s %s: %llu</title></rect>\n",
				x, fr.h - PAD_B - bh, bw, bh,
				colors[k % SVG_MAX_LINES], names[k], lo, hi,
				unit, (unsigned long long)hs[k]->slots[i]);
		}
		if ((i - first) % stride)
			continue;
		fmt_pow2(lo, sizeof(lo), hist_slot_lo(i));
		text_at(f, PAD_L + gw * (i - first + 0.5),
			fr.h - PAD_B + X_LABEL_DY, "middle", lo);
	}
	snprintf(label, sizeof(label), "%s (bucket lower bound, log2)", unit);
	text_at(f, (fr.w + PAD_L) / 2, fr.h - 12, "middle", label);
	fputs("</svg>\n", f);
}

void svg_lines(FILE *f, const char *title, const char *ylabel,
	       const struct svg_series *sr, int n, bool dashed_second_half)
{
	svg_lines_x(f, title, "seconds since the start", ylabel, sr, n,
		    dashed_second_half);
}

/*
 * The x axis from 0 to the first round step at or past xmax, not to a
 * round end: a what-if's scales 0 to 6 end at 6, not 10; whole-number x
 * (scales) gets whole-number steps. Returns the axis's end; *step and
 * *nt are its ticks' step and count less one.
 */
static double x_axis_end(double xmax, bool whole, double *step, int *nt)
{
	if (!(xmax > 0))
		xmax = 1;
	*step = nice_ceil(xmax / X_TICKS);
	if (whole && *step < 1)
		*step = 1;
	for (*nt = 1; *nt * *step < xmax * (1 - 1e-9); (*nt)++)
		;
	return *nt * *step;
}

void svg_lines_x(FILE *f, const char *title, const char *xlabel,
		 const char *ylabel, const struct svg_series *sr, int n,
		 bool dashed_second_half)
{
	const char *names[SVG_MAX_LINES];
	double xmax = 0, ymax = 0, pw = LINE_W - PAD_L - PAD_R, ph, step;
	double widest = 0;
	const int plot_h = LINE_H - TITLE_Y - PLOT_GAP - PAD_B;
	bool whole = true;
	int k, i, j, nt, stride, every;
	char num[NUM_LEN];
	struct frame fr;

	if (n > SVG_MAX_LINES)
		n = SVG_MAX_LINES;
	for (k = 0; k < n; k++) {
		names[k] = sr[k].name;
		for (i = 0; i < sr[k].n; i++) {
			if (sr[k].x[i] > xmax)
				xmax = sr[k].x[i];
			if (sr[k].x[i] != (double)(long long)sr[k].x[i])
				whole = false;
			if (sr[k].y[i] > ymax)
				ymax = sr[k].y[i];
		}
	}
	xmax = x_axis_end(xmax, whole, &step, &nt);
	ymax = nice_ceil(ymax);
	ph = plot_h;
	fr = frame_of(LINE_W, plot_h, legend_rows(names, n, LINE_W));
	svg_open(f, title, &fr);
	y_axis(f, &fr, ymax, ylabel);
	legend(f, fr.w, names, n, dashed_second_half);
	for (i = 0; i <= nt; i++) {
		fmt_axis(num, sizeof(num), step * i, step);
		if (svg_text_width(num, FONT_PX, false) > widest)
			widest = svg_text_width(num, FONT_PX, false);
	}
	stride = label_stride(widest, pw / nt);
	for (i = 0; i <= nt; i += stride) {
		fmt_axis(num, sizeof(num), step * i, step);
		text_at(f, PAD_L + pw * i / nt, fr.h - PAD_B + X_LABEL_DY,
			"middle", num);
	}
	text_at(f, (fr.w + PAD_L) / 2, fr.h - 12, "middle", xlabel);
	for (k = 0; k < n; k++) {
		const struct svg_series *s = &sr[k];
		bool dash = dashed_second_half && k >= n / 2;

		if (!s->n)
			continue;
		every = (s->n + MAX_LINE_POINTS - 1) / MAX_LINE_POINTS;
		fprintf(f,
			"<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\"%s points=\"",
			series_color(k, n, dashed_second_half),
			dash ? " stroke-dasharray=\"6,3\"" : "");
		for (i = 0; i < s->n; i += every) {
			double sx = 0, sy = 0;
			int m = 0;

			for (j = i; j < s->n && j < i + every; j++, m++) {
				sx += s->x[j];
				sy += s->y[j];
			}
			fprintf(f, "%.1f,%.1f ", PAD_L + pw * (sx / m) / xmax,
				fr.h - PAD_B - ph * (sy / m) / ymax);
		}
		fputs("\"/>\n", f);
		if (s->n == 1)
			fprintf(f,
				"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
				PAD_L + pw * s->x[0] / xmax,
				fr.h - PAD_B - ph * s->y[0] / ymax,
				series_color(k, n, dashed_second_half));
	}
	fputs("</svg>\n", f);
}
