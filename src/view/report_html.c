// SPDX-License-Identifier: GPL-2.0-only
/*
 * report --html and diff --html: one self-contained page. The plots are
 * inline SVG (svg.c; the budget's budget_html.c, the sampled figures'
 * sampled_html.c), the style is inline CSS, and nothing refers to the
 * network, so the page can be mailed, attached to a bug or opened on a
 * board with no connection.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "budget_html.h"
#include "hist.h"
#include "report_view.h"
#include "explain.h"
#include "sampled_html.h"
#include "svg.h"
#include "units.h"

#define LINE_LEN 512
#define MAX_RATE_SERIES 8

static const char css[] =
	"body{font-family:sans-serif;margin:24px auto;max-width:1160px;color:#222}"
	"h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ccc}"
	"table{border-collapse:collapse;margin:8px 0}"
	"td,th{padding:3px 12px;text-align:right;border-bottom:1px solid #eee}"
	"th{background:#f4f4f4}table.facts td,table.facts th{text-align:left}"
	"table.facts td:first-child{font-weight:bold;white-space:nowrap}"
	".grid{display:grid;grid-template-columns:repeat(2,1fr);gap:14px}"
	".warn{background:#fff3cd;padding:8px;border:1px solid #e0c060}" SVG_CSS
	"footer{margin-top:30px;color:#777;font-size:12px}";

/* pages/s of one counter over a recording's intervals */
static int series_rate(struct svg_series *sr, const char *name,
		       const struct rec_summary *s, int counter)
{
	int i;

	sr->name = name;
	sr->n = s->nr_points;
	sr->x = calloc(s->nr_points ? s->nr_points : 1, sizeof(double));
	sr->y = calloc(s->nr_points ? s->nr_points : 1, sizeof(double));
	if (!sr->x || !sr->y)
		return -ENOMEM;
	for (i = 0; i < s->nr_points; i++) {
		const struct rec_point *p = &s->points[i];

		sr->x[i] = p->t;
		sr->y[i] = p->secs > 0 ? (double)p->cnt[counter] / p->secs : 0;
	}
	return 0;
}

static void series_free(struct svg_series *sr)
{
	free(sr->x);
	free(sr->y);
}

static void page_open(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>",
	      f);
	html_esc(f, title);
	fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>", css);
	html_esc(f, title);
	fputs("</h1>\n", f);
}

static void page_close(FILE *f, const struct rec_summary *s)
{
	fputs("<footer>Made by pcptop ", f);
	html_esc(f, s->h.pcptop_version);
	fputs(" (pcptop report/diff). Figures marked ~ are estimated from tracepoint event runs; percentiles are log2 bucket bounds.</footer>\n</body>\n</html>\n",
	      f);
}

