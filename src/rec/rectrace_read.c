// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reading a recording's pcp trace back as one pcpmodel stream: every trace
 * chunk in file order, their payloads rebased, what the tracepoints could
 * not tell decided here (pcp or buddy path by order), and the settings a
 * replay needs from the header's facts.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "pcptrace.h"
#include "recfile.h"
#include "rectrace.h"
#include "rectrace_chunk.h"
#include "scale.h"

/* pcp_allowed_order(): the low orders and the THP order */
static uint8_t path_of(unsigned int order, unsigned int thp_order)
{
	if (order <= PCPM_COSTLY_ORDER || (thp_order && order == thp_order))
		return PCPM_PATH_PCP;
	return PCPM_PATH_BUDDY;
}

/* "6.12.74+deb13-amd64" -> 6, 12, 74; the sublevel -1 when not there */
static void parse_release(const char *r, int *v, int *p, int *s)
{
	*v = *p = 0;
	*s = -1;
	if (sscanf(r, "%d.%d.%d", v, p, s) < 2)
		*v = *p = 0;
}

void rec_trace_rules_of(const char *release, const struct facts *f,
			struct pcpmodel_rules *rules, char *how, size_t how_len)
{
	enum pcpmodel_ruleset base;
	const char *why;
	int v, p, s, ver;
	bool decay_chunked = false;

	parse_release(release, &v, &p, &s);
	ver = v * 1000 + p;
	if (ver >= 6019) {
		base = PCPM_RULES_7_X;
		why = "6.19 and later";
	} else if (ver >= 6016) {
		base = PCPM_RULES_6_16;
		why = "6.16..6.18";
		/* Debian's 6.18.7+ carries the chunked decay */
		decay_chunked = ver == 6018 && s >= 7;
	} else if (ver >= 6007) {
		base = PCPM_RULES_6_12;
		why = "6.7..6.15";
		decay_chunked = ver == 6012 && s >= 117;
	} else if (f && f->scale.have[SCALE_SRC_CONFIG]) {
		base = PCPM_RULES_6_1_CAPPED;
		why = "before 6.7 with CONFIG_PCP_BATCH_SCALE_MAX (the backport)";
	} else if (f && f->scale.config_lacks) {
		base = PCPM_RULES_6_1;
		why = "before 6.7, config without CONFIG_PCP_BATCH_SCALE_MAX";
	} else if ((ver == 6001 && s >= 104) || (ver == 6006 && s >= 45)) {
		base = PCPM_RULES_6_1_CAPPED;
		why = "6.1.104+/6.6.45+ by the release";
	} else {
		base = PCPM_RULES_6_1;
		why = "before 6.7, no config read";
	}
	pcpmodel_rules_init(rules, base);
	if (decay_chunked)
		rules->decay_chunked = true;
	/* 6.1.97+ has the two THP lists (bf14ed81f571, July 2024) */
	if (base == PCPM_RULES_6_1 && ver == 6001 && s >= 97)
		rules->thp_lists = PCPM_THP_LISTS_MAX;
	if (how)
		snprintf(how, how_len, "%s (kernel %s%s)", why, release,
			 decay_chunked ? ", chunked decay" : "");
}

static void fill_meta(struct rec_trace_meta *m, const struct rec_header *h)
{
	int z;

	memset(m, 0, sizeof(*m));
	m->scale = h->f.scale.value;
	snprintf(m->scale_source, sizeof(m->scale_source), "%s",
		 scale_source_name(h->f.scale.source));
	rec_trace_rules_of(h->f.release, &h->f, &m->rules, NULL, 0);
	m->nr_cpus = h->dims.nr_cpus;
	for (z = 0; z < PCPTOP_MAX_ZONES && z < SAMPLE_ZONES; z++) {
		snprintf(m->zone_name[z], sizeof(m->zone_name[z]), "%s",
			 h->zone_name[z]);
		if (h->zone_name[z][0])
			m->nr_zones = z + 1;
	}
	if (!m->nr_zones)
		m->nr_zones = PCPTOP_MAX_ZONES;
	/* pageblock_order is HPAGE_PMD_ORDER wherever THPs reach the lists */
	if (h->f.pageblock_order > PCPM_COSTLY_ORDER &&
	    h->f.pageblock_order < 16)
		m->thp_order = h->f.pageblock_order;
	snprintf(m->kernel_release, sizeof(m->kernel_release), "%s",
		 h->f.release);
}

