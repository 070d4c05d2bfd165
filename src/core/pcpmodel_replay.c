// SPDX-License-Identifier: GPL-2.0-only
/*
 * The replay: a model's life, each event to the kernel function it
 * stands for, and the pageset and zone states a trace reads along the
 * way (seeding a pageset, measuring the model's drift from the record,
 * resyncing). The per-event path allocates nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pcpmodel_state.h"

#define PCPM_ALL_FIELDS                                                        \
	(PCPM_FIELD_AUTO_HIGH | PCPM_FIELD_FREE_COUNT |                        \
	 PCPM_FIELD_ALLOC_FACTOR | PCPM_FIELD_FLAGS | PCPM_FIELD_FREE_FACTOR | \
	 PCPM_FIELD_LISTS)

static int check_config(const struct pcpmodel_config *cfg)
{
	const struct pcpmodel_rules *r = &cfg->rules;

	if (cfg->scale < 0 || cfg->scale > PCPM_SCALE_MAX)
		return -EINVAL;
	if (!cfg->nr_cpus || cfg->nr_cpus > PCPM_MAX_CPUS)
		return -EINVAL;
	if (!cfg->nr_zones || cfg->nr_zones > PCPTOP_MAX_ZONES)
		return -EINVAL;
	if (cfg->thp_order && cfg->thp_order <= PCPM_COSTLY_ORDER)
		return -EINVAL;
	/* a list's pages are entries << order in an int */
	if (cfg->thp_order >= sizeof(int) * 8 / 2)
		return -EINVAL;
	if ((unsigned int)r->base >= NR_PCPM_RULES || !r->thp_lists ||
	    r->thp_lists > PCPM_THP_LISTS_MAX)
		return -EINVAL;
	if (cfg->series_cap && !cfg->series)
		return -EINVAL;
	return 0;
}

int pcpmodel_new(const struct pcpmodel_config *cfg, struct pcpmodel **out)
{
	struct pcpmodel *m;
	int err;

	*out = NULL;
	err = check_config(cfg);
	if (err)
		return err;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->cfg = *cfg;
	m->mark_zone = -1;
	m->pcps =
		calloc((size_t)cfg->nr_cpus * cfg->nr_zones, sizeof(*m->pcps));
	m->cpu_offline = calloc(cfg->nr_cpus, sizeof(*m->cpu_offline));
	if (!m->pcps || !m->cpu_offline) {
		pcpmodel_free(m);
		return -ENOMEM;
	}
	*out = m;
	return 0;
}

void pcpmodel_free(struct pcpmodel *m)
{
	if (!m)
		return;
	free(m->pcps);
	free(m->cpu_offline);
	free(m);
}

const struct pcpmodel_result *pcpmodel_result(const struct pcpmodel *m)
{
	return &m->res;
}

void pcpmodel_restart_count(struct pcpmodel *m)
{
	size_t len = m->res.series_len;
	uint64_t dropped = m->res.series_dropped;

	memset(&m->res, 0, sizeof(m->res));
	m->res.series_len = len;
	m->res.series_dropped = dropped;
}

const struct pcpmodel_config *pcpmodel_config(const struct pcpmodel *m)
{
	return &m->cfg;
}

uint64_t pcpmodel_zone_lock_acquisitions(const struct pcpmodel_result *r)
{
	return r->bulk_calls + r->refill_calls + r->buddy_allocs +
	       r->buddy_frees;
}

static int lists_pages(const struct pcpmodel *m, const uint32_t *entries,
		       int *pages)
{
	long long sum = 0;
	int i;

	for (i = 0; i < PCPM_NR_LISTS_MAX; i++) {
		/* a THP list the rules do not have must be empty */
		if (i >= PCPM_NR_LOWORDER_LISTS + m->cfg.rules.thp_lists &&
		    entries[i])
			return -EINVAL;
		if (entries[i] && i >= PCPM_NR_LOWORDER_LISTS &&
		    !m->cfg.thp_order)
			return -EINVAL;
		sum += (long long)entries[i] << pcpm_pindex_order(m, i);
		if (sum > INT32_MAX)
			return -ERANGE;
	}
	*pages = sum;
	return 0;
}

