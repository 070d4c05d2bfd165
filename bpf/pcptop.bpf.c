// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop's probes. Each kernel function has an fentry/fexit pair and a
 * kprobe/kretprobe twin calling the same handler; kmem tracepoints stand in
 * where neither attaches, and interrupt and lock tracepoints time what runs
 * inside the calls. The loader picks one flavour per probe and turns the
 * others' autoload off. Everything here only counts and buckets.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "compat.bpf.h"
#include "pcptop.h"
#include "rawtp.bpf.h"

char LICENSE[] SEC("license") = "GPL";

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
 * Calls of different kinds on one pcp nest (decay's bulk frees): the key
 * is the pointer with the kind in its low bits, which alignment leaves free.
 */
enum call_kind { KIND_BULK = 1, KIND_REFILL, KIND_DECAY };

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
	bool busy; /* zone->lock was taken at entry */
	bool free_high; /* inferred at entry */
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

/* decay_pcp_high in progress, by pcp: what its bulk frees add up to */
struct decay_call {
	__u64 pages;
	int high_before;
	int zone;
	bool freed;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, struct decay_call);
} decays SEC(".maps");

/* drain_pages_zone in progress, by task: its chunks belong to the owner */
struct drain_call {
	int owner;
	int zone;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, struct drain_call);
} drains SEC(".maps");

/* the commit function in progress, by pcp (--exact-free-high) */
struct commit_call {
	__u64 pages;
	int zone;
	int order;
	int mt;
	int high_before; /* pcp->high at entry: 6.7+ lowers it on free_high */
	bool free_high;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, struct commit_call);
} commits SEC(".maps");

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

static __always_inline __u32 log2_slot(__u64 v)
{
	__u32 r = 0;

	/* unrolled binary search, as libbpf-tools' bits.bpf.h does */
	if (v >> 32) {
		v >>= 32;
		r += 32;
	}
	if (v >> 16) {
		v >>= 16;
		r += 16;
	}
	if (v >> 8) {
		v >>= 8;
		r += 8;
	}
	if (v >> 4) {
		v >>= 4;
		r += 4;
	}
	if (v >> 2) {
		v >>= 2;
		r += 2;
	}
	if (v >> 1)
		r += 1;
	return r;
}

/*
 * The map copy an event goes to, read once per event so its counters and
 * histograms all land in the same interval.
 */
static __always_inline __u32 cur_epoch(void)
{
	return epoch & 1;
}

static __always_inline void hist_at(struct pcptop_hist_val *h, __u64 v,
				    bool atomic)
{
	__u32 slot = log2_slot(v);

	if (slot >= PCPTOP_HIST_SLOTS)
		slot = PCPTOP_HIST_SLOTS - 1;
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
	__u32 key = pcptop_hist_key(zone, hist) + ep * PCPTOP_NR_HIST_KEYS;
	struct pcptop_hist_val *h = bpf_map_lookup_elem(&hists, &key);

	if (h)
		hist_at(h, v, false);
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
					 __u64 pages)
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
	}
	h = bpf_map_lookup_percpu_elem(&hists, &hkey, owner);
	if (h)
		hist_at(h, pages, true);
}

static __always_inline bool in_interrupt(const struct cpu_state *st)
{
	return st && st->irq_depth > 0;
}

#include "latency.bpf.h"

/* ---- the scale: only what proves it ---- */

/* free_count grows by a page's order past its cap at most */
#define FREE_COUNT_OVERSHOOT (1 << PCPTOP_PAGE_ALLOC_COSTLY_ORDER)

/* the smallest s for which batch << s could have held n pages */
static __always_inline int scale_for(__u64 n, int batch)
{
	int s;

	if (batch <= 0)
		return -1;
	for (s = 0; s <= PCPTOP_SCALE_MAX; s++)
		if (((__u64)batch << s) >= n)
			return s;
	return PCPTOP_SCALE_MAX;
}

/*
 * At a bulk free: the factor the scale caps, free_count (it stops growing
 * at batch << scale, overshooting by less than the order of one page),
 * and a drain chunk the scale cut short, which equals batch << scale.
 */
