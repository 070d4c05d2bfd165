// SPDX-License-Identifier: GPL-2.0-only
/*
 * The wall-time budget (core/budget.c, analysis/budget_run.c) and the words
 * diff opens with (analysis/explain_wall.c) on synthetic recordings whose
 * /proc/stat states, idle split and command time are set by hand: the
 * parts add up, the waiting time splits by the idle split's shares, each
 * part gets its spread from the intervals, and the first sentence names
 * the elapsed time and the part that moved most, or says elapsed did
 * not move.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arrays.h"
#include "budget_run.h"
#include "explain.h"
#include "synth.h"
#include "unit.h"

#define RUNS 3
#define MS 1000.0
#define NS_PER_S 1e9

/* one interval's CPU seconds by state, and its idle split's */
struct shape {
	double user, system, iowait, idle;
	double split_dirty, split_block, split_none;
	double split_nothing; /* idle with no task in iowait */
};

/*
 * Figure key's cell 0 in every interval (its timeline) and over the run
 * (the run's total for a counter, its level for a gauge)
 */
static void set_sampled(struct rec_summary *s, const char *key, double per_iv,
			bool gauge)
{
	const struct fig_desc *d = fig_find(key);
	int i;

	REQUIRE(d);
	for (i = 0; i < s->nr_points; i++)
		s->sv[(size_t)i * nr_figs + fig_index(d)] = (int64_t)per_iv;
	samples_set_sum(&s->total_smp, d,
			(int64_t)(gauge ? per_iv : per_iv * s->nr_points));
}

static void set_counter(struct rec_summary *s, int counter, double per_iv)
{
	int i;

	s->total.cnt[counter] = 0;
	for (i = 0; i < s->nr_points; i++) {
		s->points[i].cnt[counter] = (uint64_t)per_iv;
		s->total.cnt[counter] += (uint64_t)per_iv;
	}
}

/*
 * A run of one CPU whose intervals are each sh seconds of CPU time as
 * given, jitter ms added to user time in every other interval (a spread
 * between intervals), its command taking wall_s
 */
static void shaped(struct rec_summary *s, const char *path, unsigned int seed,
		   const struct shape *sh, double jitter_ms, double wall_s)
{
	static const char *const zero[] = { "cpu_nice", "cpu_irq",
					    "cpu_softirq", "cpu_steal" };
	size_t k;
	int i;

	synth_summary(s, path, MODE_FENTRY, seed);
	for (k = 0; k < ARRAY_SIZE(zero); k++)
		set_sampled(s, zero[k], 0, false);
	set_sampled(s, "cpu_user", sh->user * MS, false);
	set_sampled(s, "cpu_system", sh->system * MS, false);
	set_sampled(s, "cpu_iowait", sh->iowait * MS, false);
	set_sampled(s, "cpu_idle", sh->idle * MS, false);
	set_sampled(s, "cpus_online", 1, true);
	/* user time jitters between intervals, idle takes it back */
	for (i = 0; i < s->nr_points; i += 2) {
		s->sv[(size_t)i * nr_figs + fig_index(fig_find("cpu_user"))] +=
			(int64_t)jitter_ms;
		s->sv[(size_t)i * nr_figs + fig_index(fig_find("cpu_idle"))] -=
			(int64_t)jitter_ms;
	}
	set_counter(s, CNT_IDLE_DIRTY_NS, sh->split_dirty * NS_PER_S);
	set_counter(s, CNT_IDLE_BLOCK_NS, sh->split_block * NS_PER_S);
	set_counter(s, CNT_IDLE_REST_NS, sh->split_none * NS_PER_S);
	set_counter(s, CNT_IDLE_NO_IOWAIT_NS, sh->split_nothing * NS_PER_S);
	for (i = 0; i < s->nr_points; i++)
		s->points[i].secs =
			sh->user + sh->system + sh->iowait + sh->idle;
	s->recorded_s = s->points[0].secs * s->nr_points;
	s->end.wall_ns = (uint64_t)(wall_s * NS_PER_S) + seed;
}