/*
 * The lists of a state. Given, valid and summing to at most count, they
 * are taken and what count has beyond them goes to the unknown pool (a
 * walk that missed a list, or the model's own pool coming back). Not
 * given, or unusable: a seed puts all of count in the unknown pool; a
 * resync keeps the model's lists and lets the pool absorb the difference,
 * taking from the pool first when count fell, then from the lists as a
 * bulk free would. Returns whether given lists were unusable.
 */
static bool load_lists(const struct pcpmodel *m, struct pcpm_pcp *pcp,
		       const struct pcpmodel_pcp_state *st)
{
	bool given = st->fields & PCPM_FIELD_LISTS;
	int pages, i;

	if (given && !lists_pages(m, st->list_entries, &pages) &&
	    pages <= st->count) {
		for (i = 0; i < PCPM_NR_LISTS_MAX; i++)
			pcp->entries[i] = st->list_entries[i];
		pcp->entries[PCPM_LIST_UNKNOWN] = st->count - pages;
		pcp->count = st->count;
		return false;
	}
	if (!pcp->seeded) {
		memset(pcp->entries, 0, sizeof(pcp->entries));
		pcp->count = 0;
	}
	if (st->count < pcp->count)
		pcpm_take_pages(m, pcp, pcp->count - st->count,
				PCPM_LIST_UNKNOWN);
	/* and what a high-order entry overshot comes back as order 0 */
	pcp->entries[PCPM_LIST_UNKNOWN] += st->count - pcp->count;
	pcp->count = st->count;
	return given;
}

/*
 * A 6.7+ rule set given a state without high_min/high_max (a 6.1 record)
 * pins high there: no auto-tuning it could not have seen.
 */
static void load_state(struct pcpm_pcp *pcp,
		       const struct pcpmodel_pcp_state *st)
{
	pcp->high = st->high;
	pcp->batch = st->batch;
	if (st->fields & PCPM_FIELD_AUTO_HIGH) {
		pcp->high_min = st->high_min;
		pcp->high_max = st->high_max;
	} else if (!pcp->seeded) {
		pcp->high_min = pcp->high_max = st->high;
	}
	if (st->fields & PCPM_FIELD_FREE_COUNT)
		pcp->free_count = st->free_count;
	if (st->fields & PCPM_FIELD_ALLOC_FACTOR)
		pcp->alloc_factor = st->alloc_factor;
	if (st->fields & PCPM_FIELD_FLAGS)
		pcp->flags = st->flags;
	if (st->fields & PCPM_FIELD_FREE_FACTOR)
		pcp->free_factor = st->free_factor;
}

static int check_state(const struct pcpmodel_pcp_state *st)
{
	/* batch 1 is the boot pageset's; 0 would never end a chunk loop */
	if (st->batch < 1 || st->count < 0 || st->high < 0)
		return -EINVAL;
	if ((st->fields & PCPM_FIELD_AUTO_HIGH) &&
	    (st->high_min < 0 || st->high_max < 0))
		return -EINVAL;
	/* the kernel keeps alloc_factor under the scale, itself <= 6 */
	if (st->alloc_factor > PCPM_SCALE_MAX)
		return -EINVAL;
	/* batch << free_factor stays an int, as it does in the kernel */
	if (st->free_factor >= sizeof(int) * 8 - 1 ||
	    ((long long)st->batch << st->free_factor) > INT32_MAX)
		return -EINVAL;
	return 0;
}

