// SPDX-License-Identifier: GPL-2.0-only
/*
 * report --json, report --csv and diff --json. Keys follow stat --json
 * and info --json where they say the same thing, so one jq filter reads
 * a live interval and a recording's totals alike.
 */
#include <math.h>
#include <stdio.h>
#include "hist.h"
#include "json.h"
#include "json_facts.h"
#include "report.h"

#define NSEC_PER_SEC 1e9
#define PCT_MEDIAN 50.0
#define PCT_TAIL 99.0
#define LINE_LEN 512

static void j_num(struct json_writer *w, const char *key, double v)
{
	if (isnan(v))
		json_null(w, key);
	else
		json_double(w, key, v);
}

static void j_scale(struct json_writer *w, const struct rec_summary *s)
{
	int inferred = rec_inferred_scale(s);

	json_obj_begin(w, "scale");
	json_scale_fields(w, &s->h.scale);
	if (inferred >= 0)
		json_int(w, "inferred_at_least", inferred);
	else
		json_null(w, "inferred_at_least");
	json_obj_end(w);
}

static void j_command(struct json_writer *w, const struct rec_summary *s)
{
	const struct rec_end *e = &s->end;
	int i;

	if (!s->h.argc) {
		json_null(w, "command");
		return;
	}
	json_obj_begin(w, "command");
	json_arr_begin(w, "argv");
	for (i = 0; i < s->h.argc; i++)
		json_str(w, NULL, s->h.argv[i]);
	json_arr_end(w);
	if (s->have_end && e->have_command) {
		json_int(w, "exit_status", e->exit_code);
		if (e->term_signal)
			json_int(w, "signal", e->term_signal);
		else
			json_null(w, "signal");
		json_double(w, "wall_s", (double)e->wall_ns / NSEC_PER_SEC);
		json_double(w, "user_s", (double)e->utime_ns / NSEC_PER_SEC);
		json_double(w, "sys_s", (double)e->stime_ns / NSEC_PER_SEC);
	} else {
		/* no end chunk: the command's fate is not known */
		json_null(w, "exit_status");
		json_null(w, "wall_s");
	}
	json_obj_end(w);
}

static void j_totals(struct json_writer *w, const struct rec_summary *s)
{
	const struct figures *t = &s->total;
	int i;

	json_obj_begin(w, "totals");
	for (i = 0; i < NR_REC_ROWS; i++) {
		const struct rec_row *r = &rec_rows[i];

		json_obj_begin(w, r->key);
		json_u64(w, r->calls_key, t->cnt[r->calls]);
		json_u64(w, "pages", t->cnt[r->pages]);
		json_u64(w, "max", t->hist[r->hist].max);
		json_double(w, "avg",
			    figures_ratio(t->cnt[r->pages], t->cnt[r->calls]));
		json_double(w, "per_s",
			    s->recorded_s > 0 ? t->cnt[r->calls] / s->recorded_s : 0);
		json_bool(w, "estimated", rec_probe_estimated(&s->h, r->probe));
		json_obj_end(w);
	}
	json_obj_begin(w, "lock_ns");
	json_u64(w, "total", t->cnt[CNT_BULK_FREE_NS]);
	json_u64(w, "p50", hist_percentile(t->hist[HIST_LOCK_NS].slots,
					   PCPTOP_HIST_SLOTS, PCT_MEDIAN));
	json_u64(w, "p99", hist_percentile(t->hist[HIST_LOCK_NS].slots,
					   PCPTOP_HIST_SLOTS, PCT_TAIL));
	json_u64(w, "max", t->hist[HIST_LOCK_NS].max);
	json_u64(w, "refill_total", t->cnt[CNT_REFILL_NS]);
	json_u64(w, "refill_p99", hist_percentile(t->hist[HIST_REFILL_NS].slots,
						  PCPTOP_HIST_SLOTS, PCT_TAIL));
	json_bool(w, "estimated", rec_probe_estimated(&s->h, "bulk_free"));
	json_obj_end(w);
	json_obj_begin(w, "counters");
	for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
		json_u64(w, rec_counter_key(i), t->cnt[i]);
	json_obj_end(w);
	json_obj_end(w);
}

