/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A replay model of the page allocator's per-CPU pageset (PCP) policy:
 * feed it what a workload asked of the pcp layer (allocations and frees
 * with their CPU, zone, order and migratetype; drains, vmstat's decay
 * ticks, CPU hotplug, the pcp and zone state read along the way) and it
 * says what mm/page_alloc.c would have done under a given rule set and
 * batch scale: bulk frees, flushes and their chunks, refills, free_high
 * flushes, decay, drains, zone->lock acquisitions, the pages parked in
 * the lists, and the pages each locked call moved.
 *
 * Rule sets (pcpmodel_rules_init()), each naming the kernels it follows:
 *   6.1     v6.1..6.1.103 (v6.6..6.6.44 alike, not read): free_factor
 *           doubling; a free_high flush frees all of pcp->count;
 *           drain_pages_zone() frees pcp->count in one call; no decay.
 *   6.1cap  6.1.104+, 6.6.45+: 52166607ecc9 and 55f77df7d715 backported:
 *           free_factor stops at the scale, drains go in chunks of
 *           batch << scale; free_high still frees everything (and, with
 *           free_factor held at 0, never fires at scale 0). Two THP
 *           lists (bf14ed81f571 reached 6.1.y in July 2024).
 *   6.12    v6.7..6.15: high between high_min and high_max, alloc_factor
 *           in nr_pcp_alloc(), free_count, PCPF_PREV_FREE_HIGH_ORDER and
 *           PCPF_FREE_HIGH_BATCH, nr_pcp_high() cutting high by
 *           batch << scale on free_high, nr_pcp_free() = min(count,
 *           batch << scale), decay_pcp_high() in one call.
 *   6.16    v6.16..6.18: c544a952ba61, free_high needs free_count >=
 *           batch + high_min / 2.
 *   7.x     7.2, 7.3 (from about 6.19): free_frozen_page_commit() frees a
 *           flush in chunks of at most batch, dropping the pcp lock in
 *           between; decay_pcp_high() in chunks of batch (Debian's
 *           6.12.117 and 6.18.7+ have that too: set decay_chunked);
 *           drain_pages_zone() still in chunks of batch << scale
 *           (linux-source-7.3 mm/page_alloc.c:2642).
 *
 * What the model does not know, and assumes:
 * - rmqueue_bulk() always finds the pages it asks for (the buddy lists
 *   are never short), and __rmqueue_pcplist()'s check_new_pages() never
 *   rejects one.
 * - The pcp or buddy path of an allocation or free is the trace's: a
 *   pcp trylock failure (free_one_page(), rmqueue_buddy()), an isolated
 *   pageblock, a CMA or ALLOC_HIGHATOMIC refusal stay where the kernel
 *   put them, whatever the scale.
 * - zone->lock is never contended: a call is one acquisition, and what
 *   it costs is what the recording's calls of its size cost
 *   (pcpmodel_cost_table()).
 * - ZONE_BELOW_HIGH, ZONE_RECLAIM_ACTIVE and drains come from the trace.
 *   Given a reference (pcpmodel_set_reference(): the same trace replayed
 *   at the recorded scale alongside), the model moves them where the
 *   free pages its lists leave the zone cross a watermark the record's
 *   did not (pcpmodel_zone.c): free pages are the last watermark read's
 *   NR_FREE_PAGES plus the pcp count read with it, less this replay's
 *   count, moved by every refill, bulk free and buddy-path page since;
 *   BELOW_HIGH is set by an allocation at or under the high watermark
 *   and cleared by a commit flush over it; kswapd wakes at or under low
 *   (RECLAIM_ACTIVE from the next event) and sleeps over high; an
 *   allocation at or under min enters direct reclaim, which frees
 *   SWAP_CLUSTER_MAX order-0 pages onto the lists and drains every
 *   pageset when that leaves the zone at or under min. Where it stops:
 *   the trace has no LRU, no kswapd state, no highatomic reserve, no
 *   request's gfp flags and no drain's caller, so kswapd's own reclaim
 *   stays where the record put it (RECLAIM_ACTIVE is only ever added),
 *   the added direct reclaims free pages the trace never saw, the
 *   trace's own direct reclaims stay (only whether each drains moves:
 *   pcpmodel_reclaim.c), and the order of allocations and
 *   frees is the record's even where kswapd would have cut in sooner
 *   (docs/ACCURACY.md, "Reclaim").
 * - 7.x's chunked commit flush is never cut short: a failed pcp trylock
 *   or a migration between chunks (free_frozen_page_commit() returning
 *   false) is not in the trace. ALLOC_NOLOCK's failed zone trylock in
 *   rmqueue_bulk() is not either: every refill succeeds.
 * - Events are applied in the stream's order; a drain of one CPU's
 *   pageset run by another CPU is placed where the trace put it.
 * - A list whose contents a snapshot did not give sits in one pool of
 *   order-0 pages behind the real lists (PCPM_LIST_UNKNOWN): bulk frees
 *   reach it last in the round robin, allocations never take from it,
 *   so a list the kernel had filled may refill in the model.
 * - Per-list counts are entries, pages are entries << order; page
 *   identity, buddy merging and the order of pages inside a list are not
 *   modelled (free_pcppages_bulk() only needs how many).
 */
