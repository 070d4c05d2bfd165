// SPDX-License-Identifier: GPL-2.0-only
/*
 * report and diff as text: facts, totals, pages per CPU and zone, a
 * timeline and the histograms; or two recordings side by side. Every row
 * and column comes from figtab.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "arrays.h"
#include "budget_text.h"
#include "hist.h"
#include "report_view.h"
#include "explain.h"
#include "text.h"
#include "units.h"

#define LINE_LEN 512
#define NUM_LEN 32
/* the paragraph's width, for an 80-column terminal */
#define WRAP_W 76
/* the timeline's columns */
#define TL_NUM_W 8
#define TL_MAX_W 5
#define TL_MAX_COLS 24

static double secs_of(uint64_t ns)
{
	return (double)ns / (double)NSEC_PER_SEC;
}

static void print_facts(FILE *out, const struct rec_summary *s)
{
	const struct rec_header *h = &s->h;
	const struct facts *fa = &h->f;
	const struct rec_end *e = &s->end;
	char line[LINE_LEN];
	int i;

	facts_scale_line(fa, line, sizeof(line));
	fprintf(out, "%s\n", line);
	rec_start_time(h, line, sizeof(line));
	fprintf(out,
		"recording  %s: %d intervals, %.1f s from %s, every %g s; pcptop %s, format %u.%u\n",
		s->path, s->nr_points, s->recorded_s, line,
		secs_of(h->interval_ns), h->pcptop_version, h->version_major,
		h->version_minor);
	fprintf(out, "kernel     %s %s on %s, %u CPUs; probes:", fa->release,
		fa->arch, fa->hostname, h->dims.nr_cpus);
	for (i = 0; i < fa->nr_probes; i++)
		fprintf(out, " %s=%s%s", fa->probes[i].name,
			fa->probes[i].mode_name,
			fa->probes[i].estimated ? "~" : "");
	fprintf(out, "\n");
	rec_command_line(s, line, sizeof(line));
	fprintf(out, "command    %s\n", line);
	rec_status_line(s, line, sizeof(line));
	if (s->have_end && e->have_command)
		fprintf(out,
			"           %s, wall %.2f s (user %.2f s, sys %.2f s)\n",
			line, secs_of(e->wall_ns), secs_of(e->utime_ns),
			secs_of(e->stime_ns));
	else if (h->argc || !s->have_end)
		fprintf(out, "           %s\n", line);
	fprintf(out, "pagesets   largest batch %d", facts_max_batch(fa));
	if (fa->pageblock_order >= 0)
		fprintf(out, ", pageblock order %d", fa->pageblock_order);
	if (fa->run_cap_pages)
		fprintf(out, ", run cap %llu pages",
			(unsigned long long)fa->run_cap_pages);
	fprintf(out, "\n");
}

static void print_totals(FILE *out, const struct rec_summary *s)
{
	int inferred;

	fprintf(out,
		"\nTotals over %.1f s ('~' = estimated from tracepoint event runs)\n",
		s->recorded_s);
	text_figures(out, &s->h.f, &s->total, s->recorded_s, TEXT_RUN);
	/* "at least 0" says nothing */
	if (!rec_inferred_scale(s, &inferred) && inferred > 0)
		fprintf(out,
			"  the largest flush/drain/decay chunk proves scale >= %d\n",
			inferred);
}

/* where the run's wall time went: the totals' budget */
static void print_budget(FILE *out, const struct rec_summary *s)
{
	struct time_budget b;

	budget_compute(&s->h.f, &s->total, &s->total_smp, s->recorded_s, &b);
	fputc('\n', out);
	text_budget(out, &b, &s->h.f);
}

static bool split_fig(const struct rec_summary *s, const struct fig_desc *d)
{
	return d->type == FIG_BATCH && facts_fig_shown(&s->h.f, d);
}

static void print_pages_row(FILE *out, const struct rec_summary *s,
			    const char *name, const uint64_t *c)
{
	int i;

	fprintf(out, "  %-8s", name);
	for (i = 0; i < nr_figs; i++)
		if (split_fig(s, &fig_table[i]))
			fprintf(out, " %13llu",
				(unsigned long long)c[fig_table[i].pages]);
	fprintf(out, "\n");
}