static void fact(FILE *f, const char *key, const char *const *vals, int n)
{
	int i;

	fputs("<tr><td>", f);
	html_esc(f, key);
	fputs("</td>", f);
	for (i = 0; i < n; i++) {
		fputs("<td>", f);
		html_esc(f, vals[i]);
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
}

/* the facts of n recordings, one column each */
static void facts_table(FILE *f, const struct rec_summary *const *s, int n)
{
	char buf[8][4][LINE_LEN];
	const char *v[4];
	int i;

	for (i = 0; i < n; i++) {
		const struct rec_end *e = &s[i]->end;

		const struct facts *fa = &s[i]->h.f;

		facts_scale_line(fa, buf[0][i], LINE_LEN);
		snprintf(buf[1][i], LINE_LEN, "%s %s on %s, %u CPUs",
			 fa->release, fa->arch, fa->hostname,
			 s[i]->h.dims.nr_cpus);
		snprintf(buf[2][i], LINE_LEN, "%s%s", fa->mode_summary,
			 facts_estimated(fa, PROBE_BULK_FREE) ?
				 " (figures estimated)" :
				 "");
		rec_command_line(s[i], buf[3][i], LINE_LEN);
		rec_status_line(s[i], buf[4][i], LINE_LEN);
		if (s[i]->have_end && e->have_command)
			snprintf(buf[5][i], LINE_LEN,
				 "%.2f s (user %.2f s, sys %.2f s)",
				 (double)e->wall_ns / (double)NSEC_PER_SEC,
				 (double)e->utime_ns / (double)NSEC_PER_SEC,
				 (double)e->stime_ns / (double)NSEC_PER_SEC);
		else
			snprintf(buf[5][i], LINE_LEN, "-");
		rec_start_time(&s[i]->h, buf[6][i], LINE_LEN);
		snprintf(buf[7][i], LINE_LEN, "%s: %d intervals, %.1f s",
			 s[i]->path, s[i]->nr_points, s[i]->recorded_s);
	}
	fputs("<table class=\"facts\">\n", f);
	if (n > 1)
		fputs("<tr><th></th><th>A</th><th>B</th></tr>\n", f);
#define ROW(key, idx)                       \
	do {                                \
		for (i = 0; i < n; i++)     \
			v[i] = buf[idx][i]; \
		fact(f, key, v, n);         \
	} while (0)
	ROW("Scale", 0);
	ROW("Kernel", 1);
	ROW("Probes", 2);
	ROW("Command", 3);
	ROW("Exit status", 4);
	ROW("Wall time", 5);
	ROW("Started", 6);
	ROW("Recording", 7);
#undef ROW
	fputs("</table>\n", f);
}

static void warnings(FILE *f, const struct rec_summary *s)
{
	if (!s->stop_err && s->have_end)
		return;
	fputs("<p class=\"warn\">", f);
	html_esc(f, s->path);
	fputs(": ", f);
	html_esc(
		f,
		s->stop_err ?
			s->stop_msg :
			"no end chunk: still being recorded, or pcptop record was killed");
	fputs("; the readable prefix is shown.</p>\n", f);
}

/* the splits: a row each, its parts and their total */
static void splits_table(FILE *f, const struct rec_summary *s)
{
	const struct figures *t = &s->total;
	int i, k, n = 0;

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (d->type != FIG_SPLIT || !facts_fig_shown(&s->h.f, d))
			continue;
		if (!n++)
			fputs("<table>\n", f);
		fprintf(f, "<tr><th>%s</th><td>%llu %s%s</td>", d->key,
			(unsigned long long)fig_split_total(d, t), d->unit,
			facts_pages_estimated(&s->h.f, d) ? " ~" : "");
		for (k = 0; k < fig_nr_parts(d); k++)
			fprintf(f, "<td>%s %llu</td>", d->parts[k].key,
				(unsigned long long)fig_part(d, k, t));
		fputs("</tr>\n", f);
	}
	if (n)
		fputs("</table>\n", f);
}

static void totals_table(FILE *f, const struct rec_summary *s)
{
	const char *unit;
	const struct figures *t = &s->total;
	double secs = s->recorded_s > 0 ? s->recorded_s : 1;
	int i;

	fputs("<table>\n<tr><th></th><th>calls</th><th>pages</th><th>calls/s</th><th>avg pages</th><th>max pages</th></tr>\n",
	      f);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (d->type != FIG_BATCH || !facts_fig_shown(&s->h.f, d))
			continue;
		/* a figure of other units than calls and pages says so */
		unit = strcmp(fig_batch_unit(d), "pages") ? fig_batch_unit(d) :
							    NULL;
		fprintf(f,
			"<tr><th>%s</th><td>%llu%s</td><td>%llu%s%s</td><td>%.1f</td><td>%.1f</td><td>%llu</td></tr>\n",
			d->key, (unsigned long long)fig_events(d, t),
			rec_events_estimated(s, d) ? " ~" : "",
			(unsigned long long)fig_pages(d, t), unit ? " " : "",
			unit ? unit : "", (double)fig_events(d, t) / secs,
			fig_avg(d, t), (unsigned long long)fig_max(d, t));
	}
	fputs("</table>\n", f);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (d->type != FIG_TIME || !facts_fig_shown(&s->h.f, d))
			continue;
		fputs("<p>", f);
		html_esc(f, d->title);
		fprintf(f,
			"%s: p50 &le; %llu ns, p99 &le; %llu ns, max %llu ns, total %.1f ms",
			rec_events_estimated(s, d) ? " ~" : "",
			(unsigned long long)fig_pct(d, t, PCT_MEDIAN),
			(unsigned long long)fig_pct(d, t, PCT_TAIL),
			(unsigned long long)fig_max(d, t),
			(double)fig_total(d, t) / (double)NSEC_PER_MSEC);
		if (d->flags & FIG_PER_S)
			fprintf(f, ", %.3f ms/s",
				(double)fig_total(d, t) /
					(double)NSEC_PER_MSEC / secs);
		fputs(".</p>\n", f);
	}
	splits_table(f, s);
}

