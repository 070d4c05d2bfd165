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
#include "attach.h"
#include "hist.h"
#include "snapshot.h"
#include "system.h"
#include "top.h"

#define PCT_MEDIAN 50.0
#define PCT_TAIL 99.0
#define NO_PROBE (-1)
/* rows for every (CPU, zone) plus one summed row per zone */
#define ROWS_PER_CPU PCPTOP_MAX_ZONES

const struct top_col_desc top_cols[NR_TOP_COLS] = {
	[COL_CPU] = { "CPU", 3, ALIGN_RIGHT, NO_PROBE, NO_PROBE },
	[COL_ZONE] = { "ZONE", 7, ALIGN_LEFT, NO_PROBE, NO_PROBE },
	[COL_COUNT] = { "COUNT", 5, ALIGN_RIGHT, NO_PROBE, NO_PROBE },
	[COL_HIGH] = { "HIGH", 5, ALIGN_RIGHT, NO_PROBE, NO_PROBE },
	[COL_BATCH] = { "BATCH", 5, ALIGN_RIGHT, NO_PROBE, NO_PROBE },
	[COL_REFILL_S] = { "REF/s", 5, ALIGN_RIGHT, PROBE_REFILL, NO_PROBE },
	[COL_REFILL_PG] = { "RPG/s", 6, ALIGN_RIGHT, PROBE_REFILL, NO_PROBE },
	[COL_BULK_S] = { "BULK/s", 6, ALIGN_RIGHT, PROBE_BULK_FREE, NO_PROBE },
	[COL_BULK_PG] = { "BPG/s", 6, ALIGN_RIGHT, PROBE_BULK_FREE, NO_PROBE },
	[COL_AVG] = { "AVG", 5, ALIGN_RIGHT, PROBE_BULK_FREE, NO_PROBE },
	[COL_MAX] = { "MAX", 5, ALIGN_RIGHT, PROBE_BULK_FREE, NO_PROBE },
	[COL_FHIGH_S] = { "FHI/s", 5, ALIGN_RIGHT, PROBE_FREE_HIGH, NO_PROBE },
	[COL_DECAY_S] = { "DEC/s", 5, ALIGN_RIGHT, PROBE_DECAY, NO_PROBE },
	[COL_P50] = { "P50", 5, ALIGN_RIGHT, PROBE_BULK_FREE, PROBE_REFILL },
	[COL_P99] = { "P99", 5, ALIGN_RIGHT, PROBE_BULK_FREE, PROBE_REFILL },
	[COL_HOLD_MAX] = { "HMAX", 5, ALIGN_RIGHT, PROBE_BULK_FREE, PROBE_REFILL },
};

int top_data_init(struct top_data *d, struct snapshot *snap, int nr_cpus)
{
	memset(d, 0, sizeof(*d));
	d->snap = snap;
	d->zi_err = -ENOENT;
	d->cap_rows = (nr_cpus + 1) * ROWS_PER_CPU;
	d->rows = calloc(d->cap_rows, sizeof(*d->rows));
	return d->rows ? 0 : -ENOMEM;
}

void top_data_free(struct top_data *d)
{
	zoneinfo_free(&d->zi);
	free(d->rows);
	d->rows = NULL;
}

const char *top_zone_label(const struct top_ctx *c, int zone)
{
	if (zone == PCPTOP_ZONE_UNKNOWN)
		return "all(tp)";
	return system_zone_name(c->sf, zone);
}

/*
 * Does this probe's data carry a zone? Function probes read it from their
 * arguments; tracepoint events only have a page. The free_high heuristic
 * rides on the bulk-free probe and shares its answer.
 */
static bool probe_zoned(const struct attach *a, int probe)
{
	enum probe_mode m = a->probes[probe].mode;

	if (m == MODE_HEURISTIC)
		m = a->probes[PROBE_BULK_FREE].mode;
	return m == MODE_FENTRY || m == MODE_KPROBE;
}

static bool probe_on(const struct attach *a, int probe)
{
	return probe != NO_PROBE && a->probes[probe].mode != MODE_NONE;
}

/* is this probe's data on the rows of this zone? */
static bool probe_lands(const struct attach *a, int probe, int zone)
{
	if (!probe_on(a, probe))
		return false;
	return probe_zoned(a, probe) == (zone != PCPTOP_ZONE_UNKNOWN);
}

