// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop's probes. Each kernel function has an fentry/fexit pair and a
 * kprobe/kretprobe twin calling the same handler; kmem tracepoints stand in
 * where neither attaches, and interrupt and lock tracepoints time what runs
 * inside the calls. The loader loads the programs of the mode its plan
 * chose for each probe (src/kernel/progs.c) and leaves the rest unloaded.
 * Everything here only counts and buckets.
 *
 * The hooks: kernel functions, and tracepoints of kmem, irq and lock.
 * Each tracepoint program comes with a raw_tp twin ("r" + name,
 * rawtp.bpf.h) for kernels without BTF of their own.
 *
 * programs                hook                          probe        mode
 * fe_bulk, fx_bulk        free_pcppages_bulk            bulk_free    fentry
 * kp_bulk, kr_bulk        free_pcppages_bulk            bulk_free    kprobe
 * tp_drain                mm_page_pcpu_drain            bulk_free    tracepoint
 * tp_drain_xcheck         mm_page_pcpu_drain            bulk_free    (1)
 * tp_drain_order          mm_page_pcpu_drain            bulk_order   (3)
 * fe_refill, fx_refill    rmqueue_bulk                  refill       fentry
 * kp_refill, kr_refill    rmqueue_bulk                  refill       kprobe
 * tp_zone_locked          mm_page_alloc_zone_locked     refill       tracepoint
 * fe_decay, fx_decay      decay_pcp_high                decay        fentry
 * kp_decay, kr_decay      decay_pcp_high                decay        kprobe
 * fe_drain, fx_drain      drain_pages_zone              drain        fentry
 * kp_drain, kr_drain      drain_pages_zone              drain        kprobe
 * fe_commit, fx_commit    free_frozen_page_commit *     free_high    fentry (2)
 * kp_commit, kr_commit    free_frozen_page_commit *     free_high    kprobe (2)
 * fe_alloc, fx_alloc      __alloc_frozen_pages_noprof * alloc        fentry (2)
 * kp_alloc, kr_alloc      __alloc_frozen_pages_noprof * alloc        kprobe (2)
 * fe_free, fx_free        free_frozen_pages *           free         fentry (2)
 * kp_free, kr_free        free_frozen_pages *           free         kprobe (2)
 * tp_irq_entry, _exit     irq_handler_entry, _exit      irq_time     (3)
 * tp_softirq_entry, _exit softirq_entry, _exit          softirq_time (3)
 * tp_lock_begin, _end     contention_begin, _end        lock_wait    (3)
 * tp_reclaim_begin, _end  mm_vmscan_direct_reclaim_*    reclaim      tracepoint
 * tp_compact_try         mm_compaction_try_to_compact_pages
 *                                                       compact      every mode
 * fx_compact              try_to_compact_pages          compact      fentry
 * kr_compact              try_to_compact_pages          compact      kprobe
 * tp_compact_end          mm_compaction_end             compact      tracepoint
 * tp_dirty                balance_dirty_pages           waits        tracepoint
 * tp_switch               sched_switch                  waits        tracepoint
 * tp_throttled            mm_vmscan_throttled           throttle     tracepoint
 * tp_rq_issue             block_rq_issue                block        tracepoint
 * tp_rq_complete          block_rq_complete             block        tracepoint
 * read_kvar               none: BPF_PROG_TEST_RUN       -            (4)
 *
 * (1) --cross-check, beside a fentry or kprobe bulk_free
 * (2) only when asked: --exact-free-high (free_high), --latency (alloc, free)
 * (3) tracepoint, beside a fentry or kprobe bulk_free or refill (bulk_order:
 *     beside bulk_free only)
 * (4) not attached: the loader runs it to read the scale patch's variable
 *  *  older kernels name it differently (src/core/kernel_quirks.h): the
 *     section names an older name, and the loader attaches fentry
 *     (fentry_load_target) and kprobe programs at this kernel's. Every
 *     other section names the hook its program is attached to.
 *
 * fentry and fexit sections are "pcptop.fentry/FN" and "pcptop.fexit/FN":
 * libbpf 1.1 parses the kernel's whole BTF for any program it knows as a
 * tracing one, so these open as raw tracepoints and become tracing
 * programs as they load, with their target's BTF id from pcptop's cache
 * (src/kernel/fentry_load.c).
 *
 * One compilation unit, in the order it is read: state.bpf.h (settings,
 * maps, bucketing), latency.bpf.h (--latency), calls.bpf.h (scale
 * evidence, call times), caller.bpf.h (who asked for a drain), then here
 * each probed function's handlers and their fentry and kprobe programs,
 * inside.bpf.h (interrupts and lock waits inside a call), tpmode.bpf.h
 * (tracepoint mode's estimates, each bulk-freed page's order), stall.bpf.h
 * (direct reclaim and compaction stalls), waits.bpf.h (what costs wall
 * time and no CPU: throttles, block requests, the idle split).
 * Kernel-version quirks live in compat.bpf.h.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "compat.bpf.h"
