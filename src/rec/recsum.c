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
#include "recsum.h"
#include "snapshot.h"
#include "units.h"

#define POINTS_MIN_CAP 64

/* point i's value of every sampled figure: cell 0 of this interval's */
static void point_samples(struct rec_summary *s, int i,
			  const struct samples *smp, bool merge)
{
	int k;

	for (k = 0; k < nr_figs; k++) {
		const struct fig_desc *d = &fig_table[k];
		const struct sample_cell *c = samples_cell(smp, d, 0);
		int64_t *v = &s->sv[(size_t)i * nr_figs + k];

		if (d->type != FIG_SAMPLED || !sample_present(c)) {
			if (!merge)
				*v = REC_SAMPLE_ABSENT;
			continue;
		}
		/* a counter's increases add up; a level is the latest one */
		if (merge && *v != REC_SAMPLE_ABSENT &&
		    d->sample.kind == SAMPLE_COUNTER)
			*v += c->last;
		else
			*v = c->last;
	}
}

int64_t rec_point_sample(const struct rec_summary *s, int i,
			 const struct fig_desc *d)
{
	if (i < 0 || i >= s->nr_points || !s->sv)
		return REC_SAMPLE_ABSENT;
	return s->sv[(size_t)i * nr_figs + fig_index(d)];
}

/* point p's split parts, added to what it holds (a merged interval) */
static void point_parts(struct rec_point *p, const struct figures *f)
{
	int i, k, slot;

	for (i = 0; i < nr_figs; i++)
		for (k = 0; k < fig_nr_parts(&fig_table[i]); k++) {
			slot = fig_split_slot(&fig_table[i], k);
			if (slot >= 0)
				p->parts[slot] += fig_part(&fig_table[i], k, f);
		}
}

/*
 * An interval shorter than half the nominal one (the last, cut short when
 * the command exits) joins the point before it: its counts over a few
 * milliseconds would plot as a rate spike flattening the whole chart.
 */
static bool merge_short(struct rec_summary *s, const struct rec_interval *iv,
			const struct figures *f, const struct samples *smp)
{
	uint64_t len = iv->t_end_ns - iv->t_start_ns;
	struct rec_point *p;
	int i;

	if (!s->nr_points || !s->h.interval_ns || 2 * len >= s->h.interval_ns)
		return false;
	p = &s->points[s->nr_points - 1];
	p->t = (double)iv->t_end_ns / (double)NSEC_PER_SEC;
	point_samples(s, s->nr_points - 1, smp, true);
	p->secs += (double)len / (double)NSEC_PER_SEC;
	for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
		p->cnt[i] += f->cnt[i];
	point_parts(p, f);
	for (i = 0; i < NR_PCPTOP_HISTS; i++) {
		uint64_t p99 = hist_percentile(f->hist[i].slots,
					       PCPTOP_HIST_SLOTS, PCT_TAIL);

		if (f->hist[i].max > p->hmax[i])
			p->hmax[i] = f->hist[i].max;
		if (p99 > p->hp99[i])
			p->hp99[i] = p99;
	}
	return true;
}

