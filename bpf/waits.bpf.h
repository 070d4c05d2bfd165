/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What costs a run wall time and no CPU (issue 29, docs/ACCURACY.md "Wall
 * time"): writers throttled on dirty pages, reclaim asleep in
 * reclaim_throttle(), block requests in flight, and the idle time of each
 * CPU split by which of them was pending. Each program runs once an event
 * of its own (a throttle, a request, a context switch), never once a page.
 *
 * Writers: writeback:balance_dirty_pages fires before the task sleeps in
 * io_schedule_timeout(pause) (TASK_KILLABLE), and also with pause <= 0
 * when it does not sleep. A sleep is a pause > 0 followed by the task's
 * switch out asleep (not preempted); it is timed from the tracepoint to
 * the task's switch back in (sched:sched_switch), as slept, beside what
 * was planned. A BDP_ASYNC writer (a NOWAIT write) returns after the
 * tracepoint without sleeping: the next sleep of its own, whatever it
 * waits for, is then taken for the pause's (docs/ACCURACY.md).
 *
 * Reclaim: vmscan:mm_vmscan_throttled fires after the sleep, with the
 * kernel's own usec_delayed (jiffies slept, as microseconds) and the
 * reason (enum vmscan_throttle_state, read through CO-RE). Since the event
 * comes after the sleep, that sleep is not placed in the idle split.
 *
 * Block: block_rq_issue to block_rq_complete of each request, keyed by
 * the request as libbpf-tools' biolatency keys it; the first complete
 * ends it (a request completed in parts is timed to its first part).
 *
 * The idle split: at every switch to and from a CPU's idle task, the time
 * the CPU was idle is booked, with how much of it a throttled writer was
 * sleeping, else a request was in flight, else neither. Those states are
 * kept as running totals of time (wait_clock below), so one idle period
 * costs two reads of them, whatever happened meanwhile. The time neither
 * covers is split once more by whether a task was asleep in io_schedule()
 * (task->in_iowait, what /proc/stat tells iowait from idle by) when the
 * period began: with none, there was nothing to wait for; with one, the
 * CPU waited on something pcptop does not name. The kernel's own count,
 * rq->nr_iowait, is a per-CPU variable that BPF can reach only through
 * kallsyms (CONFIG_KALLSYMS_ALL, absent on some kernels), so the programs
 * keep their own: a task leaving its CPU asleep with in_iowait set joins
 * it, and leaves it when it next runs, in_iowait still set (it is cleared
 * after schedule() returns, in io_schedule_finish()). It counts all CPUs,
 * where /proc/stat's is per CPU: on one CPU, as on the board, they agree.
 */
#ifndef PCPTOP_WAITS_BPF_H
#define PCPTOP_WAITS_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "compat.bpf.h"
#include "pcptop.h"
#include "rawtp.bpf.h"
#include "state.bpf.h"

#define NS_PER_US 1000ULL
/* include/linux/sched.h: a switch out in one of these is asleep */
#define WAIT_TASK_UNINTERRUPTIBLE 0x2
/* sectors of the block layer, whatever the device's own block size */
#define WAIT_SECTOR_SHIFT 9

/*
 * balance_dirty_pages' arguments, set by the loader from the tracepoint's
 * BTF prototype: pause is the second to last in both of its shapes
 * (compat.bpf.h).
 */
const volatile int dirty_tp_nargs = COMPAT_DIRTY_TP_NARGS_NEW;
/*
 * ns a jiffy (the loader's CONFIG_HZ): the tracepoint's pause argument is
 * in jiffies, its event's pause field in ms. 0: planned pauses uncounted.
 */
const volatile __u64 dirty_jiffy_ns;

/*
 * The running totals the idle split reads: since the programs loaded, how
 * long a throttled writer was asleep (dirty_ns), and how long, outside
 * that, a block request was in flight (block_ns). Advanced at each event
 * that changes either state. Global, updated without a lock (tracing
 * programs cannot take bpf_spin_lock): on several CPUs at once an advance
 * can be lost or counted twice; on one CPU, as on the board, only an
 * interrupt's completion inside an issue can.
 */
struct wait_clock {
	__u64 last; /* when the totals were last advanced */
	__u64 dirty_ns;
	__u64 block_ns;
	__u64 dirty_until; /* a throttled writer sleeps until then */
	__s64 in_flight; /* requests issued, not yet completed */
	__s64 dirty_sleepers; /* writers between a pause and their switch in */
	__s64 io_waiters; /* tasks asleep in io_schedule(), all CPUs */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct wait_clock);
} wait_clocks SEC(".maps");