static void test_budget_parts_add_up(void)
{
	static const struct shape sh = { 1, 0.5, 8, 0.5, 3, 5, 0.5, 0 };
	struct rec_summary s;
	struct time_budget b;

	shaped(&s, "a.data", 0, &sh, 0, 10);
	rec_budget(&s, &b);
	CHECK(b.have_cpu && b.have_split);
	CHECK(fabs(b.elapsed_s - s.recorded_s) < 1e-9);
	CHECK(fabs(b.busy_s - 1.5 * s.nr_points) < 1e-9);
	CHECK(fabs(b.waiting_s - 8.5 * s.nr_points) < 1e-9);
	CHECK(fabs(b.cpu_s - b.busy_s - b.waiting_s) < 1e-9);
	/* elapsed x 1 CPU: the reading holds */
	CHECK(fabs(budget_identity_pct(&b)) < 1e-9);
	CHECK(fabs(b.split_s[WAIT_ON_BLOCK] - 5 * s.nr_points) < 1e-9);
	CHECK(fabs(b.split_s[WAIT_ON_DIRTY] + b.split_s[WAIT_ON_BLOCK] +
		   b.split_s[WAIT_ON_NONE] - b.waiting_s) < 1e-9);
	synth_summary_free(&s);
}

/*
 * Idle with no task in iowait is a part of its own, not "the rest": the
 * four parts still add up to the waiting time
 */
static void test_budget_idle_apart_from_rest(void)
{
	static const struct shape sh = { 1, 0.5, 8, 0.5, 3, 4, 0.5, 1 };
	struct rec_summary s;
	struct time_budget b;
	double v;

	shaped(&s, "a.data", 0, &sh, 0, 10);
	rec_budget(&s, &b);
	CHECK(fabs(b.split_s[WAIT_ON_NOTHING] - 1 * s.nr_points) < 1e-9);
	CHECK(fabs(b.split_s[WAIT_ON_NONE] - 0.5 * s.nr_points) < 1e-9);
	CHECK(fabs(b.split_s[WAIT_ON_DIRTY] + b.split_s[WAIT_ON_BLOCK] +
		   b.split_s[WAIT_ON_NOTHING] + b.split_s[WAIT_ON_NONE] -
		   b.waiting_s) < 1e-9);
	v = budget_metric_value(&b, BM_WAIT_IDLE);
	CHECK(fabs(v - 1 * s.nr_points) < 1e-9);
	CHECK(!strcmp(budget_metric_key(BM_WAIT_IDLE), "budget.wait_idle_s"));
	synth_summary_free(&s);
}

/*
 * The idle split saw half the idle time /proc/stat did: its shares, not
 * its seconds, split the waiting time, and the budget says how much it saw
 */
static void test_budget_split_by_shares(void)
{
	static const struct shape sh = { 1, 0, 8, 1, 1, 3, 0.5, 0 };
	struct rec_summary s;
	struct time_budget b;

	shaped(&s, "a.data", 0, &sh, 0, 10);
	rec_budget(&s, &b);
	CHECK(fabs(b.split_idle_s - 4.5 * s.nr_points) < 1e-9);
	CHECK(fabs(b.split_s[WAIT_ON_DIRTY] - 2 * s.nr_points) < 1e-9);
	CHECK(fabs(b.split_s[WAIT_ON_BLOCK] - 6 * s.nr_points) < 1e-9);
	CHECK(fabs(b.split_s[WAIT_ON_NONE] - 1 * s.nr_points) < 1e-9);
	/* a second CPU that /proc/stat did not count: the identity misses */
	set_sampled(&s, "cpus_online", 2, true);
	rec_budget(&s, &b);
	CHECK(fabs(budget_identity_pct(&b) + 50) < 1e-9);
	synth_summary_free(&s);
}

/* each part's spread is the intervals' */
static void test_budget_spread_from_intervals(void)
{
	static const struct shape sh = { 1, 0.5, 8, 0.5, 3, 5, 0.5, 0 };
	double v[NR_BUDGET_METRICS], se[NR_BUDGET_METRICS];
	struct rec_summary s;

	shaped(&s, "a.data", 0, &sh, 100, 10);
	REQUIRE(!rec_budget_metrics(&s, v, se));
	/* no jitter in system time: no spread */
	CHECK(se[BM_SYSTEM] == 0);
	CHECK(se[BM_USER] > 0);
	CHECK(fabs(v[BM_WAIT_BLOCK] - 5 * s.nr_points) < 1e-9);
	synth_summary_free(&s);
}

