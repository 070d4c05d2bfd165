/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A recording's wall-time budget (core/budget.h): over the whole run, and
 * interval by interval from its timeline, which gives each part the
 * spread diff weighs its change against.
 */
#ifndef PCPTOP_BUDGET_RUN_H
#define PCPTOP_BUDGET_RUN_H

#include "budget.h"
#include "recsum.h"

/* the run's budget, over its recorded span */
void rec_budget(const struct rec_summary *s, struct time_budget *b);

/* the budget of interval i of the timeline; 0 or -ENOMEM */
int rec_point_budget(const struct rec_summary *s, int i, struct time_budget *b);

/* the parts diff compares, and how each is read off a budget */
enum budget_metric {
	BM_BUSY,
	BM_USER, /* user + nice */
	BM_SYSTEM,
	BM_IRQ, /* irq + softirq */
	BM_STEAL,
	BM_WAITING,
	BM_IOWAIT,
	BM_IDLE,
	BM_WAIT_DIRTY,
	BM_WAIT_BLOCK,
	BM_WAIT_IDLE,
	BM_WAIT_NONE,
	BM_DIRTY_SLEEP,
	BM_THROTTLE,
	BM_STALLS,
	BM_BLOCK_BUSY,
	NR_BUDGET_METRICS,
};

/* "budget.busy_s", ... */
const char *budget_metric_key(int m);
/* what the metric names, for diff's words: "CPU busy", ... */
const char *budget_metric_name(int m);
/* its value in b, NaN where b did not measure it */
double budget_metric_value(const struct time_budget *b, int m);

/*
 * Every budget metric of the run (its value) and its standard error from
 * the intervals (sqrt(k) times their standard deviation; NaN with fewer
 * than two), in enum order; 0 or -ENOMEM
 */
int rec_budget_metrics(const struct rec_summary *s, double v[NR_BUDGET_METRICS],
		       double se[NR_BUDGET_METRICS]);

#endif /* PCPTOP_BUDGET_RUN_H */
