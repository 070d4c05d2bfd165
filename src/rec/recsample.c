// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sampled series in a recording (format 1.3): the header names each one
 * (figtab key, kind, values an interval, source, field, unit), and a
 * samples chunk before each interval chunk holds their values. Readers
 * map series by name, as they map counters, so a build that does not
 * know a series skips it and one the file lacks stays absent. What 1.1
 * and 1.2 kept as a counter (recursion_misses) or in the detail chunk
 * (pcp memory) reads into the same figures. docs/FORMAT.md has the layout.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "arrays.h"
#include "recbuf.h"
#include "recfile.h"
#include "rectags.h"

/* u32 fixed length, u32 interval seq, u32 values */
#define SAMPLES_FIXED_LEN 12
#define SERIES_NAME_LEN 64

/*
 * A series' shape: zones (0: machine-wide; a per-CPU or per-device
 * series' CPUs or devices: the "zones" are the scope's instances) and
 * orders (0: none). A per-CPU series keeps the CPUs the machine has.
 */
static void own_shape(const struct fig_desc *d, uint32_t nr_cpus,
		      uint32_t *zones, uint32_t *orders)
{
	*zones = (uint32_t)sample_instances(d->sample.scope);
	if (d->sample.scope == SCOPE_CPU && nr_cpus && nr_cpus < *zones)
		*zones = nr_cpus;
	*orders = d->sample.scope == SCOPE_ZONE_ORDER ? SAMPLE_ORDERS : 0;
}

/* values a series of that shape keeps an interval */
static uint32_t shape_values(uint32_t zones, uint32_t orders)
{
	return !zones ? 1 : orders ? zones * orders : zones;
}

/* the cell value k of a series of that shape goes to */
static int own_cell(uint32_t k, uint32_t zones, uint32_t orders)
{
	if (!zones)
		return 0;
	if (!orders)
		return sample_zone_cell((int)k);
	return sample_order_cell((int)(k / orders), (int)(k % orders));
}

void rec_series_encode(struct rbuf *b, const struct rec_header *h, uint16_t tag)
{
	uint32_t zones, orders;
	size_t off;
	int i;

	for (i = 0; i < nr_figs && i < FIGTAB_MAX; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (d->type != FIG_SAMPLED || !h->f.sampled[i])
			continue;
		own_shape(d, h->dims.nr_cpus, &zones, &orders);
		off = tlv_begin(b, tag);
		rb_u32(b, d->sample.kind);
		rb_u32(b, zones);
		rb_u32(b, orders);
		rb_str(b, d->key);
		rb_str(b, sample_src_name(d->sample.src));
		rb_str(b, d->sample.field);
		rb_str(b, d->sample.unit);
		tlv_end(b, off);
	}
}

int rec_series_decode(struct rcur *c, struct rec_header *h)
{
	char key[SERIES_NAME_LEN], skip[SERIES_NAME_LEN];
	const struct fig_desc *d;
	uint32_t kind, zones, orders;
	int i;

	kind = rc_u32(c);
	zones = rc_u32(c);
	orders = rc_u32(c);
	rc_str(c, key, sizeof(key));
	rc_str(c, skip, sizeof(skip)); /* source, field, unit: for readers */
	rc_str(c, skip, sizeof(skip));
	rc_str(c, skip, sizeof(skip));
	if (c->bad || zones > REC_MAX_SERIES_ZONES ||
	    orders > REC_MAX_SERIES_ORDERS || (orders && !zones) ||
	    h->nr_series >= REC_MAX_SERIES)
		return -EBADMSG;
	d = fig_find(key);
	/*
	 * a key that names something else in this build, or another kind or
	 * scope of figure, is not this series
	 */
	if (d && (d->type != FIG_SAMPLED || d->sample.kind != kind ||
		  (d->sample.scope == SCOPE_MACHINE) != !zones ||
		  (d->sample.scope == SCOPE_ZONE_ORDER) != !!orders))
		d = NULL;
	i = h->nr_series++;
	h->series_fig[i] = d ? fig_index(d) : -1;
	h->series_zones[i] = zones;
	h->series_orders[i] = orders;
	if (d && fig_index(d) < FIGTAB_MAX)
		h->f.sampled[fig_index(d)] = true;
	return 0;
}

