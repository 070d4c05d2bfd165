// SPDX-License-Identifier: GPL-2.0-only
/*
 * What leaves and enters the pcp lists under zone->lock:
 * free_pcppages_bulk() and its callers that are the same on every rule
 * set (the drains), rmqueue_bulk()'s refill, and what each locked call
 * and each flush adds to the result, bucketed as pcptop buckets its
 * recorded figures (hist_slot_of()).
 */
#include "hist.h"
#include "pcpmodel_state.h"

static void sizes_add(struct pcpmodel_call_sizes *s, uint64_t pages)
{
	int slot;

	if (pages < PCPM_CALL_PAGES_EXACT) {
		s->calls_of[pages]++;
	} else {
		slot = hist_slot_of(pages);
		s->over_calls[slot]++;
		s->over_pages[slot] += pages;
	}
	if (pages > s->max_pages)
		s->max_pages = pages;
}

/*
 * The round robin of free_pcppages_bulk() (v6.1 and v7.3 alike: 6.1's
 * min_pindex/max_pindex only skip lists already found empty): from
 * pindex, each non-empty list in turn is emptied of whole entries until
 * count <= 0, so a high-order entry can take count below zero. The
 * unknown pool rides at the end of the ring as order-0 pages.
 */
static int walk_lists(const struct pcpmodel *m, struct pcpm_pcp *pcp, int count,
		      int pindex)
{
	int freed = 0, idx = pindex - 1, empty_seen = 0;

	count = pcpm_min(pcp->count, count);
	while (count > 0) {
		int order, need, take, pages;

		if (++idx > PCPM_NR_SLOTS - 1)
			idx = 0;
		if (!pcp->entries[idx]) {
			/* count says pages are left but no list has one */
			if (++empty_seen > PCPM_NR_SLOTS) {
				pcp->count = 0;
				break;
			}
			continue;
		}
		empty_seen = 0;
		order = pcpm_pindex_order(m, idx);
		/* entries until count <= 0: the kernel's inner do-while */
		need = (count + (1 << order) - 1) >> order;
		take = pcpm_min(need, pcp->entries[idx]);
		pages = take << order;
		pcp->entries[idx] -= take;
		pcp->count -= pages;
		count -= pages;
		freed += pages;
	}
	return freed;
}

int pcpm_take_pages(const struct pcpmodel *m, struct pcpm_pcp *pcp, int count,
		    int pindex)
{
	return walk_lists(m, pcp, count, pindex);
}

int pcpm_bulk_free(struct pcpmodel *m, struct pcpm_pcp *pcp, int count,
		   int pindex, struct pcpm_flush *f)
{
	struct pcpmodel_result *r = &m->res;
	/* free_pcppages_bulk()'s own clamp, read before the walk moves count */
	int asked = pcpm_max(pcpm_min(pcp->count, count), 0);
	int freed = walk_lists(m, pcp, count, pindex);
	int slot = hist_slot_of(freed);

	pcpm_zone_move(m, pcpm_zone_of(m, pcp), freed);

	/* the lock is taken even for nothing: the guard comes first */
	r->bulk_calls++;
	if ((uint64_t)asked > r->bulk_asked_max)
		r->bulk_asked_max = asked;
	r->bulk_pages += freed;
	r->bulk_pages_hist[slot]++;
	sizes_add(&r->bulk_sizes, freed);
	r->flush[f->src].chunk_pages_hist[slot]++;
	r->flush[f->src].chunks++;
	if ((uint64_t)freed > r->flush[f->src].max_chunk_pages)
		r->flush[f->src].max_chunk_pages = freed;
	f->chunks++;
	f->pages += freed;
	return freed;
}

void pcpm_flush_begin(struct pcpm_flush *f, enum pcpmodel_flush_source src)
{
	f->src = src;
	f->chunks = 0;
	f->pages = 0;
}

/* a flush that freed nothing is not one: pcptop counts pages > 0 */
void pcpm_flush_end(struct pcpmodel *m, const struct pcpm_flush *f)
{
	struct pcpmodel_flushes *fl = &m->res.flush[f->src];

	if (!f->pages)
		return;
	fl->flushes++;
	fl->pages += f->pages;
	fl->flush_pages_hist[hist_slot_of(f->pages)]++;
	fl->chunks_hist[hist_slot_of(f->chunks)]++;
	if (f->pages > fl->max_flush_pages)
		fl->max_flush_pages = f->pages;
}

void pcpm_refill(struct pcpmodel *m, struct pcpm_pcp *pcp, int pindex,
		 int order, int entries)
{
	struct pcpmodel_result *r = &m->res;
	uint64_t pages = (uint64_t)entries << order;

	pcp->entries[pindex] += entries;
	pcp->count += entries << order;
	pcpm_zone_move(m, pcpm_zone_of(m, pcp), -(int64_t)pages);
	r->refill_calls++;
	r->refill_pages += pages;
	r->refill_pages_hist[hist_slot_of(pages)]++;
	r->refill_order_pages[order <= PCPM_COSTLY_ORDER ?
				      order :
				      PCPTOP_ORDER_SLOT_THP] += pages;
	sizes_add(&r->refill_sizes, pages);
}

/*
 * drain_pages_zone(): since 55f77df7d715 (v6.7; 6.1.104, 6.6.45) and
 * still on 7.3 (mm/page_alloc.c:2642), chunks of min(count, batch <<
 * scale), pcp->count re-read under the lock each time; before it, one
 * call of pcp->count (v6.1 mm/page_alloc.c drain_pages_zone()).
 */
void pcpm_drain_pages_zone(struct pcpmodel *m, struct pcpm_pcp *pcp)
{
	struct pcpm_flush f;
	int count;

	pcpm_flush_begin(&f, PCPM_FLUSH_DRAIN);
	if (!m->cfg.rules.drain_chunked) {
		if (pcp->count)
			pcpm_bulk_free(m, pcp, pcp->count, 0, &f);
		pcpm_flush_end(m, &f);
		return;
	}
	do {
		count = pcp->count;
		if (count) {
			int to_drain =
				pcpm_min(count, pcp->batch << m->cfg.scale);

			pcpm_bulk_free(m, pcp, to_drain, 0, &f);
			count -= to_drain;
		}
	} while (count);
	pcpm_flush_end(m, &f);
}

/* drain_zone_pages() (NUMA), v6.1 to v7.3: one call of min(count, batch) */
void pcpm_drain_zone_pages(struct pcpmodel *m, struct pcpm_pcp *pcp)
{
	int to_drain = pcpm_min(pcp->count, pcp->batch);
	struct pcpm_flush f;

	pcpm_flush_begin(&f, PCPM_FLUSH_NUMA);
	if (to_drain > 0)
		pcpm_bulk_free(m, pcp, to_drain, 0, &f);
	pcpm_flush_end(m, &f);
}