/* per_cpu for every CPU, per_zone for the zones where anything happened */
static void j_split(struct json_writer *w, const struct rec_summary *s)
{
	uint32_t cpu;
	int i, z;

	json_arr_begin(w, "per_cpu");
	for (cpu = 0; cpu < s->h.dims.nr_cpus; cpu++) {
		json_obj_begin(w, NULL);
		json_int(w, "cpu", cpu);
		for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
			json_u64(w, rec_counter_key(i), s->cpu_cnt[cpu][i]);
		json_obj_end(w);
	}
	json_arr_end(w);
	json_arr_begin(w, "per_zone");
	for (z = 0; z < PCPTOP_MAX_ZONES; z++) {
		if (!rec_cnt_any(s->zone_cnt[z]))
			continue;
		json_obj_begin(w, NULL);
		json_int(w, "zone", z);
		json_str(w, "name", rec_zone_name(&s->h, z));
		for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
			json_u64(w, rec_counter_key(i), s->zone_cnt[z][i]);
		json_obj_end(w);
	}
	json_arr_end(w);
}

static void j_timeline(struct json_writer *w, const struct rec_summary *s)
{
	int i, c;

	json_arr_begin(w, "timeline");
	for (i = 0; i < s->nr_points; i++) {
		const struct rec_point *p = &s->points[i];

		json_obj_begin(w, NULL);
		json_double(w, "t", p->t);
		json_double(w, "interval_s", p->secs);
		for (c = 0; c < NR_PCPTOP_COUNTERS; c++)
			json_u64(w, rec_counter_key(c), p->cnt[c]);
		json_u64(w, "bulk_free_max", p->hmax[HIST_BULK_FREE_PAGES]);
		json_u64(w, "refill_max", p->hmax[HIST_REFILL_PAGES]);
		json_u64(w, "lock_ns_p99", p->lock_p99);
		json_obj_end(w);
	}
	json_arr_end(w);
}

/* what the file is and where reading stopped */
static void j_recording(struct json_writer *w, const struct rec_summary *s)
{
	char line[LINE_LEN];
	char ver[16];

	json_str(w, "file", s->path);
	snprintf(ver, sizeof(ver), "%u.%u", s->h.version_major,
		 s->h.version_minor);
	json_str(w, "format", ver);
	json_str(w, "pcptop_version", s->h.pcptop_version);
	rec_start_time(&s->h, line, sizeof(line));
	json_str(w, "start", line);
	json_double(w, "start_unix", (double)s->h.start_realtime_ns / NSEC_PER_SEC);
	json_double(w, "interval_s", (double)s->h.interval_ns / NSEC_PER_SEC);
	json_int(w, "intervals", s->nr_points);
	json_double(w, "duration_s", s->recorded_s);
	json_bool(w, "complete", s->have_end && !s->stop_err);
	if (s->stop_err)
		json_str(w, "warning", s->stop_msg);
	else if (!s->have_end)
		json_str(w, "warning", "no end chunk");
	else
		json_null(w, "warning");
	json_str(w, "end_reason", s->have_end ? s->end.reason : NULL);
}

static void j_facts(struct json_writer *w, const struct rec_summary *s)
{
	const struct rec_header *h = &s->h;
	int i;

	json_obj_begin(w, "kernel");
	json_str(w, "release", h->release);
	json_str(w, "arch", h->arch);
	json_str(w, "hostname", h->hostname);
	json_str(w, "btf", h->btf_source);
	json_int(w, "nr_cpus", h->dims.nr_cpus);
	json_obj_end(w);
	j_scale(w, s);
	json_str(w, "mode", h->mode_summary);
	json_arr_begin(w, "probes");
	for (i = 0; i < h->nr_probes; i++) {
		json_obj_begin(w, NULL);
		json_str(w, "name", h->probes[i].name);
		json_str(w, "mode", h->probes[i].mode);
		json_str(w, "target", h->probes[i].target);
		json_bool(w, "estimated", h->probes[i].estimated);
		json_str(w, "reason", h->probes[i].reason);
		json_obj_end(w);
	}
	json_arr_end(w);
	json_str(w, "fallback", h->fallback);
	if (h->pageblock_order >= 0) {
		json_int(w, "pageblock_order", h->pageblock_order);
		json_int(w, "pages_per_block", h->pages_per_block);
	} else {
		json_null(w, "pageblock_order");
	}
	if (h->high_fraction >= 0)
		json_int(w, "percpu_pagelist_high_fraction", h->high_fraction);
	else
		json_null(w, "percpu_pagelist_high_fraction");
	json_u64(w, "run_cap_pages", h->run_cap_pages);
	json_zone_pagesets(w, "zones", &h->zones);
	j_command(w, s);
}

