// SPDX-License-Identifier: GPL-2.0-only
/*
 * record --trace: the allocator's pcp traffic as events in a ring buffer,
 * a BPF object of its own (bpf/pcptop.bpf.c knows nothing of it), loaded
 * only when --trace is given (src/kernel/trace.c).
 *
 * programs                hook                          event      mode
 * tt_alloc                kmem:mm_page_alloc            ALLOC      tracepoint
 * tt_free                 kmem:mm_page_free             FREE       tracepoint
 * tf_drain, tk_drain      drain_pages_zone              DRAIN      fentry, kprobe
 * tf_decay, tk_decay      decay_pcp_high                SNAPSHOT + DECAY (1)
 * tx_decay, tr_decay      decay_pcp_high returns        DECAY_END  (1)
 * tf_dead, tk_dead        page_alloc_cpu_dead           CPU_DEAD   (1)
 * tx_dead, tr_dead        page_alloc_cpu_dead returns   none: in_cpu_dead cleared (1)
 * tf_online, tk_online    page_alloc_cpu_online         CPU_ONLINE (1)
 * tf_commit, tk_commit    free_unref_page_commit *      FREE, pcp path (1)(2)
 * tf_buddy, tk_buddy      free_one_page                 FREE, buddy path (1)(3)
 * tt_reclaim_begin        vmscan:mm_vmscan_direct_reclaim_begin  none: the order kept
 * tt_reclaim_end          vmscan:mm_vmscan_direct_reclaim_end    RECLAIM    tracepoint
 * tx_isolate              __isolate_free_page returns   ISOLATE    fexit only
 *
 * The drain, decay and hotplug programs are in trace_pageset.bpf.h.
 *
 * (1) fentry, else kprobe, else not traced (a kernel that refuses both,
 *     as the development machines' policy and build do):
 *     the recorder's /proc/zoneinfo reads stand in for the pageset state.
 *  *  free_frozen_page_commit() after 6.12 (src/core/kernel_quirks.h,
 *     QUIRK_COMMIT_FNS), the same first five arguments: the loader
 *     points fentry (fentry_load_target) and the kprobe at the name this
 *     kernel has (src/kernel/trace.c).
 * (2) Where it attaches (fn_commit), mm_page_free gives only the orders
 *     the pcp lists never hold: the function sees each pcp free under
 *     the pcp lock with the list's migratetype, which mm_page_free does
 *     not carry (get_pfnblock_migratetype()), and only the frees that
 *     reach a list (not an isolated pageblock's, not a failed trylock's).
 *     Allocations stay with mm_page_alloc, whose migratetype is the
 *     list's: __rmqueue_pcplist() is not traceable on 6.12 (kprobe
 *     EINVAL, fentry EBUSY in the amd64 6.12 guest), and
 *     alloc_pages_bulk_noprof() traces nothing of its pages.
 * (3) Only beside the commit, and then in place of mm_page_free: the
 *     commit and free_one_page() see every free between them, where
 *     mm_page_free's program ran on each pcp free only to return
 *     (docs/PERFORMANCE.md, "fentry and tp_btf for the trace").
 *
 * Each tracepoint program comes with its raw_tp twin ("r" + name,
 * rawtp.bpf.h). A CPU's allocations and frees go out as runs of events
 * alike (run_add(), pcptrace.h), every other record as it comes. Records
 * are reserved in the ring buffer and submitted without a wake-up: the
 * recorder polls every few milliseconds, so the allocator never pays for
 * waking it. A reservation that fails (the buffer is full) is counted per
 * CPU in trace_lost, in events, which the recorder reads with each poll
 * and writes into the recording as a loss.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "compat.bpf.h"
#include "pcptop.h"
#include "rawtp.bpf.h"
#include "pcptrace.h"
#include "trace_ring.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* compat_page_zone_bits(), once: it reads the BTF's sizes, not the page */
static __u32 zone_bits;

/*
 * set by the loader before the load: free_unref_page_commit() is traced,
 * mm_page_free keeps to the orders above PAGE_ALLOC_COSTLY_ORDER (the
 * reader drops its THP order)
 */