static int add_point(struct rec_summary *s, const struct rec_interval *iv,
		     const struct figures *f, const struct samples *smp,
		     int *cap)
{
	struct rec_point *p;
	int64_t *sv;
	int i;

	if (merge_short(s, iv, f, smp))
		return 0;
	if (s->nr_points == *cap) {
		int ncap = *cap ? *cap * 2 : POINTS_MIN_CAP;

		p = realloc(s->points, (size_t)ncap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		s->points = p;
		sv = realloc(s->sv, (size_t)ncap * (nr_figs ? nr_figs : 1) *
					    sizeof(*sv));
		if (!sv)
			return -ENOMEM;
		s->sv = sv;
		*cap = ncap;
	}
	p = &s->points[s->nr_points++];
	p->t = (double)iv->t_end_ns / (double)NSEC_PER_SEC;
	p->secs =
		(double)(iv->t_end_ns - iv->t_start_ns) / (double)NSEC_PER_SEC;
	memcpy(p->cnt, f->cnt, sizeof(p->cnt));
	memset(p->parts, 0, sizeof(p->parts));
	point_parts(p, f);
	point_samples(s, s->nr_points - 1, smp, false);
	for (i = 0; i < NR_PCPTOP_HISTS; i++) {
		p->hmax[i] = f->hist[i].max;
		p->hp99[i] = hist_percentile(f->hist[i].slots,
					     PCPTOP_HIST_SLOTS, PCT_TAIL);
	}
	return 0;
}

static void add_cpus_zones(struct rec_summary *s, const struct snapshot *snap)
{
	int cpu, z, i;

	for (cpu = 0; cpu < snap->nr_cpus; cpu++)
		for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
			s->cpu_cnt[cpu][i] +=
				snap_counter(snap, cpu, SNAP_ALL, i);
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
	err = samples_alloc(&s->total_smp);
	if (err) {
		snprintf(msg, msglen, "%s: out of memory", path);
		return err;
	}
	err = rec_open(&r, path);
	if (err) {
		snprintf(msg, msglen, "%s", r.msg);
		samples_free(&s->total_smp);
		return err;
	}
	/* the summary owns the header's allocations; the reader keeps its dims */
	s->h = r.h;
	memset(&r.h.f.zones, 0, sizeof(r.h.f.zones));
	r.h.argc = 0;
	r.h.argv = NULL;
	s->cpu_cnt = calloc(s->h.dims.nr_cpus, sizeof(*s->cpu_cnt));
	if (!s->cpu_cnt) {
		snprintf(msg, msglen, "%s: out of memory", path);
		err = -ENOMEM;
		goto fail;
	}
	r.want_trace = true;
	while (!(err = rec_next(&r, &it)) && it.type != REC_CHUNK_NONE) {
		if (it.type == REC_CHUNK_END) {
			s->have_end = true;
			s->end = it.end;
			continue;
		}
		if (rec_chunk_is_trace(it.type)) {
			/* a bad trace ends the readable prefix, as any chunk */
			if (rec_trace_tally_add(&s->trace, it.type, it.data,
						it.len)) {
				err = -EBADMSG;
				snprintf(r.msg, sizeof(r.msg),
					 "trace chunk %u is malformed",
					 r.next_seq - 1);
				break;
			}
			continue;
		}
		figures_compute(&r.snap, SNAP_ALL, SNAP_ALL, &f);
		figures_add(&s->total, &f);
		samples_add(&s->total_smp, &r.snap.smp);
		add_cpus_zones(s, &r.snap);
		if (add_point(s, &it.iv, &f, &r.snap.smp, &cap)) {
			snprintf(msg, msglen, "%s: out of memory", path);
			err = -ENOMEM;
			goto fail;
		}
		s->recorded_s += (double)(it.iv.t_end_ns - it.iv.t_start_ns) /
				 (double)NSEC_PER_SEC;
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
	free(s->sv);
	samples_free(&s->total_smp);
	s->points = NULL;
	s->cpu_cnt = NULL;
	s->sv = NULL;
	s->nr_points = 0;
}

bool rec_events_estimated(const struct rec_summary *s, const struct fig_desc *d)
{
	return fig_events_estimated(d, facts_mode(&s->h.f, d->probe));
}

const char *rec_zone_name(const struct rec_header *h, int zone)
{
	if (zone == PCPTOP_ZONE_UNKNOWN)
		return "unknown";
	return facts_zone_name(&h->f, zone);
}

bool rec_cnt_any(const uint64_t cnt[NR_PCPTOP_COUNTERS])
{
	int i;

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (d->type == FIG_BATCH &&
		    ((d->pages >= 0 && cnt[d->pages]) ||
		     (d->events >= 0 && cnt[d->events])))
			return true;
	}
	return false;
}

int rec_inferred_scale(const struct rec_summary *s, int *scale)
{
	const struct figure_hist *lb = &s->total.hist[HIST_SCALE_AT_LEAST];
	const struct figure_hist *ex = &s->total.hist[HIST_SCALE_EXACT];

	/* a chunk cut at batch << scale shows it; else the best lower bound */
	if (ex->samples)
		*scale = (int)ex->max;
	else if (lb->samples)
		*scale = (int)lb->max;
	else
		return -ENODATA;
	return 0;
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
		snprintf(
			buf, len,
			"unknown (no end chunk: pcptop record is still running or was killed)");
	else if (!e->have_command)
		snprintf(buf, len, "recording ended by %s", e->reason);
	else if (e->term_signal)
		snprintf(buf, len, "killed by SIG%s (exit status %d)",
			 sigabbrev_np(e->term_signal) ?
				 sigabbrev_np(e->term_signal) :
				 "?",
			 e->exit_code);
	else
		snprintf(buf, len, "exit status %d", e->exit_code);
}

void rec_start_time(const struct rec_header *h, char *buf, size_t len)
{
	time_t t = (time_t)(h->start_realtime_ns / NSEC_PER_SEC);
	struct tm tm;

	if (!h->start_realtime_ns || !gmtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, len, "unknown");
}
