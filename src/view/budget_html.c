// SPDX-License-Identifier: GPL-2.0-only
/*
 * The wall-time budget as a picture (issue 29): one stacked bar a run,
 * its CPU seconds (elapsed x CPUs) cut into the CPU states and the
 * waiting time's parts, each side's mean elapsed time marked with the
 * difference between them. Every bar and part carries its seconds as
 * data- attributes, which the rehearsal's Chromium check adds up.
 */
#include <math.h>
#include <stdio.h>
#include "arrays.h"
#include "budget_html.h"
#include "budget_run.h"
#include "svg.h"

#define W 1100
#define LABEL_W 70
#define RIGHT_PAD 30
#define BAR_H 24
#define BAR_GAP 10
#define TITLE_H 28
#define LEGEND_ROW_H 20
#define AXIS_H 40
/* a legend entry: a swatch, its text as svg.c measures it, a gap */
#define SWATCH_W 14
#define ENTRY_PAD 18

struct part {
	const char *key, *name, *color;
	int metric; /* budget_run.h's */
};

/* the parts that add up, with the idle split; without it, iowait and idle */
static const struct part split_parts[] = {
	{ "user", "user + nice", "#1f77b4", BM_USER },
	{ "system", "system", "#ff7f0e", BM_SYSTEM },
	{ "irq", "irq + softirq", "#d62728", BM_IRQ },
	{ "steal", "steal", "#7f7f7f", BM_STEAL },
	{ "wait_dirty", "waiting: writer throttled", "#9467bd", BM_WAIT_DIRTY },
	{ "wait_block", "waiting: block request in flight", "#2ca02c",
	  BM_WAIT_BLOCK },
	{ "wait_idle", "idle: no task in iowait", "#e6e6e6", BM_WAIT_IDLE },
	{ "wait_none", "iowait: nothing named", "#a0a0a0", BM_WAIT_NONE },
};

static const struct part plain_parts[] = {
	{ "user", "user + nice", "#1f77b4", BM_USER },
	{ "system", "system", "#ff7f0e", BM_SYSTEM },
	{ "irq", "irq + softirq", "#d62728", BM_IRQ },
	{ "steal", "steal", "#7f7f7f", BM_STEAL },
	{ "iowait", "iowait", "#2ca02c", BM_IOWAIT },
	{ "idle", "idle", "#c7c7c7", BM_IDLE },
};

static int entry_w(const struct part *p)
{
	return SWATCH_W + 4 +
	       (int)(svg_text_width(p->name, SVG_FONT_PX, false) + 1) +
	       ENTRY_PAD;
}

static int legend_rows(const struct part *p, int np, int width)
{
	int rows = 1, x = LABEL_W, i, w;

	for (i = 0; i < np; i++) {
		w = entry_w(&p[i]);
		if (x + w > width - RIGHT_PAD) {
			rows++;
			x = LABEL_W;
		}
		x += w;
	}
	return rows;
}

static void legend(FILE *f, const struct part *p, int np, int width)
{
	int x = LABEL_W, y = TITLE_H + 4, i, w;

	for (i = 0; i < np; i++) {
		w = entry_w(&p[i]);
		if (x + w > width - RIGHT_PAD) {
			x = LABEL_W;
			y += LEGEND_ROW_H;
		}
		fprintf(f,
			"<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>"
			"<text x=\"%d\" y=\"%d\" font-size=\"%d\">",
			x, y, SWATCH_W, SWATCH_W - 2, p[i].color,
			x + SWATCH_W + 4, y + SWATCH_W - 3, SVG_FONT_PX);
		html_esc(f, p[i].name);
		fputs("</text>\n", f);
		x += w;
	}
}

