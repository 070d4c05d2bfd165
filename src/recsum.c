// SPDX-License-Identifier: GPL-2.0-only
/*
 * A recording summed up for report and diff. The derived figures come
 * from the raw arrays through figures_compute(), the same path stat
 * takes, so a recording reports exactly what stat would have printed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "hist.h"
#include "prom.h"
#include "recsum.h"
#include "snapshot.h"
#include "system.h"

#define NSEC_PER_SEC 1e9
#define PCT_MEDIAN 50.0
#define PCT_TAIL 99.0
#define POINTS_MIN_CAP 64

const struct rec_row rec_rows[NR_REC_ROWS] = {
	{ "bulk_free", "calls", CNT_BULK_FREE_CALLS, CNT_BULK_FREE_PAGES,
	  HIST_BULK_FREE_PAGES, "bulk_free" },
	{ "refill", "calls", CNT_REFILL_CALLS, CNT_REFILL_PAGES,
	  HIST_REFILL_PAGES, "refill" },
	{ "free_high", "count", CNT_FREE_HIGH_COUNT, CNT_FREE_HIGH_PAGES,
	  HIST_FREE_HIGH_PAGES, "free_high" },
	{ "decay", "calls", CNT_DECAY_CALLS, CNT_DECAY_PAGES, HIST_DECAY_PAGES,
	  "decay" },
	{ "drain", "calls", CNT_DRAIN_CALLS, CNT_DRAIN_PAGES, HIST_DRAIN_PAGES,
	  "drain" },
};

static const char *const counter_keys[NR_PCPTOP_COUNTERS] = {
	[CNT_BULK_FREE_CALLS] = "bulk_free_calls",
	[CNT_BULK_FREE_PAGES] = "bulk_free_pages",
	[CNT_REFILL_CALLS] = "refill_calls",
	[CNT_REFILL_REQ_PAGES] = "refill_req_pages",
	[CNT_REFILL_PAGES] = "refill_pages",
	[CNT_FREE_HIGH_COUNT] = "free_high_count",
	[CNT_FREE_HIGH_PAGES] = "free_high_pages",
	[CNT_DECAY_CALLS] = "decay_calls",
	[CNT_DECAY_PAGES] = "decay_pages",
	[CNT_DRAIN_CALLS] = "drain_calls",
	[CNT_DRAIN_PAGES] = "drain_pages",
	[CNT_BULK_FREE_NS] = "bulk_free_lock_ns",
	[CNT_REFILL_NS] = "refill_lock_ns",
	[CNT_DECAY_HIGH_BEFORE] = "decay_high_before",
	[CNT_DECAY_HIGH_AFTER] = "decay_high_after",
	[CNT_XCHECK_DRAIN_PAGES] = "xcheck_drain_pages",
};

const char *rec_counter_key(int counter)
{
	if (counter < 0 || counter >= NR_PCPTOP_COUNTERS ||
	    !counter_keys[counter])
		return "?";
	return counter_keys[counter];
}

static int add_point(struct rec_summary *s, const struct rec_interval *iv,
		     const struct figures *f, int *cap)
{
	struct rec_point *p;
	int i;

	if (s->nr_points == *cap) {
		int ncap = *cap ? *cap * 2 : POINTS_MIN_CAP;

		p = realloc(s->points, (size_t)ncap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		s->points = p;
		*cap = ncap;
	}
	p = &s->points[s->nr_points++];
	p->t = (double)iv->t_end_ns / NSEC_PER_SEC;
	p->secs = (double)(iv->t_end_ns - iv->t_start_ns) / NSEC_PER_SEC;
	memcpy(p->cnt, f->cnt, sizeof(p->cnt));
	for (i = 0; i < NR_PCPTOP_HISTS; i++)
		p->hmax[i] = f->hist[i].max;
	p->lock_p99 = hist_percentile(f->hist[HIST_LOCK_NS].slots,
				      PCPTOP_HIST_SLOTS, PCT_TAIL);
	return 0;
}

static void add_cpus_zones(struct rec_summary *s, const struct snapshot *snap)
{
	int cpu, z, i;

	for (cpu = 0; cpu < snap->nr_cpus; cpu++)
		for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
			s->cpu_cnt[cpu][i] += snap_counter(snap, cpu, SNAP_ALL, i);
	for (z = 0; z < PCPTOP_MAX_ZONES; z++)
		for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
			s->zone_cnt[z][i] += snap_counter(snap, SNAP_ALL, z, i);
}

int rec_summary_load(const char *path, struct rec_summary *s, char *msg,
		     size_t msglen)
{
	struct rec_reader r;
	struct rec_item it;
	struct figures f;
	int err, cap = 0;

	memset(s, 0, sizeof(*s));
	s->path = path;
	err = rec_open(&r, path);
	if (err) {
		snprintf(msg, msglen, "%s", r.msg);
		return err;
	}
	/* the summary owns the header's allocations; the reader keeps its dims */
	s->h = r.h;
	memset(&r.h.zones, 0, sizeof(r.h.zones));
	r.h.argc = 0;
	r.h.argv = NULL;
	s->cpu_cnt = calloc(s->h.dims.nr_cpus, sizeof(*s->cpu_cnt));
	if (!s->cpu_cnt) {
		snprintf(msg, msglen, "%s: out of memory", path);
		err = -ENOMEM;
		goto fail;
	}
	while ((err = rec_next(&r, &it)) > 0) {
		if (it.type == REC_CHUNK_END) {
			s->have_end = true;
			s->end = it.end;
			continue;
		}
		figures_compute(&r.snap, SNAP_ALL, SNAP_ALL, &f);
		figures_add(&s->total, &f);
		add_cpus_zones(s, &r.snap);
		if (add_point(s, &it.iv, &f, &cap)) {
			snprintf(msg, msglen, "%s: out of memory", path);
			err = -ENOMEM;
			goto fail;
		}
		s->recorded_s += (double)(it.iv.t_end_ns - it.iv.t_start_ns) /
				 NSEC_PER_SEC;
	}
	if (err < 0) {
		s->stop_err = err;
		snprintf(s->stop_msg, sizeof(s->stop_msg), "%s", r.msg);
	}
	s->nr_chunks = r.nr_chunks;
	rec_close(&r);
	return 0;
