// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop whatif's model (whatif/whatif*.c) on traces built in memory: the
 * synthetic workload of pcpmodel_synth.c written by a "kernel" model at
 * one scale, its counts standing for the recording's. A hand-worked
 * refill run whose numbers follow mm/page_alloc.c per rule set; the
 * self-consistency check passing on a faithful recording and failing on
 * a doctored one. The pricing of time is in test_whatif_price.c, the
 * outputs in test_whatif_out.c.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "hist.h"
#include "pcpmodel_synth.h"
#include "synth.h"
#include "test_whatif.h"
#include "unit.h"
#include "units.h"

#define NR_CPUS 2
#define NR_ZONES 2
#define WORKLOAD 40000

int tw_written(struct tw *x, enum pcpmodel_ruleset rules, int scale,
	       uint64_t seed)
{
	struct pcpmodel_config cfg = { 0 };
	struct pcpm_synth_opts o;
	const struct pcpmodel_event *ev;
	int err;

	memset(x, 0, sizeof(*x));
	pcpmodel_rules_init(&cfg.rules, rules);
	cfg.scale = scale;
	cfg.nr_cpus = NR_CPUS;
	cfg.nr_zones = NR_ZONES;
	cfg.thp_order = PCPM_THP_ORDER_4K;
	err = pcpmodel_new(&cfg, &x->kernel);
	if (err)
		return err;
	pcpm_synth_defaults(&o, seed);
	o.nr_workload = WORKLOAD;
	err = pcpm_synth_make(&o, x->kernel, &x->synth);
	if (err)
		return err;
	x->t.stream = x->synth.stream;
	x->t.meta.scale = scale;
	x->t.meta.rules = cfg.rules;
	x->t.meta.nr_cpus = NR_CPUS;
	x->t.meta.nr_zones = NR_ZONES;
	x->t.meta.thp_order = PCPM_THP_ORDER_4K;
	ev = x->synth.stream.events;
	x->t.first_ns = ev[0].time_ns;
	x->t.last_ns = ev[x->synth.stream.nr_events - 1].time_ns;
	/* the recording counted what the kernel did */
	synth_summary(&x->s, "traced.data", MODE_FENTRY, 0);
	whatif_figures(&cfg.rules, pcpmodel_result(x->kernel), &x->kcol);
	memcpy(x->s.total.cnt, x->kcol.fig.cnt, sizeof(x->s.total.cnt));
	memcpy(x->s.total.hist, x->kcol.fig.hist, sizeof(x->s.total.hist));
	return 0;
}

/* every call of sizes at a + b * pages ns, into a recording's histogram */
static void time_calls(const struct pcpmodel_call_sizes *sz, double a, double b,
		       struct figure_hist *h, uint64_t *total)
{
	uint64_t ns;
	int i;

	for (i = 0; i < PCPM_CALL_PAGES_EXACT; i++) {
		if (!sz->calls_of[i])
			continue;
		ns = (uint64_t)llround(a + b * i);
		h->slots[hist_slot_of(ns)] += sz->calls_of[i];
		h->samples += sz->calls_of[i];
		*total += ns * sz->calls_of[i];
		if (ns > h->max)
			h->max = ns;
	}
}

void tw_timed(struct tw *x, double a, double b, bool refill)
{
	const struct pcpmodel_result *r = pcpmodel_result(x->kernel);
	static const int hists[] = { HIST_LOCK_HOLD_NS, HIST_IRQS_OFF_NS };
	static const int cnts[] = { CNT_LOCK_HOLD_NS, CNT_IRQS_OFF_NS };
	int k;

	for (k = 0; k < 2; k++) {
		struct figure_hist *h = &x->s.total.hist[hists[k]];
		uint64_t *total = &x->s.total.cnt[cnts[k]];

		memset(h, 0, sizeof(*h));
		*total = 0;
		/* interrupts off a little longer: the wait on top */
		time_calls(&r->bulk_sizes, a + 100 * k, b, h, total);
		if (refill)
			time_calls(&r->refill_sizes, a + 100 * k, b, h, total);
	}
}

void tw_free(struct tw *x)
{
	whatif_free(&x->w);
	pcpmodel_free(x->kernel);
	pcpm_synth_free(&x->synth);
	synth_summary_free(&x->s);
	memset(x, 0, sizeof(*x));
}

