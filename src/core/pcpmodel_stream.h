/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a replay reads (pcpmodel.h): the events of one recording's trace
 * in order, and the pageset and zone reads their snapshots point at.
 * src/rec/ builds a stream from a recording, tests/unit/ by hand; the
 * model never writes one.
 */
#ifndef PCPTOP_PCPMODEL_STREAM_H
#define PCPTOP_PCPMODEL_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "pcptop.h"

/* MIGRATE_UNMOVABLE, MIGRATE_MOVABLE, MIGRATE_RECLAIMABLE */
#define PCPM_MIGRATE_UNMOVABLE 0
#define PCPM_MIGRATE_MOVABLE 1
#define PCPM_MIGRATE_PCPTYPES PCPTOP_MIGRATE_PCPTYPES
#define PCPM_COSTLY_ORDER PCPTOP_PAGE_ALLOC_COSTLY_ORDER
/* NR_LOWORDER_PCP_LISTS: one list per migratetype for orders 0..3 */
#define PCPM_NR_LOWORDER_LISTS (PCPM_MIGRATE_PCPTYPES * (PCPM_COSTLY_ORDER + 1))
/* NR_PCP_THP: 1 before bf14ed81f571 (v6.10, 6.1.y July 2024), then 2 */
#define PCPM_THP_LISTS_MAX 2
#define PCPM_NR_LISTS_MAX (PCPM_NR_LOWORDER_LISTS + PCPM_THP_LISTS_MAX)
/* per_cpu_pages.flags (include/linux/mmzone.h, v6.7+) */
#define PCPM_PCPF_PREV_FREE_HIGH_ORDER 0x1
#define PCPM_PCPF_FREE_HIGH_BATCH 0x2

enum pcpmodel_event_type {
	/*
	 * An allocation of a pcp-eligible order reaching rmqueue(): on the
	 * pcp path rmqueue_pcplist() -> __rmqueue_pcplist(), refilling
	 * through rmqueue_bulk() when the list is empty; on the buddy path
	 * rmqueue_buddy() (one zone->lock).
	 */
	PCPM_EV_ALLOC,
	/*
	 * A free reaching free_unref_page() (6.1..6.14) or
	 * __free_frozen_pages() / free_unref_folios() (6.15+): on the pcp
	 * path free_unref_page_commit() / free_frozen_page_commit(); on the
	 * buddy path free_one_page() (one zone->lock).
	 */
	PCPM_EV_FREE,
	/* decay_pcp_high(zone, pcp), from vmstat's refresh_cpu_vm_stats() */
	PCPM_EV_DECAY,
	/* drain_pages_zone(cpu, zone) or drain_zone_pages(): see reason */
	PCPM_EV_DRAIN,
	/*
	 * page_alloc_cpu_dead(cpu): drain_pages(cpu), every zone. Send it
	 * at the function's entry: the drain_pages_zone() calls inside it
	 * are this event's, and a DRAIN event for them after it finds the
	 * pagesets empty (a drain call, no chunk).
	 */
	PCPM_EV_CPU_DEAD,
	/* page_alloc_cpu_online(cpu) */
	PCPM_EV_CPU_ONLINE,
	/* a read of one pageset's state: payload indexes pcp_states */
	PCPM_EV_SNAPSHOT,
	/* a read of one zone's watermarks and flags: payload, zone_states */
	PCPM_EV_ZONE_STATE,
	/*
	 * a direct reclaim's end (vmscan:mm_vmscan_direct_reclaim_end):
	 * order its request's (PCPM_ORDER_UNKNOWN: not seen), payload the
	 * pages it reclaimed, zone unused. What follows in the kernel:
	 * get_page_from_freelist() again, and drain_all_pages() if it fails.
	 */
	PCPM_EV_RECLAIM,
	/*
	 * a free block of 2^order pages taken off the buddy lists by
	 * __isolate_free_page() (compaction's migration targets): free
	 * pages fall, no allocation; path buddy
	 */
	PCPM_EV_ISOLATE,
	/*
	 * decay_pcp_high()'s return on cpu; zone its pageset's, or
	 * PCPM_ZONE_UNKNOWN (a kretprobe): the CPU's open decay. Where the
	 * stream has them (pcpmodel_config.decay_ends), a DECAY lowers high
	 * and its chunks wait for this event, as the kernel's frees between
	 * them flush against the lowered high.
	 */
	PCPM_EV_DECAY_END,
	NR_PCPM_EV,
};

/* DECAY_END from a kretprobe, which has no arguments: the CPU's decay */
#define PCPM_ZONE_UNKNOWN 0xff

/* RECLAIM: the reclaim's begin, and with it its order, was not traced */
#define PCPM_ORDER_UNKNOWN 0xff

enum pcpmodel_path {
	PCPM_PATH_PCP,
	PCPM_PATH_BUDDY,
};

/* which caller brought an allocation or a free to the lists */
enum pcpmodel_caller {
	/*
	 * ALLOC: rmqueue_pcplist(); FREE: free_unref_page(),
	 * free_unref_page_list(), __free_frozen_pages(), free_unref_folios()
	 */
	PCPM_CALLER_PLAIN,
	/*
	 * ALLOC: alloc_pages_bulk() (__alloc_pages_bulk() on 6.1), which
	 * calls __rmqueue_pcplist() alone: free_count (6.1: free_factor) is
	 * not halved
	 */
	PCPM_CALLER_BULK,
	/*
	 * FREE: free_frozen_pages_nolock() (FPI_TRYLOCK, 6.14+; FPI_NOLOCK
	 * on 7.3): the commit function returns before nr_pcp_high(), so
	 * count may pass high and nothing is flushed. Rules without
	 * auto_high (6.1) have no such path and treat it as PLAIN.
	 */
	PCPM_CALLER_NOLOCK,
	NR_PCPM_CALLER,
};

