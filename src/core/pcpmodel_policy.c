// SPDX-License-Identifier: GPL-2.0-only
/*
 * The pcp policy per rule set, function by function of mm/page_alloc.c:
 * what an allocation refills (rmqueue_pcplist(), nr_pcp_alloc()), when a
 * free flushes and how much (free_unref_page_commit() /
 * free_frozen_page_commit(), nr_pcp_high(), nr_pcp_free()), and
 * decay_pcp_high(). Each function names the versions it follows; the
 * sources read were v6.1 and v6.12 (mainline), Debian's 6.12.117 and
 * linux-source-7.3 (7.3.4), with 6.16's one-line change c544a952ba61.
 */
#include "pcpmodel_state.h"

static bool below_high(const struct pcpmodel *m, const struct pcpm_zone *zone)
{
	return pcpm_zone_below_high(m, zone);
}

static bool reclaim_active(const struct pcpmodel *m,
			   const struct pcpm_zone *zone)
{
	return pcpm_zone_reclaim_active(m, zone);
}

/*
 * v6.1 __rmqueue_pcplist(): a refill of pcp->batch, scaled down by the
 * order (never under 2 entries unless batch is 1).
 */
static int refill_entries_v61(const struct pcpm_pcp *pcp, int order)
{
	int batch = pcp->batch;

	if (batch > 1)
		batch = pcpm_max(batch >> order, 2);
	return batch;
}

/*
 * nr_pcp_alloc(), v6.7 to v7.3 unchanged: order-0 refills grow by
 * alloc_factor up to the scale, raising pcp->high toward high_max as they
 * go (unless the zone is below its high watermark), and never past what
 * high leaves room for.
 */
static int nr_pcp_alloc(const struct pcpmodel *m, struct pcpm_pcp *pcp,
			const struct pcpm_zone *zone, int order)
{
	int high, base_batch = pcp->batch, batch, max_nr_alloc;

	high = pcp->high = pcpm_clamp(pcp->high, pcp->high_min, pcp->high_max);
	/* pcp disabled, or the boot pageset */
	if (high < base_batch)
		return 1;
	if (order)
		batch = base_batch;
	else
		batch = base_batch << pcp->alloc_factor;
	if (pcp->high_min != pcp->high_max && !below_high(m, zone))
		high = pcp->high = pcpm_min(high + batch, pcp->high_max);
	if (!order) {
		max_nr_alloc =
			pcpm_max(high - pcp->count - base_batch, base_batch);
		if (batch <= max_nr_alloc && pcp->alloc_factor < m->cfg.scale)
			pcp->alloc_factor++;
		batch = pcpm_min(batch, max_nr_alloc);
	}
	if (batch > 1)
		batch = pcpm_max(batch >> order, 2);
	return batch;
}

/*
 * rmqueue_pcplist() -> __rmqueue_pcplist(), v6.1 to v7.3: an allocation
 * halves the free-side factor, refills an empty list through
 * rmqueue_bulk(), then takes one entry. alloc_pages_bulk() calls
 * __rmqueue_pcplist() directly and leaves the factor alone.
 */
void pcpm_alloc(struct pcpmodel *m, struct pcpm_pcp *pcp,
		const struct pcpm_zone *zone, int order, int pindex, int caller)
{
	int entries;

	if (caller != PCPM_CALLER_BULK && m->cfg.rules.auto_high)
		pcp->free_count >>= 1;
	else if (caller != PCPM_CALLER_BULK)
		pcp->free_factor >>= 1;
	if (!pcp->entries[pindex]) {
		if (m->cfg.rules.auto_high)
			entries = nr_pcp_alloc(m, pcp, zone, order);
		else
			entries = refill_entries_v61(pcp, order);
		pcpm_refill(m, pcp, pindex, order, entries);
	}
	pcp->entries[pindex]--;
	pcp->count -= 1 << order;
}

/* v6.1 nr_pcp_high(): a fixed high, batch * 4 under reclaim */
static int nr_pcp_high_v61(const struct pcpmodel *m, const struct pcpm_pcp *pcp,
			   const struct pcpm_zone *zone, bool free_high)
{
	if (!pcp->high || free_high)
		return 0;
	if (!reclaim_active(m, zone))
		return pcp->high;
	return pcpm_min(pcp->batch << 2, pcp->high);
}

/*
 * v6.1 nr_pcp_free(): everything on free_high; else batch <<
 * free_factor, doubling while under high - batch (and, from 6.1.104
 * and 6.6.45, while free_factor < scale: 52166607ecc9 backported).
 */
static int nr_pcp_free_v61(const struct pcpmodel *m, struct pcpm_pcp *pcp,
			   int high, bool free_high)
{
	int batch = pcp->batch, min_nr_free, max_nr_free;

	if (free_high)
		return pcp->count;
	if (high < batch)
		return 1;
	min_nr_free = batch;
	max_nr_free = high - batch;
	batch <<= pcp->free_factor;
	if (batch < max_nr_free && (!m->cfg.rules.free_factor_capped ||
				    pcp->free_factor < m->cfg.scale))
		pcp->free_factor++;
	return pcpm_clamp(batch, min_nr_free, max_nr_free);
}