int tw_run(struct tw *x, const char *scales)
{
	struct whatif_opts o = { .rules = -1 };
	char msg[256];
	int err;

	whatif_free(&x->w);
	err = whatif_parse_scales(scales, o.scales, msg, sizeof(msg));
	return err ? err :
		     whatif_run(&x->w, "traced.data", &x->t, &x->s, &o, msg,
				sizeof(msg));
}

static void test_whatif_scales(void)
{
	static const char *const bad[] = { "",	   "7",	  "3-1", "a",
					   "1,,2", "0-",  "-1",	 "1,",
					   "0-9",  "2 3", "0x1" };
	bool sc[WHATIF_MAX_COLS];
	char msg[128];
	size_t i;

	CHECK_EQ_INT(whatif_parse_scales("0-6", sc, msg, sizeof(msg)), 0);
	for (i = 0; i < WHATIF_MAX_COLS; i++)
		CHECK(sc[i]);
	CHECK_EQ_INT(whatif_parse_scales("0,3,5", sc, msg, sizeof(msg)), 0);
	CHECK(sc[0] && !sc[1] && !sc[2] && sc[3] && !sc[4] && sc[5] && !sc[6]);
	CHECK_EQ_INT(whatif_parse_scales("2", sc, msg, sizeof(msg)), 0);
	CHECK(sc[2] && !sc[0] && !sc[3]);
	CHECK_EQ_INT(whatif_parse_scales("1-2,5", sc, msg, sizeof(msg)), 0);
	CHECK(sc[1] && sc[2] && sc[5] && !sc[3]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_EQ_INT(whatif_parse_scales(bad[i], sc, msg, sizeof(msg)),
			     -EINVAL);
		CHECK(strstr(msg, "bad --scale") != NULL);
	}
}

/*
 * One pageset (high 1000, high_min 500, high_max 4000, batch 63, empty)
 * asked for 1953 order-0 pages, one at a time, each refill used up
 * before the next. nr_pcp_alloc() (6.12.117:3018, 7.3:3284) refills
 * batch << alloc_factor, alloc_factor growing by one per refill up to
 * the scale ("pcp->alloc_factor < CONFIG_PCP_BATCH_SCALE_MAX"), high
 * rising by each batch toward high_max: at scale 5, 63 + 126 + 252 +
 * 504 + 1008 = 1953 in 5 calls; at scale 3 the factor stops at 3:
 * 63 + 126 + 252 + 504 + 504 + 504 in 6; at scale 0, 31 calls of 63.
 * v6.1's __rmqueue_pcplist() refills pcp->batch (rmqueue_bulk(zone, 0,
 * pcp->batch, ...)) whatever the scale: 31 calls at every scale.
 */
static void hand_refills(enum pcpmodel_ruleset rules)
{
	static const int calls612[] = { 31, 0, 0, 6, 0, 5, 0 };
	static const int max612[] = { 63, 0, 0, 504, 0, 1008, 0 };
	struct pcpmodel_event ev[1 + 1953];
	struct pcpmodel_pcp_state st = { 0 };
	struct whatif_opts o = { .rules = -1 };
	struct rec_trace t = { 0 };
	struct whatif w;
	char msg[256];
	int i, sc;

	st.high = 1000;
	st.high_min = 500;
	st.high_max = 4000;
	st.batch = 63;
	st.fields = PCPM_FIELD_AUTO_HIGH | PCPM_FIELD_FREE_COUNT |
		    PCPM_FIELD_ALLOC_FACTOR | PCPM_FIELD_FLAGS |
		    PCPM_FIELD_FREE_FACTOR | PCPM_FIELD_LISTS;
	memset(ev, 0, sizeof(ev));
	ev[0].type = PCPM_EV_SNAPSHOT;
	for (i = 1; i <= 1953; i++) {
		ev[i].time_ns = (uint64_t)i * 1000;
		ev[i].type = PCPM_EV_ALLOC;
		ev[i].migratetype = PCPM_MIGRATE_MOVABLE;
	}
	t.stream.events = ev;
	t.stream.nr_events = 1 + 1953;
	t.stream.pcp_states = &st;
	t.stream.nr_pcp_states = 1;
	t.meta.scale = 5;
	pcpmodel_rules_init(&t.meta.rules, rules);
	t.meta.nr_cpus = t.meta.nr_zones = 1;
	t.last_ns = 1953000;
	CHECK_EQ_INT(whatif_parse_scales("0,3,5", o.scales, msg, sizeof(msg)),
		     0);
	REQUIRE(whatif_run(&w, "hand", &t, NULL, &o, msg, sizeof(msg)) == 0);
	CHECK_EQ_INT(w.nr_cols, 3);
	CHECK(!w.have_measured);
	for (i = 0; i < w.nr_cols; i++) {
		const struct whatif_col *c = &w.cols[i];
		const struct figures *f = &c->fig;
		bool v61 = rules == PCPM_RULES_6_1;

		sc = c->scale;
		CHECK_EQ_U64(f->cnt[CNT_REFILL_CALLS], v61 ? 31 : calls612[sc]);
		CHECK_EQ_U64(f->cnt[CNT_REFILL_PAGES], 1953);
		CHECK_EQ_U64(f->hist[HIST_REFILL_PAGES].max,
			     v61 ? 63 : max612[sc]);
		CHECK_EQ_U64(f->cnt[CNT_BULK_FREE_CALLS], 0);
		CHECK_EQ_U64(c->x.lock_takes, f->cnt[CNT_REFILL_CALLS]);
		CHECK_EQ_U64(c->x.pcp_events, 1953);
		/* every page handed out: nothing parked at the end */
		CHECK_EQ_U64(c->x.parked[WHATIF_SERIES_BINS - 1], 0);
		CHECK(c->x.parked_max > 0);
		/* no cost fit without a recording: no time figures */
		CHECK(!c->fig_on[fig_index(fig_find("lock_hold_ns"))]);
	}
	/* scale 5's p50 is the third refill, 252 pages: slot 128..255 */
	if (rules != PCPM_RULES_6_1)
		CHECK_EQ_U64(fig_pct(fig_find("refill"), &w.cols[2].fig, 50),
			     255);
	CHECK_EQ_INT(w.hold.err, -ENODATA);
	whatif_free(&w);
}

