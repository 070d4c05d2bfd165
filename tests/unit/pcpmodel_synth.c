// SPDX-License-Identifier: GPL-2.0-only
/*
 * A seeded workload for the replay model: runs of allocations and runs
 * of frees (long order-0 runs grow alloc_factor and free_count, runs of
 * order 1..3 frees trip free_high), a little buddy traffic, and vmstat,
 * drains, hotplug and zone flags at fixed strides. Each event is played
 * through the "kernel" model as it is written, and the snapshots carry
 * that model's pagesets, as a trace carries the real ones.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pcpmodel_synth.h"

#define NS_PER_EVENT 1000
/* classes of allocation: order 0, 1..3, THP, beyond the pcp lists */
#define CLASS_ORDER0 0
#define CLASS_HIGH_ORDER 1
#define CLASS_THP 2
#define CLASS_BUDDY 3
#define NR_CLASSES 4
/* the order a CLASS_BUDDY request has (not pcp-allowed) */
#define BUDDY_ORDER 4
#define PERCENT_SCALE 100
/* how a run is drawn: per-class weights in percent, run lengths */
#define WEIGHT_ORDER0 62
#define WEIGHT_HIGH_ORDER 28
#define WEIGHT_THP 4
#define RUN_MAX_ORDER0 700
#define RUN_MAX_OTHER 150
/* allocations and frees that go to the buddy path anyway */
#define BUDDY_PATH_PERCENT 2
/* order-0 allocation runs from alloc_pages_bulk(), nolock frees */
#define BULK_RUN_PERCENT 5
#define NOLOCK_FREE_PERCENT 1
#define MT_MOVABLE_PERCENT 70
#define MT_UNMOVABLE_PERCENT 20
/* the start of a default zone */
#define DEFAULT_BATCH 63
#define DEFAULT_HIGH 1200
#define DEFAULT_HIGH_MIN 600
#define DEFAULT_HIGH_MAX 8000
#define WMARK_HIGH_PAGES 3000
#define FREE_PAGES_START 100000

struct run {
	bool alloc;
	bool bulk; /* alloc_pages_bulk() */
	int cls, order, mt, left;
	unsigned int cpu, zone;
};

struct gen {
	const struct pcpm_synth_opts *o;
	struct pcpmodel *kernel;
	struct pcpm_synth *s;
	struct run run;
	long outstanding[NR_CLASSES];
	uint64_t now;
	unsigned int down_cpu; /* the CPU hotplug took down, or nr_cpus */
	bool below_high;
};

void pcpm_synth_defaults(struct pcpm_synth_opts *o, uint64_t seed)
{
	memset(o, 0, sizeof(*o));
	o->nr_workload = 200000;
	o->seed = seed;
	o->decay_every = 5000;
	o->snapshot_every = 20000;
	o->drain_every = 60000;
	o->zone_flip_every = 45000;
	o->thp = true;
	o->hotplug = true;
	o->snapshot_lists = true;
	o->batch = DEFAULT_BATCH;
	o->high = DEFAULT_HIGH;
	o->high_min = DEFAULT_HIGH_MIN;
	o->high_max = DEFAULT_HIGH_MAX;
}

/* xorshift64*: the same stream from the same seed on every machine */
static uint64_t rnd(struct pcpm_synth *s)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return s->rng * 0x2545F4914F6CDD1DULL;
}

static unsigned int below(struct pcpm_synth *s, unsigned int n)
{
	return n ? (unsigned int)(rnd(s) % n) : 0;
}

static int grow(void **arr, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 1024;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*arr, n * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = n;
	return 0;
}

static void sync_stream(struct pcpm_synth *s)
{
	s->stream.events = s->events;
	s->stream.nr_events = s->nr_events;
	s->stream.pcp_states = s->pcp_states;
	s->stream.nr_pcp_states = s->nr_pcp_states;
	s->stream.zone_states = s->zone_states;
	s->stream.nr_zone_states = s->nr_zone_states;
}

/* write one event and play it through the kernel model */
static int emit(struct gen *g, struct pcpmodel_event ev)
{
	struct pcpm_synth *s = g->s;
	int err;

	err = grow((void **)&s->events, &s->cap_events, s->nr_events + 1,
		   sizeof(*s->events));
	if (err)
		return err;
	ev.time_ns = g->now;
	s->events[s->nr_events++] = ev;
	sync_stream(s);
	err = pcpmodel_apply(g->kernel, &ev, &s->stream);
	/* an offline CPU's drain is not an error of the stream */
	return err == -ENODATA ? 0 : err;
}