/* pages per CPU and per zone, the rows where anything happened */
static void print_split(FILE *out, const struct rec_summary *s)
{
	char name[16];
	uint32_t cpu;
	int z, i;

	fprintf(out,
		"\nPages per CPU and per zone ('unknown': tracepoints carry no zone)\n");
	fprintf(out, "  %-8s", "");
	for (i = 0; i < nr_figs; i++)
		if (split_fig(s, &fig_table[i]))
			fprintf(out, " %13s", fig_table[i].key);
	fprintf(out, "\n");
	for (cpu = 0; cpu < s->h.dims.nr_cpus; cpu++) {
		if (!rec_cnt_any(s->cpu_cnt[cpu]))
			continue;
		snprintf(name, sizeof(name), "cpu %u", cpu);
		print_pages_row(out, s, name, s->cpu_cnt[cpu]);
	}
	for (z = 0; z < PCPTOP_MAX_ZONES; z++)
		if (rec_cnt_any(s->zone_cnt[z]))
			print_pages_row(out, s, rec_zone_name(&s->h, z),
					s->zone_cnt[z]);
}

/* a timeline column: one part of one figure, per interval */
struct tl_col {
	const struct fig_desc *d;
	unsigned int part; /* one FIG_TL_* bit */
	const char *name;
	int width;
};

static int tl_cols(const struct rec_summary *s, struct tl_col *c)
{
	static const struct {
		unsigned int part;
		int width;
	} parts[] = {
		{ FIG_TL_EVENTS, TL_NUM_W }, { FIG_TL_PAGES, TL_NUM_W },
		{ FIG_TL_MAX, TL_MAX_W },    { FIG_TL_P99, TL_NUM_W + 1 },
		{ FIG_TL_VALUE, TL_NUM_W },
	};
	int i, k, n = 0;

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (!facts_fig_shown(&s->h.f, d))
			continue;
		for (k = 0; k < (int)ARRAY_SIZE(parts) && n < TL_MAX_COLS;
		     k++) {
			if (!(d->flags & parts[k].part))
				continue;
			c[n].d = d;
			c[n].part = parts[k].part;
			c[n].width = parts[k].width;
			c[n].name =
				parts[k].part == FIG_TL_EVENTS ? d->events_key :
				parts[k].part == FIG_TL_PAGES  ? "pages" :
				parts[k].part == FIG_TL_MAX    ? "max" :
				parts[k].part == FIG_TL_P99    ? "p99 ns" :
								 d->sample.unit;
			n++;
		}
		/* a lone column is as wide as the figure's name above it */
		if (n && c[n - 1].d == d && (n == 1 || c[n - 2].d != d) &&
		    c[n - 1].width < (int)strlen(d->key))
			c[n - 1].width = (int)strlen(d->key);
	}
	return n;
}

static uint64_t tl_value(const struct tl_col *c, const struct rec_summary *s,
			 int i)
{
	const struct rec_point *p = &s->points[i];
	int64_t v;

	switch (c->part) {
	case FIG_TL_EVENTS:
		return p->cnt[c->d->events];
	case FIG_TL_PAGES:
		return p->cnt[c->d->pages];
	case FIG_TL_MAX:
		return p->hmax[c->d->hist];
	case FIG_TL_VALUE:
		v = rec_point_sample(s, i, c->d);
		return v == REC_SAMPLE_ABSENT || v < 0 ? 0 : (uint64_t)v;
	default:
		return p->hp99[c->d->hist];
	}
}

/* the figure's name over its columns: "--- bulk_free ---" */
static void tl_group(FILE *out, const char *key, int w, int ncols)
{
	int len = (int)strlen(key), left;

	if (ncols == 1 || len + 2 >= w) {
		fprintf(out, " %*s", w, key);
		return;
	}
	left = (w - len - 2) / 2;
	fprintf(out, " %.*s %s %.*s", left,
		"------------------------------------------", key,
		w - len - 2 - left,
		"------------------------------------------");
}