static __always_inline void scale_evidence(__u32 ep, int zone,
					   struct per_cpu_pages *pcp,
					   const struct inflight *f, int batch)
{
	int fc = compat_free_count(pcp);
	int lb = compat_pcp_factor(pcp);
	int s;

	/* it stops below batch << scale + (1 << PAGE_ALLOC_COSTLY_ORDER) */
	if (fc >= FREE_COUNT_OVERSHOOT) {
		s = scale_for(fc - FREE_COUNT_OVERSHOOT + 1, batch);
		if (s > lb)
			lb = s;
	}
	if (lb >= 0 && lb <= PCPTOP_SCALE_MAX)
		hist_record(ep, zone, HIST_SCALE_AT_LEAST, lb);
	if (f->ctx != CTX_DRAIN || f->count_arg <= 0 || batch <= 0)
		return;
	s = scale_for(f->count_arg, batch);
	/* capped: asked for less than the pageset held, exactly batch << s */
	if (f->count_arg < f->count_before &&
	    (__u64)batch << s == (__u64)f->count_arg)
		hist_record(ep, zone, HIST_SCALE_EXACT, s);
	else
		hist_record(ep, zone, HIST_SCALE_AT_LEAST, s);
}

/* ---- the time a call took, and what ran inside it ---- */

struct call_times {
	__u64 call;
	__u64 irq;
	__u64 wait;
	__u64 waits;
	__u64 hold;
};

static __always_inline void times_of(const struct inflight *f,
				     struct cpu_state *st, __u64 now,
				     struct call_times *t)
{
	t->call = now - f->start_ns;
	t->irq = t->wait = t->waits = 0;
	/* the clocks are per CPU: a call that moved has no deltas */
	if (st && f->cpu == (int)bpf_get_smp_processor_id()) {
		t->irq = st->irq_ns - f->irq0;
		t->wait = st->wait_ns - f->wait0;
		t->waits = st->waits - f->waits0;
		st->cur_lock = f->prev_lock;
		st->cur_call = f->prev_call;
	}
	if (t->irq + t->wait > t->call)
		t->irq = t->wait = 0;
	t->hold = t->call - t->irq - t->wait;
}

static __always_inline void record_times(__u32 ep, int zone,
					 struct pcptop_counter_val *cnt,
					 const struct inflight *f,
					 const struct call_times *t,
					 int call_hist, int call_counter)
{
	count_in(cnt, call_counter, t->call);
	count_in(cnt, CNT_LOCK_HOLD_NS, t->hold);
	count_in(cnt, CNT_LOCK_WAIT_NS, t->wait);
	count_in(cnt, CNT_LOCK_WAITS, t->waits);
	count_in(cnt, CNT_LOCK_BUSY, f->busy);
	count_in(cnt, CNT_IRQ_IN_CALL_NS, t->irq);
	count_in(cnt, CNT_IRQS_OFF_NS, t->hold + t->wait);
	hist_record(ep, zone, call_hist, t->call);
	hist_record(ep, zone, HIST_LOCK_HOLD_NS, t->hold);
	hist_record(ep, zone, HIST_IRQS_OFF_NS, t->hold + t->wait);
	if (t->waits)
		hist_record(ep, zone, HIST_LOCK_WAIT_NS, t->wait);
}

static __always_inline void call_begin(__u64 key, struct inflight *f,
				       struct cpu_state *st, struct zone *zone)
{
	f->cpu = bpf_get_smp_processor_id();
	f->zone = compat_zone_idx(zone);
	f->busy = compat_lock_busy(zone);
	if (st) {
		f->irq0 = st->irq_ns;
		f->wait0 = st->wait_ns;
		f->waits0 = st->waits;
		f->prev_lock = st->cur_lock;
		f->prev_call = st->cur_call;
		st->cur_lock = compat_zone_lock_addr(zone);
		st->cur_call = key;
	}
}

/*
 * Stamp the call's start as the last thing before it is stored: whatever
 * this program does after the clock is read counts as the call's time.
 */
static __always_inline void call_store(__u64 key, struct inflight *f)
{
	f->start_ns = bpf_ktime_get_ns();
	bpf_map_update_elem(&inflight, &key, f, BPF_ANY);
}

static __always_inline __u64 kp_push(struct cpu_state *st)
{
	int d;

	if (!st)
		return 0;
	d = st->kp_depth;
	if (d < 0 || d >= KP_MAX_DEPTH)
		return 0;
	st->kp_depth = d + 1;
	return KP_KEY(bpf_get_smp_processor_id(), d);
}

