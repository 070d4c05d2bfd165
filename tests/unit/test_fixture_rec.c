// SPDX-License-Identifier: GPL-2.0-only
/*
 * Recordings made by released versions must keep reading. The fixture
 * tests/fixtures/rec/host-tp-0.1.0.data was recorded by pcptop 0.1.0
 * (format 1.0, no names in its header) around `churn -m 64 -n 2` in
 * tracepoint mode; the numbers below are what 0.1.0's own report said.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "prom.h"
#include "recbuf.h"
#include "recfile_fixture.h"
#include "recfile.h"
#include "report_view.h"
#include "synth.h"
#include "unit.h"

#define FIXTURE_010 "rec/host-tp-0.1.0.data"

static int load(struct rec_summary *s)
{
	char msg[REC_ERR_LEN];

	return rec_summary_load(fixture(FIXTURE_010), s, msg, sizeof(msg));
}

static void test_010_header(void)
{
	struct rec_summary s;

	REQUIRE(load(&s) == 0);
	CHECK_EQ_INT(s.h.version_major, 1);
	CHECK_EQ_INT(s.h.version_minor, 0);
	CHECK(!s.h.have_names);
	CHECK_EQ_STR(s.h.pcptop_version, "0.1.0");
	CHECK_EQ_STR(s.h.f.mode_summary, "tracepoint");
	CHECK_EQ_INT(facts_mode(&s.h.f, PROBE_BULK_FREE), MODE_TRACEPOINT);
	/* 0.1.0 called its order 1-3 runs free_high: read as hi_order_runs */
	CHECK_EQ_INT(facts_mode(&s.h.f, PROBE_FREE_HIGH), MODE_NONE);
	CHECK(facts_estimated(&s.h.f, PROBE_REFILL));
	CHECK_EQ_INT(s.h.f.scale.value, 5);
	CHECK_EQ_INT(s.h.f.scale.source, SCALE_SRC_CONFIG);
	CHECK_EQ_INT(s.h.f.pageblock_order, 9);
	CHECK_EQ_INT(facts_max_batch(&s.h.f), 63);
	CHECK_EQ_U64(s.h.f.run_cap_pages, 2016);
	REQUIRE(s.h.argc == 5);
	CHECK_EQ_STR(s.h.argv[0], "build/churn");
	CHECK(s.have_end && s.end.have_command);
	CHECK_EQ_INT(s.end.exit_code, 0);
	CHECK_EQ_INT(s.nr_points, 2);
	CHECK_EQ_INT(s.stop_err, 0);
	rec_summary_free(&s);
}

/* the totals 0.1.0's report printed for this file */
static void test_010_totals(void)
{
	const struct fig_desc *bulk = fig_find("bulk_free");
	const struct fig_desc *refill = fig_find("refill");
	/* 0.1.0's "zone->lock" times were, in tracepoint mode, event spans */
	const struct fig_desc *lock = fig_find("bulk_free_span_ns");
	const struct fig_desc *rlock = fig_find("refill_span_ns");
	struct rec_summary s;
	int scale;

	REQUIRE(bulk && refill && lock && rlock);
	REQUIRE(load(&s) == 0);
	CHECK_EQ_U64(fig_events(bulk, &s.total), 10);
	CHECK_EQ_U64(fig_pages(bulk, &s.total), 14697);
	CHECK_EQ_U64(fig_max(bulk, &s.total), 2016);
	CHECK_EQ_U64(fig_events(refill, &s.total), 21);
	CHECK_EQ_U64(fig_pages(refill, &s.total), 16439);
	CHECK_EQ_U64(fig_max(refill, &s.total), 1024);
	CHECK_EQ_U64(fig_total(lock, &s.total), 1282583);
	CHECK_EQ_U64(fig_max(lock, &s.total), 287869);
	CHECK_EQ_U64(fig_pct(lock, &s.total, 99), 524287);
	CHECK_EQ_U64(fig_total(rlock, &s.total), 152318);
	CHECK_EQ_U64(s.cpu_cnt[0][CNT_BULK_FREE_PAGES], 14697);
	CHECK_EQ_U64(s.cpu_cnt[1][CNT_REFILL_PAGES], 5632);
	CHECK_EQ_U64(s.zone_cnt[PCPTOP_ZONE_UNKNOWN][CNT_REFILL_PAGES], 16439);
	CHECK_EQ_U64(s.points[1].cnt[CNT_BULK_FREE_PAGES], 14634);
	CHECK_EQ_U64(s.points[1].hp99[HIST_BULK_SPAN_NS], 524287);
	/* and its free_high in tracepoint mode was any run from an order 1-3 list */
	CHECK_EQ_U64(s.total.cnt[CNT_FREE_HIGH_COUNT], 0);
	/* no flush, drain or decay chunk: nothing to infer from */
	CHECK(rec_inferred_scale(&s, &scale) < 0);
	rec_summary_free(&s);
}

