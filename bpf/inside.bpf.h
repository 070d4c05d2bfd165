/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The support probes: interrupts and softirqs (their time is left out of
 * zone->lock hold and counted as irqs-off time of the call they
 * interrupt) and lock:contention_begin/end on zone->lock (wait time).
 * Tracepoints in every mode, raw where the kernel has no BTF of its own.
 */
#ifndef PCPTOP_INSIDE_BPF_H
#define PCPTOP_INSIDE_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "compat.bpf.h"
#include "rawtp.bpf.h"
#include "state.bpf.h"

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
 * lock:contention_begin/end (16edd9b511a1, v5.19) fire on a lock's slow
 * path: for a qspinlock only once a waiter queues, so one CPU spinning on
 * the pending bit is not seen (docs/ACCURACY.md).
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

#endif /* PCPTOP_INSIDE_BPF_H */