/* the plots marked always_plotted, the others when they hold data */
static bool hist_wanted(int h, const struct rec_summary *const *s, int n)
{
	bool measured = false;
	int i;

	for (i = 0; i < n; i++)
		measured |= facts_hist_shown(&s[i]->h.f, h);
	if (!measured || !strcmp(hist_table[h].unit, "scale"))
		return false;
	if (hist_table[h].always_plotted)
		return true;
	for (i = 0; i < n; i++)
		if (s[i]->total.hist[h].samples)
			return true;
	return false;
}

static void hist_grid(FILE *f, const struct rec_summary *const *s,
		      const char *const *names, int n)
{
	const struct figure_hist *hs[2];
	int h, i;

	fputs("<h2>Histograms</h2>\n<div class=\"grid\">\n", f);
	for (h = 0; h < NR_PCPTOP_HISTS; h++) {
		if (!hist_wanted(h, s, n))
			continue;
		for (i = 0; i < n; i++)
			hs[i] = &s[i]->total.hist[h];
		fputs("<div>", f);
		svg_bars(f, hist_table[h].title, hist_table[h].unit, hs, names,
			 n);
		fputs("</div>\n", f);
	}
	fputs("</div>\n", f);
}

static int timeline(FILE *f, const struct rec_summary *const *s,
		    const char *const *tags, int n)
{
	char names[MAX_RATE_SERIES][64];
	struct svg_series sr[MAX_RATE_SERIES] = {};
	int i, k, m = 0;
	bool ok = true;

	/* A's lines first, then B's: B's are dashed */
	for (i = 0; i < n; i++) {
		for (k = 0; k < nr_figs && m < MAX_RATE_SERIES; k++) {
			const struct fig_desc *d = &fig_table[k];

			if (!(d->flags & FIG_HTML_RATE))
				continue;
			snprintf(names[m], sizeof(names[m]), "%s%s%s pages/s",
				 tags[i], tags[i][0] ? " " : "", d->key);
			if (series_rate(&sr[m], names[m], s[i], d->pages))
				ok = false;
			m++;
		}
	}
	fputs("<h2>Timeline</h2>\n", f);
	if (ok)
		svg_lines(f, "bulk free and refill pages/s", "pages/s", sr, m,
			  n > 1);
	for (i = 0; i < m; i++)
		series_free(&sr[i]);
	return ok ? 0 : -ENOMEM;
}

static void cell(FILE *f, const char *prefix, double v, bool sign);

