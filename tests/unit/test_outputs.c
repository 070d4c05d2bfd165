// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every figure of figtab in every output: stat's text and JSON, the
 * Prometheus file, report's text, JSON, CSV and HTML, diff's text, JSON
 * and HTML, and the live view's columns, system line and pane. A row
 * added to fig_table that one of them does not show fails here, naming
 * the output and the row. Text is matched by the row a figure prints,
 * with its value, never by its name alone: names recur in titles.
 */
#include <stdio.h>
#include <string.h>
#include "figtab.h"
#include "outcheck.h"
#include "prom.h"
#include "report_view.h"
#include "stat_print.h"
#include "synth.h"
#include "top.h"
#include "unit.h"

#define KEY_LEN 128

/* a line of text starting with prefix, holding the number v */
#define CHECK_ROW(text, prefix, v, output)                                    \
	do {                                                                  \
		char line_[OUT_LINE_LEN];                                     \
		if (!out_line((text), (prefix), line_))                       \
			unit_fail(__FILE__, __LINE__, "%s has no row \"%s\"", \
				  (output), (prefix));                        \
		else if (!out_has_number(line_, (long long)(v)))              \
			unit_fail(__FILE__, __LINE__,                         \
				  "%s: row \"%s\" lacks %lld: %s", (output),  \
				  (prefix), (long long)(v), line_);           \
	} while (0)

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

/* every figure is measured in one of these, and tested there */
static const enum probe_mode modes[] = { MODE_FENTRY, MODE_TRACEPOINT };
#define NR_MODES (sizeof(modes) / sizeof(modes[0]))

static void test_every_figure_measured_somewhere(void)
{
	struct facts fa[NR_MODES];
	size_t m;
	int i;

	for (m = 0; m < NR_MODES; m++)
		synth_facts(&fa[m], modes[m], true);
	for (i = 0; i < nr_figs; i++) {
		bool any = false;

		for (m = 0; m < NR_MODES; m++)
			any |= facts_fig_shown(&fa[m], &fig_table[i]);
		if (!any)
			unit_fail(__FILE__, __LINE__,
				  "%s is measured in no mode",
				  fig_table[i].key);
	}
	for (m = 0; m < NR_MODES; m++)
		facts_free(&fa[m]);
}

static void quoted(char *buf, const char *key)
{
	snprintf(buf, KEY_LEN, "\"%s\":", key);
}

/* the row a figure prints in stat's and report's text, and a value in it */
static long long text_row(const struct fig_desc *d, const struct figures *f,
			  const struct samples *s, char *prefix, size_t len)
{
	switch (d->type) {
	case FIG_BATCH:
		snprintf(prefix, len, "  %s ", d->key);
		return (long long)fig_events(d, f);
	case FIG_TIME:
		snprintf(prefix, len, "  %s", d->title);
		return (long long)fig_max(d, f);
	case FIG_CHECK:
		snprintf(prefix, len, "  %s: ", d->key);
		return (long long)fig_pages(d, f);
	case FIG_COUNT:
		snprintf(prefix, len, "  %s: ", d->key);
		return (long long)fig_total(d, f);
	case FIG_SAMPLED:
		snprintf(prefix, len, "  %s ", d->key);
		return (long long)sample_value(d, samples_cell(s, d, 0));
	}
	return -1;
}

/* every figure's row and every histogram's title line */
static void text_rows(const char *t, const struct facts *fa,
		      const struct figures *f, const struct samples *s,
		      const char *output)
{
	char k[KEY_LEN];
	long long v;
	int i;

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (!facts_fig_shown(fa, d))
			continue;
		v = text_row(d, f, s, k, sizeof(k));
		CHECK_ROW(t, k, v, output);
	}
	for (i = 0; i < NR_PCPTOP_HISTS; i++) {
		if (!facts_hist_shown(fa, i) ||
		    !strcmp(hist_table[i].unit, "scale"))
			continue;
		snprintf(k, sizeof(k), "\n  %s:\n", hist_table[i].title);
		CHECK_HAS(t, k, output);
	}
}

