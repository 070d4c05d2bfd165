// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop's probes. Each kernel function has an fentry/fexit pair and a
 * kprobe/kretprobe twin calling the same handler; kmem tracepoints stand in
 * where neither attaches. The loader picks one flavour per probe and turns
 * the others' autoload off. Everything here only counts and buckets.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "compat.bpf.h"
#include "pcptop.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * Tracepoint mode: events closer than this on one CPU belong to one
 * free_pcppages_bulk / rmqueue_bulk call. Both hold zone->lock with
 * interrupts off, so a run cannot interleave with anything else on that
 * CPU; separate calls are at least a batch of commits apart.
 */
const volatile __u64 run_gap_ns = 5000;
/* the commit function is probed: tag free_high exactly, no pindex guess */
const volatile bool free_high_exact;

/*
 * No single free_pcppages_bulk or rmqueue_bulk moves more than batch <<
 * scale pages, and drain_pages_zone frees back-to-back chunks of exactly
 * that size with nothing traced between them: cutting runs there restores
 * the chunks. Set by the loader once it knows batch and the scale; 0 = no cut.
 */
__u64 run_max_pages;

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

enum run_kind { RUN_NONE, RUN_FREE, RUN_REFILL };

struct event_run {
	__u64 start_ns;
	__u64 last_ns;
	__u64 pages;
	int kind;
	int order; /* of the first page: drain/decay start at pindex 0 */
	int mt;
};

/* what is in flight on this CPU; the probed paths do not migrate */
struct cpu_calls {
	__u64 bulk_start_ns;
	struct per_cpu_pages *bulk_pcp;
	int bulk_count_before;
	int bulk_pindex;
	int bulk_zone;
	/* --cross-check pages of the call in flight, booked at its exit */
	__u64 bulk_xcheck_pages;

	__u64 refill_start_ns;
	long refill_count;
	int refill_zone;
	int refill_order;
	int refill_mt;

	struct per_cpu_pages *decay_pcp;
	__u64 decay_pages;
	int decay_zone;
	int decay_high_before;

	int drain_zone;
	bool in_drain;

	struct per_cpu_pages *commit_pcp;
	__u64 commit_pages;
	int commit_zone;
	int commit_order;
	int commit_mt;
	bool commit_free_high;

	struct event_run run;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cpu_calls);
} calls SEC(".maps");

static __always_inline struct cpu_calls *cpu_calls(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&calls, &zero);
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

static __always_inline void hist_record(int zone, int hist, __u64 v)
{
	__u32 key =
		pcptop_hist_key(zone, hist) + (epoch & 1) * PCPTOP_NR_HIST_KEYS;
	struct pcptop_hist_val *h;
	__u32 slot;

	h = bpf_map_lookup_elem(&hists, &key);
	if (!h)
		return;
	slot = log2_slot(v);
	if (slot >= PCPTOP_HIST_SLOTS)
		slot = PCPTOP_HIST_SLOTS - 1;
	h->slots[slot]++;
	if (v > h->max)
		h->max = v;
}

static __always_inline struct pcptop_counter_val *
counters_of(int zone, int order_slot, int mt_slot)
{
	__u32 key = pcptop_counter_key(zone, order_slot, mt_slot) +
		    (epoch & 1) * PCPTOP_NR_COUNTER_KEYS;

	return bpf_map_lookup_elem(&counters, &key);
}

static __always_inline void count_add(int zone, int order_slot, int mt_slot,
				      int counter, __u64 v)
{
	struct pcptop_counter_val *cnt = counters_of(zone, order_slot, mt_slot);

	if (cnt && counter >= 0 && counter < NR_PCPTOP_COUNTERS)
		cnt->c[counter] += v;
}

static __always_inline void free_high_record(int zone, int order_slot,
					     int mt_slot, __u64 pages)
{
	count_add(zone, order_slot, mt_slot, CNT_FREE_HIGH_COUNT, 1);
	count_add(zone, order_slot, mt_slot, CNT_FREE_HIGH_PAGES, pages);
	hist_record(zone, HIST_FREE_HIGH_PAGES, pages);
}

/* free_pcppages_bulk(zone, count, pcp, pindex) */

static __always_inline int bulk_enter(struct zone *zone,
				      struct per_cpu_pages *pcp, int pindex)
{
	struct cpu_calls *c = cpu_calls();

	if (!c)
		return 0;
	c->bulk_pcp = pcp;
	c->bulk_count_before = BPF_CORE_READ(pcp, count);
	c->bulk_pindex = pindex;
	c->bulk_zone = compat_zone_idx(zone);
	c->bulk_xcheck_pages = 0;
	c->bulk_start_ns = bpf_ktime_get_ns();
	return 0;
}

