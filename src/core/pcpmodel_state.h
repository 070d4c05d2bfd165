/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The replay model's own state, shared by its files and by nothing else:
 * pcpmodel_replay.c (events, snapshots, hotplug), pcpmodel_policy.c (the rules
 * per kernel version: what to refill, when and how much to flush, decay),
 * pcpmodel_flush.c (free_pcppages_bulk(), the drains, and what every
 * locked call and flush adds to the result), pcpmodel_zone.c (the
 * zone's free pages and the reclaim they set off) and pcpmodel_reclaim.c
 * (the direct reclaim it adds).
 */
#ifndef PCPTOP_PCPMODEL_STATE_H
#define PCPTOP_PCPMODEL_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "pcpmodel.h"

/*
 * A buddy-path event's order: MAX_PAGE_ORDER is 10 on 4 KiB pages and
 * up to 15 with 64 KiB ones; past this it is no order the trace holds
 */
#define PCPM_BUDDY_ORDER_MAX 30

/* one CPU's pageset of one zone: struct per_cpu_pages, as modelled */
struct pcpm_pcp {
	int32_t count; /* pages: sum of entries[i] << order of list i */
	int32_t high;
	int32_t high_min;
	int32_t high_max;
	int32_t batch;
	int32_t free_count;
	uint8_t alloc_factor;
	uint8_t free_factor;
	uint8_t flags;
	bool seeded; /* a snapshot (or pcpmodel_set_pcp()) gave its state */
	/* a decay whose chunks wait for its DECAY_END: what they will free */
	bool decay_open;
	int32_t decay_to_drain;
	/* entries per pindex; PCPM_LIST_UNKNOWN holds order-0 pages */
	int32_t entries[PCPM_NR_SLOTS];
};

/*
 * A zone's free pages as this replay's lists leave them, and what the
 * allocator and kswapd decide from them (pcpmodel_zone.c)
 */
struct pcpm_wmark {
	bool have_free; /* a watermark read set free */
	int64_t free; /* NR_FREE_PAGES */
	uint64_t read_ns; /* the last read: its snapshots add their count */
	bool below_high; /* ZONE_BELOW_HIGH */
	bool kswapd; /* awake, reclaiming: ZONE_RECLAIM_ACTIVE */
	bool kswapd_woken; /* by the current event: awake from the next */
	bool direct; /* the current allocation entered direct reclaim */
	/* the kernel's at the last direct reclaim's end (PCPM_ZFIELD_MARK) */
	int64_t mark; /* the order-0 mark */
	int64_t mark_free; /* NR_FREE_PAGES */
	/* this replay's free pages then, and what the kernel's moved them by */
	int64_t tracked;
	int64_t anchored;
	/*
	 * the lowest min read, 0 before one: /proc/zoneinfo's min is
	 * min_wmark_pages(), which adds watermark_boost
	 */
	uint64_t min_lowest;
};

struct pcpm_zone {
	struct pcpmodel_zone_state st;
	bool seeded;
	struct pcpm_wmark w;
};

/*
 * The trace's last direct reclaim, from its end (a RECLAIM event) to the
 * retry's allocation on its CPU: the record's drains between are its
 * drain_all_pages()
 */
struct pcpm_reclaim {
	bool open;
	/* order 0 and something reclaimed: the mark decides (pcpmodel_reclaim.c) */
	bool decides;
	/* this replay's free pages at or under the kernel's mark (else min) */
	bool under;
	bool drained; /* the record drained after it */
	bool kernel_under; /* the kernel's own free pages at or under the mark */
	bool marked; /* the kernel's mark came with it */
	/*
	 * At another scale (a reference runs): whether the retry fails
	 * here, by the kernel's free pages moved by what this replay's
	 * lists held apart from the reference's since the CPU's last
	 * allocation
	 */
	bool fails_here;
	bool moves; /* fails_here and the record disagree: decided here */
	uint16_t cpu;
	/* this replay's free pages less the reference's, at the last allocation */
	int64_t gap_at_alloc[PCPTOP_MAX_ZONES];
};

struct pcpmodel {
	struct pcpmodel_config cfg;
	struct pcpm_pcp *pcps; /* nr_cpus * nr_zones, CPU-major */
	bool *cpu_offline;
	struct pcpm_zone zones[PCPTOP_MAX_ZONES];
	struct pcpmodel_result res;
	/* the replay at the recorded scale: pcpmodel_set_reference() */
	const struct pcpmodel *ref;
	struct pcpm_reclaim reclaim;
	uint8_t last_alloc_zone; /* the zone of the last allocation */
	/* the zone of a mark not yet taken by its RECLAIM event, or none */
	int mark_zone;
};

/* a flush being made: who decided it, what its chunks freed so far */
struct pcpm_flush {
	enum pcpmodel_flush_source src;
	uint64_t chunks;
	uint64_t pages;
};

static inline struct pcpm_pcp *pcpm_pcp_of(struct pcpmodel *m, unsigned int cpu,
					   unsigned int zone)
{
	return &m->pcps[(size_t)cpu * m->cfg.nr_zones + zone];
}

static inline unsigned int pcpm_zone_of(const struct pcpmodel *m,
					const struct pcpm_pcp *pcp)
{
	return (unsigned int)((size_t)(pcp - m->pcps) % m->cfg.nr_zones);
}

static inline int pcpm_min(int a, int b)
{
	return a < b ? a : b;
}

static inline int pcpm_max(int a, int b)
{
	return a > b ? a : b;
}

/*
 * include/linux/minmax.h __clamp() since 2122e2a4efc2 ("minmax: clamp
 * more efficiently by avoiding extra comparison", v6.1): with lo > hi a
 * value under hi gets lo, which nr_pcp_free() can meet when high < 2 *
 * batch
 */
static inline int pcpm_clamp(int val, int lo, int hi)
{
	return val >= hi ? hi : (val <= lo ? lo : val);
}

/* order_to_pindex(); -1 for an order the pcp lists do not hold */
int pcpm_pindex(const struct pcpmodel *m, unsigned int order,
		unsigned int migratetype);
/* pindex_to_order(), and order 0 for the unknown pool */
int pcpm_pindex_order(const struct pcpmodel *m, int pindex);

/* pcpmodel_flush.c */
void pcpm_flush_begin(struct pcpm_flush *f, enum pcpmodel_flush_source src);
void pcpm_flush_end(struct pcpmodel *m, const struct pcpm_flush *f);
/*
 * free_pcppages_bulk(zone, count, pcp, pindex): one zone->lock hold; the
 * pages it freed (count, or a little more past a high-order entry)
 */
int pcpm_bulk_free(struct pcpmodel *m, struct pcpm_pcp *pcp, int count,
		   int pindex, struct pcpm_flush *f);
/* the same walk of the lists without a call: a resync's correction */
int pcpm_take_pages(const struct pcpmodel *m, struct pcpm_pcp *pcp, int count,
		    int pindex);
/* rmqueue_bulk() handing `entries` entries of `order` to list pindex */
void pcpm_refill(struct pcpmodel *m, struct pcpm_pcp *pcp, int pindex,
		 int order, int entries);
void pcpm_drain_pages_zone(struct pcpmodel *m, struct pcpm_pcp *pcp);
void pcpm_drain_zone_pages(struct pcpmodel *m, struct pcpm_pcp *pcp);

/*
 * pcpmodel_zone.c: the free pages the lists leave the zone, the flags
 * and reclaim they set off, and, against a reference, where they move
 * the record's decisions
 */
void pcpm_zone_event(struct pcpmodel *m, unsigned int zone);
/* pages leave (< 0) or reach the buddy lists */
void pcpm_zone_move(struct pcpmodel *m, unsigned int zone, int64_t pages);
/*
 * get_page_from_freelist()'s watermark checks, before rmqueue(): whether
 * this replay enters direct reclaim where its reference does not
 */
bool pcpm_zone_alloc(struct pcpmodel *m, unsigned int zone, int order);
/* whether an order-n allocation fails the min watermark */
bool pcpm_zone_under_min(const struct pcpmodel *m, unsigned int zone,
			 int order);
/* after a commit's flush: ZONE_BELOW_HIGH cleared above high */
void pcpm_zone_flushed(struct pcpmodel *m, unsigned int zone);
/* a watermark read at t, and a pageset's count read with it */
void pcpm_zone_read(struct pcpmodel *m, unsigned int zone, uint64_t t);
void pcpm_zone_snapshot(struct pcpmodel *m, unsigned int zone, uint64_t t,
			int32_t recorded, int32_t grown);
bool pcpm_zone_below_high(const struct pcpmodel *m, const struct pcpm_zone *z);
bool pcpm_zone_reclaim_active(const struct pcpmodel *m,
			      const struct pcpm_zone *z);

/* pcpmodel_reclaim.c: the direct reclaim pcpm_zone_alloc() asked for */
void pcpm_direct_reclaim(struct pcpmodel *m, unsigned int cpu,
			 unsigned int zone, int order);
/*
 * the trace's own direct reclaims, judged: its end (a RECLAIM event),
 * with the kernel's mark before it; a drain while it is open; an
 * allocation, which closes it on its CPU
 */
void pcpm_reclaim_end(struct pcpmodel *m, unsigned int cpu, int order,
		      uint32_t reclaimed);
void pcpm_reclaim_mark(struct pcpmodel *m, unsigned int zone,
		       const struct pcpmodel_zone_state *st);
bool pcpm_reclaim_drain(struct pcpmodel *m);
void pcpm_reclaim_alloc(struct pcpmodel *m, unsigned int cpu);
void pcpm_reclaim_window(struct pcpmodel *m, unsigned int zone);

/* pcpmodel_policy.c: the rules per kernel version */
void pcpm_alloc(struct pcpmodel *m, struct pcpm_pcp *pcp,
		const struct pcpm_zone *zone, int order, int pindex,
		int caller);
void pcpm_commit(struct pcpmodel *m, struct pcpm_pcp *pcp,
		 const struct pcpm_zone *zone, int order, int pindex,
		 int caller);
/*
 * decay_pcp_high(): its entry lowers high and fixes what it will free,
 * its end frees it (in chunks where the rules say); pcpm_decay() both
 * at once. pcpm_decay_end() on a pageset with no decay open does nothing.
 */
void pcpm_decay(struct pcpmodel *m, struct pcpm_pcp *pcp);
void pcpm_decay_begin(struct pcpmodel *m, struct pcpm_pcp *pcp);
void pcpm_decay_end(struct pcpmodel *m, struct pcpm_pcp *pcp);

#endif /* PCPTOP_PCPMODEL_STATE_H */