/* the paragraph, then every moved metric, what the run paid first */
static void summary_table(FILE *f, const struct cmp_result *r)
{
	char ch[LINE_LEN], words[EXPLAIN_LEN];
	int i;

	explain_wall(r, words, sizeof(words));
	fputs("<h2 id=\"summary\">What moved, B against A</h2>\n<p class=\"wall\">",
	      f);
	html_esc(f, words);
	fputs("</p>\n<p class=\"why\">", f);
	explain_paragraph(r, words, sizeof(words));
	html_esc(f, words);
	fputs("</p>\n", f);
	if (!r->nr_moved)
		return;
	fputs("<table class=\"summary\"><tr><th>figure</th><th>A</th><th>B</th><th>spread</th><th>unit</th><th>change</th></tr>\n",
	      f);
	for (i = 0; i < r->nr_moved; i++) {
		const struct cmp_metric *c = &r->m[r->rank[i]];

		fputs("<tr><td style=\"text-align:left\">", f);
		html_esc(f, c->m.key);
		fputs("</td>", f);
		cell(f, c->m.bound ? "&le;" : "", c->a, false);
		cell(f, c->m.bound ? "&le;" : "", c->b, false);
		cell(f, "&plusmn;", c->spread, false);
		fputs("<td>", f);
		html_esc(f, c->m.unit);
		cmp_change_str(ch, sizeof(ch), c);
		fputs("</td><td>", f);
		html_esc(f, ch);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

int report_html(FILE *f, const struct rec_summary *s)
{
	const struct rec_summary *one[1] = { s };
	const char *names[1] = { "" };
	char title[LINE_LEN];
	int err;

	snprintf(title, sizeof(title), "pcptop report: %s", s->path);
	page_open(f, title);
	warnings(f, s);
	facts_table(f, one, 1);
	html_budget_chart(f, one, (const char *const[]){ "run" }, 1, 0);
	fputs("<h2>Totals</h2>\n", f);
	totals_table(f, s);
	err = timeline(f, one, names, 1);
	html_sampled_table(f, one, 1);
	if (!err)
		err = html_sampled_charts(f, one, names, 1);
	hist_grid(f, one, names, 1);
	page_close(f, s);
	return err;
}

static void cell(FILE *f, const char *prefix, double v, bool sign)
{
	bool whole = v > -1e15 && v < 1e15 && v == (double)(long long)v;

	if (isnan(v))
		fputs("<td>-</td>", f);
	else if (whole)
		fprintf(f, sign ? "<td>%s%+.0f</td>" : "<td>%s%.0f</td>",
			prefix, v);
	else
		fprintf(f, sign ? "<td>%s%+.2f</td>" : "<td>%s%.2f</td>",
			prefix, v);
}

static void delta_table(FILE *f, const struct cmp_result *r)
{
	int i;

	fputs("<table>\n<tr><th></th><th>A</th><th>B</th><th>B &minus; A</th><th>%</th><th>spread</th></tr>\n",
	      f);
	for (i = 0; i < r->n; i++) {
		const struct cmp_metric *c = &r->m[i];
		double pct = cmp_delta_pct(c->a, c->b);
		const char *le = c->m.bound ? "&le;" : "";

		fprintf(f, "<tr><th>%s</th>", c->m.key);
		cell(f, le, c->a, false);
		cell(f, le, c->b, false);
		cell(f, "", c->b - c->a, true);
		if (isnan(pct))
			fputs("<td>-</td>", f);
		else
			fprintf(f, "<td>%+.1f%%</td>", pct);
		cell(f, "&plusmn;", c->spread, false);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* the page opens with the budget: a bar a run, A's then B's */
static void budget_chart(FILE *f, const struct cmp_result *r)
{
	const struct rec_summary *runs[BUDGET_CHART_MAX_RUNS];
	char tags[BUDGET_CHART_MAX_RUNS][8];
	const char *tp[BUDGET_CHART_MAX_RUNS];
	int i, n = 0;

	for (i = 0; i < r->a.n && n < BUDGET_CHART_MAX_RUNS; i++, n++) {
		runs[n] = r->a.run[i];
		snprintf(tags[n], sizeof(tags[n]), "A%d", i + 1);
		tp[n] = tags[n];
	}
	for (i = 0; i < r->b.n && n < BUDGET_CHART_MAX_RUNS; i++, n++) {
		runs[n] = r->b.run[i];
		snprintf(tags[n], sizeof(tags[n]), "B%d", i + 1);
		tp[n] = tags[n];
	}
	html_budget_chart(f, runs, tp, r->a.n, n - r->a.n);
}

int diff_html(FILE *f, const struct cmp_result *r)
{
	const struct rec_summary *a = r->a.run[0], *b = r->b.run[0];
	const struct rec_summary *two[2] = { a, b };
	const char *names[2] = { "A", "B" };
	char title[LINE_LEN];
	int i, err;

	snprintf(title, sizeof(title), "pcptop diff: %s vs %s%s", a->path,
		 b->path, r->a.n > 1 || r->b.n > 1 ? " and their repeats" : "");
	page_open(f, title);
	for (i = 0; i < r->a.n; i++)
		warnings(f, r->a.run[i]);
	for (i = 0; i < r->b.n; i++)
		warnings(f, r->b.run[i]);
	budget_chart(f, r);
	summary_table(f, r);
	facts_table(f, two, 2);
	fputs("<h2>Totals, B against A</h2>\n", f);
	delta_table(f, r);
	err = timeline(f, two, names, 2);
	html_sampled_table(f, two, 2);
	if (!err)
		err = html_sampled_charts(f, two, names, 2);
	hist_grid(f, two, names, 2);
	page_close(f, a);
	return err;
}
