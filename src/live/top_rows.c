// SPDX-License-Identifier: GPL-2.0-only
/*
 * The live view's table: one row per CPU and zone, or one per zone summed
 * over CPUs, made from one interval's snapshot and a /proc/zoneinfo read
 * right after it. Rows hold numbers only; top_draw.c formats them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"
#include "snapshot.h"
#include "top.h"
#include "units.h"

/* rows for every (CPU, zone) plus one summed row per zone */
#define ROWS_PER_CPU PCPTOP_MAX_ZONES
#define COL_MIN_W 5
/* pages per second run to six digits before they need a suffix */
#define COL_RATE_W 6

struct top_col_desc top_cols[TOP_MAX_COLS];
int top_nr_cols;

static void add_col(const char *label, int width, enum top_align align,
		    enum top_col_kind kind, const struct fig_desc *fig,
		    enum top_stat stat)
{
	struct top_col_desc *c;
	int len;

	if (!label || top_nr_cols >= TOP_MAX_COLS)
		return;
	len = (int)strlen(label);
	c = &top_cols[top_nr_cols++];
	snprintf(c->label, sizeof(c->label), "%s", label);
	c->width = width > len ? width : len;
	c->align = align;
	c->kind = kind;
	c->fig = fig;
	c->stat = stat;
}

static void add_fig_col(const struct fig_desc *d, const char *label, int width,
			enum top_stat stat)
{
	if (label)
		add_col(label, width, ALIGN_RIGHT, TC_FIG, d, stat);
}

void top_cols_init(const struct facts *fa)
{
	int i;

	top_nr_cols = 0;
	add_col("CPU", 3, ALIGN_RIGHT, TC_CPU, NULL, 0);
	add_col("ZONE", 7, ALIGN_LEFT, TC_ZONE, NULL, 0);
	add_col("COUNT", COL_MIN_W, ALIGN_RIGHT, TC_COUNT, NULL, 0);
	add_col("HIGH", COL_MIN_W, ALIGN_RIGHT, TC_HIGH, NULL, 0);
	add_col("BATCH", COL_MIN_W, ALIGN_RIGHT, TC_BATCH, NULL, 0);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		/* a figure this run does not measure has no column */
		if (fa && !facts_fig_shown(fa, d))
			continue;
		add_fig_col(d, d->col_events, COL_MIN_W, TS_EVENTS_RATE);
		add_fig_col(d, d->col_pages, COL_RATE_W, TS_PAGES_RATE);
		add_fig_col(d, d->col_avg, COL_MIN_W, TS_AVG);
		add_fig_col(d, d->col_p50, COL_MIN_W, TS_P50);
		add_fig_col(d, d->col_p99, COL_MIN_W, TS_P99);
		add_fig_col(d, d->col_max, COL_MIN_W, TS_MAX);
	}
}

int top_data_init(struct top_data *d, struct snapshot *snap, int nr_cpus)
{
	memset(d, 0, sizeof(*d));
	d->snap = snap;
	d->cap_rows = (nr_cpus + 1) * ROWS_PER_CPU;
	d->rows = calloc(d->cap_rows, sizeof(*d->rows));
	return d->rows ? 0 : -ENOMEM;
}

void top_data_free(struct top_data *d)
{
	free(d->rows);
	d->rows = NULL;
}

const char *top_zone_label(const struct top_ctx *c, int zone)
{
	if (zone == PCPTOP_ZONE_UNKNOWN)
		return "all(tp)";
	return facts_zone_name(c->facts, zone);
}

/*
 * Does this probe's data carry a zone? Function probes read it from their
 * arguments; tracepoint events only have a page. A heuristic rides on
 * another probe's events and shares its answer.
 */
static bool probe_zoned(const struct facts *f, int probe)
{
	enum probe_mode m = facts_mode(f, probe);

	if (m == MODE_HEURISTIC && probe_table[probe].heuristic_on >= 0)
		m = facts_mode(f, probe_table[probe].heuristic_on);
	return m == MODE_FENTRY || m == MODE_KPROBE;
}

/* is this probe's data on the rows of this zone? */
static bool probe_lands(const struct facts *f, int probe, int zone)
{
	if (probe < 0 || facts_mode(f, probe) == MODE_NONE)
		return false;
	return probe_zoned(f, probe) == (zone != PCPTOP_ZONE_UNKNOWN);
}

