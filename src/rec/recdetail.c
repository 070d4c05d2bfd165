// SPDX-License-Identifier: GPL-2.0-only
/*
 * The detail chunk (type 4, format 1.2): allocation and free latency
 * (--latency) summed over the CPUs, written just before its interval
 * chunk. Format 1.2 kept the pcp lists' memory per zone here too; 1.3
 * writes no zones (they are sampled series, recsample.c) and reads a 1.2
 * file's into those series. Readers of 1.1 skip the chunk; this reader
 * keeps it for the interval that follows. docs/FORMAT.md has the layout.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "arrays.h"
#include "recbuf.h"
#include "recfile.h"

/* u32 fixed length, u32 interval seq, u32 latency keys, u32 zones */
#define DETAIL_FIXED_LEN 16
#define DETAIL_LAT_VALUES (PCPTOP_HIST_SLOTS + 2)
#define DETAIL_ZONE_LEN (ZONE_NAME_LEN + 6 * REC_VALUE_SIZE + 8)
/* a newer writer's longer latency keys are cut to ours */
#define DETAIL_MAX_LAT_KEYS 4096

static bool any_latency(const struct snapshot *s)
{
	size_t i, n = (size_t)s->nr_cpus * PCPTOP_NR_LAT_KEYS;

	for (i = 0; s->lats && i < n; i++)
		if (s->lats[i].max)
			return true;
	return false;
}

int rec_detail_encode(struct rbuf *b, uint32_t seq, const struct snapshot *s)
{
	bool lat = any_latency(s);
	struct pcptop_lat_val v;
	int k, i;

	if (!lat)
		return 0;
	rb_u32(b, DETAIL_FIXED_LEN);
	rb_u32(b, seq);
	rb_u32(b, lat ? PCPTOP_NR_LAT_KEYS : 0);
	rb_u32(b, 0); /* zones: sampled series since 1.3 */
	for (k = 0; lat && k < PCPTOP_NR_LAT_KEYS; k++) {
		snap_lat(s, SNAP_ALL, k, &v);
		for (i = 0; i < PCPTOP_HIST_SLOTS; i++)
			rb_u64(b, v.slots[i]);
		rb_u64(b, v.max);
		rb_u64(b, v.sum);
	}
	return b->err;
}

/*
 * A 1.2 zone record: a 16-byte name, then count, high, high_min, high_max,
 * batch, managed (i64, -1 where the kernel printed none), u32 CPUs, u32 0
 */
static const char *const zone_rec_figs[] = {
	"pcp_pages",	"pcp_high", "pcp_high_min",
	"pcp_high_max", NULL,	    "zone_managed",
};

static void legacy_zone(struct rcur *c, const unsigned char *name,
			const struct rec_header *h, struct snapshot *s)
{
	char zname[ZONE_NAME_LEN];
	const struct fig_desc *d;
	size_t i;
	int z;

	memcpy(zname, name, ZONE_NAME_LEN);
	zname[ZONE_NAME_LEN - 1] = '\0';
	for (z = 0; z < SAMPLE_ZONES; z++)
		if (!strcmp(h->zone_name[z], zname))
			break;
	for (i = 0; i < ARRAY_SIZE(zone_rec_figs); i++) {
		int64_t v = (int64_t)rc_u64(c);

		d = zone_rec_figs[i] ? fig_find(zone_rec_figs[i]) : NULL;
		if (d && d->type == FIG_SAMPLED && z < SAMPLE_ZONES && v >= 0)
			samples_set(&s->smp, d, z, v);
	}
	rc_u32(c);
	rc_u32(c);
}

int rec_detail_decode(const unsigned char *p, size_t len,
		      const struct rec_header *h, struct snapshot *s,
		      uint32_t *seq, bool *zones)
{
	uint32_t fixed, nr_lat, nr_zones, k, i;
	const unsigned char *zp;
	struct rcur c;

	rc_init(&c, p, len);
	fixed = rc_u32(&c);
	*seq = rc_u32(&c);
	nr_lat = rc_u32(&c);
	nr_zones = rc_u32(&c);
	if (c.bad || fixed < DETAIL_FIXED_LEN || fixed > len ||
	    nr_lat > DETAIL_MAX_LAT_KEYS || nr_zones > REC_MAX_DIM ||
	    (uint64_t)nr_lat * DETAIL_LAT_VALUES * REC_VALUE_SIZE +
			    (uint64_t)nr_zones * DETAIL_ZONE_LEN !=
		    len - fixed)
		return -EBADMSG;
	rc_take(&c, fixed - DETAIL_FIXED_LEN);
	rec_detail_clear(s);
	/* summed over CPUs: CPU 0 holds the sum */
	for (k = 0; k < nr_lat; k++) {
		struct pcptop_lat_val v;

		for (i = 0; i < PCPTOP_HIST_SLOTS; i++)
			v.slots[i] = rc_u64(&c);
		v.max = rc_u64(&c);
		v.sum = rc_u64(&c);
		if (k < PCPTOP_NR_LAT_KEYS && s->lats)
			s->lats[k] = v;
	}
	*zones = nr_zones > 0;
	if (nr_zones)
		samples_clear(&s->smp);
	for (k = 0; k < nr_zones; k++) {
		zp = rc_take(&c, ZONE_NAME_LEN);
		if (!zp)
			return -EBADMSG;
		legacy_zone(&c, zp, h, s);
	}
	if (nr_zones)
		samples_sum_zones(&s->smp);
	return c.bad ? -EBADMSG : 0;
}

void rec_detail_clear(struct snapshot *s)
{
	if (s->lats)
		memset(s->lats, 0,
		       (size_t)s->nr_cpus * PCPTOP_NR_LAT_KEYS *
			       sizeof(*s->lats));
}