static void stat_text_in(enum probe_mode mode)
{
	struct facts fa;
	struct figures f;
	struct samples s;
	struct capture c;

	synth_facts(&fa, mode, true);
	synth_figures(&f, 1);
	REQUIRE(!samples_alloc(&s));
	synth_samples(&s, 1);
	stat_print_text(capture_open(&c), &fa, &f, &s, 1.0, true);
	text_rows(capture_text(&c), &fa, &f, &s, "stat text");
	capture_free(&c);
	samples_free(&s);
	facts_free(&fa);
}

static void test_stat_text_has_every_figure(void)
{
	size_t m;

	for (m = 0; m < NR_MODES; m++)
		stat_text_in(modes[m]);
}

static void stat_json_in(enum probe_mode mode)
{
	char k[KEY_LEN];
	struct facts fa;
	struct figures f;
	struct samples s;
	struct capture c;
	const char *t;
	int i, r;

	synth_facts(&fa, mode, true);
	synth_figures(&f, 1);
	REQUIRE(!samples_alloc(&s));
	synth_samples(&s, 1);
	stat_print_json(capture_open(&c), &fa, &f, &s, 1.0);
	t = capture_text(&c);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		/* a figure this mode does not measure is null */
		snprintf(k, sizeof(k),
			 facts_fig_shown(&fa, d) ? "\"%s\":{" : "\"%s\":null",
			 d->key);
		CHECK_HAS(t, k, "stat --json");
		if (!facts_fig_shown(&fa, d))
			continue;
		if (d->type == FIG_SAMPLED &&
		    !out_has_key_number(t, "value",
					sample_value(d,
						     samples_cell(&s, d, 0))))
			unit_fail(__FILE__, __LINE__,
				  "stat --json: %s has not its value", d->key);
		if (d->events_key) {
			quoted(k, d->events_key);
			CHECK_HAS(t, k, "stat --json");
		}
		for (r = 0; r < FIG_MAX_RATIOS && d->ratios[r].key; r++) {
			quoted(k, d->ratios[r].key);
			CHECK_HAS(t, k, "stat --json");
		}
		for (r = 0; r < FIG_MAX_EXTRAS && d->extras[r].key; r++) {
			quoted(k, d->extras[r].key);
			if (facts_extra_shown(&fa, d, r))
				CHECK_HAS(t, k, "stat --json");
			else if (strstr(t, k))
				unit_fail(
					__FILE__, __LINE__,
					"stat --json shows %s, not counted in this mode",
					d->extras[r].key);
		}
	}
	for (i = 0; i < NR_PCPTOP_HISTS; i++) {
		if (!facts_hist_shown(&fa, i))
			continue;
		quoted(k, hist_table[i].key);
		CHECK_HAS(t, k, "stat --json hist");
	}
	capture_free(&c);
	samples_free(&s);
	facts_free(&fa);
}

static void test_stat_json_has_every_figure(void)
{
	size_t m;

	for (m = 0; m < NR_MODES; m++)
		stat_json_in(modes[m]);
}

/*
 * The contract: hist.lock_hold_ns and hist.lock_wait_ns, each
 * with p50, p99, max and total, as separate objects in fentry mode.
 */
