// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include "arrays.h"
#include "kernel_quirks.h"
#include "pcptop.h"
#include "probes.h"

const struct probe_desc probe_table[NR_PROBES] = {
	[PROBE_BULK_FREE] = {
		.name = "bulk_free",
		.fns = { "free_pcppages_bulk" },
		.tp = "mm_page_pcpu_drain",
		.timed = true,
		.tp_per_page = true,
		.tp_nargs = QUIRK_PCPU_DRAIN_TP_NARGS, .tp_cat = "kmem",
		.tp_note = "pages exact; calls and event spans estimated from event runs",
		.heuristic_on = -1,
	},
	[PROBE_REFILL] = {
		.name = "refill",
		.fns = { "rmqueue_bulk" },
		.tp = "mm_page_alloc_zone_locked",
		.timed = true,
		.tp_per_page = true,
		.tp_nargs = QUIRK_ZONE_LOCKED_TP_NARGS, .tp_cat = "kmem",
		.tp_note = "pages from percpu_refill events (rmqueue_buddy fallbacks in, steals out); calls and spans estimated",
		.heuristic_on = -1,
	},
	[PROBE_DECAY] = {
		.name = "decay",
		.fns = { "decay_pcp_high" },
		.heuristic_on = -1,
	},
	[PROBE_DRAIN] = {
		.name = "drain",
		.fns = { "drain_pages_zone" },
		.heuristic_on = -1,
	},
	[PROBE_FREE_HIGH] = {
		.name = "free_high",
		.fns = QUIRK_COMMIT_FNS,
		.fn_per_page = true,
		.opt = PROBE_OPT_EXACT_FREE_HIGH,
		.heuristic_on = PROBE_BULK_FREE,
		.knob = KNOB_FREE_HIGH_EXACT,
	},
	[PROBE_ALLOC] = {
		.name = "alloc",
		.fns = QUIRK_ALLOC_FNS,
		.fn_per_page = true, .opt_in = true,
		.opt = PROBE_OPT_LATENCY,
		.heuristic_on = -1,
		.knob = KNOB_LATENCY_ON,
	},
	[PROBE_FREE] = {
		.name = "free",
		.fns = QUIRK_FREE_FNS,
		.fn_per_page = true, .opt_in = true,
		.opt = PROBE_OPT_LATENCY,
		.heuristic_on = -1,
		.knob = KNOB_LATENCY_ON,
	},
	[PROBE_RECLAIM] = {
		.name = "reclaim",
		/*
		 * No function: try_to_free_pages() would add the throttle
		 * wait before the tracepoints; every mode times the same span
		 */
		.tp = "mm_vmscan_direct_reclaim_begin",
		.tp_exit = "mm_vmscan_direct_reclaim_end",
		.tp_nargs = QUIRK_RECLAIM_TP_NARGS, .tp_cat = "vmscan",
		.tp_note = "direct reclaim stalls, begin to end",
		.heuristic_on = -1,
	},
	[PROBE_COMPACT] = {
		.name = "compact",
		.fns = { "try_to_compact_pages" },
		.tp = "mm_compaction_try_to_compact_pages",
		.tp_exit = "mm_compaction_end",
		.tp_nargs = QUIRK_COMPACT_TP_NARGS, .tp_cat = "compaction",
		.tp_note = "a stall from its start to its last zone's mm_compaction_end, estimated; stalls that compacted no zone unseen",
		.heuristic_on = -1,
		/*
		 * A stall that finds every zone deferred is far shorter
		 * than a kprobe at the entry (docs/ACCURACY.md)
		 */
		.fn_entry_tp = true,
	},
	[PROBE_WAITS] = {
		.name = "waits",
		/*
		 * sched_switch ends a writer's sleep and books each CPU's
		 * idle periods: a program on every context switch, which
		 * returns at once unless a CPU goes idle or comes back, or a
		 * writer is asleep (docs/PERFORMANCE.md, "Wall time")
		 */
		.tp = "balance_dirty_pages",
		.tp_exit = "sched_switch",
		.tp_nargs = QUIRK_WAITS_TP_NARGS, .tp_cat = "writeback",
		.tp_note = "writers' throttle sleeps, tracepoint to switch back in; each CPU's idle time by the wait pending",
		.heuristic_on = -1,
	},
	[PROBE_THROTTLE] = {
		.name = "throttle",
		.tp = "mm_vmscan_throttled",
		.tp_nargs = QUIRK_THROTTLE_TP_NARGS, .tp_cat = "vmscan",
		.tp_note = "reclaim_throttle() sleeps by reason, the kernel's usec_delayed",
		.heuristic_on = -1,
	},
	[PROBE_BLOCK] = {
		.name = "block",
		.tp = "block_rq_issue",
		.tp_exit = "block_rq_complete",
		.tp_nargs = QUIRK_BLOCK_TP_NARGS, .tp_cat = "block",
		.tp_note = "block requests by direction, issue to first complete",
		.heuristic_on = -1,
	},
	[PROBE_IRQ_TIME] = {
		.name = "irq_time",
		.support = true,
		.what = "hard interrupt time inside the calls, left out of zone->lock hold",
		.tp = "irq_handler_entry",
		.tp_exit = "irq_handler_exit",
		.tp_nargs = 0, .tp_cat = "irq",
		.heuristic_on = -1,
	},
	[PROBE_SOFTIRQ_TIME] = {
		.name = "softirq_time",
		.support = true,
		.what = "softirq time inside the calls, left out of zone->lock hold",
		.tp = "softirq_entry",
		.tp_exit = "softirq_exit",
		.tp_nargs = 0, .tp_cat = "irq",
		.heuristic_on = -1,
	},
	[PROBE_LOCK_WAIT] = {
		.name = "lock_wait",
		.support = true,
		.what = "zone->lock contention inside the calls (v5.19+)",
		.tp = "contention_begin",
		.tp_exit = "contention_end",
		.tp_nargs = QUIRK_LOCK_TP_NARGS, .tp_cat = "lock",
		.heuristic_on = -1,
	},
	[PROBE_BULK_ORDER] = {
		.name = "bulk_order",
		.support = true,
		.what = "the order of every page a bulk free moves, beside the function probe",
		.tp = "mm_page_pcpu_drain",
		.tp_nargs = QUIRK_PCPU_DRAIN_TP_NARGS, .tp_cat = "kmem",
		.tp_per_page = true,
		.beside = BESIDE(PROBE_BULK_FREE),
		/* a hook on every page: opt-in for its cost (docs/PERFORMANCE.md) */
		.opt = PROBE_OPT_PAGE_ORDERS, .opt_in = true,
		.heuristic_on = -1,
	},
};