#include "pcptop.h"
#include "rawtp.bpf.h"

char LICENSE[] SEC("license") = "GPL";

#include "state.bpf.h"

#include "latency.bpf.h"

#include "calls.bpf.h"

#include "caller.bpf.h"

#include "flush.bpf.h"

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
	__u64 tkey = task_key(st);
	struct inflight f = {};
	struct decay_call *d;
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
		d = bpf_map_lookup_elem(&decays, &tkey);
		if (d && d->pcp == f.pcp)
			f.ctx = CTX_DECAY;
		else if (dr && dr->zone == compat_zone_idx(zone)) {
			f.ctx = CTX_DRAIN;
			f.owner = dr->owner;
			f.caller = dr->caller;
		}
	}
	batch = BPF_CORE_READ(pcp, batch);
	if (free_high_exact || f.ctx != CTX_COMMIT)
		f.free_high = false;
	else if (!compat_flush_chunked())
		f.free_high = infer_free_high(pcp, &f, batch);
	else if (!(f.cont = flush_continues(&f, pcp, tkey, bpf_ktime_get_ns())))
		f.free_high = infer_free_high_chunked(pcp, &f, batch);
	call_begin(key, &f, st, zone);
	scale_evidence(cur_epoch(), f.zone, pcp, &f, batch);
	call_store(key, &f, st);
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
	struct commit_call *c;
	struct call_times t;
	struct inflight *f;
	__u32 ep = cur_epoch();
	__u64 now = bpf_ktime_get_ns();
	__u64 tkey = task_key(st);
	int oslot, mslot, zone, count_after;
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
	count_after = BPF_CORE_READ(pcp, count);
	pages = f->count_before - count_after;
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
	record_times(ep, zone, cnt, f, &t, pages, HIST_BULK_CALL_NS,
		     CNT_BULK_CALL_NS);

	/*
	 * one reason a bulk free: decay, drain, free_high or the high flush;
	 * one flush it belongs to, booked where its last call is known
	 */
	if (f->ctx == CTX_DECAY) {
		struct decay_call *d = bpf_map_lookup_elem(&decays, &tkey);

		if (d) {
			d->pages += pages;
			d->calls++;
		}
		/*
		 * Pages count as each chunk reaches the buddy, the call's size
		 * at its exit: under -icount a decay's vCPU can wait a whole
		 * timer slice between chunks while the command ends and the
		 * last read is taken (kprobe-s5's stalls window in CI: 189
		 * pages, three chunks of 63, short of the kernel's count).
		 */
		count_add(ep, zone, 0, 0, CNT_DECAY_PAGES, pages);
	} else if (f->ctx == CTX_DRAIN) {
		struct drain_call *dr = bpf_map_lookup_elem(&drains, &tkey);

		drain_record(ep, f->owner, zone, f->caller, pages);
		if (dr) {
			dr->pages += pages;
			dr->calls++;
		}
	} else if (free_high_exact &&
		   (c = bpf_map_lookup_elem(&commits, &tkey)) &&
		   c->pcp == f->pcp) {
		/* the commit's flush books at its exit, chunks summed */
		c->pages += pages;
		c->calls++;
		if (!c->free_high)
			count_in(cnt, CNT_REASON_HIGH_PAGES, pages);
	} else if (compat_flush_chunked() && !free_high_exact) {
		flush_chunk(ep, tkey, f, pages, count_after,
			    compat_free_count(pcp), BPF_CORE_READ(pcp, batch),
			    now);
	} else {
		/* one call, one flush: up to 6.18, or outside the commit */
		flush_book(ep, zone, pages, 1);
		if (f->free_high)
			free_high_record(ep, zone, oslot, mslot, pages);
		else
			count_in(cnt, CNT_REASON_HIGH_PAGES, pages);
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
	call_store(key, &f, st);
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
	record_times(ep, zone, cnt, f, &t, pages, HIST_REFILL_CALL_NS,
		     CNT_REFILL_CALL_NS);
	bpf_map_delete_elem(&inflight, &key);
	return 0;
}