static __always_inline __u64 kp_pop(struct cpu_state *st)
{
	int d;

	if (!st || st->kp_depth <= 0)
		return 0;
	d = --st->kp_depth;
	return KP_KEY(bpf_get_smp_processor_id(), d);
}

/* ---- free_pcppages_bulk(zone, count, pcp, pindex) ---- */

/*
 * free_high from what a bulk free shows at its entry, when the commit
 * function is not probed. 6.1 frees the whole pageset on free_high
 * (count == pcp->count) and nothing else does: exact. 6.7+ frees
 * min(pcp->count, batch << scale): all of it proves free_high; exactly
 * batch << scale, with free_count past the threshold when the commit
 * function decided, is taken for it. Whether the previous free was of a
 * high order is not visible here, so an ordinary flush asking exactly
 * batch << scale is taken for one too: the oracle counts those
 * (free_high_lookalike in tests/vm/kernel/pcp-oracle.patch).
 */
static __always_inline bool infer_free_high(struct per_cpu_pages *pcp,
					    const struct inflight *f, int batch)
{
	int rule = compat_free_high_rule();
	int order = compat_pindex_order_slot(f->pindex);
	int fc, need;

	if (f->ctx != CTX_COMMIT || order < 1 ||
	    order > PCPTOP_PAGE_ALLOC_COSTLY_ORDER || f->count_before <= 0)
		return false;
	if (rule == FREE_HIGH_RULE_FREE_FACTOR)
		return f->count_arg >= f->count_before &&
		       compat_pcp_factor(pcp) > 0;
	if (f->count_arg >= f->count_before)
		return true;
	if (scale_in_force < 0 || scale_in_force > PCPTOP_SCALE_MAX ||
	    (__u64)f->count_arg != (__u64)batch << scale_in_force)
		return false;
	/*
	 * The commit function decided before adding this page to free_count,
	 * and adds nothing once free_count reached batch << scale.
	 */
	fc = compat_free_count(pcp);
	if (fc < (batch << scale_in_force))
		fc -= 1 << order;
	need = batch;
	if (rule == FREE_HIGH_RULE_HIGH_MIN)
		need += BPF_CORE_READ(pcp, high_min) >> 1;
	return fc >= need;
}

static __always_inline int bulk_enter(__u64 key, struct zone *zone, int count,
				      struct per_cpu_pages *pcp, int pindex)
{
	struct cpu_state *st = cpu_state();
	__u64 task = bpf_get_current_pid_tgid();
	struct inflight f = {};
	struct drain_call *dr;
	int batch;

	if (!key)
		return 0;
	if (latency_on)
		lat_mark(LAT_FREE);
	f.pcp = compat_addr(pcp);
	f.count_before = BPF_CORE_READ(pcp, count);
	f.count_arg = count;
	f.pindex = pindex;
	f.ctx = CTX_COMMIT;
	if (!in_interrupt(st)) {
		dr = bpf_map_lookup_elem(&drains, &task);
		if (bpf_map_lookup_elem(&decays, &f.pcp))
			f.ctx = CTX_DECAY;
		else if (dr && dr->zone == compat_zone_idx(zone)) {
			f.ctx = CTX_DRAIN;
			f.owner = dr->owner;
		}
	}
	batch = BPF_CORE_READ(pcp, batch);
	f.free_high = !free_high_exact && infer_free_high(pcp, &f, batch);
	call_begin(key, &f, st, zone);
	scale_evidence(cur_epoch(), f.zone, pcp, &f, batch);
	call_store(key, &f);
	return 0;
}

static __always_inline void free_high_record(__u32 ep, int zone, int oslot,
					     int mslot, __u64 pages)
{
	count_add(ep, zone, oslot, mslot, CNT_FREE_HIGH_COUNT, 1);
	count_add(ep, zone, oslot, mslot, CNT_FREE_HIGH_PAGES, pages);
	hist_record(ep, zone, HIST_FREE_HIGH_PAGES, pages);
}

