// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every figure of figtab in report's text, JSON, CSV and HTML and in
 * diff's text, JSON and HTML, made from synthetic recordings (synth.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include "outputs.h"
#include "page_out.h"
#include "report_view.h"
#include "synth.h"

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

static void report_text_in(enum probe_mode mode)
{
	struct rec_summary s;
	struct capture c;
	const char *t;

	synth_summary(&s, "a.data", mode, 1);
	report_text(capture_open(&c), &s, true, true);
	t = capture_text(&c);
	text_rows(t, &s.h.f, &s.total, &s.total_smp, "report text");
	capture_free(&c);
	synth_summary_free(&s);
}

static void test_report_text_has_every_figure(void)
{
	size_t m;

	for (m = 0; m < NR_OUTPUT_MODES; m++)
		report_text_in(output_modes[m]);
}

static void report_json_in(enum probe_mode mode)
{
	char k[KEY_LEN];
	struct rec_summary s;
	struct capture c, v;
	const char *t, *csv;
	int i;

	synth_summary(&s, "a.data", mode, 1);
	report_json(capture_open(&c), &s);
	report_csv(capture_open(&v), &s);
	t = capture_text(&c);
	csv = capture_text(&v);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		out_quoted(k, d->key);
		CHECK_HAS(t, k, "report --json totals");
		if (d->type == FIG_SAMPLED) {
			/* and in every point of the timeline, and the CSV */
			CHECK(out_has_key_number(t, d->key,
						 rec_point_sample(&s, 2, d)));
			snprintf(k, sizeof(k), ",%s,", d->key);
			if (!strstr(csv, k)) {
				snprintf(k, sizeof(k), ",%s\n", d->key);
				CHECK_HAS(csv, k, "report --csv");
			}
		}
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
		out_quoted(k, hist_table[i].key);
		if (facts_hist_shown(&s.h.f, i))
			CHECK_HAS(t, k, "report --json hist");
	}
	capture_free(&c);
	capture_free(&v);
	synth_summary_free(&s);
}

static void test_report_json_and_csv_have_every_figure(void)
{
	size_t m;

	for (m = 0; m < NR_OUTPUT_MODES; m++)
		report_json_in(output_modes[m]);
}

static void report_html_in(enum probe_mode mode)
{
	char k[KEY_LEN], e[KEY_LEN];
	struct rec_summary s;
	struct capture c;
	const char *t;
	int i;

	synth_summary(&s, "a.data", mode, 1);
	report_html(capture_open(&c), &s);
	t = capture_text(&c);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (!facts_fig_shown(&s.h.f, d))
			continue;
		if (d->type == FIG_BATCH || d->type == FIG_SPLIT) {
			snprintf(k, sizeof(k), "<th>%s</th>", d->key);
			CHECK_HAS(t, k, "report --html");
		} else if (d->type == FIG_TIME) {
			escaped(k, d->title);
			CHECK_HAS(t, k, "report --html");
		} else if (d->type == FIG_SAMPLED) {
			snprintf(k, sizeof(k),
				 "<th style=\"text-align:left\">%s</th>",
				 d->key);
			CHECK_HAS(t, k, "report --html");
		}
	}
	for (i = 0; i < NR_PCPTOP_HISTS; i++) {
		if (!facts_hist_shown(&s.h.f, i) ||
		    !strcmp(hist_table[i].unit, "scale"))
			continue;
		escaped(e, hist_table[i].title);
		snprintf(k, sizeof(k), "aria-label=\"%s\"", e);
		if (hist_table[i].always_plotted || s.total.hist[i].samples)
			CHECK_HAS(t, k, "report --html plots");
	}
	capture_free(&c);
	synth_summary_free(&s);
}

static void test_report_html_has_every_figure(void)
{
	size_t m;

	for (m = 0; m < NR_OUTPUT_MODES; m++)
		report_html_in(output_modes[m]);
}

/* every metric of both recordings, in each of diff's three outputs */
static void diff_in(enum probe_mode ma_mode, enum probe_mode mb_mode)
{
	struct cmp_result *r;
	struct rec_summary a, b;
	struct capture ct, cj, ch;
	const char *t, *j, *h;
	char k[KEY_LEN];
	int i;

	synth_summary(&a, "a.data", ma_mode, 1);
	synth_summary(&b, "b.data", mb_mode, 7);
	r = synth_compare(&a, &b);
	REQUIRE(r);
	diff_text(capture_open(&ct), r);
	diff_json(capture_open(&cj), r);
	diff_html(capture_open(&ch), r);
	t = capture_text(&ct);
	j = capture_text(&cj);
	h = capture_text(&ch);
	CHECK(r->n > 0 && r->n < REC_MAX_METRICS);
	for (i = 0; i < r->n; i++) {
		snprintf(k, sizeof(k), "\n  %s ", r->m[i].m.key);
		CHECK_HAS(t, k, "diff text");
		out_quoted(k, r->m[i].m.key);
		CHECK_HAS(j, k, "diff --json");
		snprintf(k, sizeof(k), "<th>%s</th>", r->m[i].m.key);
		CHECK_HAS(h, k, "diff --html");
	}
	/* and every figure either measured has a metric */
	for (i = 0; i < nr_figs; i++) {
		if (fig_table[i].type == FIG_CHECK ||
		    (!facts_fig_shown(&a.h.f, &fig_table[i]) &&
		     !facts_fig_shown(&b.h.f, &fig_table[i])))
			continue;
		snprintf(k, sizeof(k), "%s.", fig_table[i].key);
		CHECK_HAS(t, k, "diff text");
	}
	capture_free(&ct);
	capture_free(&cj);
	capture_free(&ch);
	free(r);
	synth_summary_free(&a);
	synth_summary_free(&b);
}

static void test_diff_outputs_have_every_metric(void)
{
	diff_in(MODE_FENTRY, MODE_FENTRY);
	diff_in(MODE_TRACEPOINT, MODE_TRACEPOINT);
	/* a board in kprobe mode against a server in tracepoint mode */
	diff_in(MODE_KPROBE, MODE_TRACEPOINT);
}

static int page_fails(FILE *f, const void *ctx)
{
	fputs("<html>half a page", f);
	return -ENOMEM;
}

static int page_ok(FILE *f, const void *ctx)
{
	fputs("<html></html>", f);
	return 0;
}

/* a page that could not be built is an error, not a page written */
static void test_page_out_passes_the_page_error_on(void)
{
	char path[] = "/tmp/pcptop-page-XXXXXX";
	int fd = mkstemp(path);

	REQUIRE(fd >= 0);
	close(fd);
	unlink(path);
	CHECK_EQ_INT(page_out(path, page_ok, NULL), 0);
	unlink(path);
	CHECK_EQ_INT(page_out(path, page_fails, NULL), -ENOMEM);
	unlink(path);
}

const struct unit_test rec_output_tests[] = {
	TEST(test_page_out_passes_the_page_error_on),
	TEST(test_report_text_has_every_figure),
	TEST(test_report_json_and_csv_have_every_figure),
	TEST(test_report_html_has_every_figure),
	TEST(test_diff_outputs_have_every_metric),
	TEST_END,
};
