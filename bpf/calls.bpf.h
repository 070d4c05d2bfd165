/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a probed call leaves behind beside its size: evidence of the scale
 * in force, the time it took and what ran inside it (interrupts, waits for
 * zone->lock), and the keys that pair a kprobe with its kretprobe.
 * Included by pcptop.bpf.c after state.bpf.h.
 */
#ifndef PCPTOP_CALLS_BPF_H
#define PCPTOP_CALLS_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "compat.bpf.h"
#include "pcptop.h"
#include "state.bpf.h"

/* ---- the scale: only what proves it ---- */

/* free_count grows by a page's order past its cap at most */
#define FREE_COUNT_OVERSHOOT (1 << PCPTOP_PAGE_ALLOC_COSTLY_ORDER)

/*
 * The smallest s for which batch << s could have held n pages. A global
 * function, walked once by the verifier: inlined, each of its returns was
 * a state of its own at each of its three calls.
 */
__noinline int pcptop_scale_for(__u64 n, int batch)
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
		s = pcptop_scale_for(fc - FREE_COUNT_OVERSHOOT + 1, batch);
		if (s > lb)
			lb = s;
	}
	if (lb >= 0 && lb <= PCPTOP_SCALE_MAX)
		hist_record(ep, zone, HIST_SCALE_AT_LEAST, lb);
	if (f->ctx != CTX_DRAIN || f->count_arg <= 0 || batch <= 0)
		return;
	s = pcptop_scale_for(f->count_arg, batch);
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
	/* not stamped: its store's lookup failed, which a stored key cannot */
	t->call = f->start_ns ? now - f->start_ns : 0;
	t->irq = t->wait = t->waits = 0;
	/* the clocks are per CPU: a call that moved has no deltas */
	if (st && f->cpu == (int)bpf_get_smp_processor_id()) {
		t->irq = st->irq_ns - f->irq0;
		t->wait = st->wait_ns - f->wait0;
		t->waits = st->waits - f->waits0;
		st->cur_lock = f->prev_lock;
		st->cur_call = f->prev_call;
		st->cur_zone = f->prev_zone;
	}
	if (t->irq + t->wait > t->call)
		t->irq = t->wait = 0;
	t->hold = t->call - t->irq - t->wait;
}

static __always_inline void
record_times(__u32 ep, int zone, struct pcptop_counter_val *cnt,
	     const struct inflight *f, const struct call_times *t, __u64 pages,
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
	hist_weigh(ep, zone, HIST_LOCK_HOLD_NS_BY_PAGES, pages, t->hold);
	hist_weigh(ep, zone, HIST_IRQS_OFF_NS_BY_PAGES, pages,
		   t->hold + t->wait);
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
		f->prev_zone = st->cur_zone;
		st->cur_lock = compat_zone_lock_addr(zone);
		st->cur_call = key;
		st->cur_zone = f->zone;
	}
}

/*
 * Store the call, then stamp its start in the stored entry: whatever this
 * program does after the clock is read counts as the call's time, and the
 * update takes the hash bucket's lock (and maybe another CPU's free-list
 * lock), which may spin. The lookup after it takes no lock; the two
 * orders measured are in docs/PERFORMANCE.md. The interrupt and wait
 * clocks are read again with the stamp, for the same window.
 */
static __always_inline void call_store(__u64 key, struct inflight *f,
				       const struct cpu_state *st)
{
	struct inflight *p;

	bpf_map_update_elem(&inflight, &key, f, BPF_ANY);
	p = bpf_map_lookup_elem(&inflight, &key);
	if (!p)
		return;
	if (st) {
		p->irq0 = st->irq_ns;
		p->wait0 = st->wait_ns;
		p->waits0 = st->waits;
	}
	p->start_ns = bpf_ktime_get_ns();
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

#endif /* PCPTOP_CALLS_BPF_H */
