// SPDX-License-Identifier: GPL-2.0-only
#include <inttypes.h>
#include <string.h>
#include "hist.h"
#include "text.h"
#include "units.h"

/* bar width and column widths of libbpf-tools' print_log2_hist() */
#define HIST_STARS 40
#define HIST_BOUND_WIDTH 10
#define HIST_UNIT_WIDTH 19
#define HIST_UNIT_INDENT 5
/* the longest sampled figure's key: workingset_refault_file */
#define SAMPLED_KEY_W 24

static const char *mark(bool estimated)
{
	return estimated ? "~" : "";
}

/* "  (trims 3, frees 2)" and the newline: a figure's extras in this run */
static void extras(FILE *out, const struct facts *fa, const struct fig_desc *d,
		   const struct figures *f)
{
	int i, n = 0;

	for (i = 0; i < FIG_MAX_EXTRAS && d->extras[i].key; i++)
		if (facts_extra_shown(fa, d, i))
			fprintf(out, "%s%s %llu", n++ ? ", " : "  (",
				d->extras[i].key,
				(unsigned long long)
					f->cnt[d->extras[i].counter]);
	if (n)
		fputc(')', out);
	fputc('\n', out);
}

/* column widths of the batch table: a run's totals need more digits */
struct widths {
	int events, pages;
};

static const struct widths span_widths[] = {
	[TEXT_INTERVAL] = { 10, 12 },
	[TEXT_RUN] = { 12, 14 },
};

/* "  bulk_free_by_order: 1250 pages: 0 1000, 1 50, 2 0, 3 200, thp 0" */
static void split(FILE *out, const struct fig_desc *d, const struct facts *fa,
		  const struct figures *f)
{
	int k;

	fprintf(out, "  %s: %llu%s %s:", d->key,
		(unsigned long long)fig_split_total(d, f),
		mark(facts_pages_estimated(fa, d)), d->unit);
	for (k = 0; k < fig_nr_parts(d); k++)
		fprintf(out, "%s %s %llu", k ? "," : "", d->parts[k].key,
			(unsigned long long)fig_part(d, k, f));
}

static void row(FILE *out, const struct fig_desc *d, const struct facts *fa,
		const struct figures *f, double secs, enum text_span span)
{
	const struct widths *w = &span_widths[span];
	const char *est = mark(facts_events_estimated(fa, d));

	switch (d->type) {
	case FIG_BATCH:
		/* not pages: a line of its own, beside the pages' table */
		if (strcmp(fig_batch_unit(d), "pages")) {
			fprintf(out,
				"  %-13s %llu%s %s, %llu %s, %.1f/s, avg %.1f, max %llu %s",
				d->key, (unsigned long long)fig_events(d, f),
				est, d->events_key,
				(unsigned long long)fig_pages(d, f),
				fig_batch_unit(d),
				secs > 0 ? (double)fig_events(d, f) / secs :
					   0.0,
				fig_avg(d, f),
				(unsigned long long)fig_max(d, f),
				fig_batch_unit(d));
			break;
		}
		fprintf(out, "  %-13s %*llu%-1s %*llu %9.1f %8.1f %7llu",
			d->key, w->events, (unsigned long long)fig_events(d, f),
			est, w->pages, (unsigned long long)fig_pages(d, f),
			secs > 0 ? (double)fig_events(d, f) / secs : 0.0,
			fig_avg(d, f), (unsigned long long)fig_max(d, f));
		break;
	case FIG_TIME:
		fprintf(out,
			"  %s%s: p50 <= %llu ns, p99 <= %llu ns, max %llu ns",
			d->title, est,
			(unsigned long long)fig_pct_capped(d, f, PCT_MEDIAN),
			(unsigned long long)fig_pct_capped(d, f, PCT_TAIL),
			(unsigned long long)fig_max(d, f));
		if (span == TEXT_RUN)
			fprintf(out, ", total %.1f ms",
				(double)fig_total(d, f) /
					(double)NSEC_PER_MSEC);
		/* ms a second: on one CPU, the share of its time */
		if ((d->flags & FIG_PER_S) && secs > 0)
			fprintf(out, ", %.3f ms/s",
				(double)fig_total(d, f) /
					(double)NSEC_PER_MSEC / secs);
		if (d->events >= 0)
			fprintf(out, ", %llu %s",
				(unsigned long long)fig_events(d, f),
				d->events_key);
		break;
	case FIG_CHECK:
		fprintf(out, "  %s: %llu pages (%s)", d->key,
			(unsigned long long)fig_pages(d, f), d->title);
		break;
	case FIG_COUNT:
		fprintf(out, "  %s: %llu (%s)", d->key,
			(unsigned long long)fig_total(d, f), d->title);
		break;
	case FIG_SPLIT:
		split(out, d, fa, f);
		break;
	case FIG_SAMPLED:
		/* text_sampled() prints them */
		return;
	}
	extras(out, fa, d, f);
}

