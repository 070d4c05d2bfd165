// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>
#include "detail.h"
#include "hist.h"
#include "json_facts.h"
#include "units.h"

static const char *const order_names[PCPTOP_ORDER_SLOTS] = { "0", "1", "2", "3",
							     "4+" };
static const char *const path_names[NR_LAT_DIRS][NR_LAT_PATHS] = {
	[LAT_ALLOC] = { "pcp", "refill" },
	[LAT_FREE] = { "pcp", "flush" },
};
static const char *const mt_names[PCPTOP_MT_SLOTS] = { "Unmovable", "Movable",
						       "Reclaimable", "CMA",
						       "other" };

const char *lat_order_name(int order_slot)
{
	return order_slot >= 0 && order_slot < PCPTOP_ORDER_SLOTS ?
		       order_names[order_slot] :
		       "?";
}

const char *lat_path_name(int dir, int path)
{
	return dir >= 0 && dir < NR_LAT_DIRS && path >= 0 &&
			       path < NR_LAT_PATHS ?
		       path_names[dir][path] :
		       "?";
}

const char *lat_hist_key(int dir)
{
	return dir == LAT_ALLOC ? "alloc_ns" : "free_ns";
}

const char *mt_slot_name(int mt_slot)
{
	return mt_slot >= 0 && mt_slot < PCPTOP_MT_SLOTS ? mt_names[mt_slot] :
							   "?";
}

bool facts_latency(const struct facts *fa, int dir)
{
	enum probe_mode m =
		facts_mode(fa, dir == LAT_ALLOC ? PROBE_ALLOC : PROBE_FREE);

	return m == MODE_FENTRY || m == MODE_KPROBE;
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

void detail_print_latency(FILE *out, const struct facts *fa,
			  const struct figures *f, const char *ind)
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

void detail_print_by_mt(FILE *out, const struct facts *fa,
			const struct figures *f, const char *ind)
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

static void print_limit(FILE *out, const char *name, int64_t v)
{
	if (v != PCPMEM_ABSENT)
		fprintf(out, " %s %lld", name, (long long)v);
}

void detail_print_pcp(FILE *out, const struct figures *f, const char *ind)
{
	int i;

	for (i = 0; i < f->pcp.nr_zones; i++) {
		const struct pcpmem_zone *z = &f->pcp.z[i];
		double pct = pcpmem_pct(z);

		fprintf(out, "%spcp lists %-7s %lld pages", ind, z->name,
			(long long)z->count);
		if (pct >= 0)
			fprintf(out, " (%.2f %% of %lld managed)", pct,
				(long long)z->managed);
		fputs(";", out);
		print_limit(out, "high", z->high);
		print_limit(out, "high_min", z->high_min);
		print_limit(out, "high_max", z->high_max);
		print_limit(out, "batch", z->batch);
		fprintf(out, " (sums over %d CPUs)\n", z->nr_cpus);
	}
}

void detail_print_text(FILE *out, const struct facts *fa,
		       const struct figures *f, const char *indent)
{
	detail_print_latency(out, fa, f, indent);
	detail_print_by_mt(out, fa, f, indent);
	detail_print_pcp(out, f, indent);
}

static void json_lat_fields(struct json_writer *w, const struct figure_lat *l)
{
	json_str(w, "unit", "nsecs");
	json_u64(w, "samples", l->h.samples);
	json_u64(w, "total", l->sum_ns);
	json_double(w, "mean", figure_lat_mean(l));
	json_u64(w, "p50", figure_hist_pct(&l->h, PCT_MEDIAN));
	json_u64(w, "p99", figure_hist_pct(&l->h, PCT_TAIL));
	json_u64(w, "max", l->h.max);
}

void detail_json_hists(struct json_writer *w, const struct facts *fa,
		       const struct figures *f)
{
	char key[32];
	struct figure_lat l;
	int d, p, o;

	for (d = 0; d < NR_LAT_DIRS; d++) {
		if (!facts_latency(fa, d))
			continue;
		figures_lat(f, d, -1, -1, &l);
		json_obj_begin(w, lat_hist_key(d));
		json_lat_fields(w, &l);
		json_log2_hist(w, "buckets", l.h.slots, PCPTOP_HIST_SLOTS);
		json_obj_end(w);
		snprintf(key, sizeof(key), "%s_by_order", lat_hist_key(d));
		json_arr_begin(w, key);
		for (o = 0; o < PCPTOP_ORDER_SLOTS; o++) {
			json_obj_begin(w, NULL);
			json_str(w, "order", lat_order_name(o));
			figures_lat(f, d, -1, o, &l);
			json_lat_fields(w, &l);
			for (p = 0; p < NR_LAT_PATHS; p++) {
				figures_lat(f, d, p, o, &l);
				json_obj_begin(w, lat_path_name(d, p));
				json_lat_fields(w, &l);
				json_obj_end(w);
			}
			json_obj_end(w);
		}
		json_arr_end(w);
	}
}

void detail_json_by_mt(struct json_writer *w, const struct facts *fa,
		       const struct fig_desc *d, const struct figures *f)
{
	int m;

	if (!(d->flags & FIG_BY_MT))
		return;
	if (fa->pageblock_order >= 0)
		json_int(w, "pageblock_order", fa->pageblock_order);
	else
		json_null(w, "pageblock_order");
	json_arr_begin(w, "by_migratetype");
	for (m = 0; m < PCPTOP_MT_SLOTS; m++) {
		json_obj_begin(w, NULL);
		json_str(w, "migratetype", mt_slot_name(m));
		json_u64(w, d->events_key, f->mt_cnt[m][d->events]);
		json_u64(w, "pages", f->mt_cnt[m][d->pages]);
		json_obj_end(w);
	}
	json_arr_end(w);
}

static void json_limit(struct json_writer *w, const char *key, int64_t v)
{
	if (v == PCPMEM_ABSENT)
		json_null(w, key);
	else
		json_int(w, key, v);
}

void detail_json_pcp(struct json_writer *w, const struct figures *f)
{
	int i;

	if (!f->pcp.nr_zones) {
		json_null(w, "pcp");
		return;
	}
	json_obj_begin(w, "pcp");
	json_int(w, "pages", pcpmem_pages(&f->pcp));
	json_arr_begin(w, "zones");
	for (i = 0; i < f->pcp.nr_zones; i++) {
		const struct pcpmem_zone *z = &f->pcp.z[i];
		double pct = pcpmem_pct(z);

		json_obj_begin(w, NULL);
		json_str(w, "zone", z->name);
		json_int(w, "cpus", z->nr_cpus);
		json_limit(w, "count", z->count);
		json_limit(w, "high", z->high);
		json_limit(w, "high_min", z->high_min);
		json_limit(w, "high_max", z->high_max);
		json_limit(w, "batch", z->batch);
		json_limit(w, "managed", z->managed);
		if (pct >= 0)
			json_double(w, "pct_of_managed", pct);
		else
			json_null(w, "pct_of_managed");
		json_obj_end(w);
	}
	json_arr_end(w);
	json_obj_end(w);
}