/* the same file through every report format: the numbers come out */
static void test_010_reports(void)
{
	struct rec_summary s;
	struct capture t, j, c, h;

	REQUIRE(load(&s) == 0);
	report_text(capture_open(&t), &s, true, true);
	report_json(capture_open(&j), &s);
	report_csv(capture_open(&c), &s);
	report_html(capture_open(&h), &s);
	CHECK(strstr(capture_text(&t),
		     "  bulk_free               10~          14697"));
	CHECK(strstr(
		capture_text(&j),
		"\"bulk_free\":{\"calls\":10,\"pages\":14697,\"max\":2016"));
	CHECK(strstr(capture_text(&c), "0.926,0.424,9,14634,0,12,0,8696,"));
	CHECK(strstr(capture_text(&h),
		     "<th>refill</th><td>21 ~</td><td>16439</td>"));
	capture_free(&t);
	capture_free(&j);
	capture_free(&c);
	capture_free(&h);
	rec_summary_free(&s);
}

/* diff of a recording with itself: every change is zero */
static void test_010_diff_with_itself(void)
{
	struct cmp_result *r;
	struct rec_summary a, b;
	struct capture j;
	int i;

	REQUIRE(load(&a) == 0);
	REQUIRE(load(&b) == 0);
	r = synth_compare(&a, &b);
	REQUIRE(r);
	for (i = 0; i < r->n; i++)
		CHECK(r->m[i].a == r->m[i].b ||
		      (r->m[i].a != r->m[i].a && r->m[i].b != r->m[i].b));
	CHECK_EQ_INT(r->nr_moved, 0);
	diff_json(capture_open(&j), r);
	CHECK(strstr(
		capture_text(&j),
		"\"bulk_free.pages\":{\"a\":14697,\"b\":14697,\"delta\":0,\"change_pct\":0"));
	CHECK(strstr(capture_text(&j), "nothing moved"));
	capture_free(&j);
	free(r);
	rec_summary_free(&a);
	rec_summary_free(&b);
}

/* the Prometheus file of a recording's totals */
static void test_010_prom(void)
{
	struct rec_summary s;
	struct prom_state ps;
	struct capture c;
	const char *t;

	REQUIRE(load(&s) == 0);
	prom_init(&ps, NULL, &s.h.f);
	REQUIRE(!prom_add(&ps, &s.total, &s.total_smp, s.recorded_s));
	prom_write(capture_open(&c), &ps, &s.total, s.recorded_s);
	t = capture_text(&c);
	CHECK(strstr(
		t,
		"\npcptop_bulk_free_pages_total{estimated=\"false\"} 14697\n"));
	CHECK(strstr(
		t, "\npcptop_bulk_free_calls_total{estimated=\"true\"} 10\n"));
	CHECK(strstr(t, "\npcptop_scale{source=\"config\"} 5\n"));
	CHECK(strstr(t, "\npcptop_bulk_free_size_pages_count 10\n") ||
	      strstr(t, "\npcptop_bulk_free_size_pages_count 9\n"));
	CHECK(strstr(
		t,
		"pcptop_info{kernel=\"6.18.44-fc-v782\",arch=\"x86_64\",mode=\"tracepoint\"} 1"));
	capture_free(&c);
	prom_free(&ps);
	rec_summary_free(&s);
}

#define FIXTURE_12 "rec/host-tp-1.2.data"

/*
 * Format 1.2 (pcptop before the sampled figures) kept the pcp lists'
 * memory in its detail chunks and recursion_misses as a counter: both
 * read as the sampled figures they are now. host-tp-1.2.data was recorded
 * around `churn -m 128 -n 6`, -i 0.3, in tracepoint mode; the numbers are
 * what that version's report --json said (pcp_run and its timeline).
 */