/* a CPU's idle period in progress: when, and the totals then */
struct idle_start {
	__u64 at;
	__u64 dirty_ns;
	__u64 block_ns;
	bool io_waiter; /* a task asleep in io_schedule() at the start */
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct idle_start);
} idle_starts SEC(".maps");

/* a writer's pause, from the tracepoint to its switch back in */
struct dirty_pause {
	__u64 start_ns;
	__u64 planned_ns;
	bool asleep; /* it switched out asleep after the pause */
};

/* LRU: a writer killed in its sleep never switches back in */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct dirty_pause);
} dirty_pauses SEC(".maps");

/* a request in flight, by its struct request */
struct rq_start {
	__u64 issue_ns;
	__u32 sectors;
	int dir; /* 0 read, 1 write, -1 another op */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u64);
	__type(value, struct rq_start);
} rq_starts SEC(".maps");

static __always_inline struct wait_clock *wait_clock(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&wait_clocks, &zero);
}

/*
 * Bring the totals to now: the time since the last advance goes to the
 * throttled writers up to dirty_until, the rest of it to the block
 * device if a request is in flight. Between two advances neither state
 * changes but for dirty_until passing, which this splits at.
 */
static __always_inline void wait_advance(struct wait_clock *w, __u64 now)
{
	__u64 last = w->last, dirty = 0;

	if (!last || now <= last) {
		w->last = now;
		return;
	}
	if (w->dirty_until > last)
		dirty = (w->dirty_until < now ? w->dirty_until : now) - last;
	w->dirty_ns += dirty;
	if (w->in_flight > 0)
		w->block_ns += now - last - dirty;
	w->last = now;
}

/* ---- writers throttled on dirty pages ---- */

static __always_inline int on_dirty_pause(long pause)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u32 ep = cur_epoch();
	struct dirty_pause p = {};
	struct wait_clock *w;
	__u64 now;

	/* the short-pause call site passes min(pause, 0): no sleep */
	if (pause <= 0) {
		count_add(ep, PCPTOP_ZONE_UNKNOWN, 0, 0, CNT_DIRTY_NO_SLEEP, 1);
		return 0;
	}
	now = bpf_ktime_get_ns();
	p.start_ns = now;
	p.planned_ns = (__u64)pause * dirty_jiffy_ns;
	bpf_map_update_elem(&dirty_pauses, &tid, &p, BPF_ANY);
	w = wait_clock();
	if (!w)
		return 0;
	wait_advance(w, now);
	/*
	 * until the sleep is seen to end (dirty_woken()), at least as long
	 * as planned
	 */
	if (w->dirty_until < now + p.planned_ns)
		w->dirty_until = now + p.planned_ns;
	__sync_fetch_and_add(&w->dirty_sleepers, 1);
	return 0;
}

/* the pause's sleep is over: count it, as slept and as planned */
static __always_inline void dirty_woken(struct wait_clock *w, __u32 tid,
					struct dirty_pause *p, __u64 now)
{
	__u32 ep = cur_epoch();
	__u64 slept = now - p->start_ns;
	struct pcptop_counter_val *cnt =
		counters_of(ep, PCPTOP_ZONE_UNKNOWN, 0, 0);

	count_in(cnt, CNT_DIRTY_SLEEPS, 1);
	count_in(cnt, CNT_DIRTY_SLEPT_NS, slept);
	count_in(cnt, CNT_DIRTY_PLANNED_NS, p->planned_ns);
	hist_record(ep, PCPTOP_ZONE_UNKNOWN, HIST_DIRTY_SLEEP_NS, slept);
	wait_advance(w, now);
	__sync_fetch_and_add(&w->dirty_sleepers, -1);
	bpf_map_delete_elem(&dirty_pauses, &tid);
}

/* ---- the idle split ---- */

static __always_inline void idle_enter(struct wait_clock *w, __u64 now)
{
	__u32 zero = 0;
	struct idle_start *s = bpf_map_lookup_elem(&idle_starts, &zero);

	if (!s)
		return;
	wait_advance(w, now);
	s->at = now;
	s->dirty_ns = w->dirty_ns;
	s->block_ns = w->block_ns;
	s->io_waiter = w->io_waiters > 0;
}

/*
 * The idle task switched out for next. Where next is a writer asleep in
 * its pause, its wait lasted until now, however long it planned (a jiffy
 * timer, woken at a tick): the idle is booked to it. A global function:
 * the verifier walks it once, not once for each of on_switch()'s paths.
 */