static __always_inline int bulk_exit(__u64 key)
{
	struct cpu_state *st = cpu_state();
	struct pcptop_counter_val *cnt;
	struct per_cpu_pages *pcp;
	struct call_times t;
	struct inflight *f;
	__u32 ep = cur_epoch();
	__u64 now = bpf_ktime_get_ns();
	int oslot, mslot, zone;
	long pages;

	if (!key)
		return 0;
	f = bpf_map_lookup_elem(&inflight, &key);
	if (!f)
		return 0;
	/*
	 * The function clamps count to pcp->count and the caller holds the
	 * pcp lock: what pcp->count lost is exactly what reached the buddy.
	 */
	pcp = (struct per_cpu_pages *)f->pcp;
	pages = f->count_before - BPF_CORE_READ(pcp, count);
	if (pages < 0)
		pages = 0;
	times_of(f, st, now, &t);
	zone = f->zone;
	oslot = compat_pindex_order_slot(f->pindex);
	mslot = compat_pindex_mt_slot(f->pindex);
	cnt = counters_of(ep, zone, oslot, mslot);
	count_in(cnt, CNT_BULK_FREE_CALLS, 1);
	count_in(cnt, CNT_BULK_FREE_PAGES, pages);
	count_in(cnt, CNT_BULK_COUNT_ARG, f->count_arg > 0 ? f->count_arg : 0);
	count_in(cnt, CNT_XCHECK_DRAIN_PAGES, f->xcheck);
	hist_record(ep, zone, HIST_BULK_FREE_PAGES, pages);
	record_times(ep, zone, cnt, f, &t, HIST_BULK_CALL_NS, CNT_BULK_CALL_NS);

	if (f->ctx == CTX_DECAY) {
		struct decay_call *d = bpf_map_lookup_elem(&decays, &f->pcp);

		if (d)
			d->pages += pages;
	} else if (f->ctx == CTX_DRAIN) {
		drain_record(ep, f->owner, zone, pages);
	} else if (free_high_exact) {
		struct commit_call *c = bpf_map_lookup_elem(&commits, &f->pcp);

		if (c)
			c->pages += pages;
	} else if (f->free_high) {
		free_high_record(ep, zone, oslot, mslot, pages);
	}
	bpf_map_delete_elem(&inflight, &key);
	return 0;
}

/* ---- rmqueue_bulk(zone, order, count, list, migratetype, alloc_flags) ---- */

static __always_inline int refill_enter(__u64 key, struct zone *zone,
					unsigned int order, unsigned long count,
					int migratetype)
{
	struct cpu_state *st = cpu_state();
	struct inflight f = {};

	if (!key)
		return 0;
	if (latency_on)
		lat_mark(LAT_ALLOC);
	f.order = order;
	f.mt = migratetype;
	f.count_arg = count;
	call_begin(key, &f, st, zone);
	call_store(key, &f);
	return 0;
}

static __always_inline int refill_exit(__u64 key, long ret)
{
	struct cpu_state *st = cpu_state();
	struct pcptop_counter_val *cnt;
	struct call_times t;
	struct inflight *f;
	__u32 ep = cur_epoch();
	__u64 now = bpf_ktime_get_ns(), pages;
	int zone;

	if (!key)
		return 0;
	f = bpf_map_lookup_elem(&inflight, &key);
	if (!f)
		return 0;
	if (ret < 0)
		ret = 0;
	times_of(f, st, now, &t);
	pages = (__u64)ret << (f->order & 31);
	zone = f->zone;
	cnt = counters_of(ep, zone, compat_order_slot(f->order),
			  compat_mt_slot(f->mt));
	count_in(cnt, CNT_REFILL_CALLS, 1);
	count_in(cnt, CNT_REFILL_REQ_PAGES,
		 (__u64)f->count_arg << (f->order & 31));
	count_in(cnt, CNT_REFILL_PAGES, pages);
	hist_record(ep, zone, HIST_REFILL_PAGES, pages);
	record_times(ep, zone, cnt, f, &t, HIST_REFILL_CALL_NS,
		     CNT_REFILL_CALL_NS);
	bpf_map_delete_elem(&inflight, &key);
	return 0;
}

/* ---- decay_pcp_high(zone, pcp): vmstat's periodic shrink of pcp->high ---- */