static int snapshot(struct gen *g, unsigned int cpu, unsigned int zone,
		    const struct pcpmodel_pcp_state *st)
{
	struct pcpm_synth *s = g->s;
	struct pcpmodel_event ev = { .type = PCPM_EV_SNAPSHOT };
	int err;

	err = grow((void **)&s->pcp_states, &s->cap_pcp_states,
		   s->nr_pcp_states + 1, sizeof(*s->pcp_states));
	if (err)
		return err;
	s->pcp_states[s->nr_pcp_states] = *st;
	ev.payload = s->nr_pcp_states++;
	ev.cpu = cpu;
	ev.zone = zone;
	return emit(g, ev);
}

static int zone_state(struct gen *g, unsigned int zone, bool pageset)
{
	struct pcpm_synth *s = g->s;
	struct pcpmodel_event ev = { .type = PCPM_EV_ZONE_STATE };
	struct pcpmodel_zone_state *z;
	int err;

	err = grow((void **)&s->zone_states, &s->cap_zone_states,
		   s->nr_zone_states + 1, sizeof(*s->zone_states));
	if (err)
		return err;
	z = &s->zone_states[s->nr_zone_states];
	memset(z, 0, sizeof(*z));
	z->free_pages = FREE_PAGES_START;
	z->wmark_high = WMARK_HIGH_PAGES;
	z->below_high = g->below_high && zone == 0;
	z->fields = PCPM_ZFIELD_FLAGS | PCPM_ZFIELD_WMARK;
	if (pageset) {
		z->pageset_batch = g->o->batch;
		z->pageset_high_min = g->o->high_min;
		z->pageset_high_max = g->o->high_max;
		z->fields |= PCPM_ZFIELD_PAGESET;
	}
	ev.payload = s->nr_zone_states++;
	ev.zone = zone;
	return emit(g, ev);
}

static int start(struct gen *g)
{
	const struct pcpmodel_config *cfg = pcpmodel_config(g->kernel);
	struct pcpmodel_pcp_state st = { 0 };
	unsigned int cpu, zone;
	int err;

	st.batch = g->o->batch;
	st.high = g->o->high;
	st.high_min = g->o->high_min;
	st.high_max = g->o->high_max;
	st.fields = PCPM_FIELD_AUTO_HIGH | PCPM_FIELD_FREE_COUNT |
		    PCPM_FIELD_ALLOC_FACTOR | PCPM_FIELD_FLAGS |
		    PCPM_FIELD_FREE_FACTOR | PCPM_FIELD_LISTS;
	for (cpu = 0; cpu < cfg->nr_cpus; cpu++) {
		/* a CPU with a large cache slice on every other one */
		st.flags = cpu % 2 ? PCPM_PCPF_FREE_HIGH_BATCH : 0;
		for (zone = 0; zone < cfg->nr_zones; zone++) {
			err = snapshot(g, cpu, zone, &st);
			if (err)
				return err;
		}
	}
	for (zone = 0; zone < cfg->nr_zones; zone++) {
		err = zone_state(g, zone, false);
		if (err)
			return err;
	}
	return 0;
}

static void new_run(struct gen *g)
{
	const struct pcpmodel_config *cfg = pcpmodel_config(g->kernel);
	struct pcpm_synth *s = g->s;
	struct run *r = &g->run;
	unsigned int w = below(s, PERCENT_SCALE);

	if (w < WEIGHT_ORDER0)
		r->cls = CLASS_ORDER0;
	else if (w < WEIGHT_ORDER0 + WEIGHT_HIGH_ORDER)
		r->cls = CLASS_HIGH_ORDER;
	else if (w < WEIGHT_ORDER0 + WEIGHT_HIGH_ORDER + WEIGHT_THP &&
		 g->o->thp && cfg->thp_order)
		r->cls = CLASS_THP;
	else
		r->cls = CLASS_BUDDY;
	r->order = r->cls == CLASS_ORDER0     ? 0 :
		   r->cls == CLASS_HIGH_ORDER ? 1 + (int)below(s, 3) :
		   r->cls == CLASS_THP	      ? (int)cfg->thp_order :
						BUDDY_ORDER;
	w = below(s, PERCENT_SCALE);
	r->mt = w < MT_MOVABLE_PERCENT ? PCPM_MIGRATE_MOVABLE :
		w < MT_MOVABLE_PERCENT + MT_UNMOVABLE_PERCENT ?
					 PCPM_MIGRATE_UNMOVABLE :
					 PCPM_MIGRATE_PCPTYPES - 1;
	r->alloc = below(s, 2) || g->outstanding[r->cls] <= 0;
	r->bulk = r->alloc && r->cls == CLASS_ORDER0 &&
		  below(s, PERCENT_SCALE) < BULK_RUN_PERCENT;
	r->left = 1 + below(s, r->cls == CLASS_ORDER0 ? RUN_MAX_ORDER0 :
							RUN_MAX_OTHER);
	do {
		r->cpu = below(s, cfg->nr_cpus);
	} while (r->cpu == g->down_cpu);
	r->zone = below(s, cfg->nr_zones);
}