#ifndef PCPTOP_PCPMODEL_H
#define PCPTOP_PCPMODEL_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pcptop.h"
#include "pcpmodel_stream.h"

/* CONFIG_PCP_BATCH_SCALE_MAX's Kconfig range, and the CIP patch's clamp */
#define PCPM_SCALE_MAX 6
/* the pool of pages whose list a snapshot did not say: behind the lists */
#define PCPM_LIST_UNKNOWN PCPM_NR_LISTS_MAX
#define PCPM_NR_SLOTS (PCPM_NR_LISTS_MAX + 1)
/* HPAGE_PMD_ORDER with 4 KiB pages (x86-64, arm64 4K) */
#define PCPM_THP_ORDER_4K 9
/* the CPUs one model holds pagesets for */
#define PCPM_MAX_CPUS 4096
/* pcpmodel_call_sizes keeps exact counts below this many pages a call */
#define PCPM_CALL_PAGES_EXACT 8192

enum pcpmodel_ruleset {
	PCPM_RULES_6_1,
	PCPM_RULES_6_1_CAPPED,
	PCPM_RULES_6_12,
	PCPM_RULES_6_16,
	PCPM_RULES_7_X,
	NR_PCPM_RULES,
};

/*
 * What a rule set changes, flag by flag, so that a kernel between two
 * presets (Debian 6.12.117's chunked decay, 6.1.97's two THP lists) is
 * one edit away.
 */
struct pcpmodel_rules {
	enum pcpmodel_ruleset base;
	/* 6.7+: high_min/high_max, alloc_factor, free_count, flags, decay */
	bool auto_high;
	/* 6.1.104+/6.6.45+: nr_pcp_free() stops free_factor at the scale */
	bool free_factor_capped;
	/* drain_pages_zone() in chunks of batch << scale, else one call */
	bool drain_chunked;
	/* 6.16+ (c544a952ba61): free_high needs batch + high_min / 2 */
	bool free_high_half_high_min;
	/* 7.x: a commit flush in free_pcppages_bulk() calls of <= batch */
	bool commit_chunked;
	/* decay_pcp_high() in calls of <= batch, else one call */
	bool decay_chunked;
	/* NR_PCP_THP: pcp lists for the THP order */
	uint8_t thp_lists;
};

/* the preset of a rule set; -EINVAL for an unknown one */
int pcpmodel_rules_init(struct pcpmodel_rules *rules,
			enum pcpmodel_ruleset base);
/* "6.1", "6.1cap", "6.12", "6.16", "7.x"; NULL when out of range */
const char *pcpmodel_rules_name(enum pcpmodel_ruleset base);
/* the rule set of a name above; -EINVAL when none has it */
int pcpmodel_rules_by_name(const char *name, enum pcpmodel_ruleset *base);

/* the pages parked in one pageset at a snapshot: model beside record */
struct pcpmodel_series_point {
	uint64_t time_ns;
	uint16_t cpu;
	uint8_t zone;
	int32_t model_count; /* before any resync */
	int32_t model_high;
	int32_t recorded_count;
	int32_t recorded_high;
};

struct pcpmodel_config {
	struct pcpmodel_rules rules;
	int scale; /* 0..PCPM_SCALE_MAX; 6.1 (uncapped) ignores it */
	unsigned int nr_cpus; /* 1..PCPM_MAX_CPUS */
	unsigned int nr_zones; /* 1..PCPTOP_MAX_ZONES */
	/* HPAGE_PMD_ORDER; 0 when THPs never reach the pcp lists */
	unsigned int thp_order;
	/* snapshots overwrite the model's state once drift is measured */
	bool resync;
	/*
	 * the stream has each decay's end (PCPM_EV_DECAY_END, format 1.7
	 * with PCPT_HOOK_DECAY_END): a decay's chunks wait for it
	 */
	bool decay_ends;
	/* the caller's buffer for the parked-pages series, or NULL */
	struct pcpmodel_series_point *series;
	size_t series_cap;
};