/*
 * The stream in time order, ties kept as written. One ring buffer takes
 * every CPU's records in the order they were reserved, each stamped just
 * after: a record can come after a later one of another CPU. The
 * recorder's /proc/zoneinfo reads are stamped when read, after the
 * records still in the ring buffer then. A bottom-up merge sort: stable,
 * and the stream is nearly sorted. -ENOMEM.
 */
static int sort_by_time(struct pcpmodel_event *ev, size_t n)
{
	struct pcpmodel_event *tmp, *src = ev, *dst, *sw;
	size_t w, lo, i, j, k, mid, hi;

	for (i = 1; i < n && ev[i - 1].time_ns <= ev[i].time_ns; i++)
		;
	if (i >= n)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	dst = tmp;
	for (w = 1; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			mid = lo + w < n ? lo + w : n;
			hi = lo + 2 * w < n ? lo + 2 * w : n;
			for (i = lo, j = mid, k = lo; k < hi; k++)
				dst[k] = j >= hi || (i < mid &&
						     src[i].time_ns <=
							     src[j].time_ns) ?
						 src[i++] :
						 src[j++];
		}
		sw = src;
		src = dst;
		dst = sw;
	}
	if (src != ev)
		memcpy(ev, src, n * sizeof(*ev));
	free(tmp);
	return 0;
}

/*
 * With the commit traced (PCPT_HOOK_COMMIT) mm_page_free's event of an
 * order the pcp lists hold (the THP order: BPF keeps the low ones out)
 * is the commit's too: dropped
 */
static size_t drop_twins(struct rec_trace *t, struct pcpmodel_event *ev,
			 size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if ((t->hooks & PCPT_HOOK_COMMIT) &&
		    ev[i].type == PCPM_EV_FREE &&
		    ev[i].path == PCPT_PATH_BY_ORDER &&
		    path_of(ev[i].order, t->meta.thp_order) == PCPM_PATH_PCP)
			continue;
		ev[k++] = ev[i];
	}
	return k;
}

/* a snapshot of a pageset the trace has: its index in *k */
static bool snap_pageset(const struct rec_trace *t,
			 const struct pcpmodel_event *e, size_t nr_st,
			 size_t *k)
{
	if (e->type != PCPM_EV_SNAPSHOT || e->payload >= nr_st ||
	    e->cpu >= t->meta.nr_cpus || e->zone >= t->meta.nr_zones)
		return false;
	*k = (size_t)e->cpu * t->meta.nr_zones + e->zone;
	return true;
}

/*
 * Per pageset, the position in ev of its first snapshot having every
 * field of fields, SIZE_MAX for none: a malloc'ed array, NULL when out
 * of memory (or no pageset)
 */
static size_t *first_with(const struct rec_trace *t,
			  const struct pcpmodel_event *ev, size_t n,
			  const struct pcpmodel_pcp_state *st, size_t nr_st,
			  unsigned int fields)
{
	size_t nr = (size_t)t->meta.nr_cpus * t->meta.nr_zones, i, k;
	size_t *first = nr ? malloc(nr * sizeof(*first)) : NULL;

	if (!first)
		return NULL;
	for (k = 0; k < nr; k++)
		first[k] = SIZE_MAX;
	for (i = 0; i < n; i++)
		if (snap_pageset(t, &ev[i], nr_st, &k) &&
		    first[k] == SIZE_MAX &&
		    (st[ev[i].payload].fields & fields) == fields)
			first[k] = i;
	return first;
}