int pcpmodel_set_pcp(struct pcpmodel *m, unsigned int cpu, unsigned int zone,
		     const struct pcpmodel_pcp_state *st)
{
	struct pcpm_pcp *pcp;
	int err;

	if (cpu >= m->cfg.nr_cpus || zone >= m->cfg.nr_zones)
		return -EINVAL;
	err = check_state(st);
	if (err)
		return err;
	pcp = pcpm_pcp_of(m, cpu, zone);
	pcp->seeded = false;
	load_state(pcp, st);
	if (load_lists(m, pcp, st))
		m->res.snapshots_inconsistent++;
	pcp->seeded = true;
	return 0;
}

int pcpmodel_get_pcp(const struct pcpmodel *m, unsigned int cpu,
		     unsigned int zone, struct pcpmodel_pcp_state *st)
{
	const struct pcpm_pcp *pcp;
	int i;

	if (cpu >= m->cfg.nr_cpus || zone >= m->cfg.nr_zones)
		return -EINVAL;
	pcp = &m->pcps[(size_t)cpu * m->cfg.nr_zones + zone];
	if (!pcp->seeded)
		return -ENODATA;
	memset(st, 0, sizeof(*st));
	st->count = pcp->count;
	st->high = pcp->high;
	st->high_min = pcp->high_min;
	st->high_max = pcp->high_max;
	st->batch = pcp->batch;
	st->free_count = pcp->free_count;
	st->alloc_factor = pcp->alloc_factor;
	st->free_factor = pcp->free_factor;
	st->flags = pcp->flags;
	st->fields = PCPM_ALL_FIELDS;
	for (i = 0; i < PCPM_NR_LISTS_MAX; i++)
		st->list_entries[i] = pcp->entries[i];
	return 0;
}

int pcpmodel_unknown_pages(const struct pcpmodel *m, unsigned int cpu,
			   unsigned int zone, int *pages)
{
	if (cpu >= m->cfg.nr_cpus || zone >= m->cfg.nr_zones)
		return -EINVAL;
	*pages = m->pcps[(size_t)cpu * m->cfg.nr_zones + zone]
			 .entries[PCPM_LIST_UNKNOWN];
	return 0;
}

/* zone_pcp_update() wrote every CPU's pageset: so does a new zone state */
int pcpmodel_set_zone(struct pcpmodel *m, unsigned int zone,
		      const struct pcpmodel_zone_state *st)
{
	struct pcpm_zone *z;
	unsigned int cpu;

	if (zone >= m->cfg.nr_zones)
		return -EINVAL;
	if ((st->fields & PCPM_ZFIELD_PAGESET) && st->pageset_batch < 1)
		return -EINVAL;
	z = &m->zones[zone];
	if (st->fields & PCPM_ZFIELD_FLAGS) {
		z->st.below_high = st->below_high;
		z->st.reclaim_active = st->reclaim_active;
	}
	if (st->fields & PCPM_ZFIELD_WMARK) {
		z->st.free_pages = st->free_pages;
		z->st.wmark_min = st->wmark_min;
		if (!z->w.min_lowest || st->wmark_min < z->w.min_lowest)
			z->w.min_lowest = st->wmark_min;
		z->st.wmark_low = st->wmark_low;
		z->st.wmark_high = st->wmark_high;
	}
	if (st->fields & PCPM_ZFIELD_PAGESET) {
		z->st.pageset_high_min = st->pageset_high_min;
		z->st.pageset_high_max = st->pageset_high_max;
		z->st.pageset_batch = st->pageset_batch;
		for (cpu = 0; cpu < m->cfg.nr_cpus; cpu++) {
			struct pcpm_pcp *pcp = pcpm_pcp_of(m, cpu, zone);

			pcp->batch = st->pageset_batch;
			pcp->high_min = st->pageset_high_min;
			pcp->high_max = st->pageset_high_max;
			/* v6.1 pageset_update() writes high itself */
			if (!m->cfg.rules.auto_high)
				pcp->high = st->pageset_high_min;
		}
	}
	z->st.fields |= st->fields;
	z->seeded = true;
	return 0;
}

static uint64_t abs_diff(int32_t a, int32_t b)
{
	return a > b ? (uint64_t)a - b : (uint64_t)b - a;
}