bool top_has_zoneless(const struct top_ctx *c)
{
	int p;

	for (p = 0; p < NR_PROBES; p++)
		if (probe_lands(c->a, p, PCPTOP_ZONE_UNKNOWN))
			return true;
	return false;
}

static bool col_measured(const struct attach *a, int col, int zone)
{
	const struct top_col_desc *d = &top_cols[col];

	if (d->probe == NO_PROBE)
		return true;
	return probe_lands(a, d->probe, zone) ||
	       (d->probe2 != NO_PROBE && probe_lands(a, d->probe2, zone));
}

/* the zone index a row shows: node 0's order, as the probes count it */
static int nr_known_zones(const struct top_ctx *c)
{
	int n = 0;

	while (n < PCPTOP_ZONE_UNKNOWN && strcmp(system_zone_name(c->sf, n), "?"))
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
static void pcp_of(const struct top_ctx *c, const struct top_data *d,
		   int cpu, int zone, struct pcp_sum *ps)
{
	const char *name = zone == PCPTOP_ZONE_UNKNOWN ?
				   NULL :
				   system_zone_name(c->sf, zone);
	int i, j;

	memset(ps, 0, sizeof(*ps));
	if (d->zi_err)
		return;
	for (i = 0; i < d->zi.nr_zones; i++) {
		const struct zone_pcp *z = &d->zi.zones[i];

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

	for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
		if (i != CNT_XCHECK_DRAIN_PAGES && f->cnt[i])
			return true;
	return false;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static double rate(uint64_t n, double secs)
{
	return secs > 0 ? (double)n / secs : 0.0;
}

static void row_values(const struct top_ctx *c, const struct top_data *d,
		       const struct pcp_sum *ps, struct top_row *r)
{
	const struct figures *f = &r->fig;
	uint64_t hold[PCPTOP_HIST_SLOTS];
	uint64_t hold_max;
	int col;

	r->v[COL_CPU] = r->cpu;
	r->v[COL_ZONE] = r->zone;
	r->v[COL_COUNT] = ps->found ? ps->count : TOP_NA;
	r->v[COL_HIGH] = ps->found ? ps->high : TOP_NA;
	/* batches differ per zone: a sum of them means nothing */
	r->v[COL_BATCH] = ps->found && r->zone != PCPTOP_ZONE_UNKNOWN ?
				  ps->batch :
				  TOP_NA;
	r->v[COL_REFILL_S] = rate(f->cnt[CNT_REFILL_CALLS], d->secs);
	r->v[COL_REFILL_PG] = rate(f->cnt[CNT_REFILL_PAGES], d->secs);
	r->v[COL_BULK_S] = rate(f->cnt[CNT_BULK_FREE_CALLS], d->secs);
	r->v[COL_BULK_PG] = rate(f->cnt[CNT_BULK_FREE_PAGES], d->secs);
	r->v[COL_AVG] = figures_ratio(f->cnt[CNT_BULK_FREE_PAGES],
				      f->cnt[CNT_BULK_FREE_CALLS]);
	r->v[COL_MAX] = (double)f->hist[HIST_BULK_FREE_PAGES].max;
	r->v[COL_FHIGH_S] = rate(f->cnt[CNT_FREE_HIGH_COUNT], d->secs);
	r->v[COL_DECAY_S] = rate(f->cnt[CNT_DECAY_CALLS], d->secs);

	/* zone->lock is one lock: its hold times from both paths together */
	memcpy(hold, f->hist[HIST_LOCK_NS].slots, sizeof(hold));
	hist_add(hold, f->hist[HIST_REFILL_NS].slots, PCPTOP_HIST_SLOTS);
	hold_max = f->hist[HIST_LOCK_NS].max > f->hist[HIST_REFILL_NS].max ?
			   f->hist[HIST_LOCK_NS].max :
			   f->hist[HIST_REFILL_NS].max;
	/* a slot's upper bound can pass the largest sample: cap it there */
	r->v[COL_P50] = (double)min_u64(hist_percentile(hold, PCPTOP_HIST_SLOTS,
							PCT_MEDIAN),
					hold_max);
	r->v[COL_P99] = (double)min_u64(hist_percentile(hold, PCPTOP_HIST_SLOTS,
							PCT_TAIL),
					hold_max);
	r->v[COL_HOLD_MAX] = (double)hold_max;

	for (col = 0; col < NR_TOP_COLS; col++)
		if (top_cols[col].probe != NO_PROBE &&
		    (!d->secs || !col_measured(c->a, col, r->zone)))
			r->v[col] = TOP_NA;
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
