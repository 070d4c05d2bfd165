// SPDX-License-Identifier: GPL-2.0-only
/*
 * report --json, report --csv and diff --json. Keys follow stat --json
 * and info --json where they say the same thing, so one jq filter reads
 * a live interval and a recording's totals alike.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "hist.h"
#include "json.h"
#include "budget_run.h"
#include "json_budget.h"
#include "json_facts.h"
#include "json_fig.h"
#include "report_view.h"
#include "explain.h"
#include "units.h"

#define LINE_LEN 512

static void j_num(struct json_writer *w, const char *key, double v)
{
	if (isnan(v))
		json_null(w, key);
	else
		json_double(w, key, v);
}

static double secs_of(uint64_t ns)
{
	return (double)ns / (double)NSEC_PER_SEC;
}

static void j_scale(struct json_writer *w, const struct rec_summary *s)
{
	struct scale_info si = s->h.f.scale;
	const struct figure_hist *lb = &s->total.hist[HIST_SCALE_AT_LEAST];
	const struct figure_hist *ex = &s->total.hist[HIST_SCALE_EXACT];

	/* what the whole recording proved, as stat says it for its run */
	scale_add_evidence(&si, (int)lb->max, lb->samples, (int)ex->max,
			   ex->samples);
	json_obj_begin(w, "scale");
	json_scale_fields(w, &si);
	json_scale_inferred(w, &si);
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
		json_double(w, "wall_s", secs_of(e->wall_ns));
		json_double(w, "user_s", secs_of(e->utime_ns));
		json_double(w, "sys_s", secs_of(e->stime_ns));
	} else {
		/* no end chunk: the command's fate is not known */
		json_null(w, "exit_status");
		json_null(w, "wall_s");
	}
	json_obj_end(w);
}

static void j_counters(struct json_writer *w, const uint64_t *cnt)
{
	int i;

	for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
		json_u64(w, counter_key(i), cnt[i]);
}

static void j_totals(struct json_writer *w, const struct rec_summary *s)
{
	struct time_budget b;

	json_obj_begin(w, "totals");
	json_figures(w, &s->h.f, &s->total, &s->total_smp, s->recorded_s);
	budget_compute(&s->h.f, &s->total, &s->total_smp, s->recorded_s, &b);
	json_budget(w, &b);
	json_obj_begin(w, "counters");
	j_counters(w, s->total.cnt);
	json_obj_end(w);
	json_obj_end(w);
}

/* per_cpu for every CPU, per_zone for the zones where anything happened */
static void j_split(struct json_writer *w, const struct rec_summary *s)
{
	uint32_t cpu;
	int z;

	json_arr_begin(w, "per_cpu");
	for (cpu = 0; cpu < s->h.dims.nr_cpus; cpu++) {
		json_obj_begin(w, NULL);
		json_int(w, "cpu", cpu);
		j_counters(w, s->cpu_cnt[cpu]);
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
		j_counters(w, s->zone_cnt[z]);
		json_obj_end(w);
	}
	json_arr_end(w);
}

/* the largest and the p99 of each interval, for every figure that has one */
static void j_point_hists(struct json_writer *w, const struct rec_point *p)
{
	char key[64];
	int i;

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (d->flags & FIG_TL_MAX) {
			snprintf(key, sizeof(key), "%s_max", d->key);
			json_u64(w, key, p->hmax[d->hist]);
		}
		if (d->flags & FIG_TL_P99) {
			snprintf(key, sizeof(key), "%s_p99", d->key);
			json_u64(w, key, p->hp99[d->hist]);
		}
	}
}

/* each sampled figure's value in the interval, null where it had none */
static void j_point_samples(struct json_writer *w, const struct rec_summary *s,
			    int i)
{
	int k;

	for (k = 0; k < nr_figs; k++) {
		const struct fig_desc *d = &fig_table[k];
		int64_t v;

		if (d->type != FIG_SAMPLED || !facts_fig_shown(&s->h.f, d))
			continue;
		v = rec_point_sample(s, i, d);
		if (v == REC_SAMPLE_ABSENT)
			json_null(w, d->key);
		else
			json_int(w, d->key, v);
	}
}