const volatile __u32 fn_commit = 0;

/*
 * set by the loader before the load: the tracepoints are tp_btf, whose
 * page the program reads as memory; a raw_tp twin reads it through
 * bpf_probe_read_kernel(), a helper call an event (the verifier drops
 * the branch the value rules out)
 */
const volatile __u32 tp_direct = 0;

/* compat_page_zone_bits(), worked out at the first event */
static __always_inline __u32 page_zone_bits(void)
{
	__u32 bits = zone_bits;

	if (!bits) {
		bits = compat_page_zone_bits();
		zone_bits = bits;
	}
	return bits;
}

/*
 * page->flags, read as memory where the argument is the kernel's typed
 * pointer (tp_btf, fentry): each event of a trace pays for what it reads,
 * and a probe read is a helper call
 */
static __always_inline unsigned long page_flags(const struct page *page,
						bool direct)
{
	if (!direct)
		return compat_page_flags(page);
	if (bpf_core_field_exists(struct page___memdesc, flags))
		return ((const struct page___memdesc *)page)->flags.f;
	return page->flags;
}

/*
 * done: the zones whose pageset this CPU's first free has read
 * (seed_once()); zero: always 0, a count the verifier does not know
 * starts there, so a walk's states converge (a count starting at a
 * constant 0 made it follow the walk entry by entry: "The sequence of
 * 8193 jumps is too complex", 6.12)
 */
struct seed_state {
	__u32 done;
	__u32 zero;
	/* the zone of this CPU's last pcp free: a reclaim's mark reads it */
	__u64 zone;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct seed_state);
} seeded SEC(".maps");

/* the CPU inside page_alloc_cpu_dead(): its drains are that event's */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} in_cpu_dead SEC(".maps");

/*
 * direct: the page is the kernel's typed pointer (tp_btf, fentry), read
 * as memory; path PCPT_PATH_BY_ORDER where the hook does not tell
 */
static __always_inline int page_event(int type, const struct page *page,
				      unsigned int order, int mt, __u8 path,
				      bool direct)
{
	struct pcptrace_event ev = {};
	int zone, nid;

	/*
	 * __alloc_pages() traces a failed allocation too, with no page: it
	 * took nothing from the lists. The check also lets the verifier of
	 * 6.12, which types the argument trusted_ptr_or_null, read it.
	 */
	if (!page || (type == PCPT_FREE && path == PCPT_PATH_BY_ORDER &&
		      fn_commit && order <= PCPTOP_PAGE_ALLOC_COSTLY_ORDER))
		return 0;
	ev.time_ns = bpf_ktime_get_ns();
	ev.cpu = bpf_get_smp_processor_id();
	ev.type = type;
	ev.zone = PCPT_ZONE_UNKNOWN;
	zone = compat_flags_zone(page_flags(page, direct), page_zone_bits(),
				 &nid);
	if (zone >= 0 && zone < PCPTOP_MAX_ZONES)
		ev.zone = zone;
	ev.nid = nid;
	ev.order = order;
	ev.migratetype = mt >= 0 && mt < PCPT_MT_UNKNOWN ? mt : PCPT_MT_UNKNOWN;
	ev.path = path;
	run_add(&ev);
	return 0;
}

TP_TWIN(mm_page_alloc, tt_alloc,
	page_event(PCPT_ALLOC, page, order, migratetype, PCPT_PATH_BY_ORDER,
		   tp_direct),
	struct page *page, unsigned int order, gfp_t gfp_flags, int migratetype)
TP_TWIN(mm_page_free, tt_free,
	page_event(PCPT_FREE, page, order, PCPT_MT_UNKNOWN, PCPT_PATH_BY_ORDER,
		   tp_direct),
	struct page *page, unsigned int order)

/* each task's direct reclaim's order, from its begin to its end */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PCPT_RECLAIM_TASKS);
	__type(key, __u32);
	__type(value, __u32);
} reclaim_order SEC(".maps");

static __always_inline int on_reclaim_begin(int order)
{
	__u32 pid = (__u32)bpf_get_current_pid_tgid();
	__u32 o = (__u32)order;

	bpf_map_update_elem(&reclaim_order, &pid, &o, BPF_ANY);
	return 0;
}