bool top_has_zoneless(const struct top_ctx *c)
{
	int p;

	for (p = 0; p < NR_PROBES; p++)
		if (probe_lands(c->facts, p, PCPTOP_ZONE_UNKNOWN))
			return true;
	return false;
}

/* the zone index a row shows: node 0's order, as the probes count it */
static int nr_known_zones(const struct top_ctx *c)
{
	int n = 0;

	while (n < PCPTOP_ZONE_UNKNOWN &&
	       strcmp(facts_zone_name(c->facts, n), "?"))
		n++;
	return n;
}

struct pcp_sum {
	bool found;
	double count;
	double high;
	double batch;
};

/*
 * pcp figures of a CPU (or all) in a zone, summed over NUMA nodes: the
 * probes key by zone index only, so node 1's Normal is counted with node
 * 0's. The zone-less row sums every zone.
 */
static void pcp_of(const struct top_ctx *c, const struct top_data *d, int cpu,
		   int zone, struct pcp_sum *ps)
{
	const char *name = zone == PCPTOP_ZONE_UNKNOWN ?
				   NULL :
				   facts_zone_name(c->facts, zone);
	int i, j;

	memset(ps, 0, sizeof(*ps));
	if (d->snap->zi_err)
		return;
	for (i = 0; i < d->snap->zi.nr_zones; i++) {
		const struct zone_pcp *z = &d->snap->zi.zones[i];

		if (name && strcmp(z->name, name))
			continue;
		for (j = 0; j < z->nr_cpus; j++) {
			const struct pcp_cpu *p = &z->cpus[j];

			if (cpu != SNAP_ALL && p->cpu != cpu)
				continue;
			ps->found = true;
			ps->count += p->count;
			ps->high += p->high;
			if (p->batch > ps->batch)
				ps->batch = p->batch;
		}
	}
}

static bool has_events(const struct figures *f)
{
	int i;

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (d->type == FIG_CHECK || d->type == FIG_COUNT)
			continue;
		if (fig_events(d, f) || fig_pages(d, f) || fig_total(d, f))
			return true;
	}
	return false;
}

static double rate(uint64_t n, double secs)
{
	return secs > 0 ? (double)n / secs : 0.0;
}

static double fig_col_value(const struct top_col_desc *cd,
			    const struct figures *f, double secs)
{
	const struct fig_desc *d = cd->fig;

	switch (cd->stat) {
	case TS_EVENTS_RATE:
		return rate(fig_events(d, f), secs);
	case TS_PAGES_RATE:
		return rate(fig_pages(d, f), secs);
	case TS_AVG:
		return fig_avg(d, f);
	case TS_MAX:
		return (double)fig_max(d, f);
	case TS_P50:
		/* a slot's upper bound can pass the largest sample: cap it */
		return (double)fig_pct_capped(d, f, PCT_MEDIAN);
	case TS_P99:
		return (double)fig_pct_capped(d, f, PCT_TAIL);
	}
	return TOP_NA;
}

static void row_values(const struct top_ctx *c, const struct top_data *d,
		       const struct pcp_sum *ps, struct top_row *r)
{
	int col;

	for (col = 0; col < top_nr_cols; col++) {
		const struct top_col_desc *cd = &top_cols[col];
		double v = TOP_NA;

		switch (cd->kind) {
		case TC_CPU:
			v = r->cpu;
			break;
		case TC_ZONE:
			v = r->zone;
			break;
		case TC_COUNT:
			v = ps->found ? ps->count : TOP_NA;
			break;
		case TC_HIGH:
			v = ps->found ? ps->high : TOP_NA;
			break;
		case TC_BATCH:
			/* batches differ per zone: a sum of them means nothing */
			v = ps->found && r->zone != PCPTOP_ZONE_UNKNOWN ?
				    ps->batch :
				    TOP_NA;
			break;
		case TC_FIG:
			if (d->secs &&
			    probe_lands(c->facts, cd->fig->probe, r->zone))
				v = fig_col_value(cd, &r->fig, d->secs);
			break;
		}
		r->v[col] = v;
	}
}

