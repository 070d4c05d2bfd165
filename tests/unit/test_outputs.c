// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every figure of figtab in every output: stat's text and JSON, the
 * Prometheus file, report's text, JSON, CSV and HTML, diff's text, JSON
 * and HTML, and the live view's columns. A row added to fig_table that
 * one of them does not show fails here, naming the output and the row.
 */
#include <stdio.h>
#include <string.h>
#include "figtab.h"
#include "prom.h"
#include "report.h"
#include "stat_print.h"
#include "synth.h"
#include "top.h"
#include "unit.h"

#define KEY_LEN 128

/* needle in text, or a failure naming the output and what is missing */
#define CHECK_HAS(text, needle, output)                                  \
	do {                                                             \
		if (!strstr((text), (needle)))                           \
			unit_fail(__FILE__, __LINE__, "%s lacks \"%s\"", \
				  (output), (needle));                   \
	} while (0)

/* as html_esc() writes it: <, >, & and " become entities */
static void escaped(char *buf, const char *s)
{
	size_t n = 0;

	for (; *s && n + 7 < KEY_LEN; s++) {
		const char *e = *s == '<' ? "&lt;" :
				*s == '>' ? "&gt;" :
				*s == '&' ? "&amp;" :
				*s == '"' ? "&quot;" :
					    NULL;

		if (e)
			n += (size_t)snprintf(buf + n, KEY_LEN - n, "%s", e);
		else
			buf[n++] = *s;
	}
	buf[n] = '\0';
}

static void quoted(char *buf, const char *key)
{
	snprintf(buf, KEY_LEN, "\"%s\":", key);
}

static void test_stat_text_has_every_figure(void)
{
	struct facts fa;
	struct figures f;
	struct capture c;
	const char *t;
	int i;

	synth_facts(&fa, MODE_FENTRY, true);
	synth_figures(&f, 1);
	stat_print_text(capture_open(&c), &fa, &f, 1.0, true);
	t = capture_text(&c);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		CHECK_HAS(t, d->type == FIG_TIME ? d->title : d->key,
			  "stat text");
	}
	for (i = 0; i < NR_PCPTOP_HISTS; i++)
		CHECK_HAS(t, hist_table[i].title, "stat text histograms");
	capture_free(&c);
	facts_free(&fa);
}

static void test_stat_json_has_every_figure(void)
{
	char k[KEY_LEN];
	struct facts fa;
	struct figures f;
	struct capture c;
	const char *t;
	int i, r;

	synth_facts(&fa, MODE_FENTRY, true);
	synth_figures(&f, 1);
	stat_print_json(capture_open(&c), &fa, &f, 1.0);
	t = capture_text(&c);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		quoted(k, d->key);
		CHECK_HAS(t, k, "stat --json");
		if (d->events_key) {
			quoted(k, d->events_key);
			CHECK_HAS(t, k, "stat --json");
		}
		for (r = 0; r < FIG_MAX_RATIOS && d->ratios[r].key; r++) {
			quoted(k, d->ratios[r].key);
			CHECK_HAS(t, k, "stat --json");
		}
	}
	for (i = 0; i < NR_PCPTOP_HISTS; i++) {
		quoted(k, hist_table[i].key);
		CHECK_HAS(t, k, "stat --json hist");
	}
	capture_free(&c);
	facts_free(&fa);
}

/* stat leaves the cross-check out unless it was asked for */
static void test_stat_json_cross_check_only_when_asked(void)
{
	struct facts fa;
	struct figures f;
	struct capture c;

	synth_facts(&fa, MODE_FENTRY, false);
	synth_figures(&f, 1);
	stat_print_json(capture_open(&c), &fa, &f, 1.0);
	CHECK(!strstr(capture_text(&c), "\"cross_check\""));
	capture_free(&c);
	facts_free(&fa);
}

