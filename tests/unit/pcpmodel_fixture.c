// SPDX-License-Identifier: GPL-2.0-only
/* the replay model's test hands (pcpmodel_fixture.h) */
#include <errno.h>
#include <string.h>

#include "pcpmodel_fixture.h"

void pm_config(struct pcpmodel_config *cfg, const struct pcpmodel_rules *rules,
	       int scale, unsigned int nr_cpus, unsigned int nr_zones)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->rules = *rules;
	cfg->scale = scale;
	cfg->nr_cpus = nr_cpus;
	cfg->nr_zones = nr_zones;
	cfg->thp_order = PCPM_THP_ORDER_4K;
}

struct pcpmodel *pm_new_rules(const struct pcpmodel_rules *rules, int scale,
			      unsigned int nr_cpus, unsigned int nr_zones)
{
	struct pcpmodel_config cfg;
	struct pcpmodel *m;

	pm_config(&cfg, rules, scale, nr_cpus, nr_zones);
	return pcpmodel_new(&cfg, &m) ? NULL : m;
}

struct pcpmodel *pm_new(enum pcpmodel_ruleset base, int scale,
			unsigned int nr_cpus, unsigned int nr_zones)
{
	struct pcpmodel_rules rules;

	if (pcpmodel_rules_init(&rules, base))
		return NULL;
	return pm_new_rules(&rules, scale, nr_cpus, nr_zones);
}

void pm_seed_default(struct pm_seed *s, int high, int high_min, int high_max)
{
	memset(s, 0, sizeof(*s));
	s->high = high;
	s->high_min = high_min;
	s->high_max = high_max;
	s->batch = PM_BATCH;
}

int pm_seed_pcp(struct pcpmodel *m, unsigned int cpu, unsigned int zone,
		const struct pm_seed *s)
{
	struct pcpmodel_pcp_state st = { 0 };

	st.count = s->order0_movable;
	st.high = s->high;
	st.high_min = s->high_min;
	st.high_max = s->high_max;
	st.batch = s->batch;
	st.free_count = s->free_count;
	st.alloc_factor = s->alloc_factor;
	st.free_factor = s->free_factor;
	st.flags = s->flags;
	st.fields = PCPM_FIELD_AUTO_HIGH | PCPM_FIELD_FREE_COUNT |
		    PCPM_FIELD_ALLOC_FACTOR | PCPM_FIELD_FLAGS |
		    PCPM_FIELD_FREE_FACTOR | PCPM_FIELD_LISTS;
	st.list_entries[PM_ORDER0_MOVABLE] = s->order0_movable;
	return pcpmodel_set_pcp(m, cpu, zone, &st);
}

struct pcpmodel *pm_new_seeded_cfg(const struct pcpmodel_config *cfg,
				   const struct pm_seed *s)
{
	struct pcpmodel *m;

	if (pcpmodel_new(cfg, &m))
		return NULL;
	if (pm_seed_pcp(m, 0, 0, s)) {
		pcpmodel_free(m);
		m = NULL;
	}
	return m;
}

struct pcpmodel *pm_new_seeded(const struct pcpmodel_rules *rules, int scale,
			       const struct pm_seed *s)
{
	struct pcpmodel *m = pm_new_rules(rules, scale, 1, 1);

	if (m && pm_seed_pcp(m, 0, 0, s)) {
		pcpmodel_free(m);
		m = NULL;
	}
	return m;
}

struct pcpmodel *pm_new_seeded_base(enum pcpmodel_ruleset base, int scale,
				    const struct pm_seed *s)
{
	struct pcpmodel_rules rules;

	if (pcpmodel_rules_init(&rules, base))
		return NULL;
	return pm_new_seeded(&rules, scale, s);
}

/* one event of any type: the fields a type does not use stay 0 */
static int apply_path(struct pcpmodel *m, int type, unsigned int cpu,
		      unsigned int zone, int order, int mt, int reason,
		      int path)
{
	struct pcpmodel_event ev = { 0 };

	ev.type = type;
	ev.cpu = cpu;
	ev.zone = zone;
	ev.order = order;
	ev.migratetype = mt;
	ev.path = path;
	ev.reason = reason;
	return pcpmodel_apply(m, &ev, NULL);
}

static int apply(struct pcpmodel *m, int type, unsigned int cpu,
		 unsigned int zone, int order, int mt, int reason)
{
	return apply_path(m, type, cpu, zone, order, mt, reason, PCPM_PATH_PCP);
}

int pm_alloc(struct pcpmodel *m, int order, int mt)
{
	return apply(m, PCPM_EV_ALLOC, 0, 0, order, mt, 0);
}

int pm_free(struct pcpmodel *m, int order, int mt)
{
	return apply(m, PCPM_EV_FREE, 0, 0, order, mt, 0);
}

int pm_buddy(struct pcpmodel *m, int type, int order)
{
	return apply_path(m, type, 0, 0, order, PCPM_MIGRATE_MOVABLE, 0,
			  PCPM_PATH_BUDDY);
}

int pm_frees(struct pcpmodel *m, int n, int order, int mt)
{
	int err = 0;

	while (n-- > 0 && !err)
		err = pm_free(m, order, mt);
	return err;
}

int pm_allocs(struct pcpmodel *m, int n, int order, int mt)
{
	int err = 0;

	while (n-- > 0 && !err)
		err = pm_alloc(m, order, mt);
	return err;
}

int pm_event(struct pcpmodel *m, int type, unsigned int cpu, unsigned int zone)
{
	return apply(m, type, cpu, zone, 0, 0, 0);
}

int pm_decay(struct pcpmodel *m)
{
	return pm_event(m, PCPM_EV_DECAY, 0, 0);
}

int pm_drain(struct pcpmodel *m, unsigned int cpu, unsigned int zone,
	     int reason)
{
	return apply(m, PCPM_EV_DRAIN, cpu, zone, 0, 0, reason);
}

struct pcpmodel_pcp_state pm_state(const struct pcpmodel *m)
{
	struct pcpmodel_pcp_state st;

	if (pcpmodel_get_pcp(m, 0, 0, &st))
		memset(&st, 0, sizeof(st));
	return st;
}

static int list_order(int pindex)
{
	if (pindex < PCPM_NR_LOWORDER_LISTS)
		return pindex / PCPM_MIGRATE_PCPTYPES;
	return PCPM_THP_ORDER_4K;
}

int pm_lists_consistent(const struct pcpmodel *m, unsigned int cpu,
			unsigned int zone)
{
	struct pcpmodel_pcp_state st;
	long long pages = 0;
	int i, unknown;

	if (pcpmodel_get_pcp(m, cpu, zone, &st) ||
	    pcpmodel_unknown_pages(m, cpu, zone, &unknown))
		return 0;
	for (i = 0; i < PCPM_NR_LISTS_MAX; i++)
		pages += (long long)st.list_entries[i] << list_order(i);
	return pages + unknown == st.count && unknown >= 0;
}
