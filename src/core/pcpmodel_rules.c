// SPDX-License-Identifier: GPL-2.0-only
/*
 * The rule sets' presets, their names, and the list layout they imply
 * (order_to_pindex() and pindex_to_order()).
 */
#include <errno.h>
#include <string.h>

#include "pcpmodel_state.h"

/* NR_PCP_THP before and after bf14ed81f571 (v6.10; 6.1.y, July 2024) */
#define THP_LISTS_ONE 1
#define THP_LISTS_MOVABLE_SPLIT 2

static const char *const rules_names[NR_PCPM_RULES] = {
	[PCPM_RULES_6_1] = "6.1",   [PCPM_RULES_6_1_CAPPED] = "6.1cap",
	[PCPM_RULES_6_12] = "6.12", [PCPM_RULES_6_16] = "6.16",
	[PCPM_RULES_7_X] = "7.x",
};

int pcpmodel_rules_init(struct pcpmodel_rules *rules,
			enum pcpmodel_ruleset base)
{
	if ((unsigned int)base >= NR_PCPM_RULES)
		return -EINVAL;
	memset(rules, 0, sizeof(*rules));
	rules->base = base;
	rules->thp_lists = THP_LISTS_MOVABLE_SPLIT;
	/* each later set is the one before it plus its own change */
	if (base >= PCPM_RULES_6_12) {
		rules->auto_high = true;
		rules->drain_chunked = true;
	}
	if (base >= PCPM_RULES_6_16)
		rules->free_high_half_high_min = true;
	if (base >= PCPM_RULES_7_X) {
		rules->commit_chunked = true;
		rules->decay_chunked = true;
	}
	if (base == PCPM_RULES_6_1_CAPPED) {
		rules->free_factor_capped = true;
		rules->drain_chunked = true;
	}
	/* 6.1.0..6.1.96: one THP list */
	if (base == PCPM_RULES_6_1)
		rules->thp_lists = THP_LISTS_ONE;
	return 0;
}

const char *pcpmodel_rules_name(enum pcpmodel_ruleset base)
{
	if ((unsigned int)base >= NR_PCPM_RULES)
		return NULL;
	return rules_names[base];
}

int pcpmodel_rules_by_name(const char *name, enum pcpmodel_ruleset *base)
{
	int i;

	for (i = 0; name && i < NR_PCPM_RULES; i++) {
		if (!strcmp(name, rules_names[i])) {
			*base = i;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * order_to_pindex(): orders 0..3 by migratetype; the THP order on one
 * list (6.1 before bf14ed81f571) or two, MOVABLE apart from the rest.
 * The kernel files HIGHATOMIC and CMA pages as MOVABLE, and so do we.
 */
int pcpm_pindex(const struct pcpmodel *m, unsigned int order,
		unsigned int migratetype)
{
	bool movable;

	if (migratetype >= PCPM_MIGRATE_PCPTYPES)
		migratetype = PCPM_MIGRATE_MOVABLE;
	if (order <= PCPM_COSTLY_ORDER)
		return PCPM_MIGRATE_PCPTYPES * order + migratetype;
	if (!m->cfg.thp_order || order != m->cfg.thp_order)
		return -1;
	movable = migratetype == PCPM_MIGRATE_MOVABLE;
	if (m->cfg.rules.thp_lists == THP_LISTS_MOVABLE_SPLIT)
		return PCPM_NR_LOWORDER_LISTS + movable;
	return PCPM_NR_LOWORDER_LISTS;
}

int pcpm_pindex_order(const struct pcpmodel *m, int pindex)
{
	if (pindex < PCPM_NR_LOWORDER_LISTS)
		return pindex / PCPM_MIGRATE_PCPTYPES;
	if (pindex == PCPM_LIST_UNKNOWN)
		return 0;
	return m->cfg.thp_order;
}