/*
 * The zone the retry after a reclaim tries, as the kernel will judge it:
 * its free pages against the order-0 mark. Only where the commit is
 * traced (the zone of this CPU's last pcp free); none before the first.
 */
static __always_inline void reclaim_mark(__u32 cpu)
{
	struct pcptrace_mark *mk;
	struct seed_state *ss;
	struct zone *zone;
	__u32 k = 0;
	int idx;

	ss = bpf_map_lookup_elem(&seeded, &k);
	if (!ss || !ss->zone)
		return;
	zone = (struct zone *)ss->zone;
	idx = compat_zone_idx(zone);
	if (idx < 0 || idx >= PCPTOP_ZONE_UNKNOWN)
		return;
	mk = (struct pcptrace_mark *)reserve(sizeof(*mk), PCPT_MARK, cpu);
	if (!mk)
		return;
	mk->ev.zone = idx;
	mk->free_pages = compat_zone_free_pages(zone);
	mk->mark = compat_zone_order0_mark(zone);
	bpf_ringbuf_submit(mk, BPF_RB_NO_WAKEUP);
}

/*
 * The end, not the begin: the replay decides there, as the kernel does,
 * whether the freelists still fail the allocation and every pageset is
 * drained; the pages reclaimed are in the trace before it as frees
 */
static __always_inline int on_reclaim_end(unsigned long nr_reclaimed)
{
	__u32 pid = (__u32)bpf_get_current_pid_tgid();
	__u32 cpu = bpf_get_smp_processor_id();
	struct pcptrace_event *e;
	__u32 *o = bpf_map_lookup_elem(&reclaim_order, &pid);
	__u8 order = o && *o < PCPT_ORDER_UNKNOWN ? *o : PCPT_ORDER_UNKNOWN;

	if (o)
		bpf_map_delete_elem(&reclaim_order, &pid);
	run_break(cpu);
	reclaim_mark(cpu);
	e = reserve(sizeof(*e), PCPT_RECLAIM, cpu);
	if (!e)
		return 0;
	e->order = order;
	e->payload = nr_reclaimed < 0xffffffffUL ? nr_reclaimed : 0xffffffffU;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	return 0;
}

TP_TWIN(mm_vmscan_direct_reclaim_begin, tt_reclaim_begin,
	on_reclaim_begin(order), int order, gfp_t gfp_flags)
TP_TWIN(mm_vmscan_direct_reclaim_end, tt_reclaim_end,
	on_reclaim_end(nr_reclaimed), unsigned long nr_reclaimed)

/* ---- function probes: fentry, or their kprobe twins ---- */

static __always_inline int on_drain(unsigned int cpu, struct zone *zone)
{
	struct pcptrace_event *e;
	__u32 k = 0, *dead;
	int idx;

	run_break(cpu);
	e = reserve(sizeof(*e), PCPT_DRAIN, cpu);
	if (!e)
		return 0;
	idx = compat_zone_idx(zone);
	if (idx >= 0 && idx < PCPTOP_ZONE_UNKNOWN)
		e->zone = idx;
	dead = bpf_map_lookup_elem(&in_cpu_dead, &k);
	/* pcpmodel_drain_reason: 3 CPU_DEAD, 0 unknown */
	e->reason = dead && *dead == cpu + 1 ? 3 : 0;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	return 0;
}