static void test_whatif_hand_refills(void)
{
	hand_refills(PCPM_RULES_6_1);
	hand_refills(PCPM_RULES_6_12);
	hand_refills(PCPM_RULES_6_16);
	hand_refills(PCPM_RULES_7_X);
}

/* a faithful recording at scale sc under rules passes --check */
static void self_check(enum pcpmodel_ruleset rules, int sc)
{
	struct whatif_check c[WHATIF_CHECK_MAX];
	struct tw x;
	bool pass;
	int n, i;

	REQUIRE(tw_written(&x, rules, sc, 3 + sc) == 0);
	REQUIRE(tw_run(&x, sc == 5 ? "5" : "0") == 0);
	CHECK_EQ_INT(whatif_check(&x.w, c, &n, &pass), 0);
	CHECK(pass);
	CHECK(n >= 8);
	for (i = 0; i < n; i++)
		if (!c[i].ok)
			unit_fail(__FILE__, __LINE__, "rules %d scale %d: %s",
				  rules, sc, c[i].what);
	/* and the replay is the kernel's to the count, time aside */
	x.w.cols[0].fig.cnt[CNT_LOCK_HOLD_NS] = 0;
	x.w.cols[0].fig.cnt[CNT_IRQS_OFF_NS] = 0;
	CHECK(!memcmp(x.w.cols[0].fig.cnt, x.kcol.fig.cnt,
		      sizeof(x.kcol.fig.cnt)));
	CHECK_EQ_U64(x.w.cols[0].x.snapshots_drifted, 0);
	tw_free(&x);
}

static void test_whatif_self_check(void)
{
	int rules;

	for (rules = 0; rules < NR_PCPM_RULES; rules++)
		self_check(rules, 5);
	self_check(PCPM_RULES_6_12, 0);
	self_check(PCPM_RULES_7_X, 0);
}

static bool failed(const struct whatif_check *c, int n, const char *what)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(c[i].what, what))
			return !c[i].ok;
	return false;
}