static void series_add(struct pcpmodel *m, const struct pcpmodel_event *ev,
		       const struct pcpm_pcp *pcp,
		       const struct pcpmodel_pcp_state *st)
{
	struct pcpmodel_series_point *p;

	if (m->res.series_len >= m->cfg.series_cap) {
		m->res.series_dropped++;
		return;
	}
	p = &m->cfg.series[m->res.series_len++];
	p->time_ns = ev->time_ns;
	p->cpu = ev->cpu;
	p->zone = ev->zone;
	p->model_count = pcp->count;
	p->model_high = pcp->high;
	p->recorded_count = st->count;
	p->recorded_high = st->high;
}

/* a pageset's first state seeds it; later ones measure drift */
static int snapshot(struct pcpmodel *m, const struct pcpmodel_event *ev,
		    const struct pcpmodel_pcp_state *st)
{
	struct pcpm_pcp *pcp = pcpm_pcp_of(m, ev->cpu, ev->zone);
	struct pcpmodel_result *r = &m->res;
	int32_t before = pcp->seeded ? pcp->count : 0;
	uint64_t dc, dh;
	int err;

	err = check_state(st);
	if (err)
		return err;
	if (!pcp->seeded) {
		err = pcpmodel_set_pcp(m, ev->cpu, ev->zone, st);
		if (!err)
			pcpm_zone_snapshot(m, ev->zone, ev->time_ns, st->count,
					   pcp->count - before);
		return err;
	}
	series_add(m, ev, pcp, st);
	r->snapshots++;
	dc = abs_diff(pcp->count, st->count);
	dh = abs_diff(pcp->high, st->high);
	if (dc || dh)
		r->snapshots_drifted++;
	r->count_drift_abs_sum += dc;
	r->high_drift_abs_sum += dh;
	if (dc > r->count_drift_abs_max)
		r->count_drift_abs_max = dc;
	if (dh > r->high_drift_abs_max)
		r->high_drift_abs_max = dh;
	/*
	 * high_min, high_max and batch are what zone_pcp_update() last wrote
	 * (CPU hotplug, a sysctl, memory hotplug), not what the traffic made
	 * of the pageset: the replay follows them at every scale, as a
	 * ZONE_STATE's pageset fields
	 */
	if (st->fields & PCPM_FIELD_AUTO_HIGH) {
		pcp->high_min = st->high_min;
		pcp->high_max = st->high_max;
	}
	pcp->batch = st->batch;
	if (m->cfg.resync) {
		/*
		 * a /proc read can land between a decay's chunks: what it
		 * read already holds those done, and the rest is not known
		 */
		pcp->decay_open = false;
		load_state(pcp, st);
		if (load_lists(m, pcp, st))
			r->snapshots_inconsistent++;
	}
	pcpm_zone_snapshot(m, ev->zone, ev->time_ns, st->count,
			   pcp->count - before);
	return 0;
}

/* page_alloc_cpu_dead(): drain_pages(cpu) empties every zone's pageset */
static void cpu_dead(struct pcpmodel *m, unsigned int cpu)
{
	unsigned int zone;

	m->cpu_offline[cpu] = true;
	for (zone = 0; zone < m->cfg.nr_zones; zone++) {
		struct pcpm_pcp *pcp = pcpm_pcp_of(m, cpu, zone);

		if (!pcp->seeded)
			continue;
		pcpm_decay_end(m, pcp);
		m->res.drain_calls[PCPM_DRAIN_CPU_DEAD]++;
		pcpm_drain_pages_zone(m, pcp);
	}
}

static void drain(struct pcpmodel *m, struct pcpm_pcp *pcp, int reason)
{
	/* the decay's chunks after a drain would find the lists empty */
	pcpm_decay_end(m, pcp);
	m->res.drain_calls[reason]++;
	if (reason == PCPM_DRAIN_NUMA_REMOTE)
		pcpm_drain_zone_pages(m, pcp);
	else
		pcpm_drain_pages_zone(m, pcp);
}