static __always_inline int bulk_exit(void)
{
	struct cpu_calls *c = cpu_calls();
	struct per_cpu_pages *pcp;
	int zone, oslot, mslot;
	__u64 ns;
	long pages;

	if (!c || !c->bulk_start_ns)
		return 0;
	ns = bpf_ktime_get_ns() - c->bulk_start_ns;
	c->bulk_start_ns = 0;
	/*
	 * The function clamps count to pcp->count and the caller holds the
	 * pcp lock: what pcp->count lost is exactly what reached the buddy.
	 * The pointer is copied out of the map value first: inside
	 * BPF_CORE_READ() the c->bulk_pcp access itself would become a CO-RE
	 * relocation against struct cpu_calls, which no kernel BTF has.
	 */
	pcp = c->bulk_pcp;
	pages = c->bulk_count_before - BPF_CORE_READ(pcp, count);
	if (pages < 0)
		pages = 0;
	zone = c->bulk_zone;
	oslot = compat_pindex_order_slot(c->bulk_pindex);
	mslot = compat_pindex_mt_slot(c->bulk_pindex);

	count_add(zone, oslot, mslot, CNT_BULK_FREE_CALLS, 1);
	count_add(zone, oslot, mslot, CNT_BULK_FREE_PAGES, pages);
	count_add(zone, oslot, mslot, CNT_BULK_FREE_NS, ns);
	hist_record(zone, HIST_BULK_FREE_PAGES, pages);
	hist_record(zone, HIST_LOCK_NS, ns);
	if (c->bulk_xcheck_pages) {
		count_add(zone, oslot, mslot, CNT_XCHECK_DRAIN_PAGES,
			  c->bulk_xcheck_pages);
		c->bulk_xcheck_pages = 0;
	}

	if (c->decay_pcp == c->bulk_pcp) {
		c->decay_pages += pages;
	} else if (c->in_drain) {
		count_add(zone, oslot, mslot, CNT_DRAIN_PAGES, pages);
		hist_record(zone, HIST_DRAIN_PAGES, pages);
	} else if (c->commit_pcp == c->bulk_pcp) {
		if (c->commit_free_high)
			c->commit_pages += pages;
	} else if (!free_high_exact && oslot > 0 &&
		   oslot <= PCPTOP_PAGE_ALLOC_COSTLY_ORDER) {
		/* only a free_high flush starts at an order 1..3 list */
		free_high_record(zone, oslot, mslot, pages);
	}
	return 0;
}

/* rmqueue_bulk(zone, order, count, list, migratetype, alloc_flags) */

static __always_inline int refill_enter(struct zone *zone, unsigned int order,
					unsigned long count, int migratetype)
{
	struct cpu_calls *c = cpu_calls();

	if (!c)
		return 0;
	c->refill_zone = compat_zone_idx(zone);
	c->refill_order = order;
	c->refill_mt = migratetype;
	c->refill_count = count;
	c->refill_start_ns = bpf_ktime_get_ns();
	return 0;
}

static __always_inline int refill_exit(long ret)
{
	struct cpu_calls *c = cpu_calls();
	int zone, oslot, mslot;
	__u64 ns, pages;

	if (!c || !c->refill_start_ns)
		return 0;
	ns = bpf_ktime_get_ns() - c->refill_start_ns;
	c->refill_start_ns = 0;
	if (ret < 0)
		ret = 0;
	pages = (__u64)ret << (c->refill_order & 31);
	zone = c->refill_zone;
	oslot = compat_order_slot(c->refill_order);
	mslot = compat_mt_slot(c->refill_mt);

	count_add(zone, oslot, mslot, CNT_REFILL_CALLS, 1);
	count_add(zone, oslot, mslot, CNT_REFILL_REQ_PAGES,
		  (__u64)c->refill_count << (c->refill_order & 31));
	count_add(zone, oslot, mslot, CNT_REFILL_PAGES, pages);
	count_add(zone, oslot, mslot, CNT_REFILL_NS, ns);
	hist_record(zone, HIST_REFILL_PAGES, pages);
	hist_record(zone, HIST_REFILL_NS, ns);
	return 0;
}

/* decay_pcp_high(zone, pcp): vmstat's periodic shrink of pcp->high */

static __always_inline int decay_enter(struct zone *zone,
				       struct per_cpu_pages *pcp)
{
	struct cpu_calls *c = cpu_calls();

	if (!c)
		return 0;
	c->decay_zone = compat_zone_idx(zone);
	c->decay_high_before = BPF_CORE_READ(pcp, high);
	c->decay_pages = 0;
	c->decay_pcp = pcp;
	return 0;
}

