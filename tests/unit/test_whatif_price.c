// SPDX-License-Identifier: GPL-2.0-only
/*
 * whatif's pricing of lock hold and interrupts-off time on a synthetic
 * recording whose calls took a known time each (tw_timed()): at the
 * recorded scale the replay's calls fall in the recording's buckets and
 * the total, histogram and longest come back, and --check holds the
 * total to 10 %; refills are priced only where they were timed.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "hist.h"
#include "test_whatif.h"
#include "unit.h"

/* the synthetic kernel's calls at 300 ns + 25 ns a page */
#define NS_CALL 300
#define NS_PAGE 25

static double rel_err(double a, double b)
{
	return b ? (a - b) / b : a;
}

/* the time a + b * pages of every call of sizes */
static double truth(const struct pcpmodel_call_sizes *sz)
{
	double t = 0;
	int i;

	for (i = 0; i < PCPM_CALL_PAGES_EXACT; i++)
		t += (double)sz->calls_of[i] * (NS_CALL + NS_PAGE * i);
	return t;
}

/* whether --check compared what and found it ok (or not) */
static bool held(const struct whatif_check *c, int n, const char *what, bool ok)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(c[i].what, what))
			return c[i].kind == CHECK_WITHIN_PCT && c[i].ok == ok;
	return false;
}

void test_whatif_price_self(void)
{
	const int hold = fig_index(fig_find("lock_hold_ns"));
	struct whatif_check c[WHATIF_CHECK_MAX];
	const struct whatif_col *p5, *p0;
	const struct figure_hist *rh;
	struct tw x, k0;
	bool pass;
	int n;

	REQUIRE(tw_written(&x, PCPM_RULES_6_12, 5, 51) == 0);
	tw_timed(&x, NS_CALL, NS_PAGE, false);
	REQUIRE(tw_run(&x, "0,5") == 0);
	CHECK_EQ_INT(x.w.hold.err, 0);
	CHECK(!x.w.hold.refill);
	CHECK_EQ_U64(x.w.hold.table.timed, x.s.total.cnt[CNT_BULK_FREE_CALLS]);
	p5 = whatif_col_of(&x.w, 5);
	REQUIRE(p5 && p5->fig_on[hold]);
	rh = &x.s.total.hist[HIST_LOCK_HOLD_NS];
	/* the recording's own calls: its total, histogram and longest */
	CHECK(fabs(rel_err((double)p5->fig.cnt[CNT_LOCK_HOLD_NS],
			   (double)x.s.total.cnt[CNT_LOCK_HOLD_NS])) < 1e-6);
	CHECK(!memcmp(p5->fig.hist[HIST_LOCK_HOLD_NS].slots, rh->slots,
		      sizeof(rh->slots)));
	CHECK_EQ_U64(p5->fig.hist[HIST_LOCK_HOLD_NS].max, rh->max);
	CHECK_EQ_U64(p5->fig.hist[HIST_LOCK_HOLD_NS].samples,
		     x.s.total.cnt[CNT_BULK_FREE_CALLS]);
	CHECK_EQ_U64(p5->x.priced_outside[WHATIF_COST_HOLD], 0);
	CHECK_EQ_INT(whatif_check(&x.w, c, &n, &pass), 0);
	CHECK(pass);
	CHECK(held(c, n, "lock_hold_ns.total", true));
	/* priced 11 % over the recording: --check fails on that alone */
	x.w.cols[p5 - x.w.cols].fig.cnt[CNT_LOCK_HOLD_NS] =
		x.s.total.cnt[CNT_LOCK_HOLD_NS] * 111 / 100;
	CHECK_EQ_INT(whatif_check(&x.w, c, &n, &pass), 0);
	CHECK(!pass);
	CHECK(held(c, n, "lock_hold_ns.total", false));
	CHECK(held(c, n, "bulk_free.calls", true));
	x.w.cols[p5 - x.w.cols].fig.cnt[CNT_LOCK_HOLD_NS] =
		x.s.total.cnt[CNT_LOCK_HOLD_NS] * 109 / 100;
	CHECK_EQ_INT(whatif_check(&x.w, c, &n, &pass), 0);
	CHECK(pass);
	/*
	 * scale 0 against what the same workload's kernel did there, at
	 * the same costs: within 15 % (-7.1 % measured). Each bucket's
	 * calls stand at their time slots' midpoints, and calls of 64 and of
	 * 127 pages get one price.
	 */
	p0 = whatif_col_of(&x.w, 0);
	REQUIRE(p0 && p0->fig_on[hold]);
	REQUIRE(tw_written(&k0, PCPM_RULES_6_12, 0, 51) == 0);
	CHECK(fabs(rel_err((double)p0->fig.cnt[CNT_LOCK_HOLD_NS],
			   truth(&pcpmodel_result(k0.kernel)->bulk_sizes))) <
	      0.15);
	tw_free(&k0);
	tw_free(&x);
}

/*
 * 7.x with rmqueue_bulk() probed: the timed calls outnumber the bulk
 * frees, the table holds both and both are priced
 */
void test_whatif_price_refills(void)
{
	const struct pcpmodel_result *r;
	const struct whatif_col *p;
	struct tw x;

	REQUIRE(tw_written(&x, PCPM_RULES_7_X, 5, 52) == 0);
	tw_timed(&x, NS_CALL, NS_PAGE, true);
	REQUIRE(tw_run(&x, "5") == 0);
	r = pcpmodel_result(x.kernel);
	CHECK(x.w.hold.refill);
	CHECK_EQ_U64(x.w.hold.table.timed, r->bulk_calls + r->refill_calls);
	p = whatif_col_of(&x.w, 5);
	REQUIRE(p);
	CHECK_EQ_U64(p->fig.hist[HIST_LOCK_HOLD_NS].samples,
		     r->bulk_calls + r->refill_calls);
	CHECK(fabs(rel_err((double)p->fig.cnt[CNT_LOCK_HOLD_NS],
			   truth(&r->bulk_sizes) + truth(&r->refill_sizes))) <
	      1e-6);
	tw_free(&x);
}
