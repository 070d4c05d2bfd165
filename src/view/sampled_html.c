// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sampled figures (/proc, /sys and pcptop's own programs, read each
 * interval) on report's and diff's HTML page: a table of the run's
 * totals or levels, and the charts figtab's .chart groups them into.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "facts.h"
#include "sampled_html.h"
#include "samples.h"
#include "svg.h"

/* series a chart draws, both sides' together */
#define MAX_CHART_SERIES 8

static bool sampled_shown(const struct rec_summary *const *s, int n,
			  const struct fig_desc *d)
{
	int i;

	for (i = 0; i < n; i++)
		if (d->type == FIG_SAMPLED && facts_fig_shown(&s[i]->h.f, d))
			return true;
	return false;
}

/* "last 60568, peak 61000, mean 60211" or "total 12 (0.4/s)" */
static void sampled_cell(FILE *f, const struct rec_summary *s,
			 const struct fig_desc *d)
{
	const struct sample_cell *c = samples_cell(&s->total_smp, d, 0);

	if (!facts_fig_shown(&s->h.f, d) || !sample_present(c))
		fputs("<td>-</td>", f);
	else if (d->sample.kind == SAMPLE_COUNTER)
		fprintf(f, "<td>total %lld (%.1f/s)</td>",
			(long long)sample_value(d, c),
			s->recorded_s > 0 ?
				(double)sample_value(d, c) / s->recorded_s :
				0.0);
	else
		fprintf(f, "<td>last %lld, peak %lld, mean %.0f</td>",
			(long long)sample_value(d, c), (long long)c->peak,
			sample_mean(c));
}

void html_sampled_table(FILE *f, const struct rec_summary *const *s, int n)
{
	int i, k;

	fputs("<h2>Sampled each interval</h2>\n<table>\n<tr><th>figure</th><th>unit</th><th>source</th>",
	      f);
	for (k = 0; k < n; k++)
		fprintf(f, "<th>%s</th>", n > 1 ? (k ? "B" : "A") : "");
	fputs("</tr>\n", f);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (!sampled_shown(s, n, d))
			continue;
		fputs("<tr><th style=\"text-align:left\">", f);
		html_esc(f, d->key);
		fputs("</th><td>", f);
		html_esc(f, d->sample.unit);
		fputs("</td><td>", f);
		html_esc(f, sample_src_name(d->sample.src));
		fputs(" ", f);
		html_esc(f, d->sample.field);
		fputs("</td>", f);
		for (k = 0; k < n; k++)
			sampled_cell(f, s[k], d);
		fputs("</tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* a sampled figure's value in every interval that had one */
static int series_sampled(struct svg_series *sr, const char *name,
			  const struct rec_summary *s, const struct fig_desc *d)
{
	int i, k = 0;

	sr->name = name;
	sr->x = calloc(s->nr_points ? s->nr_points : 1, sizeof(double));
	sr->y = calloc(s->nr_points ? s->nr_points : 1, sizeof(double));
	if (!sr->x || !sr->y)
		return -ENOMEM;
	for (i = 0; i < s->nr_points; i++) {
		int64_t v = rec_point_sample(s, i, d);

		if (v == REC_SAMPLE_ABSENT)
			continue;
		sr->x[k] = s->points[i].t;
		/* a counter's increase as a rate, as the other timelines */
		sr->y[k++] = d->sample.kind == SAMPLE_COUNTER &&
					     s->points[i].secs > 0 ?
				     (double)v / s->points[i].secs :
				     (double)v;
	}
	sr->n = k;
	return 0;
}

/* one chart per figtab .chart: its sampled figures, A's lines then B's */
static int sampled_chart(FILE *f, const struct rec_summary *const *s,
			 const char *const *tags, int n, int first)
{
	const char *chart = fig_table[first].chart;
	struct svg_series sr[MAX_CHART_SERIES] = {};
	char names[MAX_CHART_SERIES][64];
	int i, k, m = 0;
	bool ok = true;

	for (i = 0; i < n; i++) {
		for (k = first; k < nr_figs && m < MAX_CHART_SERIES; k++) {
			const struct fig_desc *d = &fig_table[k];

			if (!d->chart || strcmp(d->chart, chart) ||
			    !sampled_shown(s, n, d))
				continue;
			snprintf(names[m], sizeof(names[m]), "%s%s%s%s",
				 tags[i], tags[i][0] ? " " : "", d->key,
				 d->sample.kind == SAMPLE_COUNTER ? "/s" : "");
			if (series_sampled(&sr[m], names[m], s[i], d))
				ok = false;
			m++;
		}
	}
	if (ok && m) {
		fputs("<h2>", f);
		html_esc(f, chart);
		fputs("</h2>\n", f);
		svg_lines(f, chart, fig_table[first].sample.unit, sr, m, n > 1);
	}
	for (i = 0; i < m; i++) {
		free(sr[i].x);
		free(sr[i].y);
	}
	return ok ? 0 : -ENOMEM;
}

int html_sampled_charts(FILE *f, const struct rec_summary *const *s,
			const char *const *tags, int n)
{
	int i, k, err = 0;

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (!d->chart || !sampled_shown(s, n, d))
			continue;
		/* the chart's first figure draws it */
		for (k = 0; k < i; k++)
			if (fig_table[k].chart &&
			    !strcmp(fig_table[k].chart, d->chart) &&
			    sampled_shown(s, n, &fig_table[k]))
				break;
		if (k == i && !err)
			err = sampled_chart(f, s, tags, n, i);
	}
	return err;
}
