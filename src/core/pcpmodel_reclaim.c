// SPDX-License-Identifier: GPL-2.0-only
/*
 * Direct reclaim a replay enters where its reference did not
 * (pcpmodel_zone.c decides where): __alloc_pages_direct_reclaim()'s
 * frees onto the lists and its drain_all_pages(). And the trace's own
 * direct reclaims (format 1.7): whether the drain after each follows
 * from the zone's free pages in this replay. Apart from
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

/*
 * The trace's own direct reclaims are judged, not replayed otherwise:
 * their drains stay the record's at every scale. At the recorded scale
 * the kernel's free pages against its mark decide 99.7 % of them as the
 * kernel did, and this replay's free pages 98 %; at another scale the
 * replay's free pages at a reclaim's end differ from the reference's by
 * tens to hundreds of pages, where the record sat within 15 pages of the
 * mark, and moving the drains by them missed the other scale's real
 * drains by 60 % and more (docs/ACCURACY.md, "Reclaim"). Decided: an
 * order-0 reclaim that reclaimed something (with nothing, the kernel
 * does not retry); a higher order fails on a block the trace cannot see.
 */
static void reclaim_close(struct pcpmodel *m)
{
	struct pcpm_reclaim *r = &m->reclaim;

	if (!r->open)
		return;
	r->open = false;
	if (!r->decides)
		return;
	m->res.reclaim_decided[r->under][r->drained]++;
	if (r->marked)
		m->res.reclaim_kernel_decided[r->kernel_under][r->drained]++;
}

/*
 * The kernel's mark for the zone the retry tries (PCPM_ZFIELD_MARK),
 * just before its RECLAIM event
 */
void pcpm_reclaim_mark(struct pcpmodel *m, unsigned int zone,
		       const struct pcpmodel_zone_state *st)
{
	struct pcpm_zone *z = &m->zones[zone];

	z->w.mark = st->wmark_min > INT64_MAX ? INT64_MAX :
						(int64_t)st->wmark_min;
	z->w.mark_free = st->free_pages > INT64_MAX ? INT64_MAX :
						      (int64_t)st->free_pages;
	m->mark_zone = (int)zone;
}

/*
 * The zone judged: the mark's where the kernel's came with the event
 * (this replay's free pages against the kernel's mark), else the CPU's
 * last allocation's against the min read last (the failed request is
 * not traced)
 */
void pcpm_reclaim_end(struct pcpmodel *m, unsigned int cpu, int order,
		      uint32_t reclaimed)
{
	struct pcpm_reclaim *r = &m->reclaim;
	int zone = m->mark_zone;

	reclaim_close(m);
	m->res.reclaims++;
	m->mark_zone = -1;
	r->open = true;
	r->cpu = (uint16_t)cpu;
	r->drained = false;
	r->marked = zone >= 0 && m->zones[zone].w.have_free;
	if (zone < 0)
		zone = m->last_alloc_zone;
	r->decides = order == 0 && reclaimed > 0 &&
		     (unsigned int)zone < m->cfg.nr_zones &&
		     m->zones[zone].w.have_free;
	if (!r->decides)
		return;
	if (r->marked) {
		const struct pcpm_wmark *w = &m->zones[zone].w;

		r->under = w->free <= w->mark;
		r->kernel_under = w->mark_free <= w->mark;
	} else {
		r->under = pcpm_zone_under_min(m, (unsigned int)zone, 0);
	}
}

void pcpm_reclaim_drain(struct pcpmodel *m)
{
	if (m->reclaim.open)
		m->reclaim.drained = true;
}

void pcpm_reclaim_alloc(struct pcpmodel *m, unsigned int cpu)
{
	if (m->reclaim.open && m->reclaim.cpu == cpu)
		reclaim_close(m);
}