/* a run's bar: its parts left to right, each with its seconds */
static void bar(FILE *f, const char *tag, const struct time_budget *b,
		const struct part *p, int np, int y, double scale)
{
	double x = LABEL_W, v;
	int i;

	fprintf(f,
		"<g class=\"budget-bar\" data-run=\"%s\" data-elapsed-s=\"%.6f\" data-cpus=\"%.3f\" data-cpu-s=\"%.6f\">\n",
		tag, b->elapsed_s, b->cpus, b->cpu_s);
	fprintf(f,
		"<text x=\"%d\" y=\"%d\" font-size=\"%d\" text-anchor=\"end\">%s</text>\n",
		LABEL_W - 8, y + BAR_H - 7, SVG_FONT_PX, tag);
	for (i = 0; i < np; i++) {
		v = budget_metric_value(b, p[i].metric);
		if (isnan(v))
			v = 0;
		fprintf(f,
			"<rect data-part=\"%s\" data-s=\"%.6f\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\"><title>%s %s: %.2f s</title></rect>\n",
			p[i].key, v, x, y, v * scale, BAR_H, p[i].color, tag,
			p[i].name, v);
		x += v * scale;
	}
	fputs("</g>\n", f);
}

static double side_mean(const struct time_budget *b, int from, int n)
{
	double sum = 0;
	int i;

	for (i = from; i < from + n; i++)
		sum += b[i].elapsed_s * (b[i].cpus > 0 ? b[i].cpus : 1);
	return n ? sum / n : 0;
}

/* each side's mean elapsed time (in CPU seconds, as the bars) */
static void marks(FILE *f, const struct time_budget *b, int na, int nb, int top,
		  int bottom, double scale)
{
	double ma = side_mean(b, 0, na), mb = side_mean(b, na, nb);
	const char *side[2] = { "A", "B" };
	double m[2] = { ma, mb };
	int k;

	for (k = 0; k < 2 && nb; k++) {
		double x = LABEL_W + m[k] * scale;

		fprintf(f,
			"<line class=\"elapsed-mark\" data-side=\"%s\" data-cpu-s=\"%.6f\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#000\" stroke-dasharray=\"4,3\"/>\n",
			side[k], m[k], x, top, x, bottom);
	}
	if (nb)
		fprintf(f,
			"<text class=\"elapsed-diff\" x=\"%.2f\" y=\"%d\" font-size=\"%d\" text-anchor=\"middle\">B - A: %+.2f s of elapsed x CPUs (%+.1f %%)</text>\n",
			LABEL_W + (ma > mb ? ma : mb) * scale / 2, bottom + 16,
			SVG_FONT_PX, mb - ma,
			ma > 0 ? (mb - ma) / ma * 100.0 : 0.0);
}

void html_budget_chart(FILE *f, const struct rec_summary *const *runs,
		       const char *const *tags, int na, int nb)
{
	struct time_budget b[BUDGET_CHART_MAX_RUNS];
	const struct part *p = split_parts;
	int n = na + nb, np = ARRAY_SIZE(split_parts), i, rows, h, top;
	double max = 0, scale;

	if (n > (int)ARRAY_SIZE(b))
		n = ARRAY_SIZE(b);
	for (i = 0; i < n; i++) {
		rec_budget(runs[i], &b[i]);
		if (!b[i].have_cpu)
			return;
		if (!b[i].have_split) {
			p = plain_parts;
			np = ARRAY_SIZE(plain_parts);
		}
		if (b[i].cpu_s > max)
			max = b[i].cpu_s;
		if (b[i].elapsed_s * b[i].cpus > max)
			max = b[i].elapsed_s * b[i].cpus;
	}
	if (!n || max <= 0)
		return;
	rows = legend_rows(p, np, W);
	top = TITLE_H + rows * LEGEND_ROW_H + 8;
	h = top + n * (BAR_H + BAR_GAP) + AXIS_H;
	scale = (W - LABEL_W - RIGHT_PAD) / max;
	fputs("<h2 id=\"budget\">Where the wall time went</h2>\n", f);
	fprintf(f,
		"<svg class=\"budget\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"Where the wall time went\" font-family=\"sans-serif\">\n",
		W, h, W, h);
	fprintf(f,
		"<text class=\"title\" x=\"%d\" y=\"18\" font-size=\"%d\" font-weight=\"bold\">CPU seconds (elapsed x CPUs) of each run, by state and by what the waiting waited on</text>\n",
		LABEL_W, SVG_TITLE_PX);
	legend(f, p, np, W);
	for (i = 0; i < n; i++)
		bar(f, tags[i], &b[i], p, np, top + i * (BAR_H + BAR_GAP),
		    scale);
	marks(f, b, na, n - na, top - 4, top + n * (BAR_H + BAR_GAP) - 4,
	      scale);
	fputs("</svg>\n", f);
}