static void print_timeline(FILE *out, const struct rec_summary *s)
{
	struct tl_col c[TL_MAX_COLS];
	int n = tl_cols(s, c), i, k, j, w;

	fprintf(out, "\nTimeline, one line per interval (pages unless said)\n");
	fprintf(out, "  %8s %5s", "", "");
	for (k = 0; k < n; k = j) {
		for (j = k, w = -1; j < n && c[j].d == c[k].d; j++)
			w += c[j].width + 1;
		tl_group(out, c[k].d->key, w, j - k);
	}
	fprintf(out, "\n  %8s %5s", "t(s)", "secs");
	for (k = 0; k < n; k++)
		fprintf(out, " %*s", c[k].width, c[k].name);
	fprintf(out, "\n");
	for (i = 0; i < s->nr_points; i++) {
		const struct rec_point *p = &s->points[i];

		fprintf(out, "  %8.1f %5.2f", p->t, p->secs);
		for (k = 0; k < n; k++)
			fprintf(out, " %*llu", c[k].width,
				(unsigned long long)tl_value(&c[k], s, i));
		fprintf(out, "\n");
	}
}

static void print_hists(FILE *out, const struct rec_summary *s)
{
	fprintf(out, "\nHistograms of the whole recording\n");
	text_hists(out, &s->total);
}

/* record --trace: its events, and every loss said */
static void print_trace(FILE *out, const struct rec_summary *s)
{
	const struct rec_trace_tally *t = &s->trace;
	const uint64_t *e = t->events;

	if (!t->chunks)
		return;
	fprintf(out,
		"trace      %llu allocations, %llu frees, %llu drains, %llu decays, %llu pageset and %llu zone states; ring buffer %u KiB; %llu records\n",
		(unsigned long long)e[PCPM_EV_ALLOC],
		(unsigned long long)e[PCPM_EV_FREE],
		(unsigned long long)e[PCPM_EV_DRAIN],
		(unsigned long long)e[PCPM_EV_DECAY],
		(unsigned long long)e[PCPM_EV_SNAPSHOT],
		(unsigned long long)e[PCPM_EV_ZONE_STATE],
		t->ringbuf_bytes / 1024, (unsigned long long)t->records);
	if (!t->lost) {
		fprintf(out, "           nothing lost\n");
		return;
	}
	fprintf(out,
		"           LOST %llu events in %llu windows between %.3f s and %.3f s: a replay over them is incomplete\n",
		(unsigned long long)t->lost,
		(unsigned long long)t->loss_windows,
		secs_between(t->t0_ns, t->loss_first_ns),
		secs_between(t->t0_ns, t->loss_last_ns));
}

void report_text(FILE *out, const struct rec_summary *s, bool timeline,
		 bool hists)
{
	print_facts(out, s);
	print_trace(out, s);
	print_totals(out, s);
	text_by_mt(out, &s->h.f, &s->total, "  ");
	text_latency(out, &s->h.f, &s->total, "  ");
	text_sampled(out, &s->h.f, &s->total_smp, s->recorded_s, TEXT_RUN);
	print_budget(out, s);
	print_split(out, s);
	if (timeline)
		print_timeline(out, s);
	if (hists)
		print_hists(out, s);
}

static void fmt_num(char *buf, size_t len, double v, bool bound)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fabs(v) < 1e15 && v == (double)(long long)v)
		snprintf(buf, len, "%s%.0f", bound ? "<=" : "", v);
	else
		snprintf(buf, len, "%s%.2f", bound ? "<=" : "", v);
}

/* a side's runs: the first one's facts, then every file */
static void print_side(FILE *out, const char *tag, const struct cmp_side *sd)
{
	const struct rec_summary *s = sd->run[0];
	const struct facts *fa = &s->h.f;
	char line[LINE_LEN];
	int i;

	facts_scale_line(fa, line, sizeof(line));
	fprintf(out, "%s  %s", tag, s->path);
	for (i = 1; i < sd->n; i++)
		fprintf(out, ", %s", sd->run[i]->path);
	fprintf(out, "%s\n", sd->n > 1 ? " (repeats: means below)" : "");
	fprintf(out, "   kernel %s %s on %s, %u CPUs, %s mode\n", fa->release,
		fa->arch, fa->hostname, s->h.dims.nr_cpus, fa->mode_summary);
	fprintf(out, "   %s\n", line);
	rec_command_line(s, line, sizeof(line));
	fprintf(out, "   command %s\n", line);
	rec_status_line(s, line, sizeof(line));
	fprintf(out, "   %s\n", line);
}

