// SPDX-License-Identifier: GPL-2.0-only
/*
 * Direct reclaim a replay enters where its reference did not
 * (pcpmodel_zone.c decides where): __alloc_pages_direct_reclaim()'s
 * frees onto the lists and its drain_all_pages(). Apart from
 * pcpmodel_zone.c because it runs the policy and the drains, which read
 * the zone's state there.
 */
#include "pcpmodel_state.h"

/*
 * SWAP_CLUSTER_MAX: try_to_free_pages()'s nr_to_reclaim, the pages a
 * direct reclaim frees before get_page_from_freelist() tries again
 */
#define PCPM_RECLAIM_CLUSTER 32

/*
 * drain_all_pages(NULL): every CPU's pageset of every zone; the kernel
 * skips CPUs whose pagesets are all empty, and drain_pages_zone() on an
 * empty one takes no lock, so calls on empty pagesets are not counted
 */
static void drain_all(struct pcpmodel *m)
{
	unsigned int cpu, zone;

	m->res.drains_added++;
	for (cpu = 0; cpu < m->cfg.nr_cpus; cpu++)
		for (zone = 0; zone < m->cfg.nr_zones; zone++) {
			struct pcpm_pcp *pcp = pcpm_pcp_of(m, cpu, zone);

			if (!pcp->seeded || !pcp->count)
				continue;
			m->res.drain_calls[PCPM_DRAIN_ALL]++;
			pcpm_drain_pages_zone(m, pcp);
		}
}

/*
 * __alloc_pages_direct_reclaim() where the reference did not enter it:
 * the pages reclaimed go to this CPU's lists as order-0 movable frees
 * (page cache, free_unref_folios()), then get_page_from_freelist()
 * tries again and, failing the min watermark, drain_all_pages()
 */
void pcpm_direct_reclaim(struct pcpmodel *m, unsigned int cpu,
			 unsigned int zone, int order)
{
	struct pcpm_pcp *pcp = pcpm_pcp_of(m, cpu, zone);
	struct pcpm_zone *z = &m->zones[zone];
	int pindex = pcpm_pindex(m, 0, PCPM_MIGRATE_MOVABLE);
	int i;

	m->res.reclaim_added++;
	if (!pcp->seeded || pindex < 0)
		return;
	for (i = 0; i < PCPM_RECLAIM_CLUSTER; i++)
		pcpm_commit(m, pcp, z, 0, pindex, PCPM_CALLER_PLAIN);
	m->res.reclaim_pages += PCPM_RECLAIM_CLUSTER;
	if (pcpm_zone_under_min(m, zone, order))
		drain_all(m);
}