/*
 * v6.1 free_unref_page_commit(): free_high is any order 1..3 free after
 * a flush with no allocation since (free_factor != 0), and then the
 * whole pcp goes, in one call.
 */
static void commit_v61(struct pcpmodel *m, struct pcpm_pcp *pcp,
		       const struct pcpm_zone *zone, int order, int pindex)
{
	bool free_high = pcp->free_factor && order &&
			 order <= PCPM_COSTLY_ORDER;
	int high = nr_pcp_high_v61(m, pcp, zone, free_high);
	struct pcpm_flush f;

	if (pcp->count < high)
		return;
	pcpm_flush_begin(&f,
			 free_high ? PCPM_FLUSH_FREE_HIGH : PCPM_FLUSH_COMMIT);
	pcpm_bulk_free(m, pcp, nr_pcp_free_v61(m, pcp, high, free_high), pindex,
		       &f);
	pcpm_flush_end(m, &f);
}

/*
 * nr_pcp_high(), v6.7 to v7.3 unchanged: high clamped into [high_min,
 * high_max]; free_high cuts it by batch << scale and flushes; reclaim
 * and a zone below its high watermark cut it by free_count; otherwise a
 * full pcp raises it to fit the next batch of frees.
 */
static int nr_pcp_high(struct pcpmodel *m, struct pcpm_pcp *pcp,
		       const struct pcpm_zone *zone, bool free_high)
{
	int high, batch = pcp->batch, free_count, need_high;

	high = pcp->high = pcpm_clamp(pcp->high, pcp->high_min, pcp->high_max);
	if (!high)
		return 0;
	if (free_high) {
		pcp->high =
			pcpm_max(high - (batch << m->cfg.scale), pcp->high_min);
		m->res.free_high_high_cut += high - pcp->high;
		return 0;
	}
	if (reclaim_active(m, zone)) {
		free_count = pcpm_max(pcp->free_count, batch);
		pcp->high = pcpm_max(high - free_count, pcp->high_min);
		return pcpm_min(batch << 2, pcp->high);
	}
	if (pcp->high_min == pcp->high_max)
		return high;
	if (below_high(m, zone)) {
		free_count = pcpm_max(pcp->free_count, batch);
		pcp->high = pcpm_max(high - free_count, pcp->high_min);
		high = pcpm_max(pcp->count, pcp->high_min);
	} else if (pcp->count >= high) {
		need_high = pcp->free_count + batch;
		if (pcp->high < need_high)
			pcp->high = pcpm_clamp(need_high, pcp->high_min,
					       pcp->high_max);
	}
	return high;
}

/*
 * nr_pcp_free(), v6.7 to v7.3 unchanged: free_high frees min(count,
 * batch << scale); otherwise free_count, kept between batch and
 * high - batch.
 */
static int nr_pcp_free(const struct pcpmodel *m, const struct pcpm_pcp *pcp,
		       int high, bool free_high)
{
	int batch = pcp->batch;

	if (free_high)
		return pcpm_min(pcp->count, batch << m->cfg.scale);
	if (high < batch)
		return 1;
	return pcpm_clamp(pcp->free_count, batch, high - batch);
}

/*
 * The free_high test of the commit function, v6.7+, evaluated after the
 * page is on its list and before flags and free_count move: a run of
 * order 1..3 frees (PCPF_PREV_FREE_HIGH_ORDER) with free_count past the
 * threshold, keeping batch pages when PCPF_FREE_HIGH_BATCH says the
 * CPU's cache slice is large. The threshold is batch through 6.15 and
 * batch + high_min / 2 from 6.16 (c544a952ba61). free_count only grows
 * while under batch << scale, so it tops out at (batch << scale) + 7
 * when orders 0..3 are freed (+ 511 after a THP free): where batch +
 * high_min / 2 is above that, 6.16+ never flushes free_high at that
 * scale, and 6.1.104+ never does at scale 0 (free_factor stays 0).
 */
static bool free_high_v67(const struct pcpmodel *m, const struct pcpm_pcp *pcp,
			  int order)
{
	int threshold = pcp->batch;

	if (!order || order > PCPM_COSTLY_ORDER)
		return false;
	if (m->cfg.rules.free_high_half_high_min)
		threshold += pcp->high_min / 2;
	return pcp->free_count >= threshold &&
	       (pcp->flags & PCPM_PCPF_PREV_FREE_HIGH_ORDER) &&
	       (!(pcp->flags & PCPM_PCPF_FREE_HIGH_BATCH) ||
		pcp->count >= pcp->batch);
}