struct sides {
	struct rec_summary a[RUNS], b[RUNS];
	struct cmp_result r;
};

static void both(struct sides *x, const struct shape *sa, double wa,
		 const struct shape *sb, double wb)
{
	int i;

	memset(x, 0, sizeof(*x));
	for (i = 0; i < RUNS; i++) {
		shaped(&x->a[i], "a.data", i, sa, 10, wa + 0.1 * i);
		shaped(&x->b[i], "b.data", i, sb, 10, wb + 0.1 * i);
		x->r.a.run[i] = &x->a[i];
		x->r.b.run[i] = &x->b[i];
	}
	x->r.a.n = x->r.b.n = RUNS;
	REQUIRE(cmp_build(&x->r) == 0);
}

static void drop(struct sides *x)
{
	int i;

	for (i = 0; i < RUNS; i++) {
		synth_summary_free(&x->a[i]);
		synth_summary_free(&x->b[i]);
	}
}

static void has(const char *words, const char *want)
{
	if (!strstr(words, want)) {
		printf("  \"%s\"\n  lacks \"%s\"\n", words, want);
		CHECK(0);
	}
}

/* B waited longer on the disk: elapsed first, then that part */
static void test_headline_names_elapsed_and_its_part(void)
{
	static const struct shape sa = { 1, 0.5, 8, 0.5, 3, 5, 0.5, 0 };
	static const struct shape sb = { 1, 0.5, 10, 0.5, 3, 7, 0.5, 0 };
	static struct sides x;
	char words[EXPLAIN_LEN];

	both(&x, &sa, 600, &sb, 840);
	explain_headline(&x.r, words, sizeof(words));
	CHECK(!strncmp(words, "Elapsed time went from 600.10 s to 840.10 s",
		       strlen("Elapsed time went from 600.10 s to 840.10 s")));
	has(words, "+240.00 s, +40.0 %");
	has(words,
	    "its largest measured part that moved: waiting on a block request in flight, +");
	/* one sentence: no full stop but the last */
	CHECK(strstr(words, ". ") == NULL);
	CHECK(words[strlen(words) - 1] == '.');
	explain_wall(&x.r, words, sizeof(words));
	has(words,
	    "Parts that moved beyond their spread, largest first: waiting on a block request in flight +");
	has(words, "iowait on nothing pcptop names");
	has(words, "no task waiting on I/O (idle)");
	drop(&x);
}

/* the part that moved is the system time: the sentence follows it */
static void test_headline_follows_the_data(void)
{
	static const struct shape sa = { 1, 0.5, 8, 0.5, 3, 5, 0.5, 0 };
	static const struct shape sb = { 1, 2.5, 8, 0.5, 3, 5, 0.5, 0 };
	static struct sides x;
	char words[EXPLAIN_LEN];

	both(&x, &sa, 600, &sb, 700);
	explain_headline(&x.r, words, sizeof(words));
	has(words,
	    "its largest measured part that moved: CPU in the kernel, +");
	CHECK(!strstr(words, "block request"));
	drop(&x);
}

/* elapsed alike within its spread: said before anything else */
static void test_headline_elapsed_unmoved(void)
{
	static const struct shape s = { 1, 0.5, 8, 0.5, 3, 5, 0.5, 0 };
	static struct sides x;
	char words[EXPLAIN_LEN];

	both(&x, &s, 600, &s, 600);
	explain_headline(&x.r, words, sizeof(words));
	CHECK(!strncmp(words, "Elapsed time did not move",
		       strlen("Elapsed time did not move")));
	has(words, "none of its measured parts moved");
	drop(&x);
}

const struct unit_test budget_tests[] = {
	TEST(test_budget_parts_add_up),
	TEST(test_budget_split_by_shares),
	TEST(test_budget_idle_apart_from_rest),
	TEST(test_budget_spread_from_intervals),
	TEST(test_headline_names_elapsed_and_its_part),
	TEST(test_headline_follows_the_data),
	TEST(test_headline_elapsed_unmoved),
	TEST_END,
};
