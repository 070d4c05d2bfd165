// SPDX-License-Identifier: GPL-2.0-only
/*
 * The trace chunk's payload (docs/FORMAT.md, "Trace chunk"): a fixed part,
 * then the events, the pageset states, the zone states and the losses,
 * each a run of fixed-size little-endian records.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrays.h"
#include "recbuf.h"
#include "recfile.h"
#include "rectrace_chunk.h"

static int grow(void **p, size_t *cap, size_t nr, size_t size)
{
	size_t n = *cap ? *cap * 2 : 1024;
	void *q;

	if (nr < *cap)
		return 0;
	if (n > SIZE_MAX / size)
		return -ENOMEM;
	q = realloc(*p, n * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

int rec_trace_add_event(struct rec_trace_chunk *c,
			const struct pcpmodel_event *ev)
{
	if (grow((void **)&c->events, &c->cap_events, c->nr_events,
		 sizeof(*ev)))
		return -ENOMEM;
	c->events[c->nr_events++] = *ev;
	return 0;
}

int rec_trace_add_pcp(struct rec_trace_chunk *c, uint64_t t, unsigned int cpu,
		      unsigned int zone, const struct pcpmodel_pcp_state *st)
{
	struct pcpmodel_event ev = { .time_ns = t,
				     .payload = (uint32_t)c->nr_pcp,
				     .cpu = (uint16_t)cpu,
				     .type = PCPM_EV_SNAPSHOT,
				     .zone = (uint8_t)zone };

	if (grow((void **)&c->pcp, &c->cap_pcp, c->nr_pcp, sizeof(*st)))
		return -ENOMEM;
	c->pcp[c->nr_pcp] = *st;
	if (rec_trace_add_event(c, &ev))
		return -ENOMEM;
	c->nr_pcp++;
	return 0;
}

int rec_trace_add_zone(struct rec_trace_chunk *c, uint64_t t, unsigned int zone,
		       const struct pcpmodel_zone_state *st)
{
	struct pcpmodel_event ev = { .time_ns = t,
				     .payload = (uint32_t)c->nr_zones,
				     .type = PCPM_EV_ZONE_STATE,
				     .zone = (uint8_t)zone };

	if (grow((void **)&c->zones, &c->cap_zones, c->nr_zones, sizeof(*st)))
		return -ENOMEM;
	c->zones[c->nr_zones] = *st;
	if (rec_trace_add_event(c, &ev))
		return -ENOMEM;
	c->nr_zones++;
	return 0;
}

int rec_trace_add_loss(struct rec_trace_chunk *c,
		       const struct rec_trace_loss *l)
{
	if (grow((void **)&c->losses, &c->cap_losses, c->nr_losses, sizeof(*l)))
		return -ENOMEM;
	c->losses[c->nr_losses++] = *l;
	return 0;
}

void rec_trace_chunk_reset(struct rec_trace_chunk *c)
{
	c->nr_events = c->nr_pcp = c->nr_zones = c->nr_losses = 0;
}

void rec_trace_chunk_free(struct rec_trace_chunk *c)
{
	free(c->events);
	free(c->pcp);
	free(c->zones);
	free(c->losses);
	memset(c, 0, sizeof(*c));
}

/*
 * Packed events (chunk type 7, format 1.5): a churn of allocations and
 * frees cost the recorder about as many instructions in zlib as the
 * kernel spent in the BPF programs, on 24 bytes an event that were mostly
 * a time and fields unchanged since the last event of that type. Here an
 * event is a flag byte, the time as a zigzag varint of its distance from
 * the last event's (negative when the ring buffer's order is not time's),
 * then only what differs from the last event of its type: 2 to 4 bytes
 * for most, and zlib's work follows the bytes.
 */
#define PACK_TYPE 0x1f /* the type: 5 bits */
#define PACK_ATTRS 0x20 /* cpu (varint) and the six u8 fields follow */
#define PACK_PAYLOAD 0x40 /* a varint payload follows (else 0) */
#define PACK_VARINT_MAX 10 /* bytes of a 64-bit varint */

/* cpu and the u8 fields, one word to compare */
static uint64_t attrs_of(const struct pcpmodel_event *e)
{
	return (uint64_t)e->cpu << 48 | (uint64_t)e->zone << 40 |
	       (uint64_t)e->order << 32 | (uint64_t)e->migratetype << 24 |
	       (uint64_t)e->path << 16 | (uint64_t)e->reason << 8 | e->caller;
}