static void test_stat_json_lock_hold_and_wait(void)
{
	static const char *const keys[] = { "lock_hold_ns", "lock_wait_ns",
					    "irqs_off_ns" };
	static const char *const fields[] = { "\"total\":", "\"p50\":",
					      "\"p99\":", "\"max\":",
					      "\"buckets\":[" };
	char k[KEY_LEN];
	struct facts fa;
	struct figures f;
	struct samples s;
	struct capture c;
	const char *t, *obj, *end;
	size_t i, j;

	synth_facts(&fa, MODE_FENTRY, false);
	synth_figures(&f, 1);
	REQUIRE(!samples_alloc(&s));
	stat_print_json(capture_open(&c), &fa, &f, &s, 1.0);
	samples_free(&s);
	t = capture_text(&c);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(k, sizeof(k), "\"hist\":{");
		obj = strstr(t, k);
		CHECK(obj != NULL);
		if (!obj)
			break;
		snprintf(k, sizeof(k), "\"%s\":{\"unit\":\"nsecs\"", keys[i]);
		obj = strstr(obj, k);
		CHECK_HAS(t, k, "stat --json hist");
		if (!obj)
			continue;
		end = strchr(obj, '[');
		for (j = 0; j < sizeof(fields) / sizeof(fields[0]); j++) {
			const char *at = strstr(obj, fields[j]);

			if (!at || at > end)
				unit_fail(__FILE__, __LINE__,
					  "hist.%s lacks %s before its buckets",
					  keys[i], fields[j]);
		}
	}
	capture_free(&c);
	facts_free(&fa);
}

/* stat leaves the cross-check out unless it was asked for */
static void test_stat_json_cross_check_only_when_asked(void)
{
	struct facts fa;
	struct figures f;
	struct samples s;
	struct capture c;

	synth_facts(&fa, MODE_FENTRY, false);
	synth_figures(&f, 1);
	REQUIRE(!samples_alloc(&s));
	stat_print_json(capture_open(&c), &fa, &f, &s, 1.0);
	samples_free(&s);
	CHECK(strstr(capture_text(&c), "\"cross_check\":null"));
	capture_free(&c);
	facts_free(&fa);
}

static void prom_in(enum probe_mode mode)
{
	char k[KEY_LEN];
	struct prom_state ps;
	struct facts fa;
	struct figures f;
	struct samples s;
	struct capture c;
	const char *t;
	int i, x;

	synth_facts(&fa, mode, true);
	synth_figures(&f, 1);
	REQUIRE(!samples_alloc(&s));
	synth_samples(&s, 1);
	prom_init(&ps, NULL, &fa);
	REQUIRE(!prom_add(&ps, &f, &s, 1.0));
	prom_write(capture_open(&c), &ps, &f, 1.0);
	t = capture_text(&c);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];
		const char *names[] = { d->prom_events, d->prom_pages,
					d->prom_total };
		size_t n;

		if (!facts_fig_shown(&fa, d))
			continue;
		if (d->type == FIG_SAMPLED) {
			/* a line per zone, or one for the machine */
			snprintf(k, sizeof(k), "\n%s%s",
				 d->prom_total ? d->prom_total : d->prom_gauge,
				 d->sample.per_zone ? "{zone=\"Normal\"" :
				 d->prom_total	    ? "{" :
						      " ");
			CHECK_HAS(t, k, "--prom");
			continue;
		}
		for (n = 0; n < sizeof(names) / sizeof(names[0]); n++) {
			if (!names[n])
				continue;
			snprintf(k, sizeof(k), "\n%s{", names[n]);
			CHECK_HAS(t, k, "--prom");
		}
		for (x = 0; x < FIG_MAX_EXTRAS && d->extras[x].key; x++) {
			if (!d->extras[x].prom || !facts_extra_shown(&fa, d, x))
				continue;
			snprintf(k, sizeof(k), "\n%s{", d->extras[x].prom);
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
		if (!facts_hist_shown(&fa, i))
			continue;
		snprintf(k, sizeof(k), "\n%s_count ", hist_table[i].prom);
		CHECK_HAS(t, k, "--prom histograms");
	}
	capture_free(&c);
	prom_free(&ps);
	samples_free(&s);
	facts_free(&fa);
}