/* "p50 / p99 / max" of a histogram */
static void pcts(char *buf, size_t len, const struct figure_hist *h)
{
	snprintf(buf, len, "%llu / %llu / %llu",
		 (unsigned long long)hist_percentile(
			 h->slots, PCPTOP_HIST_SLOTS, PCT_MEDIAN),
		 (unsigned long long)hist_percentile(
			 h->slots, PCPTOP_HIST_SLOTS, PCT_TAIL),
		 (unsigned long long)h->max);
}

/* text folded at WRAP_W columns, each line indented by two */
static void print_wrapped(FILE *out, const char *text)
{
	const char *at = text, *space;
	int len;

	while (*at) {
		len = (int)strlen(at);
		if (len > WRAP_W) {
			for (space = at + WRAP_W; space > at && *space != ' ';
			     space--)
				;
			len = space > at ? (int)(space - at) : WRAP_W;
		}
		fprintf(out, "  %.*s\n", len, at);
		at += len;
		while (*at == ' ')
			at++;
	}
}

/* the paragraph, then every moved metric, what the run paid first */
static void print_moved(FILE *out, const struct cmp_result *r)
{
	char words[EXPLAIN_LEN], va[NUM_LEN], vb[NUM_LEN], vs[NUM_LEN],
		ch[LINE_LEN];
	int i;

	explain_wall(r, words, sizeof(words));
	fprintf(out, "\nWhat moved, B against A:\n");
	print_wrapped(out, words);
	explain_paragraph(r, words, sizeof(words));
	fputc('\n', out);
	print_wrapped(out, words);
	if (!r->nr_moved)
		return;
	fprintf(out, "\n  %-30s %12s    %-12s %10s  %s\n", "moved", "A", "B",
		"spread", "change");
	for (i = 0; i < r->nr_moved; i++) {
		const struct cmp_metric *c = &r->m[r->rank[i]];

		fmt_num(va, sizeof(va), c->a, c->m.bound);
		fmt_num(vb, sizeof(vb), c->b, c->m.bound);
		fmt_num(vs, sizeof(vs), c->spread, false);
		cmp_change_str(ch, sizeof(ch), c);
		fprintf(out, "  %-30s %12s -> %-12s %10s  %s %s\n", c->m.key,
			va, vb, vs, c->m.unit, ch);
	}
}

void diff_text(FILE *out, const struct cmp_result *r)
{
	char va[NUM_LEN], vb[NUM_LEN], vd[NUM_LEN], vp[NUM_LEN], vs[NUM_LEN];
	const struct rec_summary *a = r->a.run[0], *b = r->b.run[0];
	int i, h;

	print_side(out, "A", &r->a);
	print_side(out, "B", &r->b);
	print_moved(out, r);
	fprintf(out, "\n  %-26s %14s %14s %14s %9s %12s\n", "", "A", "B",
		"B - A", "%", "spread");
	for (i = 0; i < r->n; i++) {
		const struct cmp_metric *c = &r->m[i];
		double pct = cmp_delta_pct(c->a, c->b);

		fmt_num(va, sizeof(va), c->a, c->m.bound);
		fmt_num(vb, sizeof(vb), c->b, c->m.bound);
		fmt_num(vd, sizeof(vd), c->b - c->a, false);
		fmt_num(vs, sizeof(vs), c->spread, false);
		if (isnan(pct))
			snprintf(vp, sizeof(vp), "-");
		else
			snprintf(vp, sizeof(vp), "%+.1f%%", pct);
		fprintf(out, "  %-26s %14s %14s %14s %9s %12s\n", c->m.key, va,
			vb, vd, vp, vs);
	}
	fprintf(out, "\nHistograms: p50 / p99 / max (log2 bucket bounds)%s\n",
		r->a.n > 1 || r->b.n > 1 ? ", first run of each side" : "");
	fprintf(out, "  %-22s %-28s %s\n", "", "A", "B");
	for (h = 0; h < NR_PCPTOP_HISTS; h++) {
		const struct figure_hist *x = &a->total.hist[h];
		const struct figure_hist *y = &b->total.hist[h];
		char ca[LINE_LEN], cb[LINE_LEN];

		if ((!x->samples && !y->samples) || hist_table[h].weighted)
			continue;
		pcts(ca, sizeof(ca), x);
		pcts(cb, sizeof(cb), y);
		fprintf(out, "  %-22s %-28s %-28s %s\n", hist_table[h].title,
			ca, cb, hist_table[h].unit);
	}
}
