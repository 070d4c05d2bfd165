// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which scale (whatif_pick.c) on a replay whose zone->lock acquisitions
 * are set by hand: the least scale and its difference against the
 * recorded one, apart only where that is larger than the suite's
 * cross-scale error plus this trace's self-replay error, and the line
 * saying so; a trace in part below high carries the reclaim runs' larger
 * error.
 */
#include <math.h>
#include <string.h>

#include "test_whatif.h"
#include "unit.h"

#define PICK_EPS 1e-9
#define LINE_LEN 1024

/* every column's acquisitions 1000 but at scale sc, v there */
static void takes(struct tw *x, int sc, uint64_t v, uint64_t measured)
{
	int i;

	for (i = 0; i < x->w.nr_cols; i++)
		x->w.cols[i].x.lock_takes = x->w.cols[i].scale == sc ? v : 1000;
	x->w.measured.x.lock_takes = measured;
}

static const struct whatif_pick *pick(struct tw *x, struct whatif_pick *p,
				      char *line)
{
	whatif_picks(&x->w, p);
	whatif_pick_line(line, LINE_LEN, &x->w, &p[WHATIF_PICK_TAKES]);
	return &p[WHATIF_PICK_TAKES];
}

void test_whatif_pick(void)
{
	struct whatif_pick p[NR_WHATIF_PICKS];
	const struct whatif_pick *t;
	struct whatif_col *rec;
	char line[LINE_LEN];
	struct tw x;
	double v, least = INFINITY;
	int i, at = -1;

	REQUIRE(tw_written(&x, PCPM_RULES_6_12, 5, 61) == 0);
	tw_timed(&x, 300, 25, false);
	REQUIRE(tw_run(&x, "0-6") == 0);
	REQUIRE(x.w.have_measured && x.w.recorded_scale == 5);
	/* 10 % fewer at scale 2: past the 1.13 % the suite missed by */
	takes(&x, 2, 900, 1000);
	t = pick(&x, p, line);
	REQUIRE(t->ok);
	CHECK_EQ_INT(t->least, 2);
	CHECK(fabs(t->diff_pct + 10) < PICK_EPS);
	CHECK(fabs(t->self_pct) < PICK_EPS);
	CHECK(fabs(t->error_pct - 1.13) < PICK_EPS);
	CHECK(t->apart);
	CHECK(strstr(
		line,
		"zone->lock acquisitions: least at scale 2, -10.0 % against the recorded scale 5"));
	CHECK(strstr(line, "): apart"));
	/* 0.5 % fewer: inside the error */
	takes(&x, 2, 995, 1000);
	t = pick(&x, p, line);
	CHECK_EQ_INT(t->least, 2);
	CHECK(!t->apart);
	CHECK(strstr(line, "the scales cannot be told apart"));
	/* every other scale more: the recorded is least, the next beside it */
	takes(&x, 5, 990, 990);
	t = pick(&x, p, line);
	CHECK_EQ_INT(t->least, 5);
	CHECK(t->other >= 0 && t->other != 5);
	CHECK(fabs(t->diff_pct - (1000.0 - 990) / 990 * 100) < PICK_EPS);
	CHECK(strstr(line, "least at the recorded scale 5; the least other"));
	/* the trace replays itself 9.1 % low: -10 % is within the error */
	takes(&x, 2, 900, 1100);
	t = pick(&x, p, line);
	CHECK(fabs(t->self_pct - (1000.0 - 1100) / 1100 * 100) < PICK_EPS);
	CHECK(fabs(t->error_pct - (1.13 + 100.0 / 11)) < PICK_EPS);
	CHECK(!t->apart);
	/*
	 * Some of the trace below high: the larger of the churn's and the
	 * reclaim runs' misses, 20.87 %, and -10 % is within it
	 */
	for (i = 0, rec = NULL; i < x.w.nr_cols; i++)
		if (x.w.cols[i].scale == 5)
			rec = &x.w.cols[i];
	REQUIRE(rec && rec->x.pcp_events > 0);
	rec->x.events_below_high = rec->x.pcp_events / 4;
	takes(&x, 2, 900, 1000);
	t = pick(&x, p, line);
	CHECK_EQ_INT(t->cross_case, WHATIF_PICK_BELOW_HIGH);
	CHECK(fabs(t->below_high_pct - 25) < 0.01);
	CHECK(fabs(t->error_pct - 20.87) < PICK_EPS);
	CHECK(!t->apart);
	CHECK(strstr(line, "the suite's cross-scale 20.9 % (25.0 % below high: "
			   "the larger of above high and under reclaim)"));
	CHECK(strstr(line, "the scales cannot be told apart"));
	/* 30 % fewer is past it; lock time keeps the churn's larger 53.1 */
	takes(&x, 2, 700, 1000);
	t = pick(&x, p, line);
	CHECK(t->apart);
	CHECK(fabs(p[WHATIF_PICK_LOCK_NS].cross_pct - 53.1) < PICK_EPS);
	rec->x.events_below_high = 0;
	takes(&x, 2, 900, 1000);
	t = pick(&x, p, line);
	CHECK_EQ_INT(t->cross_case, WHATIF_PICK_ABOVE_HIGH);
	CHECK(strstr(line, "the suite's cross-scale 1.1 % (above high)"));
	/* zone->lock time: the least of the columns, against scale 5's */
	for (i = 0; i < x.w.nr_cols; i++) {
		v = (double)x.w.cols[i].fig.cnt[CNT_LOCK_HOLD_NS];
		if (x.w.cols[i].scale != 5 && v < least) {
			least = v;
			at = x.w.cols[i].scale;
		}
	}
	t = &p[WHATIF_PICK_LOCK_NS];
	REQUIRE(t->ok);
	CHECK_EQ_INT(t->other, at);
	CHECK(fabs(t->at_other - least) < PICK_EPS);
	/* without the recorded scale replayed there is nothing to weigh */
	REQUIRE(tw_run(&x, "0,3") == 0);
	t = pick(&x, p, line);
	CHECK(!t->ok);
	CHECK(strstr(line, "no line"));
	tw_free(&x);
}
