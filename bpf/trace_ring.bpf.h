/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record --trace's ring buffer: records reserved and submitted without a
 * wake-up, a CPU's allocations and frees joined into runs of alike events
 * (pcptrace.h), and what a full buffer loses counted per CPU. Apart from
 * trace.bpf.c's hooks so that what goes out, and how, reads on its own.
 */
#ifndef PCPTOP_TRACE_RING_BPF_H
#define PCPTOP_TRACE_RING_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "pcptrace.h"

/* the loader sizes it (bpf_map__set_max_entries) before the load */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, PCPTRACE_RINGBUF_DEFAULT);
} trace_rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} trace_lost SEC(".maps");

/*
 * set by the loader before the load: allocations and frees go out as
 * runs (run_add()); 0 (a test knob, src/kernel/trace.h) one record each
 */
const volatile __u32 runs = 1;

/* each CPU's run in progress (pcptrace.h); the recorder reads what is left */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct pcptrace_run);
} trace_runs SEC(".maps");

static __always_inline void lost_n(__u64 events)
{
	__u32 k = 0;
	__u64 *n = bpf_map_lookup_elem(&trace_lost, &k);

	if (n)
		*n += events;
}

static __always_inline void lost_one(void)
{
	lost_n(1);
}

static __always_inline struct pcptrace_event *reserve(__u64 size, int type,
						      __u32 cpu)
{
	struct pcptrace_event *e = bpf_ringbuf_reserve(&trace_rb, size, 0);

	if (!e) {
		lost_one();
		return NULL;
	}
	__builtin_memset(e, 0, sizeof(*e));
	e->time_ns = bpf_ktime_get_ns();
	e->cpu = cpu;
	e->type = type;
	e->zone = PCPT_ZONE_UNKNOWN;
	return e;
}

/* a run, or an event that could not join one, into the ring buffer */
static __always_inline void emit(const struct pcptrace_event *ev)
{
	struct pcptrace_event *e =
		bpf_ringbuf_reserve(&trace_rb, sizeof(*e), 0);

	if (!e) {
		lost_n(1 + (__u64)ev->payload);
		return;
	}
	*e = *ev;
	bpf_ringbuf_submit(e, BPF_RB_NO_WAKEUP);
}

static __always_inline bool same_run(const struct pcptrace_event *a,
				     const struct pcptrace_event *b)
{
	return a->type == b->type && a->zone == b->zone &&
	       a->order == b->order && a->migratetype == b->migratetype &&
	       a->path == b->path && a->nid == b->nid && a->zflags == b->zflags;
}

/*
 * One record a run instead of one an event: the ring buffer, the
 * recorder and zlib were most of an event's cost (docs/PERFORMANCE.md,
 * "record --trace"). An interrupt's event inside this CPU's update (or a
 * task's that preempted it) finds the run busy, goes out alone and ends
 * the run, as a record of another kind does (run_break()). The event that
 * finds the run ended goes out alone too: its time was read before it
 * looked, so it may come before what ended the run, or after; the next
 * event begins a run, after both.
 */
static __always_inline void run_add(const struct pcptrace_event *ev)
{
	struct pcptrace_run *r;
	__u32 k = 0;

	if (!runs) {
		emit(ev);
		return;
	}
	r = bpf_map_lookup_elem(&trace_runs, &k);
	if (!r) {
		emit(ev);
		return;
	}
	if (r->busy) {
		emit(ev);
		r->brk = 1;
		return;
	}
	r->busy = 1;
	if (r->brk) {
		r->brk = 0;
		if (r->ev.time_ns)
			emit(&r->ev);
		r->ev.time_ns = 0;
		emit(ev);
	} else if (r->ev.time_ns && same_run(&r->ev, ev) &&
		   r->ev.payload < PCPTRACE_RUN_MAX &&
		   ev->time_ns - r->ev.time_ns < PCPTRACE_RUN_MAX_NS) {
		r->ev.payload++;
	} else {
		if (r->ev.time_ns)
			emit(&r->ev);
		r->ev = *ev;
	}
	r->busy = 0;
}

/*
 * A record about CPU cpu's pageset other than a page event (a decay, a
 * drain, hotplug, a seed): that CPU's run in progress ends before it, so
 * no later page event joins a run that began before the record. From
 * another CPU (a drain) it may land while that CPU updates its run: the
 * run then ends at that CPU's next event instead.
 */
static __always_inline void run_break(__u32 cpu)
{
	struct pcptrace_run *r;
	__u32 k = 0;

	r = bpf_map_lookup_percpu_elem(&trace_runs, &k, cpu);
	if (r)
		r->brk = 1;
}

#endif /* PCPTOP_TRACE_RING_BPF_H */