static __always_inline int decay_exit(void)
{
	struct cpu_calls *c = cpu_calls();
	struct per_cpu_pages *pcp;
	int zone;

	if (!c || !c->decay_pcp)
		return 0;
	/* out of the map value first, as in bulk_exit() */
	pcp = c->decay_pcp;
	zone = c->decay_zone;
	count_add(zone, 0, 0, CNT_DECAY_CALLS, 1);
	count_add(zone, 0, 0, CNT_DECAY_PAGES, c->decay_pages);
	count_add(zone, 0, 0, CNT_DECAY_HIGH_BEFORE, c->decay_high_before);
	count_add(zone, 0, 0, CNT_DECAY_HIGH_AFTER, BPF_CORE_READ(pcp, high));
	if (c->decay_pages)
		hist_record(zone, HIST_DECAY_PAGES, c->decay_pages);
	c->decay_pcp = NULL;
	return 0;
}

/* drain_pages_zone(cpu, zone): CPU hotplug, compaction, drain_all_pages() */

static __always_inline int drain_enter(struct zone *zone)
{
	struct cpu_calls *c = cpu_calls();

	if (!c)
		return 0;
	c->drain_zone = compat_zone_idx(zone);
	c->in_drain = true;
	return 0;
}

static __always_inline int drain_exit(void)
{
	struct cpu_calls *c = cpu_calls();

	if (!c || !c->in_drain)
		return 0;
	count_add(c->drain_zone, 0, 0, CNT_DRAIN_CALLS, 1);
	c->in_drain = false;
	return 0;
}

/* free_unref_page_commit / free_frozen_page_commit(zone, pcp, page, mt, order) */

static __always_inline int commit_enter(struct zone *zone,
					struct per_cpu_pages *pcp, int mt,
					unsigned int order)
{
	struct cpu_calls *c = cpu_calls();

	if (!c)
		return 0;
	c->commit_free_high = compat_commit_free_high(pcp, order);
	c->commit_pages = 0;
	c->commit_pcp = pcp;
	if (c->commit_free_high) {
		c->commit_zone = compat_zone_idx(zone);
		c->commit_order = order;
		c->commit_mt = mt;
	}
	return 0;
}

static __always_inline int commit_exit(void)
{
	struct cpu_calls *c = cpu_calls();

	if (!c || !c->commit_pcp)
		return 0;
	/* newer kernels flush in batch-sized chunks: one flush, many calls */
	if (c->commit_free_high && c->commit_pages)
		free_high_record(c->commit_zone,
				 compat_order_slot(c->commit_order),
				 compat_mt_slot(c->commit_mt), c->commit_pages);
	c->commit_pcp = NULL;
	c->commit_free_high = false;
	return 0;
}

/* fentry / fexit */

SEC("fentry/free_pcppages_bulk")
int BPF_PROG(fe_bulk, struct zone *zone, int count, struct per_cpu_pages *pcp,
	     int pindex)
{
	return bulk_enter(zone, pcp, pindex);
}

SEC("fexit/free_pcppages_bulk")
int BPF_PROG(fx_bulk)
{
	return bulk_exit();
}

SEC("fentry/rmqueue_bulk")
int BPF_PROG(fe_refill, struct zone *zone, unsigned int order,
	     unsigned long count, struct list_head *list, int migratetype)
{
	return refill_enter(zone, order, count, migratetype);
}

SEC("fexit/rmqueue_bulk")
int BPF_PROG(fx_refill, struct zone *zone, unsigned int order,
	     unsigned long count, struct list_head *list, int migratetype,
	     unsigned int alloc_flags, int ret)
{
	return refill_exit(ret);
}

SEC("fentry/decay_pcp_high")
int BPF_PROG(fe_decay, struct zone *zone, struct per_cpu_pages *pcp)
{
	return decay_enter(zone, pcp);
}

SEC("fexit/decay_pcp_high")
int BPF_PROG(fx_decay)
{
	return decay_exit();
}