static void test_12_reads_into_sampled_figures(void)
{
	const struct fig_desc *pages = fig_find("pcp_pages");
	const struct fig_desc *high = fig_find("pcp_high");
	const struct fig_desc *miss = fig_find("recursion_misses");
	const struct sample_cell *c;
	char msg[REC_ERR_LEN];
	struct rec_summary s;

	REQUIRE(pages && high && miss);
	REQUIRE(rec_summary_load(fixture(FIXTURE_12), &s, msg, sizeof(msg)) ==
		0);
	CHECK_EQ_INT(s.h.version_minor, 2);
	CHECK(facts_fig_shown(&s.h.f, pages));
	CHECK(facts_fig_shown(&s.h.f, miss));
	c = samples_cell(&s.total_smp, pages, 0);
	REQUIRE(sample_present(c));
	CHECK_EQ_INT(c->n, 7);
	CHECK_EQ_INT(c->peak, 89385);
	CHECK_EQ_INT((long long)(sample_mean(c) + 0.5), 78736);
	REQUIRE(s.nr_points == 6);
	CHECK_EQ_INT(rec_point_sample(&s, 0, pages), 59295);
	CHECK_EQ_INT(rec_point_sample(&s, 5, pages), 89385);
	CHECK_EQ_INT(rec_point_sample(&s, 5, high), 119815);
	/* Normal held every page; DMA's managed pages came through too */
	CHECK_EQ_INT(sample_value(pages, samples_cell(&s.total_smp, pages, 3)),
		     89385);
	CHECK_EQ_INT(sample_value(fig_find("zone_managed"),
				  samples_cell(&s.total_smp,
					       fig_find("zone_managed"), 1)),
		     3840);
	c = samples_cell(&s.total_smp, miss, 0);
	CHECK(sample_present(c) && sample_value(miss, c) == 0);
	rec_summary_free(&s);
}

/*
 * A 1.1 header names its arrays: a writer whose counters come in another
 * order is still read right, and names this build lacks are dropped.
 */
static void test_names_map_by_name(void)
{
	struct rec_header h, got;
	struct zoneinfo zi;
	struct rbuf b = {};
	char msg[REC_ERR_LEN];
	size_t off;

	rf_make_header(&h, &zi);
	rec_header_encode(&b, &h);
	/* a later names record replaces the first: reversed, plus a stranger */
	rb_u16(&b, 19);
	rb_u16(&b, 0);
	off = b.len;
	rb_u32(&b, 0);
	rb_u32(&b, 3);
	rb_str(&b, "decay_calls");
	rb_str(&b, "from_the_future");
	rb_str(&b, "bulk_free_pages");
	rb_set_u32(&b, off, (uint32_t)(b.len - off - 4));
	REQUIRE(!b.err);
	REQUIRE(rec_header_decode(b.p, b.len, &got, msg, sizeof(msg)) == 0);
	CHECK(got.have_names);
	CHECK_EQ_INT(got.cnt_map[0], CNT_DECAY_CALLS);
	CHECK_EQ_INT(got.cnt_map[1], -1);
	CHECK_EQ_INT(got.cnt_map[2], CNT_BULK_FREE_PAGES);
	CHECK_EQ_INT(got.cnt_map[3], -1);
	CHECK_EQ_INT(got.hist_map[HIST_LOCK_HOLD_NS], HIST_LOCK_HOLD_NS);
	rec_header_free(&got);
	rb_free(&b);
	zoneinfo_free(&zi);
}

/*
 * What an older pcptop did not count is not shown as zero: the page order
 * of bulk frees and the stalls are absent (null), while refills by order
 * come from counters those files kept at their order slots.
 */
static void test_old_files_lack_newer_figures(void)
{
	static const char *const files[] = { FIXTURE_010, FIXTURE_12 };
	const struct fig_desc *by_order = fig_find("bulk_free_by_order");
	const struct fig_desc *refill = fig_find("refill_by_order");
	const struct fig_desc *stall = fig_find("reclaim_stall_ns");
	char msg[REC_ERR_LEN];
	struct rec_summary s;
	size_t i;

	REQUIRE(by_order && refill && stall);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		REQUIRE(rec_summary_load(fixture(files[i]), &s, msg,
					 sizeof(msg)) == 0);
		CHECK(!s.h.f.counted[CNT_BULK_ORDER_PAGES]);
		CHECK(!facts_fig_shown(&s.h.f, by_order));
		CHECK(!facts_fig_shown(&s.h.f, stall));
		CHECK(!facts_hist_shown(&s.h.f, HIST_RECLAIM_STALL_NS));
		CHECK(facts_fig_shown(&s.h.f, refill));
		CHECK_EQ_U64(fig_split_total(refill, &s.total),
			     fig_pages(fig_find("refill"), &s.total));
		rec_summary_free(&s);
	}
}

const struct unit_test fixture_rec_tests[] = {
	TEST(test_old_files_lack_newer_figures),
	TEST(test_010_header),
	TEST(test_010_totals),
	TEST(test_010_reports),
	TEST(test_010_diff_with_itself),
	TEST(test_010_prom),
	TEST(test_names_map_by_name),
	TEST(test_12_reads_into_sampled_figures),
	TEST_END,
};