static void test_prom_has_every_metric(void)
{
	size_t m;

	for (m = 0; m < NR_MODES; m++)
		prom_in(modes[m]);
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

	for (m = 0; m < NR_MODES; m++)
		report_text_in(modes[m]);
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

		quoted(k, d->key);
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
		quoted(k, hist_table[i].key);
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

	for (m = 0; m < NR_MODES; m++)
		report_json_in(modes[m]);
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
		if (d->type == FIG_BATCH) {
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

	for (m = 0; m < NR_MODES; m++)
		report_html_in(modes[m]);
}

/* every metric of both recordings, in each of diff's three outputs */
static void diff_in(enum probe_mode ma_mode, enum probe_mode mb_mode)
{
	struct rec_metric m[REC_MAX_METRICS], mb[REC_MAX_METRICS];
	struct rec_summary a, b;
	struct capture ct, cj, ch;
	const char *t, *j, *h;
	char k[KEY_LEN];
	int n, i;

	synth_summary(&a, "a.data", ma_mode, 1);
	synth_summary(&b, "b.data", mb_mode, 7);
	diff_text(capture_open(&ct), &a, &b);
	diff_json(capture_open(&cj), &a, &b);
	diff_html(capture_open(&ch), &a, &b);
	t = capture_text(&ct);
	j = capture_text(&cj);
	h = capture_text(&ch);
	n = rec_metrics(&a, &b, m, REC_MAX_METRICS);
	CHECK(n < REC_MAX_METRICS);
	/* the two sides line up, whatever each measured */
	CHECK_EQ_INT(rec_metrics(&b, &a, mb, REC_MAX_METRICS), n);
	for (i = 0; i < n; i++) {
		CHECK_EQ_STR(m[i].key, mb[i].key);
		CHECK_HAS(t, m[i].key, "diff text");
		quoted(k, m[i].key);
		CHECK_HAS(j, k, "diff --json");
		snprintf(k, sizeof(k), "<th>%s</th>", m[i].key);
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

static void top_in(enum probe_mode mode)
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

	synth_facts(&fa, mode, false);
	top_cols_init(&fa);
	ctx.facts = &fa;
	ctx.nr_cpus = 2;
	ctx.cost_off = NULL;
	REQUIRE(!snapshot_alloc(&snap, 2));
	REQUIRE(!top_data_init(&d, &snap, 2));
	synth_samples(&snap.smp, 1);
	snap.zi_err = -1;
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

		if (!facts_fig_shown(&fa, fd))
			continue;
		for (k = 0; k < 6; k++)
			if (labels[k])
				CHECK_HAS(t, labels[k],
					  "the live view's header");
		if (fd->type == FIG_SAMPLED && fd->live == LIVE_HEADER) {
			char line[OUT_LINE_LEN], word[KEY_LEN];

			REQUIRE(out_line(t, "system: ", line));
			snprintf(word, sizeof(word), "%s %lld", fd->key,
				 (long long)sample_value(
					 fd, samples_cell(&snap.smp, fd, 0)));
			CHECK_HAS(line, word, "the live view's system line");
		} else if (fd->type == FIG_SAMPLED && fd->live == LIVE_PANE) {
			char pre[KEY_LEN];

			snprintf(pre, sizeof(pre), "  %s ", fd->key);
			CHECK_ROW(t, pre,
				  sample_value(fd,
					       samples_cell(&snap.smp, fd, 0)),
				  "the live view's system pane");
		}
	}
	capture_free(&c);
	top_frame_free(&fr);
	top_data_free(&d);
	snapshot_free(&snap);
	facts_free(&fa);
}

static void test_top_has_every_column(void)
{
	size_t m;

	for (m = 0; m < NR_MODES; m++)
		top_in(modes[m]);
}

const struct unit_test output_tests[] = {
	TEST(test_every_figure_measured_somewhere),
	TEST(test_stat_text_has_every_figure),
	TEST(test_stat_json_has_every_figure),
	TEST(test_stat_json_lock_hold_and_wait),
	TEST(test_stat_json_cross_check_only_when_asked),
	TEST(test_prom_has_every_metric),
	TEST(test_report_text_has_every_figure),
	TEST(test_report_json_and_csv_have_every_figure),
	TEST(test_report_html_has_every_figure),
	TEST(test_diff_outputs_have_every_metric),
	TEST(test_top_has_every_column),
	TEST_END,
};