/*
 * What the pageset's settings are, not its traffic: PCPF_FREE_HIGH_BATCH
 * (its cache size against its batch, zone_pcp_update_cacheinfo(), 6.7+;
 * without it free_high fires below batch pages) and high_min/high_max
 * (zone_pcp_update()). /proc/zoneinfo, which seeds the replay where BPF
 * did not, shows neither (seeded without them the replay pinned high at
 * the seed's: 1433 against 625..15824 read by the decays, amd64 6.12
 * guest): the pageset's first read that has them (BPF's) lends them to
 * its reads that lack them. -ENOMEM.
 */
static int lend_settings(struct rec_trace *t, const struct pcpmodel_event *ev,
			 size_t n, struct pcpmodel_pcp_state *st, size_t nr_st)
{
	size_t *first, i, k;

	if (!t->meta.nr_cpus || !t->meta.nr_zones)
		return 0;
	first = first_with(t, ev, n, st, nr_st,
			   PCPM_FIELD_FLAGS | PCPM_FIELD_AUTO_HIGH);
	if (!first)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct pcpmodel_pcp_state *s, *from;

		if (!snap_pageset(t, &ev[i], nr_st, &k) || first[k] == SIZE_MAX)
			continue;
		s = &st[ev[i].payload];
		from = &st[ev[first[k]].payload];
		if (!(s->fields & PCPM_FIELD_FLAGS)) {
			s->flags = from->flags & PCPM_PCPF_FREE_HIGH_BATCH;
			s->fields |= PCPM_FIELD_FLAGS;
		}
		if (!(s->fields & PCPM_FIELD_AUTO_HIGH)) {
			s->high_min = from->high_min;
			s->high_max = from->high_max;
			s->fields |= PCPM_FIELD_AUTO_HIGH;
		}
	}
	free(first);
	return 0;
}

/*
 * A pageset read with its lists (BPF, at its first free) seeds the
 * replay exactly; the reads before it (the recorder's /proc seed, which
 * puts all of count in the replay's pool of unknown lists, so that the
 * replay refilled what the kernel took from lists it had:
 * docs/ACCURACY.md, "What-if predictions") are dropped, and the
 * pageset's events before it go unseeded (counted). -ENOMEM.
 */
static int seed_with_lists(struct rec_trace *t, struct pcpmodel_event *ev,
			   size_t *n, const struct pcpmodel_pcp_state *st,
			   size_t nr_st)
{
	size_t *first, i, k, m = 0;

	if (!t->meta.nr_cpus || !t->meta.nr_zones)
		return 0;
	first = first_with(t, ev, *n, st, nr_st, PCPM_FIELD_LISTS);
	if (!first)
		return -ENOMEM;
	for (i = 0; i < *n; i++) {
		if (snap_pageset(t, &ev[i], nr_st, &k) &&
		    first[k] != SIZE_MAX && i < first[k])
			continue;
		ev[m++] = ev[i];
	}
	*n = m;
	free(first);
	return 0;
}

/*
 * 1.6's runs as the events they stand for, each at its run's time (at
 * most PCPTRACE_RUN_MAX_NS early), in place: the replay and everything
 * else read one event a page event. -ENOMEM.
 */
