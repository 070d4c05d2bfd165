/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every probe shares: the settings the loader writes before the load,
 * the maps the loader reads (histograms and counters per epoch, zone,
 * order and migratetype), the per-CPU state and the calls in flight, and
 * the helpers that bucket a value into them. Included by pcptop.bpf.c
 * first: everything after it writes through these.
 */
#ifndef PCPTOP_STATE_BPF_H
#define PCPTOP_STATE_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "compat.bpf.h"
#include "pcptop.h"
#include "log2.bpf.h"

/*
 * Tracepoint mode: events closer than this on one CPU belong to one
 * free_pcppages_bulk / rmqueue_bulk call (see docs/ACCURACY.md for when
 * runs merge or split).
 */
const volatile __u64 run_gap_ns = 5000;
/* the commit function is probed (--exact-free-high): free_high exactly */
const volatile bool free_high_exact;
/* the allocator's entry points are probed (--latency) */
const volatile bool latency_on;
/*
 * The commit function frees a flush in chunks of pcp->batch, dropping
 * the pcp lock between them (compat.bpf.h: compat_flush_chunked()). Set
 * by the loader from the commit function's BTF prototype.
 */
const volatile bool flush_chunked;
/*
 * The free_high rule the loader took from its evidence (enum
 * pcptop_free_high_rule), or -1: compat_free_high_rule() decides.
 */
const volatile int free_high_rule_set = -1;

/*
 * Tracepoint mode: no single call moves more than batch << scale pages, so
 * runs are cut there (drain chunks follow each other with nothing between).
 * Set by the loader once it knows batch and the scale; 0 = no cut.
 */
__u64 run_max_pages;
/* the scale in force as the loader read it, -1 when unknown */
int scale_in_force = -1;

/* which copy of the map keys the probes write, flipped by the loader */
__u32 epoch;

/* pcp_batch_scale_max read on demand through BPF_PROG_TEST_RUN */
__u64 kvar_addr;
int kvar_value;
int kvar_err;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PCPTOP_NR_HIST_KEYS *PCPTOP_EPOCHS);
	__type(key, __u32);
	__type(value, struct pcptop_hist_val);
} hists SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, PCPTOP_NR_COUNTER_KEYS *PCPTOP_EPOCHS);
	__type(key, __u32);
	__type(value, struct pcptop_counter_val);
} counters SEC(".maps");

/* what a bulk free was called for, decided at its entry */
enum call_ctx { CTX_COMMIT, CTX_DECAY, CTX_DRAIN };

/*
 * Calls of different kinds on one pcp may follow each other: the key is
 * the pointer with the kind in its low bits, which alignment leaves free.
 */
enum call_kind { KIND_BULK = 1, KIND_REFILL };

static __always_inline __u64 call_key(const void *p, int kind)
{
	return compat_addr(p) | kind;
}

/* a call in flight, from its entry to its exit */
struct inflight {
	__u64 start_ns;
	__u64 irq0; /* this CPU's interrupt time at entry */
	__u64 wait0; /* ... and its zone->lock wait */
	__u64 waits0;
	__u64 prev_lock; /* the lock of the call this one nests in */
	__u64 pcp; /* the pcp (kprobe exits have no arguments) */
	int cpu;
	int count_before; /* pcp->count at entry */
	int count_arg;
	int pindex;
	int zone;
	int order; /* refill */
	int mt;
	int ctx; /* enum call_ctx */
	int owner; /* drain: the CPU whose pageset it is */
	int caller; /* drain: enum pcptop_drain_caller */
	int prev_zone; /* the zone of the call this one nests in */
	bool busy; /* zone->lock was taken at entry */
	bool free_high; /* inferred at entry */
	bool cont; /* a further chunk of its task's flush (flush_chunked) */
	__u64 prev_call; /* the key of the call this one nests in */
	__u64 xcheck; /* --cross-check pages seen inside the call */
};

/*
 * Keyed by the pcp (a bulk free or decay holds its lock) or the pcp list
 * (a refill), so a flush an interrupt nests on another zone's pcp, a
 * preempted call on PREEMPT_RT or a task that migrates keep their own
 * entry. Kprobe exits carry no arguments: there the key is the CPU and
 * the nesting depth, calls on one CPU being strictly nested there.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4096);
	__type(key, __u64);
	__type(value, struct inflight);
} inflight SEC(".maps");

/*
 * decay_pcp_high, drain_pages_zone and the commit function in progress,
 * each by task (task_key()): on 7.x all three drop the pcp lock between
 * their bulk calls, and another task, or an interrupt, may free on the
 * same pcp in between, nesting a call of its own. The pcp is kept to
 * tell which bulk calls are theirs. (Keyed by pcp, a decay took the bulk
 * frees of compaction's drain_all_pages draining the same pageset from
 * another CPU: kprobe-s5's stalls window booked 6048 drained pages as
 * decay's.)
 */
