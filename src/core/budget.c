// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "budget.h"
#include "units.h"

#define MS_PER_S 1e3
#define US_PER_S 1e6
#define PERCENT 100.0

static const char *const wait_names[NR_BUDGET_WAITS] = {
	[WAIT_ON_DIRTY] = "a writer throttled on dirty pages",
	[WAIT_ON_BLOCK] = "a block request in flight",
	[WAIT_ON_NOTHING] = "nothing: no task in iowait",
	[WAIT_ON_NONE] = "nothing named, a task in iowait",
};

const char *budget_wait_name(int w)
{
	return w >= 0 && w < NR_BUDGET_WAITS ? wait_names[w] : "?";
}

const char *budget_state_name(int state)
{
	return cpu_state_name(state);
}

/* a sampled figure's cell 0 as a double, false when the span has none */
static bool sampled(const struct facts *fa, const struct samples *s,
		    const char *key, double *v)
{
	const struct fig_desc *d = fig_find(key);
	const struct sample_cell *c;

	if (!d || !facts_fig_shown(fa, d))
		return false;
	c = samples_cell(s, d, 0);
	if (!sample_present(c))
		return false;
	*v = d->sample.kind == SAMPLE_GAUGE ? sample_mean(c) :
					      (double)sample_value(d, c);
	return true;
}

/* the busiest device's cell of a per-device figure */
static bool busiest(const struct facts *fa, const struct samples *s,
		    const char *key, double *v)
{
	const struct fig_desc *d = fig_find(key);
	bool any = false;
	int k;

	if (!d || !facts_fig_shown(fa, d))
		return false;
	for (k = 0; k < sample_instances(d->sample.scope); k++) {
		const struct sample_cell *c =
			samples_cell(s, d, sample_zone_cell(k));
		double x;

		if (!sample_present(c))
			continue;
		x = (double)sample_value(d, c);
		if (!any || x > *v)
			*v = x;
		any = true;
	}
	return any;
}

static const struct fig_desc *bpf_fig(const struct facts *fa, const char *key)
{
	const struct fig_desc *d = fig_find(key);

	return d && facts_fig_shown(fa, d) ? d : NULL;
}

static double secs_of(uint64_t ns)
{
	return (double)ns / (double)NSEC_PER_SEC;
}

static void cpu_parts(const struct facts *fa, const struct samples *s,
		      struct time_budget *b)
{
	char key[32];
	double v;
	int st;

	b->have_cpu = true;
	for (st = 0; st < NR_CPU_STATES; st++) {
		snprintf(key, sizeof(key), "cpu_%s", cpu_state_name(st));
		if (!sampled(fa, s, key, &v)) {
			b->have_cpu = false;
			return;
		}
		b->state_s[st] = v / MS_PER_S;
		b->cpu_s += b->state_s[st];
	}
	b->waiting_s = b->state_s[CPU_IDLE] + b->state_s[CPU_IOWAIT];
	b->busy_s = b->cpu_s - b->waiting_s;
	if (sampled(fa, s, "cpus_online", &v))
		b->cpus = v;
}

/* the waiting time by the idle split's shares of its own idle total */
static void wait_parts(const struct facts *fa, const struct figures *f,
		       struct time_budget *b)
{
	const struct fig_desc *d = bpf_fig(fa, "idle_by_wait");
	double part[NR_BUDGET_WAITS], sum = 0;
	int k;

	if (!d || fig_nr_parts(d) != NR_BUDGET_WAITS)
		return;
	for (k = 0; k < NR_BUDGET_WAITS; k++) {
		part[k] = secs_of(fig_part(d, k, f));
		sum += part[k];
	}
	b->have_split = true;
	b->split_idle_s = sum;
	for (k = 0; k < NR_BUDGET_WAITS; k++)
		b->split_s[k] = !b->have_cpu ? part[k] :
				sum > 0	     ? b->waiting_s * part[k] / sum :
				k == WAIT_ON_NONE ? b->waiting_s :
						    0;
}

static void named_waits(const struct facts *fa, const struct figures *f,
			const struct samples *s, struct time_budget *b)
{
	const struct fig_desc *d;
	double v;

	if ((d = bpf_fig(fa, "dirty_throttle_ns"))) {
		b->have_dirty = true;
		b->dirty_sleep_s = secs_of(fig_total(d, f));
		b->dirty_sleeps = (double)f->hist[d->hist].samples;
	}
	if ((d = bpf_fig(fa, "reclaim_throttle_ns"))) {
		b->have_throttle = true;
		b->throttle_s = secs_of(fig_total(d, f));
	}
	if ((d = bpf_fig(fa, "reclaim_stall_ns"))) {
		b->have_stalls = true;
		b->stall_s += secs_of(fig_total(d, f));
	}
	if ((d = bpf_fig(fa, "compact_stall_ns"))) {
		b->have_stalls = true;
		b->stall_s += secs_of(fig_total(d, f));
	}
	if (busiest(fa, s, "blk_io_ms", &v)) {
		b->have_block = true;
		b->block_busy_s = v / MS_PER_S;
	}
	b->have_psi = sampled(fa, s, "psi_io_some", &b->psi_io_some_s) &&
		      sampled(fa, s, "psi_io_full", &b->psi_io_full_s) &&
		      sampled(fa, s, "psi_memory_some", &b->psi_mem_some_s) &&
		      sampled(fa, s, "psi_memory_full", &b->psi_mem_full_s);
	if (b->have_psi) {
		b->psi_io_some_s /= US_PER_S;
		b->psi_io_full_s /= US_PER_S;
		b->psi_mem_some_s /= US_PER_S;
		b->psi_mem_full_s /= US_PER_S;
	}
}

void budget_compute(const struct facts *fa, const struct figures *f,
		    const struct samples *s, double secs, struct time_budget *b)
{
	memset(b, 0, sizeof(*b));
	b->elapsed_s = secs;
	cpu_parts(fa, s, b);
	wait_parts(fa, f, b);
	named_waits(fa, f, s, b);
}

double budget_identity_pct(const struct time_budget *b)
{
	double want = b->elapsed_s * b->cpus;

	if (!b->have_cpu || want <= 0)
		return NAN;
	return (b->cpu_s - want) / want * PERCENT;
}