/* who decided to free at once: each a flush, made of chunks */
enum pcpmodel_flush_source {
	PCPM_FLUSH_COMMIT, /* the commit function: count >= high */
	PCPM_FLUSH_FREE_HIGH, /* the commit function's free_high flush */
	PCPM_FLUSH_DECAY, /* decay_pcp_high() */
	PCPM_FLUSH_DRAIN, /* drain_pages_zone(), CPU_DEAD included */
	PCPM_FLUSH_NUMA, /* drain_zone_pages() */
	NR_PCPM_FLUSH,
};

/*
 * Flushes of one source. pcptop's recorded histograms compare with:
 * FREE_HIGH flush_pages_hist = HIST_FREE_HIGH_PAGES, DECAY
 * flush_pages_hist = HIST_DECAY_PAGES, DRAIN chunk_pages_hist =
 * HIST_DRAIN_PAGES.
 */
struct pcpmodel_flushes {
	uint64_t flushes; /* those that freed a page */
	uint64_t chunks; /* free_pcppages_bulk() calls */
	uint64_t pages;
	uint64_t max_flush_pages;
	/* the largest chunk: HIST_DRAIN_PAGES's max for DRAIN */
	uint64_t max_chunk_pages;
	uint64_t flush_pages_hist[PCPTOP_HIST_SLOTS];
	uint64_t chunks_hist[PCPTOP_HIST_SLOTS]; /* chunks per flush */
	uint64_t chunk_pages_hist[PCPTOP_HIST_SLOTS];
};

/*
 * Pages per locked call, exact below PCPM_CALL_PAGES_EXACT; larger calls
 * (6.1's whole-pcp flushes) by log2 slot with their pages, so that a
 * call can be priced by its own size (pcpmodel_cost_price()).
 */
struct pcpmodel_call_sizes {
	uint64_t calls_of[PCPM_CALL_PAGES_EXACT];
	uint64_t over_calls[PCPTOP_HIST_SLOTS];
	uint64_t over_pages[PCPTOP_HIST_SLOTS];
	uint64_t max_pages;
};