struct decay_call {
	__u64 pcp;
	__u64 pages;
	int high_before;
	int zone;
	int calls;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, struct decay_call);
} decays SEC(".maps");

/* drain_pages_zone's chunks belong to the owner */
struct drain_call {
	__u64 pages;
	int owner;
	int zone;
	int caller; /* enum pcptop_drain_caller */
	int calls;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, struct drain_call);
} drains SEC(".maps");

/* the commit function (--exact-free-high): one flush at most per call */
struct commit_call {
	__u64 pcp;
	__u64 pages;
	int zone;
	int order;
	int mt;
	int high_before; /* pcp->high at entry: 6.7+ lowers it on free_high */
	int calls;
	bool free_high;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, struct commit_call);
} commits SEC(".maps");

/*
 * Without the commit function probed, on a kernel whose commit function
 * chunks its flush: the last chunk its task bulk-freed in commit context,
 * so that the next one, if it continues the flush, adds to it. A chunk
 * continues a flush when its task's previous chunk was a whole batch, left
 * pages behind, and nothing touched the pcp since: its count and its
 * free_count are the same. The count alone joined a task's next flush to
 * its last when an allocation and a free in between left it unchanged
 * (k73-s5, clean clone of 2026-12-05: 3045 flushes against the kernel's
 * 3046); the allocation halves free_count, the free adds its pages.
 */
struct flush_run {
	__u64 pcp;
	__u64 exit_ns;
	__u64 pages;
	__u32 calls;
	__u32 epoch;
	int count_after;
	int free_count; /* pcp->free_count after it (7.x has it) */
	int zone;
	int oslot;
	int mslot;
	bool open; /* the kernel may send another chunk */
	bool free_high;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, struct flush_run);
} flush_runs SEC(".maps");

enum run_kind { RUN_NONE, RUN_FREE, RUN_REFILL };

struct event_run {
	__u64 start_ns;
	__u64 last_ns;
	__u64 pages;
	int kind;
	int order; /* of the first page: drain/decay start at pindex 0 */
	int mt;
};

/* per CPU: interrupt and lock-wait clocks, kprobe nesting, tracepoint runs */
struct cpu_state {
	__u64 irq_ns; /* time in hard and soft interrupts, ever */
	__u64 irq_start;
	__u64 wait_ns; /* zone->lock contention inside calls, ever */
	__u64 waits;
	__u64 wait_start;
	__u64 cur_lock; /* zone->lock of the innermost call, or 0 */
	__u64 cur_call; /* its inflight key, or 0 */
	int cur_zone; /* its zone, for the pages its events name */
	int irq_depth;
	int kp_depth;
	struct event_run run;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cpu_state);
} cpu_states SEC(".maps");

#define KP_MAX_DEPTH 8
/* kprobe keys live above every kernel address's low bits */
#define KP_KEY(cpu, depth) (((__u64)(cpu) << 8) | (depth) | (1ULL << 62))

static __always_inline struct cpu_state *cpu_state(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cpu_states, &zero);
}

/*
 * The map copy an event goes to, read once per event so its counters and
 * histograms all land in the same interval.
 */
static __always_inline __u32 cur_epoch(void)
{
	return epoch & 1;
}

/* the slot of v, the last one holding everything larger */
static __always_inline __u32 hist_slot(__u64 v)
{
	__u32 slot = log2_slot(v);

	return slot < PCPTOP_HIST_SLOTS ? slot : PCPTOP_HIST_SLOTS - 1;
}

static __always_inline struct pcptop_hist_val *hist_of(__u32 ep, int zone,
						       int hist)
{
	__u32 key = pcptop_hist_key(zone, hist) + ep * PCPTOP_NR_HIST_KEYS;

	return bpf_map_lookup_elem(&hists, &key);
}

static __always_inline void hist_at(struct pcptop_hist_val *h, __u64 v,
				    bool atomic)
{
	__u32 slot = hist_slot(v);

	if (atomic)
		__sync_fetch_and_add(&h->slots[slot], 1);
	else
		h->slots[slot]++;
	/* a lost race leaves a smaller max, never a wrong one */
	if (v > h->max)
		h->max = v;
}

static __always_inline void hist_record(__u32 ep, int zone, int hist, __u64 v)
{
	struct pcptop_hist_val *h = hist_of(ep, zone, hist);

	if (h)
		hist_at(h, v, false);
}

