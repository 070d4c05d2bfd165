// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every figure of figtab in every live output: stat's text and JSON, the
 * Prometheus file, and the live view's columns, system line and pane
 * (test_rec_outputs.c has report and diff). A row added to fig_table that
 * one of them does not show fails here, naming the output and the row.
 * Text is matched by the row a figure prints, with its value, never by
 * its name alone: names recur in titles.
 */
#include <stdio.h>
#include <string.h>
#include "figtab.h"
#include "outputs.h"
#include "prom.h"
#include "stat_print.h"
#include "synth.h"
#include "top.h"

const enum probe_mode output_modes[NR_OUTPUT_MODES] = { MODE_FENTRY,
							MODE_TRACEPOINT };

static void test_every_figure_measured_somewhere(void)
{
	struct facts fa[NR_OUTPUT_MODES];
	size_t m;
	int i;

	for (m = 0; m < NR_OUTPUT_MODES; m++)
		synth_facts(&fa[m], output_modes[m], true);
	for (i = 0; i < nr_figs; i++) {
		bool any = false;

		for (m = 0; m < NR_OUTPUT_MODES; m++)
			any |= facts_fig_shown(&fa[m], &fig_table[i]);
		if (!any)
			unit_fail(__FILE__, __LINE__,
				  "%s is measured in no mode",
				  fig_table[i].key);
	}
	for (m = 0; m < NR_OUTPUT_MODES; m++)
		facts_free(&fa[m]);
}

void out_quoted(char *buf, const char *key)
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
	case FIG_SPLIT:
		snprintf(prefix, len, "  %s: ", d->key);
		return (long long)fig_split_total(d, f);
	}
	return -1;
}

/* every figure's row and every histogram's title line */
void text_rows(const char *t, const struct facts *fa, const struct figures *f,
	       const struct samples *s, const char *output)
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

	for (m = 0; m < NR_OUTPUT_MODES; m++)
		stat_text_in(output_modes[m]);
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
		/* each number in the figure's own object, not anywhere */
		if (d->type == FIG_SAMPLED &&
		    !out_obj_key_number(t, d->key, "value",
					sample_value(d,
						     samples_cell(&s, d, 0))))
			unit_fail(__FILE__, __LINE__,
				  "stat --json: %s has not its value", d->key);
		if (d->events_key &&
		    !out_obj_key_number(t, d->key, d->events_key,
					(long long)fig_events(d, &f)))
			unit_fail(__FILE__, __LINE__,
				  "stat --json: %s has not its %s", d->key,
				  d->events_key);
		for (r = 0; r < FIG_MAX_RATIOS && d->ratios[r].key; r++) {
			out_quoted(k, d->ratios[r].key);
			CHECK_HAS(t, k, "stat --json");
		}
		for (r = 0; r < FIG_MAX_EXTRAS && d->extras[r].key; r++) {
			out_quoted(k, d->extras[r].key);
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
		out_quoted(k, hist_table[i].key);
		CHECK_HAS(t, k, "stat --json hist");
	}
	capture_free(&c);
	samples_free(&s);
	facts_free(&fa);
}

static void test_stat_json_has_every_figure(void)
{
	size_t m;

	for (m = 0; m < NR_OUTPUT_MODES; m++)
		stat_json_in(output_modes[m]);
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
				 d->sample.scope == SCOPE_ZONE_ORDER ?
					 "{zone=\"Normal\",order=\"2\"" :
				 d->sample.scope == SCOPE_ZONE ?
					 "{zone=\"Normal\"" :
				 d->prom_total ? "{" :
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

	for (m = 0; m < NR_OUTPUT_MODES; m++)
		prom_in(output_modes[m]);
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
	char header[OUT_LINE_LEN];
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
	/* the table's header: the line naming its CPU and zone columns */
	REQUIRE(out_line(t, " *CPU ", header) ||
		out_line(t, "  CPU ", header) || out_line(t, " CPU ", header));
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *fd = &fig_table[i];
		const char *labels[] = { fd->col_events, fd->col_pages,
					 fd->col_avg,	 fd->col_max,
					 fd->col_p50,	 fd->col_p99 };

		if (!facts_fig_shown(&fa, fd))
			continue;
		/* a column's label as a word of the header: MAX is not SMAX */
		for (k = 0; k < 6; k++)
			if (labels[k] && !out_word(header, labels[k]))
				unit_fail(__FILE__, __LINE__,
					  "the live view's header lacks %s: %s",
					  labels[k], header);
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
		} else if (fd->live == LIVE_PANE) {
			/* over every CPU and zone: none counted here */
			char pre[KEY_LEN];

			snprintf(pre, sizeof(pre), "  %s ", fd->key);
			CHECK_ROW(t, pre, 0, "the live view's system pane");
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

	for (m = 0; m < NR_OUTPUT_MODES; m++)
		top_in(output_modes[m]);
}

/*
 * A split's every part, with its value, in stat's text, JSON and --prom,
 * and the parts add up to the total each prints
 */
static void test_splits_show_every_part(void)
{
	char k[KEY_LEN], line[OUT_LINE_LEN];
	struct capture ct, cj, cp;
	struct prom_state ps;
	const char *t, *j, *p;
	struct figures f;
	struct samples s;
	struct facts fa;
	int i, n = 0, x;

	synth_facts(&fa, MODE_FENTRY, false);
	synth_figures(&f, 1);
	REQUIRE(!samples_alloc(&s));
	stat_print_text(capture_open(&ct), &fa, &f, &s, 1.0, true);
	stat_print_json(capture_open(&cj), &fa, &f, &s, 1.0);
	prom_init(&ps, NULL, &fa);
	REQUIRE(!prom_add(&ps, &f, &s, 1.0));
	prom_write(capture_open(&cp), &ps, &f, 1.0);
	t = capture_text(&ct);
	j = capture_text(&cj);
	p = capture_text(&cp);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];
		uint64_t sum = 0;

		if (d->type != FIG_SPLIT || !facts_fig_shown(&fa, d))
			continue;
		n++;
		snprintf(k, sizeof(k), "  %s: ", d->key);
		REQUIRE(out_line(t, k, line));
		for (x = 0; x < fig_nr_parts(d); x++) {
			uint64_t v = fig_part(d, x, &f);

			sum += v;
			CHECK(v > 0);
			snprintf(k, sizeof(k), " %s %llu", d->parts[x].key,
				 (unsigned long long)v);
			CHECK_HAS(line, k, "stat text split");
			CHECK(out_has_key_number(j, d->parts[x].key,
						 (long long)v));
			snprintf(k, sizeof(k), "\n%s{%s=\"%s\",", d->prom_total,
				 d->part_label, d->parts[x].key);
			CHECK_HAS(p, k, "--prom split");
		}
		CHECK_EQ_U64(sum, fig_split_total(d, &f));
		CHECK(out_has_number(line, (long long)sum));
	}
	CHECK(n >= 3);
	capture_free(&ct);
	capture_free(&cj);
	capture_free(&cp);
	prom_free(&ps);
	samples_free(&s);
	facts_free(&fa);
}

const struct unit_test output_tests[] = {
	TEST(test_splits_show_every_part),
	TEST(test_every_figure_measured_somewhere),
	TEST(test_stat_text_has_every_figure),
	TEST(test_stat_json_has_every_figure),
	TEST(test_stat_json_lock_hold_and_wait),
	TEST(test_stat_json_cross_check_only_when_asked),
	TEST(test_prom_has_every_metric),
	TEST(test_top_has_every_column),
	TEST_END,
};
