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

void rec_trace_encode(struct rbuf *b, const struct rec_trace_chunk *c)
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
	rb_u64(b, 0);
	for (i = 0; i < c->nr_events; i++) {
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

	for (i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
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

int rec_trace_decode(const unsigned char *p, size_t len,
		     struct rec_trace_chunk *c, char *msg, size_t msg_len)
{
	uint64_t ne, np, nz, nl, want;
	size_t pcp_base = c->nr_pcp, zone_base = c->nr_zones, i, l;
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
	if (cur.bad || fixed < REC_TRACE_FIXED_LEN ||
	    fixed > REC_TRACE_FIXED_MAX || fixed > len)
		return bad(msg, msg_len, "fixed part", len);
	want = fixed + ne * REC_TRACE_EVENT_LEN + np * REC_TRACE_PCP_LEN +
	       nz * REC_TRACE_ZONE_LEN + nl * REC_TRACE_LOSS_LEN;
	if (want != len)
		return bad(msg, msg_len, "length does not match its counts",
			   len);
	err = reserve_all(c, ne, np, nz, nl);
	if (err)
		return err;
	rc_init(&cur, p + fixed, len - fixed);
	for (i = 0; i < ne; i++) {
		struct pcpmodel_event *e = &c->events[c->nr_events + i];

		memset(e, 0, sizeof(*e));
		decode_event(&cur, e, pcp_base, zone_base);
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

int rec_trace_tally_add(struct rec_trace_tally *t, const unsigned char *p,
			size_t len)
{
	struct rec_trace_chunk c = { 0 };
	char msg[REC_ERR_LEN];
	size_t i;
	int err;

	err = rec_trace_decode(p, len, &c, msg, sizeof(msg));
	if (err)
		goto out;
	t->chunks++;
	t->hooks = c.hooks;
	t->ringbuf_bytes = c.ringbuf_bytes;
	t->t0_ns = c.t0_ns;
	for (i = 0; i < c.nr_events; i++)
		if (c.events[i].type < NR_PCPM_EV)
			t->events[c.events[i].type]++;
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