/* a weighted histogram's slot of v gains w: HIST_*_NS_BY_PAGES */
static __always_inline void hist_weigh(__u32 ep, int zone, int hist, __u64 v,
				       __u64 w)
{
	struct pcptop_hist_val *h = hist_of(ep, zone, hist);

	if (!h)
		return;
	h->slots[hist_slot(v)] += w;
	if (v > h->max)
		h->max = v;
}

static __always_inline struct pcptop_counter_val *
counters_of(__u32 ep, int zone, int oslot, int mslot)
{
	__u32 key = pcptop_counter_key(zone, oslot, mslot) +
		    ep * PCPTOP_NR_COUNTER_KEYS;

	return bpf_map_lookup_elem(&counters, &key);
}

static __always_inline void count_in(struct pcptop_counter_val *cnt,
				     int counter, __u64 v)
{
	if (cnt && counter >= 0 && counter < NR_PCPTOP_COUNTERS)
		cnt->c[counter] += v;
}

static __always_inline void count_add(__u32 ep, int zone, int oslot, int mslot,
				      int counter, __u64 v)
{
	count_in(counters_of(ep, zone, oslot, mslot), counter, v);
}

/*
 * A drain chunk is the owning CPU's work, whichever CPU ran it: its counts
 * go to the owner's copy of the maps, added atomically since the owner may
 * be counting into them at the same moment.
 */
static __always_inline void drain_record(__u32 ep, int owner, int zone,
					 int caller, __u64 pages)
{
	__u32 key =
		pcptop_counter_key(zone, 0, 0) + ep * PCPTOP_NR_COUNTER_KEYS;
	__u32 hkey = pcptop_hist_key(zone, HIST_DRAIN_PAGES) +
		     ep * PCPTOP_NR_HIST_KEYS;
	struct pcptop_counter_val *cnt;
	struct pcptop_hist_val *h;

	cnt = bpf_map_lookup_percpu_elem(&counters, &key, owner);
	if (cnt) {
		__sync_fetch_and_add(&cnt->c[CNT_DRAIN_CHUNKS], 1);
		__sync_fetch_and_add(&cnt->c[CNT_DRAIN_PAGES], pages);
		/* a CPU going offline is a reason of its own */
		if (caller == DRAIN_BY_OFFLINE)
			__sync_fetch_and_add(&cnt->c[CNT_REASON_OFFLINE_PAGES],
					     pages);
		else
			__sync_fetch_and_add(&cnt->c[CNT_REASON_DRAIN_PAGES],
					     pages);
	}
	h = bpf_map_lookup_percpu_elem(&hists, &hkey, owner);
	if (h)
		hist_at(h, pages, true);
}

static __always_inline bool in_interrupt(const struct cpu_state *st)
{
	return st && st->irq_depth > 0;
}

/*
 * The key of a task's call in progress: its pid, and above the bits a pid
 * and tgid use, how deep in interrupts it runs, so that an interrupt that
 * frees pages inside a task's flush keeps an entry of its own. Every
 * CPU's idle task is pid 0 (tgid 0): there the CPU takes the tgid's bits,
 * or an interrupt freeing in the idle loop of one CPU takes the entry of
 * one freeing in the idle loop of another (a softirq's commit and its
 * flush on two idle CPUs at once: the flush finds the other CPU's commit
 * and is booked as an ordinary one).
 */
static __always_inline __u64 task_key(const struct cpu_state *st)
{
	__u64 depth = st && st->irq_depth > 0 ? st->irq_depth : 0;
	__u64 id = bpf_get_current_pid_tgid();

	if (depth > 3)
		depth = 3;
	if (!id)
		id = (__u64)bpf_get_smp_processor_id() << 32;
	return id | (depth << 60);
}

/* a histogram sample that grows: its old value's slot gives it up */
static __always_inline void hist_move(__u32 ep, int zone, int hist, __u64 from,
				      __u64 to)
{
	struct pcptop_hist_val *h = hist_of(ep, zone, hist);
	__u32 slot = hist_slot(from);

	if (!h)
		return;
	if (h->slots[slot])
		h->slots[slot]--;
	hist_at(h, to, false);
}

/* a flush whose pages and bulk calls are all known */
static __always_inline void flush_book(__u32 ep, int zone, __u64 pages,
				       __u64 calls)
{
	struct pcptop_counter_val *cnt = counters_of(ep, zone, 0, 0);

	count_in(cnt, CNT_FLUSHES, 1);
	count_in(cnt, CNT_FLUSH_PAGES, pages);
	count_in(cnt, CNT_FLUSH_CALLS, calls);
	hist_record(ep, zone, HIST_FLUSH_PAGES, pages);
	hist_record(ep, zone, HIST_FLUSH_CALLS, calls);
}

#endif /* PCPTOP_STATE_BPF_H */