SEC("fentry/drain_pages_zone")
int BPF_PROG(fe_drain, unsigned int cpu, struct zone *zone)
{
	return drain_enter(zone);
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
int BPF_PROG(fx_commit)
{
	return commit_exit();
}

/* kprobe / kretprobe twins, attached by name from the loader */

SEC("kprobe")
int BPF_KPROBE(kp_bulk, struct zone *zone, int count, struct per_cpu_pages *pcp,
	       int pindex)
{
	return bulk_enter(zone, pcp, pindex);
}

SEC("kretprobe")
int BPF_KRETPROBE(kr_bulk)
{
	return bulk_exit();
}

SEC("kprobe")
int BPF_KPROBE(kp_refill, struct zone *zone, unsigned int order,
	       unsigned long count, struct list_head *list, int migratetype)
{
	return refill_enter(zone, order, count, migratetype);
}

SEC("kretprobe")
int BPF_KRETPROBE(kr_refill, int ret)
{
	return refill_exit(ret);
}

SEC("kprobe")
int BPF_KPROBE(kp_decay, struct zone *zone, struct per_cpu_pages *pcp)
{
	return decay_enter(zone, pcp);
}

SEC("kretprobe")
int BPF_KRETPROBE(kr_decay)
{
	return decay_exit();
}

SEC("kprobe")
int BPF_KPROBE(kp_drain, unsigned int cpu, struct zone *zone)
{
	return drain_enter(zone);
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
	return commit_enter(zone, pcp, migratetype, order);
}

SEC("kretprobe")
int BPF_KRETPROBE(kr_commit)
{
	return commit_exit();
}

/* tracepoint mode: calls and hold times are estimated from event runs */

static __always_inline void run_close(struct event_run *run)
{
	int oslot = compat_order_slot(run->order);
	int mslot = compat_mt_slot(run->mt);
	int zone = PCPTOP_ZONE_UNKNOWN;
	__u64 ns = run->last_ns - run->start_ns;

	if (run->kind == RUN_FREE) {
		count_add(zone, oslot, mslot, CNT_BULK_FREE_NS, ns);
		hist_record(zone, HIST_BULK_FREE_PAGES, run->pages);
		hist_record(zone, HIST_LOCK_NS, ns);
		if (oslot > 0 && oslot <= PCPTOP_PAGE_ALLOC_COSTLY_ORDER)
			free_high_record(zone, oslot, mslot, run->pages);
	} else if (run->kind == RUN_REFILL) {
		count_add(zone, oslot, mslot, CNT_REFILL_NS, ns);
		hist_record(zone, HIST_REFILL_PAGES, run->pages);
		hist_record(zone, HIST_REFILL_NS, ns);
	}
	run->kind = RUN_NONE;
}

static __always_inline void run_event(int kind, unsigned int order, int mt)
{
	struct cpu_calls *c = cpu_calls();
	__u64 now = bpf_ktime_get_ns();
	__u64 pages = 1ULL << (order & 31);
	struct event_run *run;

	if (!c)
		return;
	run = &c->run;
	count_add(PCPTOP_ZONE_UNKNOWN, compat_order_slot(order),
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
	/*
	 * A run only closes at the next event, which may come intervals
	 * later: the call is counted as it starts, in the interval its pages
	 * are counted in; its size and time go to the histograms at close.
	 */
	count_add(PCPTOP_ZONE_UNKNOWN, compat_order_slot(order),
		  compat_mt_slot(mt),
		  kind == RUN_FREE ? CNT_BULK_FREE_CALLS : CNT_REFILL_CALLS, 1);
	run->kind = kind;
	run->start_ns = now;
	run->last_ns = now;
	run->pages = pages;
	run->order = order;
	run->mt = mt;
}

SEC("tp_btf/mm_page_pcpu_drain")
int BPF_PROG(tp_drain, struct page *page, unsigned int order, int migratetype)
{
	run_event(RUN_FREE, order, migratetype);
	return 0;
}

SEC("tp_btf/mm_page_alloc_zone_locked")
int BPF_PROG(tp_zone_locked, struct page *page, unsigned int order,
	     int migratetype, int percpu_refill)
{
	if (percpu_refill)
		run_event(RUN_REFILL, order, migratetype);
	return 0;
}

/*
 * --cross-check: the tracepoint's page count beside the fentry one. Pages
 * of a bulk free this CPU is inside are booked by its exit, in the same
 * map copy as the call's own pages: were they booked here, a call running
 * across the loader's epoch flip would put its events in the interval just
 * read and its exit in the next one (seen in a VM: a 2016-page call).
 * Events outside any call seen at entry are booked at once, so calls the
 * function probe missed still show as a difference.
 */
SEC("tp_btf/mm_page_pcpu_drain")
int BPF_PROG(tp_drain_xcheck, struct page *page, unsigned int order,
	     int migratetype)
{
	struct cpu_calls *c = cpu_calls();
	__u64 pages = 1ULL << (order & 31);

	if (c && c->bulk_start_ns) {
		c->bulk_xcheck_pages += pages;
		return 0;
	}
	count_add(PCPTOP_ZONE_UNKNOWN, compat_order_slot(order),
		  compat_mt_slot(migratetype), CNT_XCHECK_DRAIN_PAGES, pages);
	return 0;
}

/* BPF_PROG_TEST_RUN target: reads the CIP patch's static variable */
SEC("raw_tp")
int read_kvar(void *ctx)
{
	kvar_err = bpf_probe_read_kernel(&kvar_value, sizeof(kvar_value),
					 (void *)kvar_addr);
	return 0;
}