/* an allocation or a free: the buddy path is one zone->lock, no more */
static int alloc_or_free(struct pcpmodel *m, const struct pcpmodel_event *ev)
{
	struct pcpm_zone *zone = &m->zones[ev->zone];
	struct pcpm_pcp *pcp;
	bool alloc = ev->type == PCPM_EV_ALLOC;
	int pindex;

	if (ev->path == PCPM_PATH_BUDDY) {
		if (ev->order > PCPM_BUDDY_ORDER_MAX)
			return -EINVAL;
		if (alloc) {
			m->res.buddy_allocs++;
			pcpm_reclaim_alloc(m, ev->cpu);
			m->last_alloc_zone = ev->zone;
			if (pcpm_zone_alloc(m, ev->zone, ev->order))
				pcpm_direct_reclaim(m, ev->cpu, ev->zone,
						    ev->order);
		} else {
			m->res.buddy_frees++;
		}
		pcpm_zone_move(m, ev->zone,
			       alloc ? -(1LL << ev->order) : 1LL << ev->order);
		if (alloc)
			pcpm_reclaim_window(m, ev->zone);
		return 0;
	}
	if (ev->path != PCPM_PATH_PCP || ev->caller >= NR_PCPM_CALLER)
		return -EINVAL;
	pindex = pcpm_pindex(m, ev->order, ev->migratetype);
	if (pindex < 0)
		return -EINVAL;
	pcp = pcpm_pcp_of(m, ev->cpu, ev->zone);
	if (!pcp->seeded)
		return -ENODATA;
	if (m->cpu_offline[ev->cpu])
		m->res.events_offline++;
	if (zone->st.below_high || zone->st.reclaim_active)
		m->res.events_below_high++;
	if (alloc) {
		m->res.pcp_allocs++;
		pcpm_reclaim_alloc(m, ev->cpu);
		m->last_alloc_zone = ev->zone;
		if (pcpm_zone_alloc(m, ev->zone, ev->order))
			pcpm_direct_reclaim(m, ev->cpu, ev->zone, ev->order);
		pcpm_alloc(m, pcp, zone, ev->order, pindex, ev->caller);
		pcpm_reclaim_window(m, ev->zone);
	} else {
		m->res.pcp_frees++;
		pcpm_commit(m, pcp, zone, ev->order, pindex, ev->caller);
	}
	return 0;
}

/*
 * The recorder writes PCPT_ZONE_UNKNOWN into the events that belong to
 * no zone: a direct reclaim's end, and the hotplug ones, which
 * page_alloc_cpu_dead() applies to every zone
 */
static bool zoned(uint8_t type)
{
	return type != PCPM_EV_RECLAIM && type != PCPM_EV_CPU_DEAD &&
	       type != PCPM_EV_CPU_ONLINE && type != PCPM_EV_DECAY_END;
}

/*
 * DECAY_END: its zone's decay, or (a kretprobe's, zone PCPM_ZONE_UNKNOWN)
 * the CPU's open one; 0 or -EINVAL
 */
static int decay_end(struct pcpmodel *m, const struct pcpmodel_event *ev)
{
	unsigned int zone;

	if (ev->zone < m->cfg.nr_zones) {
		pcpm_decay_end(m, pcpm_pcp_of(m, ev->cpu, ev->zone));
		return 0;
	}
	if (ev->zone != PCPM_ZONE_UNKNOWN)
		return -EINVAL;
	for (zone = 0; zone < m->cfg.nr_zones; zone++)
		pcpm_decay_end(m, pcpm_pcp_of(m, ev->cpu, zone));
	return 0;
}