static int workload_event(struct gen *g)
{
	struct pcpmodel_event ev = { 0 };
	struct run *r = &g->run;

	if (!r->left || (!r->alloc && g->outstanding[r->cls] <= 0))
		new_run(g);
	r->left--;
	ev.type = r->alloc ? PCPM_EV_ALLOC : PCPM_EV_FREE;
	ev.cpu = r->cpu;
	ev.zone = r->zone;
	ev.order = r->order;
	ev.migratetype = r->mt;
	ev.path = r->cls == CLASS_BUDDY || below(g->s, PERCENT_SCALE) <
						   BUDDY_PATH_PERCENT ?
			  PCPM_PATH_BUDDY :
			  PCPM_PATH_PCP;
	if (r->bulk)
		ev.caller = PCPM_CALLER_BULK;
	else if (!r->alloc && below(g->s, PERCENT_SCALE) < NOLOCK_FREE_PERCENT)
		ev.caller = PCPM_CALLER_NOLOCK;
	g->outstanding[r->cls] += r->alloc ? 1 : -1;
	return emit(g, ev);
}

/* one event of a type for every online CPU and zone */
static int round_of(struct gen *g, int type, int reason)
{
	const struct pcpmodel_config *cfg = pcpmodel_config(g->kernel);
	struct pcpmodel_pcp_state st;
	unsigned int cpu, zone;
	int err = 0;

	for (cpu = 0; cpu < cfg->nr_cpus && !err; cpu++) {
		if (cpu == g->down_cpu)
			continue;
		for (zone = 0; zone < cfg->nr_zones && !err; zone++) {
			struct pcpmodel_event ev = { .type = type };

			ev.cpu = cpu;
			ev.zone = zone;
			ev.reason = reason;
			if (type != PCPM_EV_SNAPSHOT) {
				err = emit(g, ev);
				continue;
			}
			err = pcpmodel_get_pcp(g->kernel, cpu, zone, &st);
			if (!g->o->snapshot_lists)
				st.fields &= ~PCPM_FIELD_LISTS;
			if (!err)
				err = snapshot(g, cpu, zone, &st);
		}
	}
	return err;
}

static int hotplug(struct gen *g, size_t i)
{
	const struct pcpmodel_config *cfg = pcpmodel_config(g->kernel);
	struct pcpmodel_event ev = { 0 };
	unsigned int last = cfg->nr_cpus - 1;
	int err;

	if (!g->o->hotplug || cfg->nr_cpus < 2)
		return 0;
	if (i == g->o->nr_workload / 2) {
		ev.type = PCPM_EV_CPU_DEAD;
		ev.cpu = last;
		g->down_cpu = last;
		if (g->run.cpu == last)
			g->run.left = 0;
		err = emit(g, ev);
		/* zone_pcp_update(zone, 0): the pagesets get new bounds */
		return err ? err : zone_state(g, 0, true);
	}
	if (i == g->o->nr_workload / 2 + g->o->nr_workload / 8) {
		ev.type = PCPM_EV_CPU_ONLINE;
		ev.cpu = last;
		g->down_cpu = cfg->nr_cpus;
		return emit(g, ev);
	}
	return 0;
}

static bool every(size_t i, unsigned int stride)
{
	return stride && i && i % stride == 0;
}

static int periodic(struct gen *g, size_t i)
{
	int err = hotplug(g, i);

	if (!err && every(i, g->o->decay_every))
		err = round_of(g, PCPM_EV_DECAY, 0);
	if (!err && every(i, g->o->drain_every))
		err = round_of(g, PCPM_EV_DRAIN, PCPM_DRAIN_ALL);
	if (!err && every(i, g->o->zone_flip_every)) {
		g->below_high = !g->below_high;
		err = zone_state(g, 0, false);
	}
	if (!err && every(i, g->o->snapshot_every))
		err = round_of(g, PCPM_EV_SNAPSHOT, 0);
	return err;
}

int pcpm_synth_make(const struct pcpm_synth_opts *o, struct pcpmodel *kernel,
		    struct pcpm_synth *s)
{
	struct gen g = { .o = o, .kernel = kernel, .s = s };
	size_t i;
	int err;

	memset(s, 0, sizeof(*s));
	s->rng = o->seed ? o->seed : 1;
	g.down_cpu = pcpmodel_config(kernel)->nr_cpus;
	err = start(&g);
	for (i = 0; !err && i < o->nr_workload; i++) {
		g.now += NS_PER_EVENT;
		err = periodic(&g, i);
		if (!err)
			err = workload_event(&g);
	}
	if (!err)
		err = round_of(&g, PCPM_EV_SNAPSHOT, 0);
	if (err)
		pcpm_synth_free(s);
	return err;
}

void pcpm_synth_free(struct pcpm_synth *s)
{
	free(s->events);
	free(s->pcp_states);
	free(s->zone_states);
	memset(s, 0, sizeof(*s));
}