/* the pageset's fields, as far as this kernel has them */
static __always_inline void fill_snap(struct pcptrace_snap *s,
				      struct per_cpu_pages *pcp, int idx)
{
	s->ev.zone = idx;
	s->count = BPF_CORE_READ(pcp, count);
	s->high = BPF_CORE_READ(pcp, high);
	s->batch = BPF_CORE_READ(pcp, batch);
	s->high_min = s->high_max = s->free_count = 0;
	s->alloc_factor = s->free_factor = s->flags = s->fields = 0;
	s->pad = 0;
	__builtin_memset(s->lists, 0, sizeof(s->lists));
	if (bpf_core_field_exists(pcp->free_count)) {
		s->high_min = BPF_CORE_READ(pcp, high_min);
		s->high_max = BPF_CORE_READ(pcp, high_max);
		s->free_count = BPF_CORE_READ(pcp, free_count);
		s->alloc_factor = BPF_CORE_READ(pcp, alloc_factor);
		s->flags = BPF_CORE_READ(pcp, flags);
		s->fields = PCPT_FIELD_AUTO_HIGH | PCPT_FIELD_FREE_COUNT |
			    PCPT_FIELD_ALLOC_FACTOR | PCPT_FIELD_FLAGS;
	} else {
		s->free_factor = compat_pcp_factor(pcp);
		s->fields = PCPT_FIELD_FREE_FACTOR;
	}
}

#include "trace_pageset.bpf.h"

struct walk {
	unsigned long head, cur;
	__u32 n;
};

static long walk_one(__u32 i, struct walk *w)
{
	unsigned long next = 0;

	if (bpf_probe_read_kernel(&next, sizeof(next), (void *)w->cur) ||
	    !next || next == w->head)
		return 1;
	w->cur = next;
	w->n++;
	return 0;
}

/*
 * The pageset's first free of the trace: its whole state, lists counted
 * entry by entry under the pcp lock, seeds the replay exactly (a /proc
 * seed knows count, not which lists hold it, and the replay refilled
 * what the kernel took from lists it had: docs/PERFORMANCE.md).
 * Once per CPU and zone; a walk stops at PCPT_WALK_MAX entries (the
 * kernel's high is far below) and then says no lists.
 */
static __always_inline void seed_once(struct per_cpu_pages *pcp, int idx,
				      __u32 cpu, __u64 zone_ptr)
{
	unsigned long lists =
		(unsigned long)pcp +
		bpf_core_field_offset(struct per_cpu_pages, lists);
	__u32 nr = bpf_core_field_size(pcp->lists) / sizeof(struct list_head);
	struct seed_state *ss;
	struct pcptrace_snap *s;
	__u32 k = 0, i, total = 0;
	struct walk w;

	ss = bpf_map_lookup_elem(&seeded, &k);
	if (!ss)
		return;
	ss->zone = zone_ptr;
	if (idx < 0 || idx >= 32 || (ss->done & (1u << idx)))
		return;
	ss->done |= 1u << idx;
	run_break(cpu);
	s = (struct pcptrace_snap *)reserve(sizeof(*s), PCPT_SNAPSHOT, cpu);
	if (!s)
		return;
	fill_snap(s, pcp, idx);
	for (i = 0; i < PCPT_NR_LISTS && i < nr; i++) {
		w.head = w.cur = lists + i * sizeof(struct list_head);
		w.n = ss->zero;
		bpf_loop(PCPT_WALK_MAX, walk_one, &w, 0);
		s->lists[i] = w.n;
		total += w.n;
	}
	if (total < PCPT_WALK_MAX)
		s->fields |= PCPT_FIELD_LISTS;
	bpf_ringbuf_submit(s, BPF_RB_NO_WAKEUP);
}

/*
 * ZONE_BELOW_HIGH (6.7+) and ZONE_RECLAIM_ACTIVE as the commit finds
 * them: under reclaim nr_pcp_high() caps high at batch << 2 and the
 * lists flush in small calls (bonnie++ at scale 5, 1 CPU: 20756 bulk
 * frees where a replay blind to the flags made 350)
 */
static __always_inline __u8 zone_flags_of(struct zone *zone, bool direct)
{
	unsigned long f = direct ? zone->flags : BPF_CORE_READ(zone, flags);
	__u8 z = PCPT_ZF_VALID;

	if (bpf_core_enum_value_exists(enum zone_flags, ZONE_BELOW_HIGH) &&
	    (f >> bpf_core_enum_value(enum zone_flags, ZONE_BELOW_HIGH)) & 1)
		z |= PCPT_ZF_BELOW_HIGH;
	if ((f >> bpf_core_enum_value(enum zone_flags, ZONE_RECLAIM_ACTIVE)) &
	    1)
		z |= PCPT_ZF_RECLAIM_ACTIVE;
	return z;
}

