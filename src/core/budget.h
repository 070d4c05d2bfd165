/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where a span's wall time went (issue 29): its CPU time by state from
 * /proc/stat, and the time the CPUs waited split by what was pending
 * (bpf/waits.bpf.h's idle split), beside the waits pcptop names, which
 * overlap those parts and each other. Computed from one interval's
 * figures and samples, or a run's, so stat, top, report and diff give the
 * same budget. docs/ACCURACY.md ("Wall time") says what each part is.
 *
 * The parts that add up: elapsed x CPUs = busy + waiting, busy = user +
 * nice + system + irq + softirq + steal, waiting = iowait + idle; and
 * waiting = a writer throttled + a request in flight + nothing named,
 * the idle split's shares of /proc/stat's waiting time. Everything else
 * (sleeps, stalls, device busy time, PSI) is task or device time that
 * lies inside those parts: never added to them.
 */
#ifndef PCPTOP_BUDGET_H
#define PCPTOP_BUDGET_H

#include <stdbool.h>
#include "facts.h"
#include "figures.h"
#include "procstat.h"
#include "samples.h"

/* how the waiting time splits, in the idle split's priority order */
enum budget_wait {
	WAIT_ON_DIRTY, /* a writer asleep throttled on dirty pages */
	WAIT_ON_BLOCK, /* else a block request in flight */
	WAIT_ON_NOTHING, /* else no task of the CPU in iowait: truly idle */
	WAIT_ON_NONE, /* else a task in iowait on nothing pcptop names */
	NR_BUDGET_WAITS,
};

struct time_budget {
	double elapsed_s;
	double cpus; /* CPUs online (the span's mean), 0 unknown */
	bool have_cpu; /* /proc/stat was read */
	double state_s[NR_CPU_STATES]; /* CPU seconds, all CPUs */
	double cpu_s; /* their sum: elapsed x CPUs, if the reading holds */
	double busy_s; /* user + nice + system + irq + softirq + steal */
	double waiting_s; /* iowait + idle */
	/*
	 * The idle split: its own total, and the waiting time split by its
	 * shares (split_s sums to waiting_s)
	 */
	bool have_split;
	double split_idle_s;
	double split_s[NR_BUDGET_WAITS];
	/* named waits: task (or device) time, inside the parts above */
	bool have_dirty, have_throttle, have_stalls, have_block, have_psi;
	double dirty_sleep_s; /* writers' throttle sleeps, as slept */
	double dirty_sleeps;
	double throttle_s; /* reclaim_throttle() */
	double stall_s; /* direct reclaim and compaction */
	double block_busy_s; /* the busiest device's time with I/O in flight */
	double psi_io_some_s, psi_io_full_s, psi_mem_some_s, psi_mem_full_s;
};

/*
 * The budget of a span of secs seconds whose BPF counts are f and
 * sampled values s (an interval's increases, or a run's totals; a gauge
 * read at its mean). Parts a run did not measure stay false.
 */
void budget_compute(const struct facts *fa, const struct figures *f,
		    const struct samples *s, double secs,
		    struct time_budget *b);

/* "writers throttled on dirty pages", ... */
const char *budget_wait_name(int w);
/* "user", ... as budget_compute() names the CPU states */
const char *budget_state_name(int state);

/*
 * How far the CPU states miss elapsed x CPUs, in percent of it (the
 * identity that checks the reading); NaN without them
 */
double budget_identity_pct(const struct time_budget *b);

#endif /* PCPTOP_BUDGET_H */