__noinline int pcptop_idle_leave(__u32 next_pid, __u64 now)
{
	__u32 zero = 0, ep;
	struct idle_start *s = bpf_map_lookup_elem(&idle_starts, &zero);
	struct wait_clock *w = wait_clock();
	struct pcptop_counter_val *cnt;
	struct dirty_pause *p;
	__u64 idle, dirty, block, rest;

	/* an idle period that began before the programs did is not booked */
	if (!w || !s || !s->at || now <= s->at)
		return 0;
	if (w->dirty_sleepers > 0) {
		p = bpf_map_lookup_elem(&dirty_pauses, &next_pid);
		if (p && p->asleep && w->dirty_until < now)
			w->dirty_until = now;
	}
	wait_advance(w, now);
	idle = now - s->at;
	dirty = w->dirty_ns - s->dirty_ns;
	block = w->block_ns - s->block_ns;
	/* a lost race between CPUs must not book more than the idle time */
	if (dirty > idle)
		dirty = idle;
	if (block > idle - dirty)
		block = idle - dirty;
	ep = cur_epoch();
	cnt = counters_of(ep, PCPTOP_ZONE_UNKNOWN, 0, 0);
	count_in(cnt, CNT_IDLE_DIRTY_NS, dirty);
	count_in(cnt, CNT_IDLE_BLOCK_NS, block);
	rest = idle - dirty - block;
	count_in(cnt, s->io_waiter ? CNT_IDLE_REST_NS : CNT_IDLE_NO_IOWAIT_NS,
		 rest);
	s->at = 0;
	return 0;
}

static __always_inline int on_switch(bool preempt, struct task_struct *prev,
				     struct task_struct *next,
				     unsigned int prev_state)
{
	__u32 prev_pid = BPF_CORE_READ(prev, pid);
	__u32 next_pid = BPF_CORE_READ(next, pid);
	struct wait_clock *w = wait_clock();
	struct dirty_pause *p;
	__s64 iow = 0;
	__u64 now;

	if (!w)
		return 0;
	/*
	 * preempted, it is runnable: only a switch out asleep is a wait.
	 * One signed step, not two branches, keeps the verifier's paths
	 * through this program few (tests/live: its verified total).
	 */
	if (prev_pid && !preempt && prev_state)
		iow = BPF_CORE_READ_BITFIELD_PROBED(prev, in_iowait);
	/*
	 * a task that was in the count before the programs loaded is not;
	 * with none counted, the read is saved (a switch costs it otherwise)
	 */
	if (next_pid && w->io_waiters > 0)
		iow -= BPF_CORE_READ_BITFIELD_PROBED(next, in_iowait);
	if (iow)
		__sync_fetch_and_add(&w->io_waiters, iow);
	/* the idle task is pid 0 on every CPU */
	if (prev_pid && next_pid && w->dirty_sleepers <= 0)
		return 0;
	now = bpf_ktime_get_ns();
	if (!prev_pid)
		pcptop_idle_leave(next_pid, now);
	if (!next_pid)
		idle_enter(w, now);
	if (w->dirty_sleepers <= 0)
		return 0;
	/*
	 * a preempted task is runnable whatever state it had set: only a
	 * switch out that is not a preemption can be its sleep
	 */
	if (prev_pid && !preempt && (prev_state & WAIT_TASK_UNINTERRUPTIBLE)) {
		p = bpf_map_lookup_elem(&dirty_pauses, &prev_pid);
		if (p)
			p->asleep = true;
	}
	if (next_pid) {
		p = bpf_map_lookup_elem(&dirty_pauses, &next_pid);
		/* preempted before its sleep: it still has the sleep ahead */
		if (p && p->asleep)
			dirty_woken(w, next_pid, p, now);
	}
	return 0;
}

/* ---- reclaim asleep in reclaim_throttle() ---- */

static __always_inline int on_reclaim_throttled(int usec_delayed, int reason)
{
	__u32 ep = cur_epoch();
	struct pcptop_counter_val *cnt =
		counters_of(ep, PCPTOP_ZONE_UNKNOWN, 0, 0);
	int slot = compat_throttle_reason_slot(reason);
	__u64 ns = usec_delayed > 0 ? (__u64)usec_delayed * NS_PER_US : 0;

	count_in(cnt, CNT_THROTTLE_WRITEBACK + slot, 1);
	count_in(cnt, CNT_THROTTLE_WRITEBACK_NS + slot, ns);
	count_in(cnt, CNT_THROTTLE_NS, ns);
	hist_record(ep, PCPTOP_ZONE_UNKNOWN, HIST_THROTTLE_NS, ns);
	return 0;
}