struct pcpmodel_result {
	/* free_pcppages_bulk(): one zone->lock hold a call */
	uint64_t bulk_calls;
	uint64_t bulk_pages;
	uint64_t bulk_pages_hist[PCPTOP_HIST_SLOTS]; /* HIST_BULK_FREE_PAGES */
	struct pcpmodel_call_sizes bulk_sizes;
	/*
	 * The largest min(count, pcp->count) a call was asked to free: the
	 * flush as decided, before the last entry's pages past it that
	 * whole-entry freeing adds (up to 7 of an order-3 entry)
	 */
	uint64_t bulk_asked_max;
	/* rmqueue_bulk(): one zone->lock hold a call */
	uint64_t refill_calls;
	uint64_t refill_pages;
	uint64_t refill_pages_hist[PCPTOP_HIST_SLOTS]; /* HIST_REFILL_PAGES */
	struct pcpmodel_call_sizes refill_sizes;
	/* refilled pages by order slot (0..3, the THP order): refill_by_order */
	uint64_t refill_order_pages[PCPTOP_ORDER_SLOTS];
	struct pcpmodel_flushes flush[NR_PCPM_FLUSH];
	uint64_t free_high_high_cut; /* CNT_FREE_HIGH_HIGH_CUT */
	uint64_t decay_calls; /* CNT_DECAY_CALLS */
	uint64_t decay_trims; /* calls that lowered high: CNT_DECAY_TRIMS */
	uint64_t decay_high_cut; /* what they took off high */
	uint64_t decay_ignored; /* decay ticks under rules without decay */
	uint64_t drain_calls[NR_PCPM_DRAIN]; /* CNT_DRAIN_CALLS by reason */
	uint64_t pcp_allocs, pcp_frees;
	uint64_t buddy_allocs, buddy_frees; /* one zone->lock hold each */
	/* the replay's own bookkeeping */
	uint64_t events[NR_PCPM_EV];
	uint64_t events_rejected; /* out of range: CPU, zone, order, payload */
	uint64_t events_unseeded; /* a pageset no snapshot had seeded yet */
	uint64_t events_offline; /* allocations and frees on an offline CPU */
	/* allocations and frees while BELOW_HIGH or RECLAIM_ACTIVE */
	uint64_t events_below_high;
	/* snapshots after the first of their pageset */
	uint64_t snapshots;
	uint64_t snapshots_drifted; /* count or high differed */
	uint64_t count_drift_abs_sum, count_drift_abs_max;
	uint64_t high_drift_abs_sum, high_drift_abs_max;
	uint64_t snapshots_inconsistent; /* lists not summing to count */
	/*
	 * Against a reference (pcpmodel_set_reference()): allocations that
	 * entered direct reclaim in this replay and not in the reference,
	 * the pages those reclaims freed, and the drain_all_pages() added
	 * after them (drain_calls has their drain_pages_zone() calls as
	 * PCPM_DRAIN_ALL), with those added after the trace's reclaims
	 * whose retry fails in this replay and did not in the record; and
	 * the trace's reclaims whose drain this replay leaves out
	 * (pcpmodel_reclaim.c)
	 */
	uint64_t reclaim_added, reclaim_pages, drains_added, drains_spared;
	/*
	 * The trace's own direct reclaims (RECLAIM events, format 1.7), and
	 * of the order-0 ones that reclaimed something, [at or under the
	 * mark at their end in this replay][the record drained after them]:
	 * at the recorded scale, how far the zone's free pages explain the
	 * record's drains (pcpmodel_reclaim.c); their marks after a min read.
	 */
	uint64_t reclaims, reclaim_marks_counted, reclaim_mark_over_min_sum;
	uint64_t isolated_pages; /* ISOLATE events' pages */
	uint64_t reclaim_decided[2][2];
	/*
	 * the same by the kernel's own free pages against its mark, where
	 * the trace has it (PCPM_ZFIELD_MARK): how far the rule itself
	 * explains the record's drains
	 */
	uint64_t reclaim_kernel_decided[2][2];
	size_t series_len;
	uint64_t series_dropped; /* points past series_cap */
};

/* every zone->lock acquisition the replay counts */
uint64_t pcpmodel_zone_lock_acquisitions(const struct pcpmodel_result *r);

struct pcpmodel;

/* 0, -EINVAL for a config out of range, -ENOMEM */
int pcpmodel_new(const struct pcpmodel_config *cfg, struct pcpmodel **out);
void pcpmodel_free(struct pcpmodel *m);

/*
 * One event; the stream supplies the payloads of snapshots and zone
 * states (NULL when the event has none). 0, -EINVAL for an event out of
 * range (counted in events_rejected), -ENODATA for one whose pageset is
 * not seeded yet (events_unseeded).
 */
int pcpmodel_apply(struct pcpmodel *m, const struct pcpmodel_event *ev,
		   const struct pcpmodel_stream *payloads);
/*
 * The stream's end, after the last pcpmodel_apply(): a decay whose
 * DECAY_END never came (lost, or past the window) frees its chunks.
 */
void pcpmodel_end(struct pcpmodel *m);
/* every event of a stream, then pcpmodel_end(); rejected ones are counted */
void pcpmodel_replay(struct pcpmodel *m, const struct pcpmodel_stream *s);

/*
 * ref replays the same stream at the recorded scale, each event applied
 * to it before this model: where the free pages this model's lists leave
 * a zone cross a watermark the reference's do not, the zone's flags and
 * direct reclaim (with its drains) move from the record (pcpmodel.h's
 * head).
 * NULL: as recorded. -EINVAL for a model of other CPUs or zones, or m.
 */
int pcpmodel_set_reference(struct pcpmodel *m, const struct pcpmodel *ref);
/*
 * a zone's free pages as the replay's lists leave them (NR_FREE_PAGES);
 * -ENODATA before the trace's first watermark read
 */
int pcpmodel_zone_free(const struct pcpmodel *m, unsigned int zone,
		       int64_t *free);

/* seed (or overwrite) one pageset's state, as a first snapshot does */
int pcpmodel_set_pcp(struct pcpmodel *m, unsigned int cpu, unsigned int zone,
		     const struct pcpmodel_pcp_state *st);
