// SPDX-License-Identifier: GPL-2.0-only
/*
 * Direct reclaim a replay enters where its reference did not
 * (pcpmodel_zone.c decides where): __alloc_pages_direct_reclaim()'s
 * frees onto the lists and its drain_all_pages(). And the trace's own
 * direct reclaims (format 1.7): whether the drain after each follows
 * from the zone's free pages in this replay, and at another scale
 * whether it drains at all. Apart from
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
 * The trace's own direct reclaims stay; whether each drains is judged.
 * At the recorded scale the kernel's free pages against its mark decide
 * 99.7 % of them as the kernel did, and this replay's free pages (from
 * the last read or mark) 92-99 %: the record's drains stay. At another
 * scale the retry fails where the kernel's free pages at the reclaim's
 * end, moved by what this replay's lists took or gave back apart from
 * the reference's since the CPU's last allocation (the reclaim's own
 * frees flushed, or not), are at or under the mark: a drain is added
 * where the record made none, and the record's spared the other way.
 * Not by the replays' whole difference: the kernel's reclaim holds the
 * zone at its mark at either scale, and judging by it missed the other
 * scale's drains by 60 % and more (docs/ACCURACY.md, "What decides a
 * drain"). Decided: an order-0 reclaim that reclaimed something (with
 * nothing, the kernel does not retry); a higher order fails on a block
 * the trace cannot see.
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
	if (r->moves && r->fails_here && !r->drained)
		drain_all(m);
}

/* this replay's free pages less the reference's; false without both */
static bool ref_gap(const struct pcpmodel *m, unsigned int zone, int64_t *gap)
{
	if (!m->ref || zone >= m->cfg.nr_zones || !m->zones[zone].w.have_free ||
	    !m->ref->zones[zone].w.have_free)
		return false;
	*gap = m->zones[zone].w.free - m->ref->zones[zone].w.free;
	return true;
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
	/*
	 * What the mark holds over min is watermark_boost and the free
	 * highatomic pages, which the scale moves and the trace does not
	 * carry (docs/ACCURACY.md, "What moves the reclaims"). zoneinfo's
	 * min adds the boost of its moment, so the lowest read stands for
	 * min; a mark under it (a min lowered since) counts as none over.
	 */
	if (z->w.min_lowest) {
		m->res.reclaim_marks_counted++;
		if (st->wmark_min > z->w.min_lowest)
			m->res.reclaim_mark_over_min_sum +=
				st->wmark_min - z->w.min_lowest;
	}
	if (!z->w.have_free)
		return;
	/*
	 * BPF read NR_FREE_PAGES at the event: the replay starts over from
	 * it, as from a read, and a replay at another scale by as much as
	 * its reference (fed the event first) did, which keeps the pages
	 * the scale holds apart
	 */
	z->w.tracked = z->w.free;
	if (m->ref)
		z->w.anchored = m->ref->zones[zone].w.anchored;
	else
		z->w.anchored = z->w.mark_free - z->w.free;
	z->w.free += z->w.anchored;
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
	r->moves = false;
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

		int64_t gap;

		r->under = w->tracked <= w->mark;
		r->kernel_under = w->mark_free <= w->mark;
		if (ref_gap(m, (unsigned int)zone, &gap)) {
			gap -= r->gap_at_alloc[zone];
			r->fails_here = w->mark_free + gap <= w->mark;
			r->moves = r->fails_here != r->kernel_under;
		}
	} else {
		r->under = pcpm_zone_under_min(m, (unsigned int)zone, 0);
	}
}

/* false: this replay's retry found its page, the record's drain is spared */
bool pcpm_reclaim_drain(struct pcpmodel *m)
{
	struct pcpm_reclaim *r = &m->reclaim;

	if (!r->open)
		return true;
	if (r->moves && !r->fails_here && !r->drained)
		m->res.drains_spared++;
	r->drained = true;
	return !(r->moves && !r->fails_here);
}

void pcpm_reclaim_alloc(struct pcpmodel *m, unsigned int cpu)
{
	if (m->reclaim.open && m->reclaim.cpu == cpu)
		reclaim_close(m);
}

/*
 * After an allocation: the next that fails its watermark starts from
 * here, and its reclaim's window with it
 */
void pcpm_reclaim_window(struct pcpmodel *m, unsigned int zone)
{
	int64_t gap;

	if (ref_gap(m, zone, &gap))
		m->reclaim.gap_at_alloc[zone] = gap;
}