/* the batch table's rows: the figures that move pages */
static bool in_table(const struct fig_desc *d)
{
	return d->type == FIG_BATCH && !strcmp(fig_batch_unit(d), "pages");
}

void text_figures(FILE *out, const struct facts *fa, const struct figures *f,
		  double secs, enum text_span span)
{
	const struct widths *w = &span_widths[span];
	int i;

	fprintf(out, "  %-13s %*s %*s %9s %8s %7s\n", "", w->events + 1,
		"events", w->pages, "pages", "events/s", "avg", "max");
	/* the table first, then the lines of the other kinds */
	for (i = 0; i < nr_figs; i++)
		if (in_table(&fig_table[i]) &&
		    facts_fig_shown(fa, &fig_table[i]))
			row(out, &fig_table[i], fa, f, secs, span);
	for (i = 0; i < nr_figs; i++)
		if (!in_table(&fig_table[i]) &&
		    fig_table[i].type != FIG_SAMPLED &&
		    facts_fig_shown(fa, &fig_table[i]))
			row(out, &fig_table[i], fa, f, secs, span);
}

/* "  1234 / 4096" (mean / p99) or "-" */
static void lat_cell(FILE *out, const struct figure_lat *l)
{
	char buf[40];

	if (!l->h.samples)
		snprintf(buf, sizeof(buf), "-");
	else
		snprintf(buf, sizeof(buf), "%.0f / %llu", figure_lat_mean(l),
			 (unsigned long long)figure_hist_pct(&l->h, PCT_TAIL));
	fprintf(out, " %15s %9llu", buf, (unsigned long long)l->h.samples);
}

void text_latency(FILE *out, const struct facts *fa, const struct figures *f,
		  const char *ind)
{
	struct figure_lat l;
	int d, p, o;

	if (!facts_latency(fa, LAT_ALLOC) && !facts_latency(fa, LAT_FREE))
		return;
	fprintf(out, "%slatency, ns (mean / p99, then calls):\n", ind);
	fprintf(out, "%s%-5s", ind, "order");
	for (d = 0; d < NR_LAT_DIRS; d++)
		for (p = 0; p < NR_LAT_PATHS; p++)
			fprintf(out, " %9s %-5s %9s",
				d == LAT_ALLOC ? "alloc" : "free",
				lat_path_name(d, p), "calls");
	fputc('\n', out);
	for (o = 0; o < PCPTOP_ORDER_SLOTS; o++) {
		bool any = false;

		for (d = 0; d < NR_LAT_DIRS; d++)
			for (p = 0; p < NR_LAT_PATHS; p++)
				any |= f->lat[d][p][o].h.samples > 0;
		if (!any)
			continue;
		fprintf(out, "%s%-5s", ind, lat_order_name(o));
		for (d = 0; d < NR_LAT_DIRS; d++)
			for (p = 0; p < NR_LAT_PATHS; p++) {
				figures_lat(f, d, p, o, &l);
				lat_cell(out, &l);
			}
		fputc('\n', out);
	}
}

void text_by_mt(FILE *out, const struct facts *fa, const struct figures *f,
		const char *ind)
{
	int m;

	if (!f->cnt[CNT_REFILL_CALLS])
		return;
	fprintf(out, "%srefills by migratetype", ind);
	if (fa->pageblock_order >= 0)
		fprintf(out, " (pageblock order %d)", fa->pageblock_order);
	fputc(':', out);
	for (m = 0; m < PCPTOP_MT_SLOTS; m++)
		if (f->mt_cnt[m][CNT_REFILL_CALLS] || m == PCPTOP_MT_SLOT_CMA)
			fprintf(out, "  %s %llu calls %llu pages",
				mt_slot_name(m),
				(unsigned long long)
					f->mt_cnt[m][CNT_REFILL_CALLS],
				(unsigned long long)
					f->mt_cnt[m][CNT_REFILL_PAGES]);
	fputc('\n', out);
}

/* " [12010 8689 ...]": a zone's values order by order */
static void orders(FILE *out, const struct fig_desc *d, const struct samples *s,
		   int z)
{
	int o, n = 0;

	for (o = 0; o < SAMPLE_ORDERS; o++) {
		const struct sample_cell *c =
			samples_cell(s, d, sample_order_cell(z, o));

		if (sample_present(c))
			fprintf(out, "%s%lld", n++ ? " " : " [",
				(long long)sample_value(d, c));
	}
	if (n)
		fputc(']', out);
}

