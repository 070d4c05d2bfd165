// SPDX-License-Identifier: GPL-2.0-only
/*
 * The detail chunk (type 4, format 1.2): what an interval adds beside the
 * BPF counters, written just before its interval chunk. Allocation and
 * free latency (--latency) summed over the CPUs, and the pcp lists'
 * memory per zone at the interval's end. Readers of 1.1 skip the chunk;
 * this reader keeps it for the interval that follows. docs/FORMAT.md has
 * the layout.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
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
	int k, i, z;

	if (!lat && !s->pcp.nr_zones)
		return 0;
	rb_u32(b, DETAIL_FIXED_LEN);
	rb_u32(b, seq);
	rb_u32(b, lat ? PCPTOP_NR_LAT_KEYS : 0);
	rb_u32(b, (uint32_t)s->pcp.nr_zones);
	for (k = 0; lat && k < PCPTOP_NR_LAT_KEYS; k++) {
		snap_lat(s, SNAP_ALL, k, &v);
		for (i = 0; i < PCPTOP_HIST_SLOTS; i++)
			rb_u64(b, v.slots[i]);
		rb_u64(b, v.max);
		rb_u64(b, v.sum);
	}
	for (z = 0; z < s->pcp.nr_zones; z++) {
		const struct pcpmem_zone *pz = &s->pcp.z[z];
		char name[ZONE_NAME_LEN] = "";

		snprintf(name, sizeof(name), "%s", pz->name);
		rb_put(b, name, sizeof(name));
		rb_u64(b, (uint64_t)pz->count);
		rb_u64(b, (uint64_t)pz->high);
		rb_u64(b, (uint64_t)pz->high_min);
		rb_u64(b, (uint64_t)pz->high_max);
		rb_u64(b, (uint64_t)pz->batch);
		rb_u64(b, (uint64_t)pz->managed);
		rb_u32(b, (uint32_t)pz->nr_cpus);
		rb_u32(b, 0);
	}
	return b->err;
}

int rec_detail_decode(const unsigned char *p, size_t len, struct snapshot *s,
		      uint32_t *seq)
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
	for (k = 0; k < nr_zones; k++) {
		struct pcpmem_zone *z;

		zp = rc_take(&c, ZONE_NAME_LEN);
		if (!zp)
			return -EBADMSG;
		if (s->pcp.nr_zones >= PCPMEM_MAX_ZONES) {
			rc_take(&c, DETAIL_ZONE_LEN - ZONE_NAME_LEN);
			continue;
		}
		z = &s->pcp.z[s->pcp.nr_zones++];
		memcpy(z->name, zp, ZONE_NAME_LEN);
		z->name[ZONE_NAME_LEN - 1] = '\0';
		z->count = (int64_t)rc_u64(&c);
		z->high = (int64_t)rc_u64(&c);
		z->high_min = (int64_t)rc_u64(&c);
		z->high_max = (int64_t)rc_u64(&c);
		z->batch = (int64_t)rc_u64(&c);
		z->managed = (int64_t)rc_u64(&c);
		z->nr_cpus = (int)rc_u32(&c);
		rc_u32(&c);
	}
	return c.bad ? -EBADMSG : 0;
}

void rec_detail_clear(struct snapshot *s)
{
	if (s->lats)
		memset(s->lats, 0,
		       (size_t)s->nr_cpus * PCPTOP_NR_LAT_KEYS *
			       sizeof(*s->lats));
	memset(&s->pcp, 0, sizeof(s->pcp));
}