void report_json(FILE *f, const struct rec_summary *s)
{
	struct json_writer w;
	int h;

	json_init(&w, f);
	json_obj_begin(&w, NULL);
	j_recording(&w, s);
	j_facts(&w, s);
	j_totals(&w, s);
	j_split(&w, s);
	j_timeline(&w, s);
	json_obj_begin(&w, "hist");
	for (h = 0; h < NR_PCPTOP_HISTS; h++)
		json_log2_hist(&w, figures_hist_key(h), s->total.hist[h].slots,
			       PCPTOP_HIST_SLOTS);
	json_obj_end(&w);
	json_obj_end(&w);
	json_end_line(&w);
}

void report_csv(FILE *f, const struct rec_summary *s)
{
	int i, c;

	fputs("t_s,interval_s", f);
	for (c = 0; c < NR_PCPTOP_COUNTERS; c++)
		fprintf(f, ",%s", rec_counter_key(c));
	fputs(",bulk_free_max,refill_max,lock_ns_p99\n", f);
	for (i = 0; i < s->nr_points; i++) {
		const struct rec_point *p = &s->points[i];

		fprintf(f, "%.3f,%.3f", p->t, p->secs);
		for (c = 0; c < NR_PCPTOP_COUNTERS; c++)
			fprintf(f, ",%llu", (unsigned long long)p->cnt[c]);
		fprintf(f, ",%llu,%llu,%llu\n",
			(unsigned long long)p->hmax[HIST_BULK_FREE_PAGES],
			(unsigned long long)p->hmax[HIST_REFILL_PAGES],
			(unsigned long long)p->lock_p99);
	}
}

static void j_side(struct json_writer *w, const char *key,
		   const struct rec_summary *s)
{
	json_obj_begin(w, key);
	j_recording(w, s);
	j_facts(w, s);
	j_totals(w, s);
	json_obj_end(w);
}

void diff_json(FILE *f, const struct rec_summary *a,
	       const struct rec_summary *b)
{
	struct rec_metric ma[REC_MAX_METRICS], mb[REC_MAX_METRICS];
	struct json_writer w;
	int n, i, h;

	n = rec_metrics(a, ma, REC_MAX_METRICS);
	rec_metrics(b, mb, REC_MAX_METRICS);
	json_init(&w, f);
	json_obj_begin(&w, NULL);
	j_side(&w, "a", a);
	j_side(&w, "b", b);
	json_obj_begin(&w, "delta");
	for (i = 0; i < n; i++) {
		json_obj_begin(&w, ma[i].key);
		j_num(&w, "a", ma[i].v);
		j_num(&w, "b", mb[i].v);
		j_num(&w, "delta", mb[i].v - ma[i].v);
		j_num(&w, "pct", report_delta_pct(ma[i].v, mb[i].v));
		if (ma[i].unit[0])
			json_str(&w, "unit", ma[i].unit);
		json_obj_end(&w);
	}
	json_obj_end(&w);
	json_obj_begin(&w, "hist");
	for (h = 0; h < NR_PCPTOP_HISTS; h++) {
		const struct figure_hist *x = &a->total.hist[h];
		const struct figure_hist *y = &b->total.hist[h];

		json_obj_begin(&w, figures_hist_key(h));
		json_str(&w, "unit", figures_hist_unit(h));
		json_arr_begin(&w, "p50");
		json_u64(&w, NULL, hist_percentile(x->slots, PCPTOP_HIST_SLOTS, PCT_MEDIAN));
		json_u64(&w, NULL, hist_percentile(y->slots, PCPTOP_HIST_SLOTS, PCT_MEDIAN));
		json_arr_end(&w);
		json_arr_begin(&w, "p99");
		json_u64(&w, NULL, hist_percentile(x->slots, PCPTOP_HIST_SLOTS, PCT_TAIL));
		json_u64(&w, NULL, hist_percentile(y->slots, PCPTOP_HIST_SLOTS, PCT_TAIL));
		json_arr_end(&w);
		json_arr_begin(&w, "max");
		json_u64(&w, NULL, x->max);
		json_u64(&w, NULL, y->max);
		json_arr_end(&w);
		json_arr_begin(&w, "samples");
		json_u64(&w, NULL, x->samples);
		json_u64(&w, NULL, y->samples);
		json_arr_end(&w);
		json_log2_hist(&w, "a", x->slots, PCPTOP_HIST_SLOTS);
		json_log2_hist(&w, "b", y->slots, PCPTOP_HIST_SLOTS);
		json_obj_end(&w);
	}
	json_obj_end(&w);
	json_obj_end(&w);
	json_end_line(&w);
}