static int expand_runs(struct rec_trace_chunk *c)
{
	struct pcpmodel_event *ev;
	size_t i, k, n = 0;
	uint32_t j;

	for (i = 0; i < c->nr_events; i++)
		n += rec_trace_event_n(&c->events[i]);
	if (n == c->nr_events)
		return 0;
	ev = realloc(c->events, n * sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	c->events = ev;
	c->cap_events = n;
	for (i = c->nr_events, k = n; i-- > 0;) {
		struct pcpmodel_event e = ev[i];
		uint32_t extra = (uint32_t)rec_trace_event_n(&e) - 1;

		if (extra)
			e.payload = 0;
		for (j = 0; j <= extra; j++)
			ev[--k] = e;
	}
	c->nr_events = n;
	return 0;
}

static int finish(struct rec_trace *t, struct rec_trace_chunk *c)
{
	size_t i;

	t->hooks = c->hooks;
	if (expand_runs(c))
		return -ENOMEM;
	c->nr_events = drop_twins(t, c->events, c->nr_events);
	if (sort_by_time(c->events, c->nr_events) ||
	    seed_with_lists(t, c->events, &c->nr_events, c->pcp, c->nr_pcp) ||
	    lend_settings(t, c->events, c->nr_events, c->pcp, c->nr_pcp))
		return -ENOMEM;

	t->stream.events = c->events;
	t->stream.nr_events = c->nr_events;
	t->stream.pcp_states = c->pcp;
	t->stream.nr_pcp_states = c->nr_pcp;
	t->stream.zone_states = c->zones;
	t->stream.nr_zone_states = c->nr_zones;
	t->losses = c->losses;
	t->nr_losses = c->nr_losses;
	t->ringbuf_bytes = c->ringbuf_bytes;
	t->t0_ns = c->t0_ns;
	t->free_mt_known = true;
	for (i = 0; i < c->nr_events; i++) {
		struct pcpmodel_event *e = &c->events[i];

		if (e->type == PCPM_EV_ALLOC || e->type == PCPM_EV_FREE) {
			if (e->path == PCPT_PATH_BY_ORDER)
				e->path = path_of(e->order, t->meta.thp_order);
			if (e->type == PCPM_EV_FREE &&
			    e->path == PCPM_PATH_PCP &&
			    e->migratetype == PCPT_MT_UNKNOWN)
				t->free_mt_known = false;
		}
		if (!i || e->time_ns < t->first_ns)
			t->first_ns = e->time_ns;
		if (e->time_ns > t->last_ns)
			t->last_ns = e->time_ns;
	}
	for (i = 0; i < c->nr_losses; i++)
		t->lost_events += c->losses[i].lost;
	return 0;
}

int rec_trace_load(const char *path, struct rec_trace *t, char *msg,
		   size_t msg_len)
{
	struct rec_trace_chunk c = { 0 };
	struct rec_reader r;
	struct rec_item it;
	bool any = false;
	int err;

	memset(t, 0, sizeof(*t));
	msg[0] = '\0';
	err = rec_open(&r, path);
	if (err) {
		snprintf(msg, msg_len, "%s", r.msg);
		return err == -ENOMEM ? err : -EINVAL;
	}
	r.want_trace = true;
	fill_meta(&t->meta, &r.h);
	for (;;) {
		err = rec_next(&r, &it);
		if (err) {
			/* a writer killed mid-chunk: what came before stands */
			snprintf(msg, msg_len, "%s", r.msg);
			t->truncated = true;
			err = 0;
			break;
		}
		if (it.type == REC_CHUNK_NONE)
			break;
		if (!rec_chunk_is_trace(it.type))
			continue;
		any = true;
		err = rec_trace_decode(it.type, it.data, it.len, &c, msg,
				       msg_len);
		if (err == -EBADMSG) {
			/* a chunk that checks out whole but reads wrong */
			err = -EINVAL;
			break;
		}
		if (err)
			break;
	}
	rec_close(&r);
	if (!err && !any) {
		snprintf(msg, msg_len,
			 "%s has no trace: it was recorded without --trace",
			 path);
		err = -ENOENT;
	}
	if (err) {
		rec_trace_chunk_free(&c);
		return err;
	}
	err = finish(t, &c);
	if (err)
		rec_trace_chunk_free(&c);
	return err;
}

void rec_trace_free(struct rec_trace *t)
{
	free((void *)t->stream.events);
	free((void *)t->stream.pcp_states);
	free((void *)t->stream.zone_states);
	free(t->losses);
	memset(t, 0, sizeof(*t));
}

uint64_t rec_trace_lost_between(const struct rec_trace *t, uint64_t from_ns,
				uint64_t to_ns)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < t->nr_losses; i++)
		if (t->losses[i].t_start_ns < to_ns &&
		    t->losses[i].t_end_ns >= from_ns)
			n += t->losses[i].lost;
	return n;
}