/* fill the next row; it is kept only when there is something to show */
static void add_row(const struct top_ctx *c, struct top_data *d, int cpu,
		    int zone)
{
	struct top_row *r;
	struct pcp_sum ps;

	if (d->nr_rows >= d->cap_rows)
		return;
	r = &d->rows[d->nr_rows];
	r->cpu = cpu;
	r->zone = zone;
	figures_compute(d->snap, cpu, zone, &r->fig);
	pcp_of(c, d, cpu, zone, &ps);
	/*
	 * A CPU with a pageset in the zone gets a row even when idle; the
	 * zone-less row stands for the tracepoints on every online CPU.
	 */
	if (!has_events(&r->fig) &&
	    (!ps.found ||
	     (zone == PCPTOP_ZONE_UNKNOWN && !top_has_zoneless(c))))
		return;
	row_values(c, d, &ps, r);
	d->nr_rows++;
}

static int cmp_int(int a, int b)
{
	return a < b ? -1 : a > b;
}

static int row_cmp(const void *pa, const void *pb, void *arg)
{
	const struct top_row *a = pa, *b = pb;
	int col = *(const int *)arg;
	int by_cpu = cmp_int(a->cpu, b->cpu) ?: cmp_int(a->zone, b->zone);

	if (col == COL_CPU)
		return by_cpu;
	if (col == COL_ZONE)
		return cmp_int(a->zone, b->zone) ?: cmp_int(a->cpu, b->cpu);
	/* figures largest first, as top does; "-" sorts below 0 */
	if (a->v[col] != b->v[col])
		return a->v[col] < b->v[col] ? 1 : -1;
	return by_cpu;
}

static bool zone_listed(const struct top_data *d, int zone)
{
	int i;

	for (i = 0; i < d->nr_zones; i++)
		if (d->zones[i] == zone)
			return true;
	return false;
}

void top_rows_build(const struct top_ctx *c, struct top_view *v,
		    struct top_data *d)
{
	int nz = nr_known_zones(c);
	int cpu, z, i, kept;

	d->nr_rows = 0;
	for (z = 0; z <= nz; z++) {
		int zone = z == nz ? PCPTOP_ZONE_UNKNOWN : z;

		if (v->summed) {
			add_row(c, d, SNAP_ALL, zone);
			continue;
		}
		for (cpu = 0; cpu < c->nr_cpus; cpu++)
			add_row(c, d, cpu, zone);
	}

	d->nr_zones = 0;
	for (i = 0; i < d->nr_rows; i++)
		if (!zone_listed(d, d->rows[i].zone))
			d->zones[d->nr_zones++] = d->rows[i].zone;
	/* a zone that went away (no rows now) stops filtering */
	if (v->zone_filter != ZF_ALL && !zone_listed(d, v->zone_filter))
		v->zone_filter = ZF_ALL;

	if (v->zone_filter != ZF_ALL) {
		for (i = 0, kept = 0; i < d->nr_rows; i++)
			if (d->rows[i].zone == v->zone_filter)
				d->rows[kept++] = d->rows[i];
		d->nr_rows = kept;
	}
	qsort_r(d->rows, d->nr_rows, sizeof(*d->rows), row_cmp, &v->sort_col);
	top_rows_follow(v, d);
}

/*
 * The selection names a (CPU, zone) so it stays on its row while the sort
 * moves rows. Before the user picks one, the first row with events is
 * chosen: its histograms are the interesting ones.
 */
void top_rows_follow(struct top_view *v, const struct top_data *d)
{
	int i;

	if (!d->nr_rows) {
		v->sel = 0;
		return;
	}
	if (!v->sel_set) {
		for (i = 0; i < d->nr_rows; i++)
			if (has_events(&d->rows[i].fig))
				break;
		v->sel = i < d->nr_rows ? i : 0;
		if (i < d->nr_rows)
			v->sel_set = true;
	} else {
		for (i = 0; i < d->nr_rows; i++) {
			const struct top_row *r = &d->rows[i];

			/* from the summed rows back: that zone on any CPU */
			if (r->zone == v->sel_zone &&
			    (r->cpu == v->sel_cpu || v->sel_cpu == SNAP_ALL ||
			     v->summed))
				break;
		}
		if (i < d->nr_rows)
			v->sel = i;
		else if (v->sel >= d->nr_rows)
			v->sel = d->nr_rows - 1;
	}
	v->sel_cpu = d->rows[v->sel].cpu;
	v->sel_zone = d->rows[v->sel].zone;
}