static __always_inline int decay_enter(__u64 key, struct zone *zone,
				       struct per_cpu_pages *pcp)
{
	struct decay_call d = {};
	struct inflight f = {};
	__u64 p = compat_addr(pcp);

	if (!key)
		return 0;
	d.zone = compat_zone_idx(zone);
	d.high_before = BPF_CORE_READ(pcp, high);
	bpf_map_update_elem(&decays, &p, &d, BPF_ANY);
	f.pcp = p;
	bpf_map_update_elem(&inflight, &key, &f, BPF_ANY);
	return 0;
}

static __always_inline int decay_exit(__u64 key)
{
	struct pcptop_counter_val *cnt;
	struct per_cpu_pages *pcp;
	struct decay_call *d;
	struct inflight *f;
	__u32 ep = cur_epoch();
	int high;

	if (!key)
		return 0;
	f = bpf_map_lookup_elem(&inflight, &key);
	if (!f)
		return 0;
	d = bpf_map_lookup_elem(&decays, &f->pcp);
	if (d) {
		pcp = (struct per_cpu_pages *)f->pcp;
		high = BPF_CORE_READ(pcp, high);
		cnt = counters_of(ep, d->zone, 0, 0);
		count_in(cnt, CNT_DECAY_CALLS, 1);
		count_in(cnt, CNT_DECAY_TRIMS, high < d->high_before);
		count_in(cnt, CNT_DECAY_FREES, d->pages > 0);
		count_in(cnt, CNT_DECAY_PAGES, d->pages);
		count_in(cnt, CNT_DECAY_HIGH_BEFORE, d->high_before);
		count_in(cnt, CNT_DECAY_HIGH_AFTER, high);
		if (d->pages)
			hist_record(ep, d->zone, HIST_DECAY_PAGES, d->pages);
		bpf_map_delete_elem(&decays, &f->pcp);
	}
	bpf_map_delete_elem(&inflight, &key);
	return 0;
}

/* ---- drain_pages_zone(cpu, zone): hotplug, compaction, drain_all_pages() ---- */

static __always_inline int drain_enter(unsigned int cpu, struct zone *zone)
{
	__u64 task = bpf_get_current_pid_tgid();
	struct drain_call d = {};

	d.owner = cpu;
	d.zone = compat_zone_idx(zone);
	bpf_map_update_elem(&drains, &task, &d, BPF_ANY);
	return 0;
}

static __always_inline int drain_exit(void)
{
	__u64 task = bpf_get_current_pid_tgid();
	struct drain_call *d = bpf_map_lookup_elem(&drains, &task);
	__u32 key;
	struct pcptop_counter_val *cnt;

	if (!d)
		return 0;
	key = pcptop_counter_key(d->zone, 0, 0) +
	      cur_epoch() * PCPTOP_NR_COUNTER_KEYS;
	cnt = bpf_map_lookup_percpu_elem(&counters, &key, d->owner);
	if (cnt)
		__sync_fetch_and_add(&cnt->c[CNT_DRAIN_CALLS], 1);
	bpf_map_delete_elem(&drains, &task);
	return 0;
}

/* ---- the commit function (--exact-free-high): every free ---- */

static __always_inline int commit_enter(struct zone *zone,
					struct per_cpu_pages *pcp, int mt,
					unsigned int order)
{
	struct commit_call c = {};
	__u64 p = compat_addr(pcp);

	c.free_high = compat_commit_free_high(pcp, order);
	c.high_before = BPF_CORE_READ(pcp, high);
	c.zone = compat_zone_idx(zone);
	c.order = order;
	c.mt = mt;
	bpf_map_update_elem(&commits, &p, &c, BPF_ANY);
	return 0;
}

static __always_inline int commit_exit(__u64 p)
{
	struct commit_call *c = bpf_map_lookup_elem(&commits, &p);
	int high_after;

	if (!c)
		return 0;
	/* newer kernels flush in batch-sized chunks: one flush, many calls */
	if (c->free_high && c->pages)
		free_high_record(cur_epoch(), c->zone,
				 compat_order_slot(c->order),
				 compat_mt_slot(c->mt), c->pages);
	/*
	 * 6.7+ (nr_pcp_high) lowers pcp->high by batch << scale on free_high;
	 * this runs on every page freed: read high only when it can have moved
	 */
	if (c->free_high) {
		high_after = BPF_CORE_READ((struct per_cpu_pages *)p, high);
		if (high_after < c->high_before)
			count_add(cur_epoch(), c->zone,
				  compat_order_slot(c->order),
				  compat_mt_slot(c->mt), CNT_FREE_HIGH_HIGH_CUT,
				  c->high_before - high_after);
	}
	bpf_map_delete_elem(&commits, &p);
	return 0;
}

