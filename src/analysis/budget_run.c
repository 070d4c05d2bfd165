// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "budget_run.h"

static const struct {
	const char *key, *name;
} metrics[NR_BUDGET_METRICS] = {
	[BM_BUSY] = { "budget.busy_s", "CPU busy" },
	[BM_USER] = { "budget.user_s", "CPU in user mode" },
	[BM_SYSTEM] = { "budget.system_s", "CPU in the kernel" },
	[BM_IRQ] = { "budget.irq_s", "CPU in interrupts and softirqs" },
	[BM_STEAL] = { "budget.steal_s", "CPU taken by the hypervisor" },
	[BM_WAITING] = { "budget.waiting_s", "waiting (iowait and idle)" },
	[BM_IOWAIT] = { "budget.iowait_s", "iowait" },
	[BM_IDLE] = { "budget.idle_s", "idle" },
	[BM_WAIT_DIRTY] = { "budget.wait_dirty_s",
			    "waiting while a writer was throttled on dirty pages" },
	[BM_WAIT_BLOCK] = { "budget.wait_block_s",
			    "waiting on a block request in flight" },
	[BM_WAIT_IDLE] = { "budget.wait_idle_s",
			   "idle with no task waiting on I/O" },
	[BM_WAIT_NONE] = { "budget.wait_none_s",
			   "in iowait on nothing pcptop names" },
	[BM_DIRTY_SLEEP] = { "budget.dirty_sleep_s",
			     "writers' throttle sleeps" },
	[BM_THROTTLE] = { "budget.throttle_s", "reclaim_throttle() sleeps" },
	[BM_STALLS] = { "budget.stalls_s",
			"direct reclaim and compaction stalls" },
	[BM_BLOCK_BUSY] = { "budget.block_busy_s",
			    "the busiest block device's busy time" },
};

const char *budget_metric_key(int m)
{
	return m >= 0 && m < NR_BUDGET_METRICS ? metrics[m].key : "?";
}

const char *budget_metric_name(int m)
{
	return m >= 0 && m < NR_BUDGET_METRICS ? metrics[m].name : "?";
}

double budget_metric_value(const struct time_budget *b, int m)
{
	const double *st = b->state_s;
	bool cpu = b->have_cpu, split = b->have_split && b->have_cpu;

	switch (m) {
	case BM_BUSY:
		return cpu ? b->busy_s : NAN;
	case BM_USER:
		return cpu ? st[CPU_USER] + st[CPU_NICE] : NAN;
	case BM_SYSTEM:
		return cpu ? st[CPU_SYSTEM] : NAN;
	case BM_IRQ:
		return cpu ? st[CPU_IRQ] + st[CPU_SOFTIRQ] : NAN;
	case BM_STEAL:
		return cpu ? st[CPU_STEAL] : NAN;
	case BM_WAITING:
		return cpu ? b->waiting_s : NAN;
	case BM_IOWAIT:
		return cpu ? st[CPU_IOWAIT] : NAN;
	case BM_IDLE:
		return cpu ? st[CPU_IDLE] : NAN;
	case BM_WAIT_DIRTY:
		return split ? b->split_s[WAIT_ON_DIRTY] : NAN;
	case BM_WAIT_BLOCK:
		return split ? b->split_s[WAIT_ON_BLOCK] : NAN;
	case BM_WAIT_IDLE:
		return split ? b->split_s[WAIT_ON_NOTHING] : NAN;
	case BM_WAIT_NONE:
		return split ? b->split_s[WAIT_ON_NONE] : NAN;
	case BM_DIRTY_SLEEP:
		return b->have_dirty ? b->dirty_sleep_s : NAN;
	case BM_THROTTLE:
		return b->have_throttle ? b->throttle_s : NAN;
	case BM_STALLS:
		return b->have_stalls ? b->stall_s : NAN;
	case BM_BLOCK_BUSY:
		return b->have_block ? b->block_busy_s : NAN;
	default:
		return NAN;
	}
}

void rec_budget(const struct rec_summary *s, struct time_budget *b)
{
	budget_compute(&s->h.f, &s->total, &s->total_smp, s->recorded_s, b);
}

/*
 * An interval's figures as its timeline keeps them: the counters and
 * each sampled figure's sum (the budget reads nothing else)
 */
static void point_inputs(const struct rec_summary *s, int i, struct figures *f,
			 struct samples *smp)
{
	int k;

	memcpy(f->cnt, s->points[i].cnt, sizeof(f->cnt));
	samples_clear(smp);
	for (k = 0; k < nr_figs; k++) {
		const struct fig_desc *d = &fig_table[k];
		int64_t v;

		if (d->type != FIG_SAMPLED)
			continue;
		v = rec_point_sample(s, i, d);
		if (v != REC_SAMPLE_ABSENT)
			samples_set_sum(smp, d, v);
	}
}

int rec_point_budget(const struct rec_summary *s, int i, struct time_budget *b)
{
	struct figures *f;
	struct samples smp;
	int err;

	if (i < 0 || i >= s->nr_points)
		return -EINVAL;
	f = calloc(1, sizeof(*f));
	err = samples_alloc(&smp);
	if (!f || err) {
		free(f);
		samples_free(&smp);
		return -ENOMEM;
	}
	point_inputs(s, i, f, &smp);
	budget_compute(&s->h.f, f, &smp, s->points[i].secs, b);
	free(f);
	samples_free(&smp);
	return 0;
}

int rec_budget_metrics(const struct rec_summary *s, double v[NR_BUDGET_METRICS],
		       double se[NR_BUDGET_METRICS])
{
	double sum[NR_BUDGET_METRICS] = { 0 }, sq[NR_BUDGET_METRICS] = { 0 };
	int k[NR_BUDGET_METRICS] = { 0 }, i, m, err;
	struct time_budget b;

	rec_budget(s, &b);
	for (m = 0; m < NR_BUDGET_METRICS; m++)
		v[m] = budget_metric_value(&b, m);
	for (i = 0; i < s->nr_points; i++) {
		err = rec_point_budget(s, i, &b);
		if (err)
			return err;
		for (m = 0; m < NR_BUDGET_METRICS; m++) {
			double x = budget_metric_value(&b, m);

			if (isnan(x))
				continue;
			sum[m] += x;
			sq[m] += x * x;
			k[m]++;
		}
	}
	for (m = 0; m < NR_BUDGET_METRICS; m++) {
		double mean, var;

		se[m] = NAN;
		if (k[m] < 2 || isnan(v[m]))
			continue;
		mean = sum[m] / k[m];
		var = (sq[m] - k[m] * mean * mean) / (k[m] - 1);
		se[m] = sqrt((var < 0 ? 0 : var) * k[m]);
	}
	return 0;
}