/*
 * a pcp free, seen under the pcp lock: caller PLAIN (0). direct: fentry,
 * whose arguments are read as memory; the zone's index then comes from
 * page->flags, as the allocations' does (the commit's zone is
 * page_zone(page)), not from zone_idx()'s two probe reads
 */
static __always_inline int on_commit(struct zone *zone,
				     struct per_cpu_pages *pcp,
				     const struct page *page,
				     unsigned int order, int mt, bool direct)
{
	struct pcptrace_event ev = {};
	__u32 cpu = bpf_get_smp_processor_id();
	int idx = -1, nid = 0;

	if (direct)
		idx = compat_flags_zone(page_flags(page, true),
					page_zone_bits(), &nid);
	if (idx < 0)
		idx = compat_zone_idx(zone);
	if (idx < 0 || idx >= PCPTOP_ZONE_UNKNOWN)
		idx = PCPT_ZONE_UNKNOWN;
	else
		seed_once(pcp, idx, cpu, (__u64)zone);
	ev.time_ns = bpf_ktime_get_ns();
	ev.cpu = cpu;
	ev.type = PCPT_FREE;
	ev.zone = idx;
	ev.order = order;
	ev.migratetype = mt >= 0 && mt < PCPT_MT_UNKNOWN ? mt : PCPT_MT_UNKNOWN;
	ev.path = PCPT_PATH_PCP;
	ev.zflags = zone_flags_of(zone, direct);
	run_add(&ev);
	return 0;
}

SEC("pcptop.fentry/free_unref_page_commit")
int BPF_PROG(tf_commit, struct zone *zone, struct per_cpu_pages *pcp,
	     struct page *page, int migratetype, unsigned int order)
{
	return on_commit(zone, pcp, page, order, migratetype, true);
}

SEC("kprobe/free_unref_page_commit")
int BPF_KPROBE(tk_commit, struct zone *zone, struct per_cpu_pages *pcp,
	       struct page *page, int migratetype, unsigned int order)
{
	return on_commit(zone, pcp, page, order, migratetype, false);
}

/*
 * free_one_page(zone, page, pfn, order, ...): order is the fourth argument
 * from 6.1 on (6.10 dropped the migratetype after it; 6.18's BTF has
 * (zone, page, pfn, order, fpi_flags)); a buddy free's migratetype is not
 * the model's concern (pcpmodel_replay.c alloc_or_free())
 */
SEC("pcptop.fentry/free_one_page")
int BPF_PROG(tf_buddy, struct zone *zone, struct page *page, unsigned long pfn,
	     unsigned int order)
{
	return page_event(PCPT_FREE, page, order, PCPT_MT_UNKNOWN,
			  PCPT_PATH_BUDDY, true);
}

SEC("kprobe/free_one_page")
int BPF_KPROBE(tk_buddy, struct zone *zone, struct page *page,
	       unsigned long pfn, unsigned int order)
{
	return page_event(PCPT_FREE, page, order, PCPT_MT_UNKNOWN,
			  PCPT_PATH_BUDDY, false);
}

/*
 * A block compaction took off the free lists for its migration targets:
 * the pages leave NR_FREE_PAGES with no allocation event, and come back
 * as the migrated pages' frees (traced). ret: the pages taken, 0 when
 * the zone's watermark refused.
 */
SEC("pcptop.fexit/__isolate_free_page")
int BPF_PROG(tx_isolate, struct page *page, unsigned int order, int ret)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct pcptrace_event *e;
	int zone, nid;

	if (ret <= 0 || !page)
		return 0;
	zone = compat_flags_zone(page_flags(page, true), page_zone_bits(),
				 &nid);
	run_break(cpu);
	e = reserve(sizeof(*e), PCPT_ISOLATE, cpu);
	if (!e)
		return 0;
	if (zone >= 0 && zone < PCPTOP_MAX_ZONES)
		e->zone = zone;
	e->nid = nid;
	e->order = order;
	e->path = PCPT_PATH_BUDDY;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
	return 0;
}
