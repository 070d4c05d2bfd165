// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdio.h>
#include "budget_text.h"

#define PERCENT 100.0
#define NAME_W 40

static double pct(double part, double whole)
{
	return whole > 0 ? part / whole * PERCENT : 0;
}

static void part_line(FILE *out, const char *ind, const char *name, double s,
		      double whole)
{
	fprintf(out, "%s%-*s %10.2f s %6.1f %%\n", ind, NAME_W, name, s,
		pct(s, whole));
}

/* the CPU states: what adds up to elapsed x CPUs */
static void cpu_lines(FILE *out, const struct time_budget *b, double whole)
{
	const double *st = b->state_s;

	part_line(out, "    ", "CPU busy", b->busy_s, whole);
	fprintf(out,
		"      user %.2f, nice %.2f, system %.2f, irq %.2f, softirq %.2f, steal %.2f\n",
		st[CPU_USER], st[CPU_NICE], st[CPU_SYSTEM], st[CPU_IRQ],
		st[CPU_SOFTIRQ], st[CPU_STEAL]);
	part_line(out, "    ", "waiting (iowait + idle)", b->waiting_s, whole);
	fprintf(out, "      iowait %.2f, idle %.2f\n", st[CPU_IOWAIT],
		st[CPU_IDLE]);
}

static void split_lines(FILE *out, const struct time_budget *b, double whole)
{
	char name[64];
	int w;

	if (!b->have_split) {
		fprintf(out,
			"      (not split: the waits probe did not run; pcptop info says why)\n");
		return;
	}
	for (w = 0; w < NR_BUDGET_WAITS; w++) {
		snprintf(name, sizeof(name), "  on %s", budget_wait_name(w));
		part_line(out, "    ", name, b->split_s[w], whole);
	}
	if (b->have_cpu)
		fprintf(out,
			"      (split by shares of %.2f s of idle time seen at context switches, %.1f %% of /proc/stat's)\n",
			b->split_idle_s, pct(b->split_idle_s, b->waiting_s));
}

/* what lies inside the parts, which is never added to them */
static void inside_lines(FILE *out, const struct time_budget *b,
			 const struct facts *fa)
{
	fprintf(out,
		"    inside those parts (task or device time: they overlap the parts and each other):\n");
	if (b->have_dirty)
		fprintf(out,
			"      writers asleep throttled on dirty pages %.2f s in %.0f sleeps (io_schedule_timeout(): inside iowait)\n",
			b->dirty_sleep_s, b->dirty_sleeps);
	if (b->have_throttle)
		fprintf(out,
			"      reclaim asleep in reclaim_throttle() %.2f s (inside idle, or busy where other tasks ran)\n",
			b->throttle_s);
	if (b->have_stalls)
		fprintf(out,
			"      direct reclaim and compaction stalls %.2f s (busy while they run, waiting where they sleep)\n",
			b->stall_s);
	if (b->have_block)
		fprintf(out,
			"      the busiest block device had a request in flight %.2f s\n",
			b->block_busy_s);
	if (b->have_psi)
		fprintf(out,
			"      PSI io some %.2f s, full %.2f s; memory some %.2f s, full %.2f s\n",
			b->psi_io_some_s, b->psi_io_full_s, b->psi_mem_some_s,
			b->psi_mem_full_s);
	else if (fa->psi_absent[0])
		fprintf(out, "      PSI: none (%s)\n", fa->psi_absent);
}

void text_budget(FILE *out, const struct time_budget *b, const struct facts *fa)
{
	double whole = b->elapsed_s * b->cpus;

	if (!b->have_cpu) {
		fprintf(out,
			"  wall time: %.2f s elapsed; no CPU states (/proc/stat was not read)\n",
			b->elapsed_s);
		return;
	}
	fprintf(out,
		"  wall time: %.2f s elapsed x %.0f CPU%s = %.2f CPU seconds (%% of them):\n",
		b->elapsed_s, b->cpus, b->cpus == 1 ? "" : "s", whole);
	cpu_lines(out, b, whole);
	split_lines(out, b, whole);
	inside_lines(out, b, fa);
	fprintf(out,
		"    the CPU states add up to %.2f s of %.2f s (%+.2f %%; this checks the reading, not the split)\n",
		b->cpu_s, whole, budget_identity_pct(b));
}

void text_budget_line(char *buf, size_t len, const struct time_budget *b)
{
	double whole = b->elapsed_s * b->cpus;

	if (!b->have_cpu || whole <= 0) {
		snprintf(buf, len, "busy - iowait - throttled - stalled -");
		return;
	}
	/* a second of every CPU: CPU busy and iowait, and sleeps per CPU */
	snprintf(buf, len,
		 "busy %.0f%% iowait %.0f%% throttled %.0f%% stalled %.0f%%",
		 pct(b->busy_s, whole), pct(b->state_s[CPU_IOWAIT], whole),
		 pct(b->dirty_sleep_s + b->throttle_s, whole),
		 pct(b->stall_s, whole));
}