/*
 * v6.12 free_unref_page_commit(), v6.15+ free_frozen_page_commit():
 * one free_pcppages_bulk() of nr_pcp_free() pages; 7.x cuts it into
 * calls of at most batch, dropping the pcp lock between them
 * (linux-source-7.3 mm/page_alloc.c:2854).
 */
static void commit_v67(struct pcpmodel *m, struct pcpm_pcp *pcp,
		       const struct pcpm_zone *zone, int order, int pindex,
		       int caller)
{
	bool free_high = free_high_v67(m, pcp, order);
	int high, to_free, chunk;
	struct pcpm_flush f;

	if (order && order <= PCPM_COSTLY_ORDER)
		pcp->flags |= PCPM_PCPF_PREV_FREE_HIGH_ORDER;
	else
		pcp->flags &= ~PCPM_PCPF_PREV_FREE_HIGH_ORDER;
	if (pcp->free_count < (pcp->batch << m->cfg.scale))
		pcp->free_count += 1 << order;
	/* "Do not attempt to take a zone lock" (7.3:2895) */
	if (caller == PCPM_CALLER_NOLOCK)
		return;
	high = nr_pcp_high(m, pcp, zone, free_high);
	if (pcp->count < high)
		return;
	to_free = nr_pcp_free(m, pcp, high, free_high);
	pcpm_flush_begin(&f,
			 free_high ? PCPM_FLUSH_FREE_HIGH : PCPM_FLUSH_COMMIT);
	if (!m->cfg.rules.commit_chunked) {
		pcpm_bulk_free(m, pcp, to_free, pindex, &f);
	} else {
		while (to_free > 0 && pcp->count > 0) {
			chunk = pcpm_min(to_free, pcp->batch);
			pcpm_bulk_free(m, pcp, chunk, pindex, &f);
			to_free -= chunk;
		}
	}
	pcpm_flush_end(m, &f);
	pcpm_zone_flushed(m, pcpm_zone_of(m, pcp));
}

/*
 * The commit function: the page goes on its list (list_add, count +=
 * 1 << order), then the version's flush decision. v6.7+ first halves
 * alloc_factor, the allocation side's counterpart of free_count.
 */
void pcpm_commit(struct pcpmodel *m, struct pcpm_pcp *pcp,
		 const struct pcpm_zone *zone, int order, int pindex,
		 int caller)
{
	if (m->cfg.rules.auto_high)
		pcp->alloc_factor >>= 1;
	pcp->entries[pindex]++;
	pcp->count += 1 << order;
	if (m->cfg.rules.auto_high)
		commit_v67(m, pcp, zone, order, pindex, caller);
	else
		commit_v61(m, pcp, zone, order, pindex);
}

/*
 * decay_pcp_high(), v6.7+: high steps down by an eighth (never below
 * high_min, nor more than batch << scale under count), then what count
 * has over high is freed from pindex 0: in one call on v6.12 mainline
 * and 6.16/6.17, in calls of at most batch on 7.x, 6.18.7+ and Debian
 * 6.12.117 ("mm/page_alloc: batch page freeing in decay_pcp_high").
 * 6.1 has no decay: vmstat only drains remote-node pagesets there.
 */
void pcpm_decay_begin(struct pcpmodel *m, struct pcpm_pcp *pcp)
{
	int high_min = pcp->high_min, batch = pcp->batch, old_high;

	pcpm_decay_end(m, pcp);
	if (!m->cfg.rules.auto_high) {
		m->res.decay_ignored++;
		return;
	}
	m->res.decay_calls++;
	if (pcp->high > high_min) {
		old_high = pcp->high;
		pcp->high =
			pcpm_max(pcpm_max(pcp->count - (batch << m->cfg.scale),
					  pcp->high - (pcp->high >> 3)),
				 high_min);
		if (pcp->high < old_high) {
			m->res.decay_trims++;
			m->res.decay_high_cut += old_high - pcp->high;
		}
	}
	/* the kernel's to_drain, taken once: frees in between do not move it */
	pcp->decay_to_drain = pcp->count - pcp->high;
	pcp->decay_open = true;
}

void pcpm_decay_end(struct pcpmodel *m, struct pcpm_pcp *pcp)
{
	int batch = pcp->batch, to_drain = pcp->decay_to_drain;
	struct pcpm_flush f;

	if (!pcp->decay_open)
		return;
	pcp->decay_open = false;
	pcpm_flush_begin(&f, PCPM_FLUSH_DECAY);
	if (!m->cfg.rules.decay_chunked) {
		if (to_drain > 0)
			pcpm_bulk_free(m, pcp, to_drain, 0, &f);
	} else {
		while (to_drain > 0) {
			int chunk = pcpm_min(to_drain, batch);

			pcpm_bulk_free(m, pcp, chunk, 0, &f);
			to_drain -= chunk;
		}
	}
	pcpm_flush_end(m, &f);
}

void pcpm_decay(struct pcpmodel *m, struct pcpm_pcp *pcp)
{
	pcpm_decay_begin(m, pcp);
	pcpm_decay_end(m, pcp);
}