const struct drain_caller_sym drain_caller_syms[] = QUIRK_DRAIN_CALLERS;
const int nr_drain_caller_syms = ARRAY_SIZE(drain_caller_syms);

/* one name a line, as clang-format would not keep them */
/* clang-format off */
static const char *const mode_names[NR_PROBE_MODES] = {
	[MODE_NONE] = "none",
	[MODE_FENTRY] = "fentry",
	[MODE_KPROBE] = "kprobe",
	[MODE_TRACEPOINT] = "tracepoint",
	[MODE_HEURISTIC] = "heuristic",
	[MODE_AUTO] = "auto",
};
/* clang-format on */

const char *probe_mode_name(enum probe_mode mode)
{
	return (unsigned int)mode < NR_PROBE_MODES ? mode_names[mode] : "?";
}

int probe_mode_parse(const char *s, enum probe_mode *mode)
{
	static const enum probe_mode choices[] = { MODE_AUTO, MODE_FENTRY,
						   MODE_KPROBE,
						   MODE_TRACEPOINT };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(choices); i++) {
		if (!strcmp(s, mode_names[choices[i]])) {
			*mode = choices[i];
			return 0;
		}
	}
	return -EINVAL;
}

enum probe_mode probe_mode_from_name(const char *s)
{
	int m;

	for (m = 0; m < NR_PROBE_MODES; m++)
		if (!strcmp(s, mode_names[m]))
			return (enum probe_mode)m;
	return MODE_NONE;
}

int probe_find(const char *name)
{
	int id;

	for (id = 0; id < NR_PROBES; id++)
		if (!strcmp(probe_table[id].name, name))
			return id;
	return -1;
}

bool probe_mode_fn(enum probe_mode m)
{
	return m == MODE_FENTRY || m == MODE_KPROBE;
}

bool probe_per_page(int id, enum probe_mode m)
{
	if (id < 0 || id >= NR_PROBES)
		return false;
	if (m == MODE_TRACEPOINT)
		return probe_table[id].tp_per_page;
	if (probe_mode_fn(m))
		return probe_table[id].fn_per_page;
	return false;
}

unsigned int probe_opts_of(const struct attach_opts *o)
{
	return (o->latency ? PROBE_OPT_LATENCY : 0) |
	       (o->exact_free_high ? PROBE_OPT_EXACT_FREE_HIGH : 0) |
	       (o->page_orders ? PROBE_OPT_PAGE_ORDERS : 0);
}

const char *probe_opt_unasked(unsigned int opt)
{
	if (opt & PROBE_OPT_LATENCY)
		return "latency not asked for (--latency probes it on every call)";
	if (opt & PROBE_OPT_EXACT_FREE_HIGH)
		return "exact free_high not asked for (--exact-free-high probes it on every free)";
	if (opt & PROBE_OPT_PAGE_ORDERS)
		return "not asked for (--page-orders hooks every page a bulk free moves; tracepoint mode counts them anyway)";
	return "not asked for";
}