/* ---- fentry / fexit: the pcp or list is the key ---- */

SEC("fentry/free_pcppages_bulk")
int BPF_PROG(fe_bulk, struct zone *zone, int count, struct per_cpu_pages *pcp,
	     int pindex)
{
	return bulk_enter(call_key(pcp, KIND_BULK), zone, count, pcp, pindex);
}

SEC("fexit/free_pcppages_bulk")
int BPF_PROG(fx_bulk, struct zone *zone, int count, struct per_cpu_pages *pcp)
{
	return bulk_exit(call_key(pcp, KIND_BULK));
}

SEC("fentry/rmqueue_bulk")
int BPF_PROG(fe_refill, struct zone *zone, unsigned int order,
	     unsigned long count, struct list_head *list, int migratetype)
{
	return refill_enter(call_key(list, KIND_REFILL), zone, order, count,
			    migratetype);
}

SEC("fexit/rmqueue_bulk")
int BPF_PROG(fx_refill, struct zone *zone, unsigned int order,
	     unsigned long count, struct list_head *list, int migratetype,
	     unsigned int alloc_flags, int ret)
{
	return refill_exit(call_key(list, KIND_REFILL), ret);
}

SEC("fentry/decay_pcp_high")
int BPF_PROG(fe_decay, struct zone *zone, struct per_cpu_pages *pcp)
{
	return decay_enter(call_key(pcp, KIND_DECAY), zone, pcp);
}

SEC("fexit/decay_pcp_high")
int BPF_PROG(fx_decay, struct zone *zone, struct per_cpu_pages *pcp)
{
	return decay_exit(call_key(pcp, KIND_DECAY));
}

SEC("fentry/drain_pages_zone")
int BPF_PROG(fe_drain, unsigned int cpu, struct zone *zone)
{
	return drain_enter(cpu, zone);
}

SEC("fexit/drain_pages_zone")
int BPF_PROG(fx_drain)
{
	return drain_exit();
}

/* the loader retargets these at free_frozen_page_commit where renamed */
SEC("fentry/free_unref_page_commit")
int BPF_PROG(fe_commit, struct zone *zone, struct per_cpu_pages *pcp,
	     struct page *page, int migratetype, unsigned int order)
{
	return commit_enter(zone, pcp, migratetype, order);
}

SEC("fexit/free_unref_page_commit")
int BPF_PROG(fx_commit, struct zone *zone, struct per_cpu_pages *pcp)
{
	return commit_exit(compat_addr(pcp));
}

/* ---- kprobe / kretprobe twins: the CPU and nesting depth are the key ---- */

SEC("kprobe")
int BPF_KPROBE(kp_bulk, struct zone *zone, int count, struct per_cpu_pages *pcp,
	       int pindex)
{
	return bulk_enter(kp_push(cpu_state()), zone, count, pcp, pindex);
}

SEC("kretprobe")
int BPF_KRETPROBE(kr_bulk)
{
	return bulk_exit(kp_pop(cpu_state()));
}

SEC("kprobe")
int BPF_KPROBE(kp_refill, struct zone *zone, unsigned int order,
	       unsigned long count, struct list_head *list, int migratetype)
{
	return refill_enter(kp_push(cpu_state()), zone, order, count,
			    migratetype);
}

SEC("kretprobe")
int BPF_KRETPROBE(kr_refill, int ret)
{
	return refill_exit(kp_pop(cpu_state()), ret);
}

SEC("kprobe")
int BPF_KPROBE(kp_decay, struct zone *zone, struct per_cpu_pages *pcp)
{
	return decay_enter(kp_push(cpu_state()), zone, pcp);
}

SEC("kretprobe")
int BPF_KRETPROBE(kr_decay)
{
	return decay_exit(kp_pop(cpu_state()));
}