/*
 * " (DMA 0, Normal 60568)": a per-zone figure's zones (a per-CPU one's
 * CPUs, a per-device one's devices), last values, and a per-order one's
 * orders
 */
static void zones(FILE *out, const struct facts *fa, const struct fig_desc *d,
		  const struct samples *s)
{
	int z, n = 0;
	char name[FACTS_STR_LEN];

	for (z = 0; z < sample_instances(d->sample.scope); z++) {
		const struct sample_cell *c =
			samples_cell(s, d, sample_zone_cell(z));

		if (!sample_present(c))
			continue;
		facts_instance_name(fa, d->sample.scope, z, name, sizeof(name));
		fprintf(out, "%s%s %lld", n++ ? ", " : " (", name,
			(long long)sample_value(d, c));
		if (d->sample.scope == SCOPE_ZONE_ORDER)
			orders(out, d, s, z);
	}
	if (n)
		fputc(')', out);
}

static void sampled_row(FILE *out, const struct facts *fa,
			const struct fig_desc *d, const struct samples *s,
			double secs, enum text_span span)
{
	const struct sample_cell *c = samples_cell(s, d, 0);
	bool counter = d->sample.kind == SAMPLE_COUNTER;
	int64_t v = sample_value(d, c);

	if (!sample_present(c))
		fprintf(out, "  %-*s %12s", SAMPLED_KEY_W, d->key, "-");
	else if (counter)
		fprintf(out, "  %-*s %12lld %s, %.1f/s", SAMPLED_KEY_W, d->key,
			(long long)v, d->sample.unit,
			secs > 0 ? (double)v / secs : 0.0);
	else if (span == TEXT_RUN)
		fprintf(out, "  %-*s %12lld %s, peak %lld, mean %.0f",
			SAMPLED_KEY_W, d->key, (long long)v, d->sample.unit,
			(long long)c->peak, sample_mean(c));
	else
		fprintf(out, "  %-*s %12lld %s", SAMPLED_KEY_W, d->key,
			(long long)v, d->sample.unit);
	zones(out, fa, d, s);
	/* an interval's lines stay short; a run's say what each figure is */
	if (span == TEXT_RUN)
		fprintf(out, ": %s", d->title);
	fputc('\n', out);
}

void text_sampled(FILE *out, const struct facts *fa, const struct samples *s,
		  double secs, enum text_span span)
{
	int i, n = 0;

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (d->type != FIG_SAMPLED || !facts_fig_shown(fa, d))
			continue;
		if (!n++)
			fprintf(out, "  %s\n",
				span == TEXT_RUN ?
					"sampled each interval (a counter's total; a gauge's level at the end):" :
					"sampled each interval (a counter's increase; a gauge's level at the end):");
		sampled_row(out, fa, d, s, secs, span);
	}
}

static void print_stars(FILE *f, uint64_t val, uint64_t val_max, int width)
{
	int stars = (int)((double)val * width / (double)val_max), i;

	for (i = 0; i < width; i++)
		fputc(i < stars ? '*' : ' ', f);
}

void text_log2_hist(FILE *f, const char *unit, const uint64_t *slots, int nr)
{
	int last = hist_last_slot(slots, nr), i;
	uint64_t val_max = 0;

	if (last < 0)
		return;
	for (i = 0; i <= last; i++)
		if (slots[i] > val_max)
			val_max = slots[i];
	fprintf(f, "%*s%-*s : count    distribution\n", HIST_UNIT_INDENT, "",
		HIST_UNIT_WIDTH, unit);
	for (i = 0; i <= last; i++) {
		fprintf(f, "%*" PRIu64 " -> %-*" PRIu64 " : %-8" PRIu64 " |",
			HIST_BOUND_WIDTH, hist_slot_lo(i), HIST_BOUND_WIDTH,
			hist_slot_hi(i), slots[i]);
		print_stars(f, slots[i], val_max, HIST_STARS);
		fputs("|\n", f);
	}
}

void text_hists(FILE *out, const struct figures *f)
{
	int h;

	for (h = 0; h < NR_PCPTOP_HISTS; h++) {
		if (!f->hist[h].samples ||
		    !strcmp(hist_table[h].unit, "scale") ||
		    hist_table[h].weighted)
			continue;
		fprintf(out, "\n  %s:\n", hist_table[h].title);
		text_log2_hist(out, hist_table[h].unit, f->hist[h].slots,
			       PCPTOP_HIST_SLOTS);
	}
}