#include "trim.bpf.h"

/* ---- the commit function (--exact-free-high): every free ---- */

static __always_inline int commit_enter(struct zone *zone,
					struct per_cpu_pages *pcp, int mt,
					unsigned int order)
{
	__u64 tkey = task_key(cpu_state());
	struct commit_call c = {};

	c.pcp = compat_addr(pcp);
	c.free_high = compat_commit_free_high(pcp, order);
	c.high_before = BPF_CORE_READ(pcp, high);
	c.zone = compat_zone_idx(zone);
	c.order = order;
	c.mt = mt;
	bpf_map_update_elem(&commits, &tkey, &c, BPF_ANY);
	return 0;
}

static __always_inline int commit_exit(void)
{
	__u64 tkey = task_key(cpu_state());
	struct commit_call *c = bpf_map_lookup_elem(&commits, &tkey);
	struct per_cpu_pages *pcp;
	__u32 ep = cur_epoch();
	int high_after;

	if (!c)
		return 0;
	/* newer kernels flush in batch-sized chunks: one flush, many calls */
	if (c->calls)
		flush_book(ep, c->zone, c->pages, c->calls);
	if (c->free_high && c->pages)
		free_high_record(ep, c->zone, compat_order_slot(c->order),
				 compat_mt_slot(c->mt), c->pages);
	/*
	 * 6.7+ (nr_pcp_high) lowers pcp->high by batch << scale on free_high;
	 * this runs on every page freed: read high only when it can have moved
	 */
	if (c->free_high) {
		/* a plain pointer: BPF_CORE_READ would relocate c->pcp too */
		pcp = (struct per_cpu_pages *)c->pcp;
		high_after = BPF_CORE_READ(pcp, high);
		if (high_after < c->high_before)
			count_add(ep, c->zone, compat_order_slot(c->order),
				  compat_mt_slot(c->mt), CNT_FREE_HIGH_HIGH_CUT,
				  c->high_before - high_after);
	}
	bpf_map_delete_elem(&commits, &tkey);
	return 0;
}

/*
 * ---- fentry / fexit: the pcp or list is the key of a bulk call or
 * refill; decay, drain and commit calls are their task's (state.bpf.h) ----
 */

SEC("pcptop.fentry/free_pcppages_bulk")
int BPF_PROG(fe_bulk, struct zone *zone, int count, struct per_cpu_pages *pcp,
	     int pindex)
{
	return bulk_enter(call_key(pcp, KIND_BULK), zone, count, pcp, pindex);
}

SEC("pcptop.fexit/free_pcppages_bulk")
int BPF_PROG(fx_bulk, struct zone *zone, int count, struct per_cpu_pages *pcp)
{
	return bulk_exit(call_key(pcp, KIND_BULK));
}

SEC("pcptop.fentry/rmqueue_bulk")
int BPF_PROG(fe_refill, struct zone *zone, unsigned int order,
	     unsigned long count, struct list_head *list, int migratetype)
{
	return refill_enter(call_key(list, KIND_REFILL), zone, order, count,
			    migratetype);
}