static void attrs_to(struct pcpmodel_event *e, uint64_t a)
{
	e->cpu = (uint16_t)(a >> 48);
	e->zone = (uint8_t)(a >> 40);
	e->order = (uint8_t)(a >> 32);
	e->migratetype = (uint8_t)(a >> 24);
	e->path = (uint8_t)(a >> 16);
	e->reason = (uint8_t)(a >> 8);
	e->caller = (uint8_t)a;
}

static unsigned char *put_varint(unsigned char *q, uint64_t v)
{
	while (v >= 0x80) {
		*q++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*q++ = (unsigned char)v;
	return q;
}

/* 1 + time + cpu + 6 fields + payload: an event's largest packing */
#define PACK_EVENT_MAX (1 + PACK_VARINT_MAX + 3 + 6 + 5)

static void encode_packed(struct rbuf *b, const struct rec_trace_chunk *c)
{
	uint64_t last[PACK_TYPE + 1] = { 0 }, prev = c->t0_ns, a, d;
	size_t start = b->len, i;
	unsigned char *q, *q0;
	uint32_t v;

	for (i = 0; i < c->nr_events; i++) {
		const struct pcpmodel_event *e = &c->events[i];

		if (e->type > PACK_TYPE) {
			b->err = b->err ? b->err : -ERANGE;
			return;
		}
		q0 = q = rb_grow(b, PACK_EVENT_MAX);
		if (!q)
			return;
		a = attrs_of(e);
		*q++ = e->type | (a != last[e->type] ? PACK_ATTRS : 0) |
		       (e->payload ? PACK_PAYLOAD : 0);
		/* zigzag: a small step back costs as little as one forward */
		d = e->time_ns - prev;
		q = put_varint(q, (d << 1) ^ (uint64_t) - (int64_t)(d >> 63));
		prev = e->time_ns;
		if (a != last[e->type]) {
			last[e->type] = a;
			q = put_varint(q, e->cpu);
			q[0] = e->zone;
			q[1] = e->order;
			q[2] = e->migratetype;
			q[3] = e->path;
			q[4] = e->reason;
			q[5] = e->caller;
			q += 6;
		}
		if (e->payload)
			q = put_varint(q, e->payload);
		/* give back what this event did not use */
		b->len -= PACK_EVENT_MAX - (size_t)(q - q0);
	}
	/* the fixed part's event bytes, at offset 40 */
	v = htole32((uint32_t)(b->len - start));
	if (!b->err)
		memcpy(b->p + start - 8, &v, sizeof(v));
}

void rec_trace_encode(struct rbuf *b, const struct rec_trace_chunk *c,
		      uint16_t type)
{
	size_t i, l;

	rb_u32(b, REC_TRACE_FIXED_LEN);
	rb_u32(b, c->seq);
	rb_u32(b, c->hooks);
	rb_u32(b, c->ringbuf_bytes);
	rb_u64(b, c->t0_ns);
	rb_u32(b, (uint32_t)c->nr_events);
	rb_u32(b, (uint32_t)c->nr_pcp);
	rb_u32(b, (uint32_t)c->nr_zones);
	rb_u32(b, (uint32_t)c->nr_losses);
	/* types 7 and 8: the events' bytes (encode_packed() fills it in) */
	rb_u64(b, 0);
	if (type != REC_CHUNK_TRACE)
		encode_packed(b, c);
	for (i = 0; type == REC_CHUNK_TRACE && i < c->nr_events; i++) {
		const struct pcpmodel_event *e = &c->events[i];
		/* 7 bytes and 3 reserved: 24 in all */
		unsigned char tail[10] = { e->type,	   e->zone, e->order,
					   e->migratetype, e->path, e->reason,
					   e->caller };

		rb_u64(b, e->time_ns);
		rb_u32(b, e->payload);
		rb_u16(b, e->cpu);
		rb_put(b, tail, sizeof(tail));
	}
	for (i = 0; i < c->nr_pcp; i++) {
		const struct pcpmodel_pcp_state *s = &c->pcp[i];
		unsigned char u8s[4] = { s->alloc_factor, s->free_factor,
					 s->flags, s->fields };

		rb_i32(b, s->count);
		rb_i32(b, s->high);
		rb_i32(b, s->high_min);
		rb_i32(b, s->high_max);
		rb_i32(b, s->batch);
		rb_i32(b, s->free_count);
		rb_put(b, u8s, sizeof(u8s));
		for (l = 0; l < PCPM_NR_LISTS_MAX; l++)
			rb_u32(b, s->list_entries[l]);
	}
	for (i = 0; i < c->nr_zones; i++) {
		const struct pcpmodel_zone_state *z = &c->zones[i];
		unsigned char u8s[4] = { z->below_high, z->reclaim_active,
					 z->fields, 0 };

		rb_u64(b, z->free_pages);
		rb_u64(b, z->wmark_min);
		rb_u64(b, z->wmark_low);
		rb_u64(b, z->wmark_high);
		rb_i32(b, z->pageset_high_min);
		rb_i32(b, z->pageset_high_max);
		rb_i32(b, z->pageset_batch);
		rb_put(b, u8s, sizeof(u8s));
	}
	for (i = 0; i < c->nr_losses; i++) {
		rb_u64(b, c->losses[i].t_start_ns);
		rb_u64(b, c->losses[i].t_end_ns);
		rb_u64(b, c->losses[i].lost);
		rb_u32(b, c->losses[i].cpu);
		rb_u32(b, 0);
	}
}

static int bad(char *msg, size_t msg_len, const char *what, size_t len)
{
	snprintf(msg, msg_len, "trace chunk is malformed: %s (%zu bytes)", what,
		 len);
	return -EBADMSG;
}

/* room for n more in each array of c, before anything is decoded */
static int reserve_all(struct rec_trace_chunk *c, uint64_t ne, uint64_t np,
		       uint64_t nz, uint64_t nl)
{
	struct {
		void **p;
		size_t *cap, nr, size;
		uint64_t more;
	} a[] = {
		{ (void **)&c->events, &c->cap_events, c->nr_events,
		  sizeof(*c->events), ne },
		{ (void **)&c->pcp, &c->cap_pcp, c->nr_pcp, sizeof(*c->pcp),
		  np },
		{ (void **)&c->zones, &c->cap_zones, c->nr_zones,
		  sizeof(*c->zones), nz },
		{ (void **)&c->losses, &c->cap_losses, c->nr_losses,
		  sizeof(*c->losses), nl },
	};
	size_t i, need;
	void *q;

	for (i = 0; i < ARRAY_SIZE(a); i++) {
		need = a[i].nr + (size_t)a[i].more;
		if (need <= *a[i].cap)
			continue;
		if (need > SIZE_MAX / a[i].size)
			return -ENOMEM;
		q = realloc(*a[i].p, need * a[i].size);
		if (!q)
			return -ENOMEM;
		*a[i].p = q;
		*a[i].cap = need;
	}
	return 0;
}

static void decode_event(struct rcur *cur, struct pcpmodel_event *e,
			 size_t pcp_base, size_t zone_base)
{
	const unsigned char *t;

	e->time_ns = rc_u64(cur);
	e->payload = rc_u32(cur);
	e->cpu = rc_u16(cur);
	t = rc_take(cur, 10);
	if (!t)
		return;
	e->type = t[0];
	e->zone = t[1];
	e->order = t[2];
	e->migratetype = t[3];
	e->path = t[4];
	e->reason = t[5];
	e->caller = t[6];
	if (e->type == PCPM_EV_SNAPSHOT)
		e->payload += (uint32_t)pcp_base;
	else if (e->type == PCPM_EV_ZONE_STATE)
		e->payload += (uint32_t)zone_base;
}

/* a varint of at most 64 bits; 0 and cur->bad past the end or too long */
static uint64_t rc_varint(struct rcur *cur)
{
	const unsigned char *b;
	uint64_t v = 0;
	unsigned int shift;

	for (shift = 0; shift < 64; shift += 7) {
		b = rc_take(cur, 1);
		if (!b)
			return 0;
		v |= (uint64_t)(*b & 0x7f) << shift;
		if (!(*b & 0x80))
			return v;
	}
	cur->bad = true;
	return 0;
}

/* encode_packed()'s events, exactly its bytes; false when they are not */
static bool decode_packed(struct rcur *cur, struct rec_trace_chunk *c,
			  uint64_t ne, uint64_t t0)
{
	uint64_t last[PACK_TYPE + 1] = { 0 }, prev = t0, d, v;
	const unsigned char *f, *u8s;
	size_t i;

	for (i = 0; i < ne; i++) {
		struct pcpmodel_event *e = &c->events[c->nr_events + i];

		memset(e, 0, sizeof(*e));
		f = rc_take(cur, 1);
		if (!f || (*f & ~(PACK_TYPE | PACK_ATTRS | PACK_PAYLOAD)))
			return false;
		e->type = *f & PACK_TYPE;
		d = rc_varint(cur);
		prev += (d >> 1) ^ (uint64_t) - (int64_t)(d & 1);
		e->time_ns = prev;
		if (*f & PACK_ATTRS) {
			v = rc_varint(cur);
			u8s = rc_take(cur, 6);
			if (!u8s || v > UINT16_MAX)
				return false;
			last[e->type] = v << 48 | (uint64_t)u8s[0] << 40 |
					(uint64_t)u8s[1] << 32 |
					(uint64_t)u8s[2] << 24 |
					(uint64_t)u8s[3] << 16 |
					(uint64_t)u8s[4] << 8 | u8s[5];
		}
		attrs_to(e, last[e->type]);
		if (*f & PACK_PAYLOAD) {
			v = rc_varint(cur);
			if (!v || v > UINT32_MAX)
				return false;
			e->payload = (uint32_t)v;
		}
		if (cur->bad)
			return false;
	}
	return !rc_left(cur);
}

int rec_trace_decode(uint16_t type, const unsigned char *p, size_t len,
		     struct rec_trace_chunk *c, char *msg, size_t msg_len)
{
	uint64_t ne, np, nz, nl, want, ebytes;
	size_t pcp_base = c->nr_pcp, zone_base = c->nr_zones, i, l;
	bool packed = type != REC_CHUNK_TRACE;
	bool runs = type == REC_CHUNK_TRACE_RUNS;
	uint32_t fixed;
	struct rcur cur;
	int err;

	rc_init(&cur, p, len);
	fixed = rc_u32(&cur);
	c->seq = rc_u32(&cur);
	c->hooks = rc_u32(&cur);
	c->ringbuf_bytes = rc_u32(&cur);
	c->t0_ns = rc_u64(&cur);
	ne = rc_u32(&cur);
	np = rc_u32(&cur);
	nz = rc_u32(&cur);
	nl = rc_u32(&cur);
	ebytes = rc_u32(&cur);
	if (cur.bad || fixed < REC_TRACE_FIXED_LEN ||
	    fixed > REC_TRACE_FIXED_MAX || fixed > len)
		return bad(msg, msg_len, "fixed part", len);
	if (!packed)
		ebytes = ne * REC_TRACE_EVENT_LEN;
	/* a packed event takes 2 bytes at least */
	else if (ebytes < 2 * ne)
		return bad(msg, msg_len, "fewer event bytes than events", len);
	want = fixed + ebytes + np * REC_TRACE_PCP_LEN +
	       nz * REC_TRACE_ZONE_LEN + nl * REC_TRACE_LOSS_LEN;
	if (want != len)
		return bad(msg, msg_len, "length does not match its counts",
			   len);
	err = reserve_all(c, ne, np, nz, nl);
	if (err)
		return err;
	if (packed) {
		rc_init(&cur, p + fixed, (size_t)ebytes);
		if (!decode_packed(&cur, c, ne, c->t0_ns))
			return bad(msg, msg_len, "packed events", len);
	}
	rc_init(&cur, p + fixed + (packed ? ebytes : 0),
		len - fixed - (packed ? ebytes : 0));
	for (i = 0; i < ne; i++) {
		struct pcpmodel_event *e = &c->events[c->nr_events + i];

		if (packed) {
			if (e->type == PCPM_EV_SNAPSHOT)
				e->payload += (uint32_t)pcp_base;
			else if (e->type == PCPM_EV_ZONE_STATE)
				e->payload += (uint32_t)zone_base;
		} else {
			memset(e, 0, sizeof(*e));
			decode_event(&cur, e, pcp_base, zone_base);
		}
		/* before 1.6 an allocation's or free's payload meant nothing */
		if (!runs && rec_trace_in_runs(e->type))
			e->payload = 0;
		if (rec_trace_in_runs(e->type) &&
		    e->payload > REC_TRACE_RUN_MAX)
			return bad(msg, msg_len, "a run too long", len);
		if ((e->type == PCPM_EV_SNAPSHOT &&
		     e->payload - pcp_base >= np) ||
		    (e->type == PCPM_EV_ZONE_STATE &&
		     e->payload - zone_base >= nz))
			return bad(msg, msg_len, "a snapshot out of range",
				   len);
	}
	for (i = 0; i < np; i++) {
		struct pcpmodel_pcp_state *s = &c->pcp[c->nr_pcp + i];
		const unsigned char *u8s;

		memset(s, 0, sizeof(*s));
		s->count = rc_i32(&cur);
		s->high = rc_i32(&cur);
		s->high_min = rc_i32(&cur);
		s->high_max = rc_i32(&cur);
		s->batch = rc_i32(&cur);
		s->free_count = rc_i32(&cur);
		u8s = rc_take(&cur, 4);
		if (u8s) {
			s->alloc_factor = u8s[0];
			s->free_factor = u8s[1];
			s->flags = u8s[2];
			s->fields = u8s[3];
		}
		for (l = 0; l < PCPM_NR_LISTS_MAX; l++)
			s->list_entries[l] = rc_u32(&cur);
	}
	for (i = 0; i < nz; i++) {
		struct pcpmodel_zone_state *z = &c->zones[c->nr_zones + i];
		const unsigned char *u8s;

		memset(z, 0, sizeof(*z));
		z->free_pages = rc_u64(&cur);
		z->wmark_min = rc_u64(&cur);
		z->wmark_low = rc_u64(&cur);
		z->wmark_high = rc_u64(&cur);
		z->pageset_high_min = rc_i32(&cur);
		z->pageset_high_max = rc_i32(&cur);
		z->pageset_batch = rc_i32(&cur);
		u8s = rc_take(&cur, 4);
		if (u8s) {
			z->below_high = u8s[0];
			z->reclaim_active = u8s[1];
			z->fields = u8s[2];
		}
	}
	for (i = 0; i < nl; i++) {
		struct rec_trace_loss *lo = &c->losses[c->nr_losses + i];

		lo->t_start_ns = rc_u64(&cur);
		lo->t_end_ns = rc_u64(&cur);
		lo->lost = rc_u64(&cur);
		lo->cpu = rc_u32(&cur);
		rc_u32(&cur);
		if (lo->t_end_ns < lo->t_start_ns)
			return bad(msg, msg_len, "a loss ends before it starts",
				   len);
	}
	if (cur.bad)
		return bad(msg, msg_len, "records cut short", len);
	c->nr_events += ne;
	c->nr_pcp += np;
	c->nr_zones += nz;
	c->nr_losses += nl;
	return 0;
}

int rec_trace_tally_add(struct rec_trace_tally *t, uint16_t type,
			const unsigned char *p, size_t len)
{
	struct rec_trace_chunk c = { 0 };
	char msg[REC_ERR_LEN];
	size_t i;
	int err;

	err = rec_trace_decode(type, p, len, &c, msg, sizeof(msg));
	if (err)
		goto out;
	t->chunks++;
	t->hooks = c.hooks;
	t->ringbuf_bytes = c.ringbuf_bytes;
	t->t0_ns = c.t0_ns;
	t->records += c.nr_events;
	for (i = 0; i < c.nr_events; i++)
		if (c.events[i].type < NR_PCPM_EV)
			t->events[c.events[i].type] +=
				rec_trace_event_n(&c.events[i]);
	for (i = 0; i < c.nr_losses; i++) {
		const struct rec_trace_loss *l = &c.losses[i];

		if (!t->loss_windows || l->t_start_ns < t->loss_first_ns)
			t->loss_first_ns = l->t_start_ns;
		if (l->t_end_ns > t->loss_last_ns)
			t->loss_last_ns = l->t_end_ns;
		t->lost += l->lost;
		t->loss_windows++;
	}
out:
	rec_trace_chunk_free(&c);
	return err;
}
