// SPDX-License-Identifier: GPL-2.0-only
/*
 * Issue 33: every chart report --html, diff --html and whatif --html
 * draw, read back from its SVG as text boxes (svgtext.c): no text over
 * another, none out of its chart. The pages are made from synthetic
 * recordings in each mode, from the recordings older versions made
 * (tests/fixtures/rec), and from whatif's replays with zone->lock timed
 * and not. tests/record/textboxes.js checks the same as Chromium lays
 * the pages out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outputs.h"
#include "recfile.h"
#include "report_view.h"
#include "svg.h"
#include "svgtext.h"
#include "synth.h"
#include "test_whatif.h"
#include "whatif_view.h"

#define FIXTURE_010 "rec/host-tp-0.1.0.data"
#define FIXTURE_12 "rec/host-tp-1.2.data"
/* diff's runs a side in its many-run page */
#define RUNS 3

/* c's page: its charts' faults; at least min charts in it */
static void page_clear(struct capture *c, const char *what, int min)
{
	int charts;

	svgt_check_page(capture_text(c), what, &charts);
	if (charts < min)
		unit_fail(__FILE__, __LINE__, "%s: %d charts, want %d or more",
			  what, charts, min);
	capture_free(c);
}

static void test_report_charts_text_clear(void)
{
	static const char *const fixtures[] = { FIXTURE_010, FIXTURE_12 };
	char what[64], msg[REC_ERR_LEN];
	struct rec_summary s;
	struct capture c;
	size_t m;

	for (m = 0; m < NR_OUTPUT_MODES; m++) {
		synth_summary(&s, "a.data", output_modes[m], 1);
		report_html(capture_open(&c), &s);
		snprintf(what, sizeof(what), "report --html, %s mode",
			 probe_mode_name(output_modes[m]));
		/* the budget, the histograms, the timeline, a sampled chart */
		page_clear(&c, what, 4);
		synth_summary_free(&s);
	}
	for (m = 0; m < sizeof(fixtures) / sizeof(fixtures[0]); m++) {
		REQUIRE(rec_summary_load(fixture(fixtures[m]), &s, msg,
					 sizeof(msg)) == 0);
		report_html(capture_open(&c), &s);
		snprintf(what, sizeof(what), "report --html %s", fixtures[m]);
		page_clear(&c, what, 2);
		rec_summary_free(&s);
	}
}

/* a diff of RUNS runs a side, each side's runs all the same summary */
static struct cmp_result *runs_compare(const struct rec_summary *a,
				       const struct rec_summary *b)
{
	struct cmp_result *r = calloc(1, sizeof(*r));
	int i;

	if (!r)
		return NULL;
	r->a.n = r->b.n = RUNS;
	for (i = 0; i < RUNS; i++) {
		r->a.run[i] = a;
		r->b.run[i] = b;
	}
	if (cmp_build(r)) {
		free(r);
		return NULL;
	}
	return r;
}

static void diff_clear(enum probe_mode ma, enum probe_mode mb, bool many)
{
	struct rec_summary a, b;
	struct cmp_result *r;
	struct capture c;
	char what[96];

	synth_summary(&a, "a.data", ma, 1);
	synth_summary(&b, "b.data", mb, 7);
	r = many ? runs_compare(&a, &b) : synth_compare(&a, &b);
	REQUIRE(r);
	diff_html(capture_open(&c), r);
	snprintf(what, sizeof(what), "diff --html, %s and %s modes%s",
		 probe_mode_name(ma), probe_mode_name(mb),
		 many ? ", 3 runs a side" : "");
	page_clear(&c, what, 4);
	free(r);
	synth_summary_free(&a);
	synth_summary_free(&b);
}

static void test_diff_charts_text_clear(void)
{
	struct rec_summary a, b;
	struct cmp_result *r;
	char msg[REC_ERR_LEN];
	struct capture c;

	diff_clear(MODE_FENTRY, MODE_FENTRY, false);
	diff_clear(MODE_TRACEPOINT, MODE_TRACEPOINT, false);
	diff_clear(MODE_KPROBE, MODE_TRACEPOINT, false);
	diff_clear(MODE_FENTRY, MODE_TRACEPOINT, true);
	REQUIRE(rec_summary_load(fixture(FIXTURE_010), &a, msg, sizeof(msg)) ==
		0);
	REQUIRE(rec_summary_load(fixture(FIXTURE_12), &b, msg, sizeof(msg)) ==
		0);
	r = synth_compare(&a, &b);
	REQUIRE(r);
	diff_html(capture_open(&c), r);
	page_clear(&c, "diff --html of the 0.1.0 and 1.2 recordings", 2);
	free(r);
	rec_summary_free(&a);
	rec_summary_free(&b);
}