fail:
	rec_close(&r);
	rec_summary_free(s);
	return err;
}

void rec_summary_free(struct rec_summary *s)
{
	rec_header_free(&s->h);
	free(s->points);
	free(s->cpu_cnt);
	s->points = NULL;
	s->cpu_cnt = NULL;
	s->nr_points = 0;
}

bool rec_probe_estimated(const struct rec_header *h, const char *probe)
{
	int i;

	for (i = 0; i < h->nr_probes; i++)
		if (!strcmp(h->probes[i].name, probe))
			return h->probes[i].estimated;
	return false;
}

void rec_scale_line(const struct rec_header *h, char *buf, size_t len)
{
	struct system_facts sf;

	/* system_scale_line() reads only the scale */
	memset(&sf, 0, sizeof(sf));
	sf.scale = h->scale;
	system_scale_line(&sf, buf, len);
}

int rec_max_batch(const struct rec_header *h)
{
	struct system_facts sf;

	/* system_max_batch() reads only the pagesets */
	memset(&sf, 0, sizeof(sf));
	sf.zones = h->zones;
	return system_max_batch(&sf);
}

const char *rec_zone_name(const struct rec_header *h, int zone)
{
	struct system_facts sf;

	if (zone == PCPTOP_ZONE_UNKNOWN)
		return "unknown";
	memset(&sf, 0, sizeof(sf));
	sf.zones = h->zones;
	return system_zone_name(&sf, zone);
}

bool rec_cnt_any(const uint64_t cnt[NR_PCPTOP_COUNTERS])
{
	int i;

	for (i = 0; i < NR_REC_ROWS; i++)
		if (cnt[rec_rows[i].pages] || cnt[rec_rows[i].calls])
			return true;
	return false;
}

int rec_inferred_scale(const struct rec_summary *s)
{
	uint64_t largest = 0;
	int h;

	/* the chunks bounded by batch << scale, as stat infers */
	for (h = HIST_FREE_HIGH_PAGES; h <= HIST_DRAIN_PAGES; h++)
		if (s->total.hist[h].max > largest)
			largest = s->total.hist[h].max;
	/* pages freed, not asked for: allow the last page's overshoot */
	return scale_infer_slack(largest, rec_max_batch(&s->h),
				 scale_overshoot_slack(s->h.pageblock_order));
}

void rec_command_line(const struct rec_summary *s, char *buf, size_t len)
{
	if (s->h.argc > 0)
		rec_argv_join(s->h.argc, s->h.argv, buf, len);
	else
		snprintf(buf, len, "(none: the whole system was recorded)");
}

