// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include "attach.h"
#include "clock.h"
#include "cost.h"
#include "procfs.h"
#include "units.h"

#define BPF_STATS_SYSCTL "/proc/sys/kernel/bpf_stats_enabled"

static int write_long_file(const char *path, long v)
{
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return -errno;
	if (fprintf(f, "%ld\n", v) < 0)
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/*
 * BPF_ENABLE_STATS keeps run-time stats on while its fd is open, so they
 * go off however pcptop ends. Kernels before 5.8 only have the sysctl:
 * then the old value is put back on every way out that runs cleanup.
 */
static void cost_baseline(struct cost_src *cs, const struct attach *a)
{
	struct prog_stats ps;

	attach_prog_stats(a, &ps);
	cs->run_ns = ps.run_ns;
	cs->run_cnt = ps.run_cnt;
}

/* statistics on; 0 or -errno (cs->off says why) */
static int stats_on(struct cost_src *cs, const struct attach *a)
{
	int fd, err;

	fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (fd >= 0) {
		cs->stats_fd = fd;
		goto out;
	}
	err = read_long_file(BPF_STATS_SYSCTL, &cs->sysctl_old);
	if (!err && cs->sysctl_old)
		goto out;
	if (!err)
		err = write_long_file(BPF_STATS_SYSCTL, 1);
	if (err) {
		snprintf(cs->off, sizeof(cs->off), "bpf_stats: %s",
			 strerror(-err));
		return err;
	}
	cs->sysctl_set = true;
out:
	cost_baseline(cs, a);
	cs->on = true;
	cs->since = clock_mono_s();
	return 0;
}

static void stats_off(struct cost_src *cs)
{
	if (cs->stats_fd >= 0)
		close(cs->stats_fd);
	cs->stats_fd = -1;
	if (cs->sysctl_set)
		write_long_file(BPF_STATS_SYSCTL, cs->sysctl_old);
	cs->sysctl_set = false;
	cs->on = false;
	cs->since = clock_mono_s();
}

void cost_on(struct cost_src *cs, const struct attach *a)
{
	memset(cs, 0, sizeof(*cs));
	cs->stats_fd = -1;
	stats_on(cs, a);
}

void cost_off(struct cost_src *cs)
{
	stats_off(cs);
}

void cost_sample(struct cost_src *cs, const struct attach *a,
		 struct cost_sample *out)
{
	double now = clock_mono_s(), secs = now - cs->since;
	struct prog_stats ps;
	uint64_t ns, cnt;

	if (cs->off[0]) {
		memset(out, 0, sizeof(*out));
		return;
	}
	if (cs->on && secs >= COST_ON_S) {
		attach_prog_stats(a, &ps);
		ns = ps.run_ns - cs->run_ns;
		cnt = ps.run_cnt - cs->run_cnt;
		cs->last.valid = true;
		cs->last.ns_per_event = cnt ? (double)ns / (double)cnt : 0.0;
		cs->last.cpu_pct =
			(double)ns * PERCENT / (secs * (double)NSEC_PER_SEC);
		stats_off(cs);
	} else if (!cs->on && secs >= COST_PERIOD_S - COST_ON_S) {
		stats_on(cs, a);
	}
	*out = cs->last;
}