int rec_samples_encode(struct rbuf *b, const struct rec_writer *w, uint32_t seq,
		       const struct snapshot *s)
{
	size_t nr_off;
	uint32_t n = 0, k;
	int i;

	for (i = 0; i < nr_figs && i < FIGTAB_MAX && !w->series[i]; i++)
		;
	if (i == nr_figs || i == FIGTAB_MAX)
		return 0;
	rb_u32(b, SAMPLES_FIXED_LEN);
	rb_u32(b, seq);
	nr_off = b->len;
	rb_u32(b, 0);
	for (i = 0; i < nr_figs && i < FIGTAB_MAX; i++) {
		const struct fig_desc *d = &fig_table[i];
		uint32_t zones, orders;

		if (d->type != FIG_SAMPLED || !w->series[i])
			continue;
		own_shape(d, w->dims.nr_cpus, &zones, &orders);
		for (k = 0; k < shape_values(zones, orders); k++, n++) {
			const struct sample_cell *c = samples_cell(
				&s->smp, d, own_cell(k, zones, orders));

			rb_u64(b, sample_present(c) ?
					  (uint64_t)c->last :
					  (uint64_t)REC_SAMPLE_ABSENT);
		}
	}
	rb_set_u32(b, nr_off, n);
	return b->err;
}

int rec_samples_decode(const unsigned char *p, size_t len,
		       const struct rec_header *h, struct snapshot *s,
		       uint32_t *seq)
{
	uint32_t fixed, n, want = 0, k;
	struct rcur c;
	int i;

	rc_init(&c, p, len);
	fixed = rc_u32(&c);
	*seq = rc_u32(&c);
	n = rc_u32(&c);
	for (i = 0; i < h->nr_series; i++)
		want += shape_values(h->series_zones[i], h->series_orders[i]);
	if (c.bad || fixed < SAMPLES_FIXED_LEN || fixed > len || n != want ||
	    (uint64_t)n * REC_VALUE_SIZE != len - fixed)
		return -EBADMSG;
	rc_take(&c, fixed - SAMPLES_FIXED_LEN);
	samples_clear(&s->smp);
	for (i = 0; i < h->nr_series; i++) {
		const struct fig_desc *d =
			h->series_fig[i] >= 0 && h->series_fig[i] < nr_figs ?
				&fig_table[h->series_fig[i]] :
				NULL;

		uint32_t zs = h->series_zones[i], os = h->series_orders[i];

		for (k = 0; k < shape_values(zs, os); k++) {
			int64_t v = (int64_t)rc_u64(&c);
			int z = zs ? (int)(os ? k / os : k) : -1;
			int o = os ? (int)(k % os) : -1;

			/* a newer writer's zones and orders past ours drop */
			if (!d || v == REC_SAMPLE_ABSENT ||
			    z >= sample_instances(d->sample.scope) ||
			    o >= SAMPLE_ORDERS)
				continue;
			if (o < 0)
				samples_set(&s->smp, d, z, v);
			else
				samples_set_order(&s->smp, d, z, o, v);
		}
	}
	samples_sum_zones(&s->smp);
	return c.bad ? -EBADMSG : 0;
}

/* ---- formats 1.1 and 1.2 ---- */

/* counters those formats kept that are sampled figures now */
static const char *const counters_now_sampled[] = { "recursion_misses" };
/* what the 1.2 detail chunk kept per zone, as figures */
static const char *const detail_zone_figures[] = {
	"pcp_pages", "pcp_high", "pcp_high_min", "pcp_high_max", "zone_managed",
};

int rec_legacy_counter_series(const char *counter)
{
	const struct fig_desc *d;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(counters_now_sampled); i++) {
		if (strcmp(counter, counters_now_sampled[i]))
			continue;
		d = fig_find(counter);
		return d && d->type == FIG_SAMPLED ? fig_index(d) : -1;
	}
	return -1;
}

static void mark(struct rec_header *h, const char *key)
{
	const struct fig_desc *d = fig_find(key);

	if (d && d->type == FIG_SAMPLED && fig_index(d) < FIGTAB_MAX)
		h->f.sampled[fig_index(d)] = true;
}

void rec_legacy_series(struct rec_header *h)
{
	size_t i;

	for (i = 0; i < SAMPLE_ZONES; i++)
		snprintf(h->zone_name[i], sizeof(h->zone_name[i]), "%s",
			 facts_zone_name(&h->f, (int)i));
	for (i = 0; i < REC_MAX_COUNTERS; i++)
		if (h->cnt_series[i] >= 0 && h->cnt_series[i] < FIGTAB_MAX)
			h->f.sampled[h->cnt_series[i]] = true;
	if (h->version_major != 1 || h->version_minor != 2)
		return;
	for (i = 0; i < ARRAY_SIZE(detail_zone_figures); i++)
		mark(h, detail_zone_figures[i]);
}

void rec_legacy_counters(const struct rec_header *h, const uint64_t *sums,
			 struct snapshot *s)
{
	int i;

	for (i = 0; i < (int)h->dims.nr_counters && i < REC_MAX_COUNTERS; i++)
		if (h->cnt_series[i] >= 0 && h->cnt_series[i] < nr_figs)
			samples_set(&s->smp, &fig_table[h->cnt_series[i]], -1,
				    (int64_t)sums[i]);
}