static void test_prom_has_every_metric(void)
{
	char k[KEY_LEN];
	struct prom_state ps;
	struct facts fa;
	struct figures f;
	struct capture c;
	const char *t;
	int i;

	synth_facts(&fa, MODE_FENTRY, true);
	synth_figures(&f, 1);
	prom_init(&ps, NULL, &fa);
	figures_add(&ps.total, &f);
	prom_write(capture_open(&c), &ps, &f, 1.0);
	t = capture_text(&c);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];
		const char *names[] = { d->prom_events, d->prom_pages,
					d->prom_total };
		size_t n;

		for (n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
			if (!names[n])
				continue;
			snprintf(k, sizeof(k), "\n%s{", names[n]);
			CHECK_HAS(t, k, "--prom");
		}
		if (d->type == FIG_TIME) {
			snprintf(k, sizeof(k), "\n%s_p99 ", d->prom_gauge);
			CHECK_HAS(t, k, "--prom");
		} else if (d->flags & FIG_PROM_MAX) {
			snprintf(k, sizeof(k), "\n%s_max ", d->prom_gauge);
			CHECK_HAS(t, k, "--prom");
		}
	}
	for (i = 0; i < NR_PCPTOP_HISTS; i++) {
		snprintf(k, sizeof(k), "\n%s_count ", hist_table[i].prom);
		CHECK_HAS(t, k, "--prom histograms");
	}
	capture_free(&c);
	facts_free(&fa);
}

static void test_report_text_has_every_figure(void)
{
	struct rec_summary s;
	struct capture c;
	const char *t;
	int i;

	synth_summary(&s, "a.data", MODE_FENTRY, 1);
	report_text(capture_open(&c), &s, true, true);
	t = capture_text(&c);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		CHECK_HAS(t, d->type == FIG_TIME ? d->title : d->key,
			  "report text");
	}
	for (i = 0; i < NR_PCPTOP_HISTS; i++)
		CHECK_HAS(t, hist_table[i].title, "report text histograms");
	capture_free(&c);
	synth_summary_free(&s);
}

static void test_report_json_and_csv_have_every_figure(void)
{
	char k[KEY_LEN];
	struct rec_summary s;
	struct capture c, v;
	const char *t, *csv;
	int i;

	synth_summary(&s, "a.data", MODE_FENTRY, 1);
	report_json(capture_open(&c), &s);
	report_csv(capture_open(&v), &s);
	t = capture_text(&c);
	csv = capture_text(&v);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		quoted(k, d->key);
		CHECK_HAS(t, k, "report --json totals");
		if (d->flags & FIG_TL_MAX) {
			snprintf(k, sizeof(k), "%s_max", d->key);
			CHECK_HAS(t, k, "report --json timeline");
			CHECK_HAS(csv, k, "report --csv");
		}
		if (d->flags & FIG_TL_P99) {
			snprintf(k, sizeof(k), "%s_p99", d->key);
			CHECK_HAS(t, k, "report --json timeline");
			CHECK_HAS(csv, k, "report --csv");
		}
	}
	for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
		CHECK_HAS(csv, counter_key(i), "report --csv");
	for (i = 0; i < NR_PCPTOP_HISTS; i++) {
		quoted(k, hist_table[i].key);
		CHECK_HAS(t, k, "report --json hist");
	}
	capture_free(&c);
	capture_free(&v);
	synth_summary_free(&s);
}

static void test_report_html_has_every_figure(void)
{
	char k[KEY_LEN];
	struct rec_summary s;
	struct capture c;
	const char *t;
	int i;

	synth_summary(&s, "a.data", MODE_FENTRY, 1);
	report_html(capture_open(&c), &s);
	t = capture_text(&c);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (d->type == FIG_BATCH) {
			snprintf(k, sizeof(k), "<th>%s</th>", d->key);
			CHECK_HAS(t, k, "report --html");
		} else if (d->type == FIG_TIME) {
			escaped(k, d->title);
			CHECK_HAS(t, k, "report --html");
		}
	}
	for (i = 0; i < NR_PCPTOP_HISTS; i++) {
		char e[KEY_LEN];

		escaped(e, hist_table[i].title);
		snprintf(k, sizeof(k), "aria-label=\"%s\"", e);
		CHECK_HAS(t, k, "report --html plots");
	}
	capture_free(&c);
	synth_summary_free(&s);
}