static int dispatch(struct pcpmodel *m, const struct pcpmodel_event *ev,
		    const struct pcpmodel_stream *pl)
{
	struct pcpm_pcp *pcp;
	int err;

	if (zoned(ev->type))
		pcpm_zone_event(m, ev->zone);

	switch (ev->type) {
	case PCPM_EV_ALLOC:
	case PCPM_EV_FREE:
		return alloc_or_free(m, ev);
	case PCPM_EV_DECAY:
	case PCPM_EV_DRAIN:
		if (ev->type == PCPM_EV_DRAIN && ev->reason >= NR_PCPM_DRAIN)
			return -EINVAL;
		pcp = pcpm_pcp_of(m, ev->cpu, ev->zone);
		if (!pcp->seeded)
			return -ENODATA;
		/* one locked call where the rules do not chunk: nothing between */
		if (ev->type == PCPM_EV_DECAY && m->cfg.decay_ends &&
		    m->cfg.rules.decay_chunked)
			pcpm_decay_begin(m, pcp);
		else if (ev->type == PCPM_EV_DECAY)
			pcpm_decay(m, pcp);
		else {
			if (ev->reason == PCPM_DRAIN_UNKNOWN &&
			    !pcpm_reclaim_drain(m))
				return 0;
			drain(m, pcp, ev->reason);
		}
		return 0;
	case PCPM_EV_ISOLATE:
		if (ev->order > PCPM_BUDDY_ORDER_MAX)
			return -EINVAL;
		m->res.isolated_pages += 1ULL << ev->order;
		pcpm_zone_move(m, ev->zone, -(1LL << ev->order));
		return 0;
	case PCPM_EV_RECLAIM:
		pcpm_reclaim_end(m, ev->cpu,
				 ev->order == PCPM_ORDER_UNKNOWN ? -1 :
								   ev->order,
				 ev->payload);
		return 0;
	case PCPM_EV_CPU_DEAD:
		cpu_dead(m, ev->cpu);
		return 0;
	case PCPM_EV_CPU_ONLINE:
		m->cpu_offline[ev->cpu] = false;
		return 0;
	case PCPM_EV_DECAY_END:
		return decay_end(m, ev);
	case PCPM_EV_SNAPSHOT:
		if (!pl || ev->payload >= pl->nr_pcp_states)
			return -EINVAL;
		return snapshot(m, ev, &pl->pcp_states[ev->payload]);
	case PCPM_EV_ZONE_STATE:
		if (!pl || ev->payload >= pl->nr_zone_states)
			return -EINVAL;
		if (pl->zone_states[ev->payload].fields == PCPM_ZFIELD_MARK) {
			pcpm_reclaim_mark(m, ev->zone,
					  &pl->zone_states[ev->payload]);
			return 0;
		}
		err = pcpmodel_set_zone(m, ev->zone,
					&pl->zone_states[ev->payload]);
		if (!err &&
		    (pl->zone_states[ev->payload].fields & PCPM_ZFIELD_WMARK))
			pcpm_zone_read(m, ev->zone, ev->time_ns);
		return err;
	default:
		return -EINVAL;
	}
}

int pcpmodel_apply(struct pcpmodel *m, const struct pcpmodel_event *ev,
		   const struct pcpmodel_stream *payloads)
{
	int err;

	if (ev->type >= NR_PCPM_EV || ev->cpu >= m->cfg.nr_cpus ||
	    (ev->zone >= m->cfg.nr_zones && zoned(ev->type))) {
		m->res.events_rejected++;
		return -EINVAL;
	}
	err = dispatch(m, ev, payloads);
	if (err == -ENODATA)
		m->res.events_unseeded++;
	else if (err)
		m->res.events_rejected++;
	else
		m->res.events[ev->type]++;
	return err;
}

void pcpmodel_end(struct pcpmodel *m)
{
	size_t i, n = (size_t)m->cfg.nr_cpus * m->cfg.nr_zones;

	for (i = 0; i < n; i++)
		pcpm_decay_end(m, &m->pcps[i]);
}

void pcpmodel_replay(struct pcpmodel *m, const struct pcpmodel_stream *s)
{
	size_t i;

	for (i = 0; i < s->nr_events; i++)
		pcpmodel_apply(m, &s->events[i], s);
	pcpmodel_end(m);
}