void rec_status_line(const struct rec_summary *s, char *buf, size_t len)
{
	const struct rec_end *e = &s->end;

	if (!s->have_end)
		snprintf(buf, len, "unknown (no end chunk: pcptop record is still running or was killed)");
	else if (!e->have_command)
		snprintf(buf, len, "recording ended by %s", e->reason);
	else if (e->term_signal)
		snprintf(buf, len, "killed by SIG%s (exit status %d)",
			 sigabbrev_np(e->term_signal) ?
				 sigabbrev_np(e->term_signal) : "?",
			 e->exit_code);
	else
		snprintf(buf, len, "exit status %d", e->exit_code);
}

void rec_start_time(const struct rec_header *h, char *buf, size_t len)
{
	time_t t = (time_t)(h->start_realtime_ns / (uint64_t)NSEC_PER_SEC);
	struct tm tm;

	if (!h->start_realtime_ns || !gmtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, len, "unknown");
}

static void metric(struct rec_metric *m, int *n, int max, const char *key,
		   const char *unit, double v, bool bound)
{
	if (*n >= max)
		return;
	m[*n].key = key;
	m[*n].unit = unit;
	m[*n].v = v;
	m[*n].bound = bound;
	(*n)++;
}

int rec_metrics(const struct rec_summary *s, struct rec_metric *m, int max)
{
	static const char *const keys[NR_REC_ROWS][4] = {
		{ "bulk_free.calls", "bulk_free.pages", "bulk_free.avg", "bulk_free.max" },
		{ "refill.calls", "refill.pages", "refill.avg", "refill.max" },
		{ "free_high.count", "free_high.pages", "free_high.avg", "free_high.max" },
		{ "decay.calls", "decay.pages", "decay.avg", "decay.max" },
		{ "drain.calls", "drain.pages", "drain.avg", "drain.max" },
	};
	const struct figures *t = &s->total;
	const uint64_t *lock = t->hist[HIST_LOCK_NS].slots;
	const uint64_t *rlock = t->hist[HIST_REFILL_NS].slots;
	bool cmd = s->have_end && s->end.have_command;
	int n = 0, i;

	metric(m, &n, max, "command.wall_s", "s",
	       cmd ? (double)s->end.wall_ns / NSEC_PER_SEC : NAN, false);
	metric(m, &n, max, "command.user_s", "s",
	       cmd ? (double)s->end.utime_ns / NSEC_PER_SEC : NAN, false);
	metric(m, &n, max, "command.sys_s", "s",
	       cmd ? (double)s->end.stime_ns / NSEC_PER_SEC : NAN, false);
	metric(m, &n, max, "recorded_s", "s", s->recorded_s, false);
	metric(m, &n, max, "intervals", "", s->nr_points, false);
	for (i = 0; i < NR_REC_ROWS; i++) {
		const struct rec_row *r = &rec_rows[i];

		metric(m, &n, max, keys[i][0], "", (double)t->cnt[r->calls],
		       false);
		metric(m, &n, max, keys[i][1], "pages",
		       (double)t->cnt[r->pages], false);
		metric(m, &n, max, keys[i][2], "pages",
		       figures_ratio(t->cnt[r->pages], t->cnt[r->calls]),
		       false);
		metric(m, &n, max, keys[i][3], "pages",
		       (double)t->hist[r->hist].max, false);
	}
	metric(m, &n, max, "bulk_free.pages_per_s", "pages",
	       s->recorded_s > 0 ? (double)t->cnt[CNT_BULK_FREE_PAGES] /
					   s->recorded_s : NAN,
	       false);
	metric(m, &n, max, "refill.pages_per_s", "pages",
	       s->recorded_s > 0 ? (double)t->cnt[CNT_REFILL_PAGES] /
					   s->recorded_s : NAN,
	       false);
	metric(m, &n, max, "lock_ns.total", "ns",
	       (double)t->cnt[CNT_BULK_FREE_NS], false);
	metric(m, &n, max, "lock_ns.p50", "ns",
	       (double)hist_percentile(lock, PCPTOP_HIST_SLOTS, PCT_MEDIAN),
	       true);
	metric(m, &n, max, "lock_ns.p99", "ns",
	       (double)hist_percentile(lock, PCPTOP_HIST_SLOTS, PCT_TAIL),
	       true);
	metric(m, &n, max, "lock_ns.max", "ns",
	       (double)t->hist[HIST_LOCK_NS].max, false);
	metric(m, &n, max, "refill_lock_ns.total", "ns",
	       (double)t->cnt[CNT_REFILL_NS], false);
	metric(m, &n, max, "refill_lock_ns.p99", "ns",
	       (double)hist_percentile(rlock, PCPTOP_HIST_SLOTS, PCT_TAIL),
	       true);
	return n;
}