SEC("kprobe")
int BPF_KPROBE(kp_drain, unsigned int cpu, struct zone *zone)
{
	return drain_enter(cpu, zone);
}

SEC("kretprobe")
int BPF_KRETPROBE(kr_drain)
{
	return drain_exit();
}

SEC("kprobe")
int BPF_KPROBE(kp_commit, struct zone *zone, struct per_cpu_pages *pcp,
	       struct page *page, int migratetype, unsigned int order)
{
	struct cpu_state *st = cpu_state();
	__u64 key = kp_push(st);
	struct inflight f = {};

	if (key) {
		f.pcp = compat_addr(pcp);
		bpf_map_update_elem(&inflight, &key, &f, BPF_ANY);
	}
	return commit_enter(zone, pcp, migratetype, order);
}

SEC("kretprobe")
int BPF_KRETPROBE(kr_commit)
{
	__u64 key = kp_pop(cpu_state());
	struct inflight *f = key ? bpf_map_lookup_elem(&inflight, &key) : NULL;
	__u64 p;

	if (!f)
		return 0;
	p = f->pcp;
	bpf_map_delete_elem(&inflight, &key);
	return commit_exit(p);
}

/* ---- what runs inside a call: interrupts, and waits for zone->lock ---- */

static __always_inline void irq_enter(void)
{
	struct cpu_state *st = cpu_state();

	if (!st)
		return;
	/* only the outermost interrupt starts the clock */
	if (st->irq_depth++ == 0)
		st->irq_start = bpf_ktime_get_ns();
}

static __always_inline void irq_leave(void)
{
	struct cpu_state *st = cpu_state();

	if (!st || st->irq_depth <= 0)
		return;
	if (--st->irq_depth == 0)
		st->irq_ns += bpf_ktime_get_ns() - st->irq_start;
}

TP_TWIN(irq_handler_entry, tp_irq_entry, (irq_enter(), 0))
TP_TWIN(irq_handler_exit, tp_irq_exit, (irq_leave(), 0))
TP_TWIN(softirq_entry, tp_softirq_entry, (irq_enter(), 0))
TP_TWIN(softirq_exit, tp_softirq_exit, (irq_leave(), 0))

/*
 * lock:contention_begin/end (v5.19+) fire on a lock's slow path: for a
 * qspinlock only once a waiter queues, so one CPU spinning on the pending
 * bit is not seen (docs/ACCURACY.md).
 */
static __always_inline int on_lock_begin(void *lock)
{
	struct cpu_state *st = cpu_state();

	if (st && st->cur_lock && st->cur_lock == compat_addr(lock))
		st->wait_start = bpf_ktime_get_ns();
	return 0;
}

TP_TWIN(contention_begin, tp_lock_begin, on_lock_begin(lock), void *lock)

static __always_inline int on_lock_end(void *lock)
{
	struct cpu_state *st = cpu_state();

	if (!st || !st->wait_start || st->cur_lock != compat_addr(lock))
		return 0;
	st->wait_ns += bpf_ktime_get_ns() - st->wait_start;
	st->waits++;
	st->wait_start = 0;
	return 0;
}

TP_TWIN(contention_end, tp_lock_end, on_lock_end(lock), void *lock)

/* ---- tracepoint mode: calls and spans estimated from event runs ---- */

static __always_inline void run_close(struct event_run *run)
{
	int oslot = compat_order_slot(run->order);
	int mslot = compat_mt_slot(run->mt);
	int zone = PCPTOP_ZONE_UNKNOWN;
	__u64 ns = run->last_ns - run->start_ns;
	__u32 ep = cur_epoch();

	if (run->kind == RUN_FREE) {
		count_add(ep, zone, oslot, mslot, CNT_BULK_SPAN_NS, ns);
		hist_record(ep, zone, HIST_BULK_FREE_PAGES, run->pages);
		hist_record(ep, zone, HIST_BULK_SPAN_NS, ns);
		/* free_high flushes start here, but so may other flushes */
		if (oslot > 0 && oslot <= PCPTOP_PAGE_ALLOC_COSTLY_ORDER) {
			count_add(ep, zone, oslot, mslot, CNT_HI_ORDER_RUNS, 1);
			count_add(ep, zone, oslot, mslot, CNT_HI_ORDER_PAGES,
				  run->pages);
			hist_record(ep, zone, HIST_HI_ORDER_PAGES, run->pages);
		}
	} else if (run->kind == RUN_REFILL) {
		count_add(ep, zone, oslot, mslot, CNT_REFILL_SPAN_NS, ns);
		hist_record(ep, zone, HIST_REFILL_PAGES, run->pages);
		hist_record(ep, zone, HIST_REFILL_SPAN_NS, ns);
	}
	run->kind = RUN_NONE;
}