/* a pageset's modelled state, with every field and its lists */
int pcpmodel_get_pcp(const struct pcpmodel *m, unsigned int cpu,
		     unsigned int zone, struct pcpmodel_pcp_state *st);
/* the modelled pages of the lists snapshots did not place */
int pcpmodel_unknown_pages(const struct pcpmodel *m, unsigned int cpu,
			   unsigned int zone, int *pages);
int pcpmodel_set_zone(struct pcpmodel *m, unsigned int zone,
		      const struct pcpmodel_zone_state *st);
const struct pcpmodel_result *pcpmodel_result(const struct pcpmodel *m);
/*
 * Counting starts again here, the pagesets kept: events applied before
 * set state only (a recording's figures start at its first snapshot,
 * its trace earlier). The series is not restarted.
 */
void pcpmodel_restart_count(struct pcpmodel *m);
const struct pcpmodel_config *pcpmodel_config(const struct pcpmodel *m);

/*
 * What a locked call costs, by the log2 bucket of its pages
 * (pcpmodel_cost.c). A recording's pages-per-call histogram and its
 * time-per-call histogram of the same calls are paired quantile by
 * quantile: the q-th call by pages is taken to be the q-th by time,
 * which holds where a call's time grows with its pages and blurs where
 * calls of one size spread in time, as they do under TCG
 * (docs/ACCURACY.md). That gives each pages bucket its calls' mean
 * time, their shares of the time slots and the longest of them, and a
 * replay's call is priced by its own pages' bucket. A bucket the
 * recording never saw is priced from the nearest one it did, at that
 * bucket's ns a page: an extrapolation, counted apart
 * (pcpmodel_cost_sum.outside).
 *
 * Where the recording also has each bucket's time summed in the kernel
 * (HIST_*_NS_BY_PAGES, 1.7), a bucket's mean time is that sum over its
 * calls, exact; the pairing then gives only the spread over time slots,
 * and only a bucket holding a share of the pages prices other sizes.
 * Paired alone, calls of one size that spread in time put the fast ones
 * in the small buckets and the slow ones in the large: under reclaim
 * that priced another scale's lock hold total 22-27 % off.
 */
struct pcpmodel_cost_bucket {
	double calls; /* the recording's calls in it; 0: never seen */
	double pages; /* their mean pages (estimated: pcpmodel_cost.c) */
	double mean_ns;
	double max_ns; /* the longest of them */
	double share[PCPTOP_HIST_SLOTS]; /* of its calls, by time slot */
	bool prices_others; /* may price a size never seen (pcpmodel_cost.c) */
};

struct pcpmodel_cost_table {
	struct pcpmodel_cost_bucket b[PCPTOP_HIST_SLOTS];
	int lo, hi; /* the lowest and the highest bucket seen */
	int nr_seen;
	bool exact_means; /* mean_ns from the kernel's sums, not the pairing */
	uint64_t calls, timed; /* the recording's calls, and those timed */
	double total_ns;
};

/* what a recording measured of its locked calls */
struct pcpmodel_cost_in {
	const uint64_t *pages_slots; /* pages a call: PCPTOP_HIST_SLOTS */
	uint64_t pages, max_pages; /* their sum, the largest call */
	const uint64_t *ns_slots; /* time a call, of the same calls */
	uint64_t ns, max_ns;
	/* their time summed by pages bucket; NULL or all 0: not recorded */
	const uint64_t *ns_by_pages;
};

/* 0; -ENODATA without calls or without timed calls */
int pcpmodel_cost_table(const struct pcpmodel_cost_in *in,
			struct pcpmodel_cost_table *t);

/* a replay's calls priced, added up over pcpmodel_cost_price() calls */
struct pcpmodel_cost_sum {
	double slots[PCPTOP_HIST_SLOTS]; /* calls by time slot, in shares */
	double total_ns, max_ns;
	uint64_t calls;
	uint64_t outside; /* of them, priced from another size's bucket */
};

/* every call of sizes (exact below PCPM_CALL_PAGES_EXACT) into sum */
void pcpmodel_cost_price(const struct pcpmodel_call_sizes *sizes,
			 const struct pcpmodel_cost_table *t,
			 struct pcpmodel_cost_sum *sum);
/* sum's calls by time slot, rounded to add up to sum->calls */
void pcpmodel_cost_slots(const struct pcpmodel_cost_sum *sum,
			 uint64_t slots[PCPTOP_HIST_SLOTS]);

#endif /* PCPTOP_PCPMODEL_H */