/* who drained, as far as the trace knows */
enum pcpmodel_drain_reason {
	/* drain_pages_zone(), caller not known */
	PCPM_DRAIN_UNKNOWN,
	/* __drain_all_pages(): reclaim, compaction, isolation, hotplug */
	PCPM_DRAIN_ALL,
	/* drain_local_pages() */
	PCPM_DRAIN_LOCAL,
	/* page_alloc_cpu_dead(): what a CPU_DEAD event drains */
	PCPM_DRAIN_CPU_DEAD,
	/*
	 * drain_zone_pages() (NUMA): vmstat drains an expired remote
	 * pageset by one call of min(count, batch) pages
	 */
	PCPM_DRAIN_NUMA_REMOTE,
	NR_PCPM_DRAIN,
};

/*
 * One event, 24 bytes: the per-event path reads nothing else. Fields a
 * type does not use are 0.
 */
struct pcpmodel_event {
	uint64_t time_ns; /* bpf_ktime_get_ns() at the event */
	/* SNAPSHOT: index into pcp_states; ZONE_STATE: into zone_states */
	uint32_t payload;
	/*
	 * the pageset's CPU: the allocating or freeing CPU; DRAIN and
	 * CPU_DEAD: drain_pages_zone()'s cpu argument (the owner, not the
	 * CPU that ran the drain)
	 */
	uint16_t cpu;
	uint8_t type; /* enum pcpmodel_event_type */
	uint8_t zone; /* zone_idx(); unused by CPU_DEAD and CPU_ONLINE */
	uint8_t order; /* ALLOC, FREE: the page's order */
	/*
	 * ALLOC: the list's migratetype (ac->migratetype); FREE:
	 * get_pfnblock_migratetype() of the page. Values >=
	 * MIGRATE_PCPTYPES go to the MOVABLE lists, as the kernel puts
	 * HIGHATOMIC and CMA pages there.
	 */
	uint8_t migratetype;
	uint8_t path; /* ALLOC, FREE: enum pcpmodel_path */
	uint8_t reason; /* DRAIN: enum pcpmodel_drain_reason */
	uint8_t caller; /* ALLOC, FREE on the pcp path: pcpmodel_caller */
};

/* which fields of a pcpmodel_pcp_state were read */
#define PCPM_FIELD_AUTO_HIGH 0x01 /* high_min, high_max: 6.7+ */
#define PCPM_FIELD_FREE_COUNT 0x02 /* 6.7+ */
#define PCPM_FIELD_ALLOC_FACTOR 0x04 /* 6.7+ */
#define PCPM_FIELD_FLAGS 0x08 /* 6.7+ */
#define PCPM_FIELD_FREE_FACTOR 0x10 /* 6.1..6.6 */
#define PCPM_FIELD_LISTS 0x20 /* list_entries: a walk of pcp->lists[] */

/*
 * struct per_cpu_pages as read: count, high and batch always, the rest
 * as fields says. A state seeds its pageset the first time; later ones
 * measure the model's drift and, with resync, replace its state.
 */
struct pcpmodel_pcp_state {
	int32_t count; /* pages in all lists */
	int32_t high;
	int32_t high_min;
	int32_t high_max;
	int32_t batch;
	int32_t free_count; /* short in the kernel */
	uint8_t alloc_factor;
	uint8_t free_factor;
	uint8_t flags; /* PCPM_PCPF_* */
	uint8_t fields; /* PCPM_FIELD_* */
	/* entries (pages of the list's order) per pindex */
	uint32_t list_entries[PCPM_NR_LISTS_MAX];
};

/* which fields of a pcpmodel_zone_state were read */
#define PCPM_ZFIELD_FLAGS 0x1 /* below_high, reclaim_active */
#define PCPM_ZFIELD_PAGESET 0x2 /* pageset_high_min/high_max/batch */
#define PCPM_ZFIELD_WMARK 0x4 /* free_pages, wmark_* */
/*
 * read in BPF at a direct reclaim's end (1.7), alone: free_pages
 * NR_FREE_PAGES, wmark_min the mark an order-0 allocation must clear
 * (min with watermark_boost, plus the highatomic reserve it may not
 * count); the rest unread. Not a /proc read: the replay's free pages
 * are not set from it.
 */
#define PCPM_ZFIELD_MARK 0x8

/*
 * What the policy reads of struct zone. The pageset fields are what
 * zone_pcp_update() wrote to every CPU's pageset (6.7+:
 * zone->pageset_high_min/_max/_batch; 6.1: zone->pageset_high in both
 * high fields); a change applies to all CPUs, as
 * __zone_set_pageset_high_and_batch() does.
 */
struct pcpmodel_zone_state {
	uint64_t free_pages; /* NR_FREE_PAGES */
	uint64_t wmark_min;
	uint64_t wmark_low;
	uint64_t wmark_high; /* high_wmark_pages() */
	int32_t pageset_high_min;
	int32_t pageset_high_max;
	int32_t pageset_batch;
	uint8_t below_high; /* ZONE_BELOW_HIGH (6.7+) */
	uint8_t reclaim_active; /* ZONE_RECLAIM_ACTIVE */
	uint8_t fields; /* PCPM_ZFIELD_* */
};

/* a stream: the events and the payloads their snapshots point at */
struct pcpmodel_stream {
	const struct pcpmodel_event *events;
	size_t nr_events;
	const struct pcpmodel_pcp_state *pcp_states;
	size_t nr_pcp_states;
	const struct pcpmodel_zone_state *zone_states;
	size_t nr_zone_states;
};

#endif /* PCPTOP_PCPMODEL_STREAM_H */