static __always_inline void run_event(int kind, unsigned int order, int mt)
{
	struct cpu_state *st = cpu_state();
	__u64 now = bpf_ktime_get_ns();
	__u64 pages = 1ULL << (order & 31);
	struct event_run *run;
	__u32 ep = cur_epoch();

	if (!st)
		return;
	run = &st->run;
	count_add(ep, PCPTOP_ZONE_UNKNOWN, compat_order_slot(order),
		  compat_mt_slot(mt),
		  kind == RUN_FREE ? CNT_BULK_FREE_PAGES : CNT_REFILL_PAGES,
		  pages);
	if (run->kind == kind && now - run->last_ns <= run_gap_ns &&
	    (!run_max_pages || run->pages + pages <= run_max_pages)) {
		run->pages += pages;
		run->last_ns = now;
		return;
	}
	run_close(run);
	if (latency_on)
		lat_mark(kind == RUN_FREE ? LAT_FREE : LAT_ALLOC);
	/*
	 * A run only closes at the next event, which may come intervals
	 * later: the call is counted as it starts, in the interval its pages
	 * are counted in; its size and span go to the histograms at close.
	 */
	count_add(ep, PCPTOP_ZONE_UNKNOWN, compat_order_slot(order),
		  compat_mt_slot(mt),
		  kind == RUN_FREE ? CNT_BULK_FREE_CALLS : CNT_REFILL_CALLS, 1);
	run->kind = kind;
	run->start_ns = now;
	run->last_ns = now;
	run->pages = pages;
	run->order = order;
	run->mt = mt;
}

/* a refill's pages, among the zone-locked allocations of any kind */
static __always_inline int on_zone_locked(unsigned int order, int migratetype,
					  int percpu_refill)
{
	if (percpu_refill)
		run_event(RUN_REFILL, order, migratetype);
	return 0;
}

TP_TWIN(mm_page_pcpu_drain, tp_drain,
	(run_event(RUN_FREE, order, migratetype), 0), struct page *page,
	unsigned int order, int migratetype)
TP_TWIN(mm_page_alloc_zone_locked, tp_zone_locked,
	on_zone_locked(order, migratetype, percpu_refill), struct page *page,
	unsigned int order, int migratetype, int percpu_refill)

/*
 * --cross-check: the tracepoint's page count beside the function probe's.
 * Pages of a bulk free this CPU is inside are booked by its exit, in the
 * same map copy as the call's own pages: were they booked here, a call
 * running across the loader's epoch flip would put its events in the
 * interval just read and its exit in the next one. Events outside any
 * call seen at entry are booked at once, so calls the function probe
 * missed still show as a difference.
 */
static __always_inline int on_drain_xcheck(unsigned int order, int migratetype)
{
	struct cpu_state *st = cpu_state();
	__u64 pages = 1ULL << (order & 31);
	struct inflight *f = NULL;
	__u64 key;

	if (st && st->cur_call) {
		key = st->cur_call;
		f = bpf_map_lookup_elem(&inflight, &key);
	}
	if (f) {
		f->xcheck += pages;
		return 0;
	}
	count_add(cur_epoch(), PCPTOP_ZONE_UNKNOWN, compat_order_slot(order),
		  compat_mt_slot(migratetype), CNT_XCHECK_DRAIN_PAGES, pages);
	return 0;
}

TP_TWIN(mm_page_pcpu_drain, tp_drain_xcheck,
	on_drain_xcheck(order, migratetype), struct page *page,
	unsigned int order, int migratetype)

/* BPF_PROG_TEST_RUN target: reads the CIP patch's static variable */
SEC("raw_tp")
int read_kvar(void *ctx)
{
	kvar_err = bpf_probe_read_kernel(&kvar_value, sizeof(kvar_value),
					 (void *)kvar_addr);
	return 0;
}