/* each bound catches what it is for, and nothing else fails with it */
static void test_whatif_check_fails(void)
{
	struct whatif_check c[WHATIF_CHECK_MAX];
	uint64_t *slots;
	struct rec_trace_loss loss = { .t_start_ns = 10,
				       .t_end_ns = 20,
				       .lost = 5 };
	struct tw x;
	bool pass;
	int n, i;

	REQUIRE(tw_written(&x, PCPM_RULES_6_12, 5, 9) == 0);
	/* 1.5 % more bulk-free calls than the replay has */
	x.s.total.cnt[CNT_BULK_FREE_CALLS] +=
		x.s.total.cnt[CNT_BULK_FREE_CALLS] * 15 / 1000;
	/* 2 % of refills two buckets up */
	slots = x.s.total.hist[HIST_REFILL_PAGES].slots;
	for (i = PCPTOP_HIST_SLOTS - 1; i >= 0 && !slots[i]; i--)
		;
	REQUIRE(i >= 0 && i + 2 < PCPTOP_HIST_SLOTS);
	slots[i + 2] += x.kcol.fig.cnt[CNT_REFILL_CALLS] / 50;
	slots[i] -= x.kcol.fig.cnt[CNT_REFILL_CALLS] / 50;
	x.s.total.hist[HIST_DRAIN_PAGES].max += 1;
	x.t.losses = &loss;
	x.t.nr_losses = 1;
	x.t.lost_events = 5;
	REQUIRE(tw_run(&x, "5") == 0);
	CHECK_EQ_U64(x.w.lost_in_window, 5);
	CHECK_EQ_INT(whatif_check(&x.w, c, &n, &pass), 0);
	CHECK(!pass);
	CHECK(failed(c, n, "bulk_free.calls"));
	CHECK(!failed(c, n, "bulk_free.pages"));
	CHECK(failed(c, n, "refill.hist"));
	CHECK(!failed(c, n, "refill.calls"));
	CHECK(!failed(c, n, "bulk_free.hist"));
	CHECK(failed(c, n, "drain.max"));
	CHECK(!failed(c, n, "bulk_free.max"));
	CHECK(failed(c, n, "trace.lost_events"));
	/* no column at the recorded scale: nothing to check */
	REQUIRE(tw_run(&x, "0") == 0);
	CHECK_EQ_INT(whatif_check(&x.w, c, &n, &pass), -ENODATA);
	tw_free(&x);
}

/*
 * refill in tracepoint mode (rmqueue_bulk() inlined, 6.12 on): the
 * recording's calls are its estimate from runs of per-page events, so
 * calls and their histogram are shown and not held; pages still are
 */
static void test_whatif_check_estimated_calls(void)
{
	struct whatif_check c[WHATIF_CHECK_MAX];
	struct fact_probe *p;
	bool pass;
	struct tw x;
	int n, i;

	REQUIRE(tw_written(&x, PCPM_RULES_7_X, 5, 11) == 0);
	p = (struct fact_probe *)facts_probe(&x.s.h.f, "refill");
	REQUIRE(p != NULL);
	p->mode = MODE_TRACEPOINT;
	/* 6 times the calls, as Debian 7.3's estimate had it */
	x.s.total.cnt[CNT_REFILL_CALLS] *= 6;
	REQUIRE(tw_run(&x, "5") == 0);
	CHECK_EQ_INT(whatif_check(&x.w, c, &n, &pass), 0);
	CHECK(pass);
	for (i = 0; i < n; i++) {
		if (!strcmp(c[i].what, "refill.calls") ||
		    !strcmp(c[i].what, "refill.hist"))
			CHECK_EQ_INT(c[i].kind, CHECK_NOT_HELD);
		else
			CHECK(c[i].kind != CHECK_NOT_HELD);
	}
	/* the pages are still held */
	x.s.total.cnt[CNT_REFILL_PAGES] += x.s.total.cnt[CNT_REFILL_PAGES] / 50;
	REQUIRE(tw_run(&x, "5") == 0);
	CHECK_EQ_INT(whatif_check(&x.w, c, &n, &pass), 0);
	CHECK(!pass);
	CHECK(failed(c, n, "refill.pages"));
	/* and in fentry mode the same calls fail */
	p->mode = MODE_FENTRY;
	x.s.total.cnt[CNT_REFILL_PAGES] = x.kcol.fig.cnt[CNT_REFILL_PAGES];
	REQUIRE(tw_run(&x, "5") == 0);
	CHECK_EQ_INT(whatif_check(&x.w, c, &n, &pass), 0);
	CHECK(failed(c, n, "refill.calls"));
	CHECK(!failed(c, n, "refill.pages"));
	tw_free(&x);
}

/* points the synthetic recording's last interval's end at end_ns */
static void tw_window(struct tw *x, uint64_t t0_ns, uint64_t end_ns)
{
	x->t.t0_ns = t0_ns;
	x->s.points[x->s.nr_points - 1].t = (double)(end_ns - t0_ns) / 1e9;
}

/*
 * The replay counts what the recording's intervals cover: events before
 * its start set state only, events after its last interval are left out
 */