SEC("pcptop.fexit/rmqueue_bulk")
int BPF_PROG(fx_refill, struct zone *zone, unsigned int order,
	     unsigned long count, struct list_head *list, int migratetype,
	     unsigned int alloc_flags, int ret)
{
	return refill_exit(call_key(list, KIND_REFILL), ret);
}

SEC("pcptop.fentry/decay_pcp_high")
int BPF_PROG(fe_decay, struct zone *zone, struct per_cpu_pages *pcp)
{
	return decay_enter(zone, pcp);
}

SEC("pcptop.fexit/decay_pcp_high")
int BPF_PROG(fx_decay)
{
	return decay_exit();
}

SEC("pcptop.fentry/drain_pages_zone")
int BPF_PROG(fe_drain, unsigned int cpu, struct zone *zone)
{
	/* the trampoline's frame keeps the caller in the stack */
	return drain_enter(ctx, 0, cpu, zone);
}

SEC("pcptop.fexit/drain_pages_zone")
int BPF_PROG(fx_drain)
{
	return drain_exit();
}

/* retargeted at this kernel's name of the commit function (index: *) */
SEC("pcptop.fentry/free_unref_page_commit")
int BPF_PROG(fe_commit, struct zone *zone, struct per_cpu_pages *pcp,
	     struct page *page, int migratetype, unsigned int order)
{
	return commit_enter(zone, pcp, migratetype, order);
}

SEC("pcptop.fexit/free_unref_page_commit")
int BPF_PROG(fx_commit)
{
	return commit_exit();
}

/* ---- kprobe / kretprobe twins: CPU and nesting depth are the key ---- */

/* attached by the name this kernel has: the commit function's may differ */

SEC("kprobe/free_pcppages_bulk")
int BPF_KPROBE(kp_bulk, struct zone *zone, int count, struct per_cpu_pages *pcp,
	       int pindex)
{
	return bulk_enter(kp_push(cpu_state()), zone, count, pcp, pindex);
}

SEC("kretprobe/free_pcppages_bulk")
int BPF_KRETPROBE(kr_bulk)
{
	return bulk_exit(kp_pop(cpu_state()));
}

SEC("kprobe/rmqueue_bulk")
int BPF_KPROBE(kp_refill, struct zone *zone, unsigned int order,
	       unsigned long count, struct list_head *list, int migratetype)
{
	return refill_enter(kp_push(cpu_state()), zone, order, count,
			    migratetype);
}

SEC("kretprobe/rmqueue_bulk")
int BPF_KRETPROBE(kr_refill, int ret)
{
	return refill_exit(kp_pop(cpu_state()), ret);
}

SEC("kprobe/decay_pcp_high")
int BPF_KPROBE(kp_decay, struct zone *zone, struct per_cpu_pages *pcp)
{
	return decay_enter(zone, pcp);
}

SEC("kretprobe/decay_pcp_high")
int BPF_KRETPROBE(kr_decay)
{
	return decay_exit();
}

SEC("kprobe/drain_pages_zone")
int BPF_KPROBE(kp_drain, unsigned int cpu, struct zone *zone)
{
	return drain_enter(ctx, kprobe_ret_ip(ctx), cpu, zone);
}

SEC("kretprobe/drain_pages_zone")
int BPF_KRETPROBE(kr_drain)
{
	return drain_exit();
}

SEC("kprobe/free_unref_page_commit")
int BPF_KPROBE(kp_commit, struct zone *zone, struct per_cpu_pages *pcp,
	       struct page *page, int migratetype, unsigned int order)
{
	return commit_enter(zone, pcp, migratetype, order);
}

SEC("kretprobe/free_unref_page_commit")
int BPF_KRETPROBE(kr_commit)
{
	return commit_exit();
}

#include "inside.bpf.h"

#include "tpmode.bpf.h"

#include "stall.bpf.h"

#include "waits.bpf.h"

/* BPF_PROG_TEST_RUN target: reads the CIP patch's static variable */
SEC("raw_tp")
int read_kvar(void *ctx)
{
	kvar_err = bpf_probe_read_kernel(&kvar_value, sizeof(kvar_value),
					 (void *)kvar_addr);
	return 0;
}