/* ---- block requests ---- */

static __always_inline int on_rq_issue(struct request *rq)
{
	__u64 key = compat_addr(rq), now = bpf_ktime_get_ns();
	unsigned int op = BPF_CORE_READ(rq, cmd_flags) & COMPAT_REQ_OP_MASK;
	struct rq_start s = {
		.issue_ns = now,
		.sectors = BPF_CORE_READ(rq, __data_len) >> WAIT_SECTOR_SHIFT,
		.dir = op == COMPAT_REQ_OP_READ	 ? 0 :
		       op == COMPAT_REQ_OP_WRITE ? 1 :
						   -1,
	};
	struct wait_clock *w = wait_clock();

	/* a request issued again (requeued) is still the one in flight */
	if (bpf_map_update_elem(&rq_starts, &key, &s, BPF_NOEXIST))
		return 0;
	if (!w)
		return 0;
	if (__sync_fetch_and_add(&w->in_flight, 1) <= 0)
		wait_advance(w, now);
	return 0;
}

static __always_inline int on_rq_complete(struct request *rq)
{
	__u64 key = compat_addr(rq), now = bpf_ktime_get_ns(), ns;
	struct rq_start *s = bpf_map_lookup_elem(&rq_starts, &key);
	struct pcptop_counter_val *cnt;
	struct wait_clock *w;
	__u32 ep;

	/* issued before the programs were loaded: not one of theirs */
	if (!s)
		return 0;
	ns = now - s->issue_ns;
	ep = cur_epoch();
	cnt = counters_of(ep, PCPTOP_ZONE_UNKNOWN, 0, 0);
	if (s->dir == 0 || s->dir == 1) {
		count_in(cnt, CNT_BLK_READS + s->dir, 1);
		count_in(cnt, CNT_BLK_READ_SECTORS + s->dir, s->sectors);
		count_in(cnt, CNT_BLK_READ_NS + s->dir, ns);
		hist_record(ep, PCPTOP_ZONE_UNKNOWN,
			    s->dir ? HIST_BLK_WRITE_SECTORS :
				     HIST_BLK_READ_SECTORS,
			    s->sectors);
		hist_record(ep, PCPTOP_ZONE_UNKNOWN,
			    s->dir ? HIST_BLK_WRITE_NS : HIST_BLK_READ_NS, ns);
	} else {
		count_in(cnt, CNT_BLK_OTHER, 1);
	}
	bpf_map_delete_elem(&rq_starts, &key);
	w = wait_clock();
	if (w && __sync_fetch_and_add(&w->in_flight, -1) == 1)
		wait_advance(w, now);
	return 0;
}

/*
 * balance_dirty_pages' pause is its second to last argument in both of
 * its shapes; the dead one is pruned at load (dirty_tp_nargs is rodata)
 */
SEC("tp_btf/balance_dirty_pages")
int tp_dirty(__u64 *ctx)
{
	if (dirty_tp_nargs == COMPAT_DIRTY_TP_NARGS_OLD)
		return on_dirty_pause((long)ctx[COMPAT_DIRTY_TP_NARGS_OLD - 2]);
	return on_dirty_pause((long)ctx[COMPAT_DIRTY_TP_NARGS_NEW - 2]);
}

SEC("raw_tp/balance_dirty_pages")
int rtp_dirty(__u64 *ctx)
{
	if (dirty_tp_nargs == COMPAT_DIRTY_TP_NARGS_OLD)
		return on_dirty_pause((long)ctx[COMPAT_DIRTY_TP_NARGS_OLD - 2]);
	return on_dirty_pause((long)ctx[COMPAT_DIRTY_TP_NARGS_NEW - 2]);
}

TP_TWIN(sched_switch, tp_switch, on_switch(preempt, prev, next, prev_state),
	bool preempt, struct task_struct *prev, struct task_struct *next,
	unsigned int prev_state)
TP_TWIN(mm_vmscan_throttled, tp_throttled,
	on_reclaim_throttled(usec_delayed, reason), int nid, int usec_timeout,
	int usec_delayed, int reason)
TP_TWIN(block_rq_issue, tp_rq_issue, on_rq_issue(rq), struct request *rq)
TP_TWIN(block_rq_complete, tp_rq_complete, on_rq_complete(rq),
	struct request *rq, blk_status_t error, unsigned int nr_bytes)

#endif /* PCPTOP_WAITS_BPF_H */