/* the knee's x tick labels: the row of the lowest "0", its last one */
static const char *last_x_label(const struct svgt_chart *c)
{
	const struct svgt_text *last = NULL;
	double row = -1;
	int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->t[i].s, "0") && c->t[i].y > row)
			row = c->t[i].y;
	for (i = 0; i < c->n; i++)
		if (c->t[i].y == row && (!last || c->t[i].x > last->x))
			last = &c->t[i];
	return last ? last->s : "";
}

/* the knee's x axes end at the last scale replayed, not past it */
static void knee_axes_end_at(const char *page, int charts, const char *want)
{
	struct svgt_chart *c = malloc(sizeof(*c));
	const char *p = page;
	int knees = 0;

	REQUIRE(c);
	while ((p = svgt_next(page, p, c))) {
		if (!strstr(c->label, "against the scale"))
			continue;
		knees++;
		CHECK_EQ_STR(last_x_label(c), want);
	}
	CHECK_EQ_INT(knees, charts);
	free(c);
}

static void whatif_clear(bool timed, const char *scales, const char *last)
{
	struct capture c;
	char what[64];
	struct tw x;
	FILE *f;

	REQUIRE(tw_written(&x, PCPM_RULES_6_12, 5, 31) == 0);
	if (timed)
		tw_timed(&x, 300, 25, false);
	REQUIRE(tw_run(&x, scales) == 0);
	f = capture_open(&c);
	REQUIRE(f);
	whatif_html(f, &x.w);
	snprintf(what, sizeof(what), "whatif --html --scale %s%s", scales,
		 timed ? ", zone->lock timed" : "");
	knee_axes_end_at(capture_text(&c), timed ? 2 : 1, last);
	/* the knee (interrupts off where timed, acquisitions), parked */
	page_clear(&c, what, timed ? 3 : 2);
	tw_free(&x);
}

static void test_whatif_charts_text_clear(void)
{
	whatif_clear(true, "0-6", "6");
	whatif_clear(false, "0-6", "6");
	/* the recorded scale 5 past the replays' last */
	whatif_clear(true, "0-3", "5");
}

/*
 * The estimate against DejaVu Sans, Debian's sans-serif, as Chromium
 * measured these strings (canvas measureText, px): never narrower, and
 * not so much wider that the charts waste their room.
 */
static void test_text_width_covers_the_font(void)
{
	static const struct {
		const char *s;
		int px;
		bool bold;
		double font;
	} w[] = {
		{ "interrupts off, p99 (predicted)", 12, false, 178.90 },
		{ "max, recorded", 12, false, 87.11 },
		{ "zone->lock acquisitions against the scale", 14, true,
		  326.60 },
		{ "WWW mmm %@M", 12, false, 112.05 },
		{ "0123456789.k", 12, false, 87.11 },
		{ "A bulk_free pages/s", 12, false, 117.52 },
		{ "iiii llll ffff", 12, false, 50.84 },
		{ "Memory parked in pcp lists", 14, true, 214.05 },
		{ "seconds since the start", 12, false, 139.31 },
	};
	size_t i;
	double e;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		e = svg_text_width(w[i].s, w[i].px, w[i].bold);
		if (e < w[i].font || e > w[i].font * 1.3)
			unit_fail(
				__FILE__, __LINE__,
				"\"%s\" at %d px: estimated %.1f, the font's %.1f",
				w[i].s, w[i].px, e, w[i].font);
	}
	/* a character a UTF-8 sequence */
	CHECK(svg_text_width("\xc2\xb5s", 12, false) ==
	      svg_text_width("Ms", 12, false));
}

const struct unit_test chart_text_tests[] = {
	TEST(test_text_width_covers_the_font),
	TEST(test_report_charts_text_clear),
	TEST(test_diff_charts_text_clear),
	TEST(test_whatif_charts_text_clear),
	TEST_END,
};