/* every metric of both recordings, in each of diff's three outputs */
static void test_diff_outputs_have_every_metric(void)
{
	struct rec_metric m[REC_MAX_METRICS];
	struct rec_summary a, b;
	struct capture ct, cj, ch;
	const char *t, *j, *h;
	char k[KEY_LEN];
	int n, i;

	synth_summary(&a, "a.data", MODE_FENTRY, 1);
	synth_summary(&b, "b.data", MODE_FENTRY, 7);
	diff_text(capture_open(&ct), &a, &b);
	diff_json(capture_open(&cj), &a, &b);
	diff_html(capture_open(&ch), &a, &b);
	t = capture_text(&ct);
	j = capture_text(&cj);
	h = capture_text(&ch);
	n = rec_metrics(&a, m, REC_MAX_METRICS);
	CHECK(n < REC_MAX_METRICS);
	for (i = 0; i < n; i++) {
		CHECK_HAS(t, m[i].key, "diff text");
		quoted(k, m[i].key);
		CHECK_HAS(j, k, "diff --json");
		snprintf(k, sizeof(k), "<th>%s</th>", m[i].key);
		CHECK_HAS(h, k, "diff --html");
	}
	/* and every figure has at least one metric */
	for (i = 0; i < nr_figs; i++) {
		if (fig_table[i].type == FIG_CHECK)
			continue;
		snprintf(k, sizeof(k), "%s.", fig_table[i].key);
		CHECK_HAS(t, k, "diff text");
	}
	capture_free(&ct);
	capture_free(&cj);
	capture_free(&ch);
	synth_summary_free(&a);
	synth_summary_free(&b);
}

static void test_top_has_every_column(void)
{
	struct top_frame fr;
	struct top_view v = { .delay = 1,
			      .batch = true,
			      .pane = PANE_BATCH,
			      .zone_filter = ZF_ALL };
	struct top_data d;
	struct top_ctx ctx;
	struct snapshot snap;
	struct facts fa;
	struct capture c;
	const char *t;
	int i, k;

	top_cols_init();
	synth_facts(&fa, MODE_FENTRY, false);
	ctx.facts = &fa;
	ctx.nr_cpus = 2;
	ctx.cost_off = NULL;
	REQUIRE(!snapshot_alloc(&snap, 2));
	REQUIRE(!top_data_init(&d, &snap, 2));
	d.zi_err = -1;
	d.secs = 1;
	top_rows_build(&ctx, &v, &d);
	/* wide enough for every column */
	REQUIRE(!top_frame_init(&fr, TOP_LINE_LEN - 1, 0));
	REQUIRE(!top_draw_main(&fr, &ctx, &v, &d));
	top_frame_print(&fr, capture_open(&c));
	t = capture_text(&c);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *fd = &fig_table[i];
		const char *labels[] = { fd->col_events, fd->col_pages,
					 fd->col_avg,	 fd->col_max,
					 fd->col_p50,	 fd->col_p99 };

		for (k = 0; k < 6; k++)
			if (labels[k])
				CHECK_HAS(t, labels[k],
					  "the live view's header");
	}
	capture_free(&c);
	top_frame_free(&fr);
	top_data_free(&d);
	snapshot_free(&snap);
	facts_free(&fa);
}

const struct unit_test output_tests[] = {
	TEST(test_stat_text_has_every_figure),
	TEST(test_stat_json_has_every_figure),
	TEST(test_stat_json_cross_check_only_when_asked),
	TEST(test_prom_has_every_metric),
	TEST(test_report_text_has_every_figure),
	TEST(test_report_json_and_csv_have_every_figure),
	TEST(test_report_html_has_every_figure),
	TEST(test_diff_outputs_have_every_metric),
	TEST(test_top_has_every_column),
	TEST_END,
};