static void j_timeline(struct json_writer *w, const struct rec_summary *s)
{
	int i;

	json_arr_begin(w, "timeline");
	for (i = 0; i < s->nr_points; i++) {
		const struct rec_point *p = &s->points[i];

		json_obj_begin(w, NULL);
		json_double(w, "t", p->t);
		json_double(w, "interval_s", p->secs);
		j_counters(w, p->cnt);
		j_point_hists(w, p);
		j_point_samples(w, s, i);
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
	json_double(w, "start_unix", secs_of(s->h.start_realtime_ns));
	json_double(w, "interval_s", secs_of(s->h.interval_ns));
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
	j_scale(w, s);
	json_facts(w, &s->h.f, (int)s->h.dims.nr_cpus);
	j_command(w, s);
}

static const char *const cost_names[] = {
	[COST_TIME] = "time",	  [COST_PAGES] = "pages",
	[COST_EVENTS] = "events", [COST_SHAPE] = "shape",
	[COST_NONE] = "none",
};

static const char *const spread_names[] = {
	[SPREAD_RUNS] = "runs",
	[SPREAD_INTERVALS] = "intervals",
	[SPREAD_UNKNOWN] = "unknown",
};

/* a compared metric's numbers, inside its object */
static void j_compared(struct json_writer *w, const struct cmp_metric *c)
{
	j_num(w, "a", c->a);
	j_num(w, "b", c->b);
	j_num(w, "delta", c->b - c->a);
	/* JSON has no infinity: a figure A had none of */
	if (isinf(c->change_pct))
		json_null(w, "change_pct");
	else
		j_num(w, "change_pct", c->change_pct);
	j_num(w, "spread", c->spread);
	j_num(w, "spread_pct",
	      c->a ? c->spread / fabs(c->a) * PERCENT : (double)NAN);
	json_str(w, "spread_from", spread_names[c->from]);
	j_num(w, "sd_a", c->sd_a);
	j_num(w, "sd_b", c->sd_b);
	json_bool(w, "moved", c->moved);
	json_str(w, "cost", cost_names[c->m.cost]);
	if (c->m.unit[0])
		json_str(w, "unit", c->m.unit);
	json_bool(w, "bound", c->m.bound);
}

/*
 * Each side's wall-time budget as diff weighs it: every budget part's
 * mean over the side's runs, and its spread
 */
static void j_budget_sides(struct json_writer *w, const struct cmp_result *r)
{
	int side, m, k;

	json_obj_begin(w, "budget");
	for (side = 0; side < 2; side++) {
		json_obj_begin(w, side ? "b" : "a");
		for (m = 0; m < NR_BUDGET_METRICS; m++) {
			const char *key = budget_metric_key(m);

			k = cmp_find(r, key);
			/* "budget.busy_s" as "busy_s" */
			json_double(w, strchr(key, '.') + 1,
				    k < 0 ? NAN :
				    side  ? r->m[k].b :
					    r->m[k].a);
		}
		json_obj_end(w);
	}
	json_obj_end(w);
}

/* the paragraph, the runs, and every moved metric, what it cost first */
static void j_summary(struct json_writer *w, const struct cmp_result *r)
{
	char words[EXPLAIN_LEN], name[EXPLAIN_NAME_LEN];
	size_t n;
	int i;

	/* the paragraph opens with the wall time; its parts apart too */
	explain_headline(r, words, sizeof(words));
	json_str(w, "headline", words);
	explain_wall(r, words, sizeof(words));
	json_str(w, "wall_paragraph", words);
	n = strlen(words);
	if (n + 1 < sizeof(words))
		words[n++] = ' ';
	explain_paragraph(r, words + n, sizeof(words) - n);
	json_str(w, "paragraph", words);
	j_budget_sides(w, r);
	json_obj_begin(w, "runs");
	json_arr_begin(w, "a");
	for (i = 0; i < r->a.n; i++)
		json_str(w, NULL, r->a.run[i]->path);
	json_arr_end(w);
	json_arr_begin(w, "b");
	for (i = 0; i < r->b.n; i++)
		json_str(w, NULL, r->b.run[i]->path);
	json_arr_end(w);
	json_obj_end(w);
	json_arr_begin(w, "summary");
	for (i = 0; i < r->nr_moved; i++) {
		explain_name(&r->m[r->rank[i]], name, sizeof(name));
		json_obj_begin(w, NULL);
		json_str(w, "figure", r->m[r->rank[i]].m.key);
		json_str(w, "name", name);
		/* the paragraph names one metric a figure and kind of cost */
		json_bool(w, "named", explain_leads(r, i));
		j_compared(w, &r->m[r->rank[i]]);
		json_obj_end(w);
	}
	json_arr_end(w);
}

/* record --trace: what the trace holds and what it lost; null without one */
static void j_trace(struct json_writer *w, const struct rec_summary *s)
{
	const struct rec_trace_tally *t = &s->trace;
	uint64_t sum = 0;
	int i;

	if (!t->chunks) {
		json_null(w, "trace");
		return;
	}
	json_obj_begin(w, "trace");
	json_u64(w, "chunks", t->chunks);
	json_u64(w, "ringbuf_bytes", t->ringbuf_bytes);
	json_u64(w, "hooks", t->hooks);
	json_obj_begin(w, "events");
	for (i = 0; i < NR_PCPM_EV; i++) {
		json_u64(w, rec_trace_type_name(i), t->events[i]);
		sum += t->events[i];
	}
	json_obj_end(w);
	json_u64(w, "total_events", sum);
	json_u64(w, "records", t->records);
	json_u64(w, "lost", t->lost);
	json_u64(w, "loss_windows", t->loss_windows);
	if (t->loss_windows) {
		json_double(w, "loss_first_s",
			    secs_between(t->t0_ns, t->loss_first_ns));
		json_double(w, "loss_last_s",
			    secs_between(t->t0_ns, t->loss_last_ns));
	} else {
		json_null(w, "loss_first_s");
		json_null(w, "loss_last_s");
	}
	json_obj_end(w);
}

void report_json(FILE *f, const struct rec_summary *s)
{
	struct json_writer w;
	int h;

	json_init(&w, f);
	json_obj_begin(&w, NULL);
	json_schema(&w);
	j_recording(&w, s);
	j_facts(&w, s);
	j_totals(&w, s);
	j_split(&w, s);
	j_timeline(&w, s);
	j_trace(&w, s);
	json_obj_begin(&w, "hist");
	for (h = 0; h < NR_PCPTOP_HISTS; h++)
		if (facts_hist_shown(&s->h.f, h))
			json_hist(&w, h, &s->total);
	json_lat_hists(&w, &s->h.f, &s->total);
	json_obj_end(&w);
	json_obj_end(&w);
	json_end_line(&w);
}

static bool csv_sampled(const struct rec_summary *s, const struct fig_desc *d)
{
	return d->type == FIG_SAMPLED && facts_fig_shown(&s->h.f, d);
}

/* an empty field where the interval had no value */
static void csv_sample(FILE *f, int64_t v)
{
	if (v == REC_SAMPLE_ABSENT)
		fputc(',', f);
	else
		fprintf(f, ",%lld", (long long)v);
}

void report_csv(FILE *f, const struct rec_summary *s)
{
	int i, c, k;

	fputs("t_s,interval_s", f);
	for (c = 0; c < NR_PCPTOP_COUNTERS; c++)
		fprintf(f, ",%s", counter_key(c));
	for (k = 0; k < nr_figs; k++) {
		if (fig_table[k].flags & FIG_TL_MAX)
			fprintf(f, ",%s_max", fig_table[k].key);
		if (fig_table[k].flags & FIG_TL_P99)
			fprintf(f, ",%s_p99", fig_table[k].key);
		if (csv_sampled(s, &fig_table[k]))
			fprintf(f, ",%s", fig_table[k].key);
	}
	fputc('\n', f);
	for (i = 0; i < s->nr_points; i++) {
		const struct rec_point *p = &s->points[i];

		fprintf(f, "%.3f,%.3f", p->t, p->secs);
		for (c = 0; c < NR_PCPTOP_COUNTERS; c++)
			fprintf(f, ",%llu", (unsigned long long)p->cnt[c]);
		for (k = 0; k < nr_figs; k++) {
			const struct fig_desc *d = &fig_table[k];

			if (d->flags & FIG_TL_MAX)
				fprintf(f, ",%llu",
					(unsigned long long)p->hmax[d->hist]);
			if (d->flags & FIG_TL_P99)
				fprintf(f, ",%llu",
					(unsigned long long)p->hp99[d->hist]);
			if (csv_sampled(s, d))
				csv_sample(f, rec_point_sample(s, i, d));
		}
		fputc('\n', f);
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

void diff_json(FILE *f, const struct cmp_result *r)
{
	const struct rec_summary *a = r->a.run[0], *b = r->b.run[0];
	struct json_writer w;
	int i, h;

	json_init(&w, f);
	json_obj_begin(&w, NULL);
	json_schema(&w);
	j_summary(&w, r);
	j_side(&w, "a", a);
	j_side(&w, "b", b);
	json_obj_begin(&w, "delta");
	for (i = 0; i < r->n; i++) {
		json_obj_begin(&w, r->m[i].m.key);
		j_compared(&w, &r->m[i]);
		json_obj_end(&w);
	}
	json_obj_end(&w);
	json_obj_begin(&w, "hist");
	for (h = 0; h < NR_PCPTOP_HISTS; h++) {
		const struct figure_hist *x = &a->total.hist[h];
		const struct figure_hist *y = &b->total.hist[h];

		if (hist_table[h].weighted)
			continue;
		json_obj_begin(&w, hist_table[h].key);
		json_str(&w, "unit", hist_table[h].unit);
		json_arr_begin(&w, "p50");
		json_u64(&w, NULL,
			 hist_percentile(x->slots, PCPTOP_HIST_SLOTS,
					 PCT_MEDIAN));
		json_u64(&w, NULL,
			 hist_percentile(y->slots, PCPTOP_HIST_SLOTS,
					 PCT_MEDIAN));
		json_arr_end(&w);
		json_arr_begin(&w, "p99");
		json_u64(&w, NULL,
			 hist_percentile(x->slots, PCPTOP_HIST_SLOTS,
					 PCT_TAIL));
		json_u64(&w, NULL,
			 hist_percentile(y->slots, PCPTOP_HIST_SLOTS,
					 PCT_TAIL));
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