static void test_whatif_window(void)
{
	uint64_t full[NR_PCPTOP_COUNTERS], mid, after = 0;
	const struct pcpmodel_stream *st;
	struct tw x;
	size_t i;
	int k;

	REQUIRE(tw_written(&x, PCPM_RULES_6_12, 5, 13) == 0);
	st = &x.t.stream;
	/* a recording's clock is CLOCK_MONOTONIC, never 0 (0: no start) */
	for (i = 0; i < st->nr_events; i++)
		x.synth.events[i].time_ns += NSEC_PER_SEC;
	x.t.first_ns += NSEC_PER_SEC;
	x.t.last_ns += NSEC_PER_SEC;
	REQUIRE(tw_run(&x, "5") == 0);
	CHECK_EQ_U64(x.w.start_ns, 0); /* no t0: the whole trace */
	memcpy(full, x.w.cols[0].fig.cnt, sizeof(full));
	/* a window around every event: the same figures */
	tw_window(&x, x.t.first_ns, x.t.last_ns + 1000);
	REQUIRE(tw_run(&x, "5") == 0);
	CHECK_EQ_U64(x.w.events_before_start, 0);
	CHECK_EQ_U64(x.w.events_after_end, 0);
	CHECK(!memcmp(full, x.w.cols[0].fig.cnt, sizeof(full)));
	/* ending halfway: what comes after is left out and counted */
	mid = st->events[st->nr_events / 2].time_ns;
	for (i = 0; i < st->nr_events; i++)
		after += st->events[i].time_ns > mid + 1000;
	REQUIRE(after > 0);
	tw_window(&x, x.t.first_ns, mid + 1000);
	REQUIRE(tw_run(&x, "5") == 0);
	CHECK_EQ_U64(x.w.events_after_end, after);
	CHECK(x.w.cols[0].fig.cnt[CNT_REFILL_PAGES] < full[CNT_REFILL_PAGES]);
	/* starting after the last event: nothing counted */
	tw_window(&x, x.t.last_ns + 1, x.t.last_ns + 1000);
	REQUIRE(tw_run(&x, "5") == 0);
	CHECK_EQ_U64(x.w.events_before_start, st->nr_events);
	for (k = 0; k < NR_PCPTOP_COUNTERS; k++)
		if (k != CNT_LOCK_HOLD_NS && k != CNT_IRQS_OFF_NS)
			CHECK_EQ_U64(x.w.cols[0].fig.cnt[k], 0);
	tw_free(&x);
}

/* the quantile pairing of two log2 histograms */
static void test_whatif_hist_off(void)
{
	uint64_t a[PCPTOP_HIST_SLOTS] = { 0 }, b[PCPTOP_HIST_SLOTS] = { 0 };

	a[5] = 100;
	b[5] = 100;
	CHECK(whatif_hist_off_pct(a, b) == 0);
	memset(b, 0, sizeof(b));
	b[6] = 50; /* one bucket off is within the bound */
	CHECK(whatif_hist_off_pct(a, b) == 0);
	memset(b, 0, sizeof(b));
	b[7] = 3;
	CHECK(fabs(whatif_hist_off_pct(a, b) - 100) < 1e-9);
	/* half of them two buckets up: half the calls are off */
	b[5] = 3;
	CHECK(fabs(whatif_hist_off_pct(a, b) - 50) < 1e-9);
	memset(b, 0, sizeof(b));
	CHECK(fabs(whatif_hist_off_pct(a, b) - 100) < 1e-9);
	memset(a, 0, sizeof(a));
	CHECK(whatif_hist_off_pct(a, b) == 0);
}

extern void test_whatif_price_self(void);
extern void test_whatif_price_refills(void);
extern void test_whatif_pick(void);
extern void test_whatif_outputs(void);
extern void test_whatif_save_diff(void);
extern void test_whatif_cli(void);

const struct unit_test whatif_tests[] = {
	TEST(test_whatif_scales),
	TEST(test_whatif_hand_refills),
	TEST(test_whatif_self_check),
	TEST(test_whatif_check_fails),
	TEST(test_whatif_check_estimated_calls),
	TEST(test_whatif_window),
	TEST(test_whatif_hist_off),
	TEST(test_whatif_price_self),
	TEST(test_whatif_price_refills),
	TEST(test_whatif_pick),
	TEST(test_whatif_outputs),
	TEST(test_whatif_save_diff),
	TEST(test_whatif_cli),
	TEST_END,
};
