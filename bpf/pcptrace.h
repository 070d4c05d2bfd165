/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record --trace: the records bpf/trace.bpf.c writes into its ring buffer,
 * shared with user space (src/kernel/trace.c reads them, src/live/record.c
 * turns them into a recording's trace chunks). The event record has the
 * layout of struct pcpmodel_event (src/core/pcpmodel.h), whose enums its
 * fields hold; what a tracepoint cannot tell is marked unknown here and
 * decided when the recording is read, so a newer pcptop can decide better.
 */
#ifndef PCPTOP_PCPTRACE_H
#define PCPTOP_PCPTRACE_H

#ifndef __VMLINUX_H__
#include <linux/types.h>
#endif

/* the ring buffer's default size: 8 MiB, a power of 2 of pages */
#define PCPTRACE_RINGBUF_DEFAULT (8u << 20)

/* pcpmodel_event_type's values: the record's type field */
enum pcptrace_type {
	PCPT_ALLOC,
	PCPT_FREE,
	PCPT_DECAY,
	PCPT_DRAIN,
	PCPT_CPU_DEAD,
	PCPT_CPU_ONLINE,
	PCPT_SNAPSHOT, /* struct pcptrace_snap: the pageset read in BPF */
	/*
	 * a direct reclaim's end (1.7): order its begin's, payload the pages
	 * it reclaimed; zone unknown. Type 7 is the recorder's zone state.
	 */
	PCPT_RECLAIM = 8,
	/*
	 * a free block taken off the buddy lists without an allocation
	 * (compaction's isolate_freepages(), __isolate_free_page()): zone
	 * and order the block's, path buddy (1.7)
	 */
	PCPT_ISOLATE,
	/*
	 * decay_pcp_high()'s return (1.7, 2026-12-06): where it frees in
	 * chunks of batch with pcp->lock dropped between them (7.x, 6.18.7+,
	 * Debian 6.12.117+), a free on its CPU in between flushes against
	 * the high it already lowered; the replay frees the chunks here.
	 * Zone unknown from a kretprobe.
	 */
	PCPT_DECAY_END,
	NR_PCPT,
};

/*
 * path: pcp or buddy was not seen (a tracepoint), it follows from the order
 * as pcp_allowed_order() has it; the reader decides with the THP order
 */
#define PCPT_PATH_BY_ORDER 0xff
/* path: seen (the commit, free_one_page()); pcpmodel's PCPM_PATH_* */
#define PCPT_PATH_PCP 0
#define PCPT_PATH_BUDDY 1
/* migratetype: mm_page_free does not carry get_pfnblock_migratetype() */
#define PCPT_MT_UNKNOWN 0xff
/* order: a reclaim's end whose begin was not seen */
#define PCPT_ORDER_UNKNOWN 0xff
/* tasks in direct reclaim at once whose orders are kept */
#define PCPT_RECLAIM_TASKS 1024
/* zone: page->flags did not say (or a zone past PCPTOP_MAX_ZONES) */
#define PCPT_ZONE_UNKNOWN 0xff

/* hooks: which events the trace holds; a recording keeps these bits */
#define PCPT_HOOK_ALLOC_FREE 0x01 /* kmem:mm_page_alloc, mm_page_free */
#define PCPT_HOOK_DRAIN 0x02 /* drain_pages_zone() */
#define PCPT_HOOK_DECAY 0x04 /* decay_pcp_high(), with a pageset read */
#define PCPT_HOOK_HOTPLUG 0x08 /* page_alloc_cpu_dead(), _online() */
#define PCPT_HOOK_ZONEINFO 0x10 /* pagesets and zones read from /proc */
/*
 * free_unref_page_commit(): every pcp free with its list's migratetype
 * and pcp path (format 1.5); mm_page_free then carries only the orders
 * above PAGE_ALLOC_COSTLY_ORDER
 */
#define PCPT_HOOK_COMMIT 0x20
/*
 * free_one_page(), beside the commit: every free that skips the pcp lists
 * (an order they do not hold, an isolated pageblock's, a failed
 * trylock's) as a buddy-path free; mm_page_free, which fires on every
 * free, is then not traced at all (format 1.6, 2026-12-02)
 */
#define PCPT_HOOK_BUDDY 0x40
/*
 * vmscan:mm_vmscan_direct_reclaim_begin/_end: each direct reclaim's end,
 * the moment __alloc_pages_direct_reclaim() tries the freelists again and
 * drains every pageset when that fails (1.7)
 */
#define PCPT_HOOK_RECLAIM 0x80
/*
 * __isolate_free_page()'s return (fexit only): NR_FREE_PAGES falls by
 * the block, which no allocation event shows; without it a replay's free
 * pages drift up under compaction (1.7)
 */
#define PCPT_HOOK_ISOLATE 0x10000
/* decay_pcp_high()'s return, with its entry: DECAY_END events (1.7) */
#define PCPT_HOOK_DECAY_END 0x20000
/* function probes' mode, in the hooks word's second byte */
#define PCPT_HOOK_FN_SHIFT 8
#define PCPT_FN_NONE 0
#define PCPT_FN_FENTRY 1
#define PCPT_FN_KPROBE 2

/* 24 bytes: struct pcpmodel_event's layout */
struct pcptrace_event {
	__u64 time_ns; /* bpf_ktime_get_ns(): CLOCK_MONOTONIC */
	__u32 payload; /* 0 from BPF */
	__u16 cpu;
	__u8 type; /* enum pcptrace_type */
	__u8 zone;
	__u8 order;
	__u8 migratetype;
	__u8 path;
	__u8 reason;
	__u8 caller;
	__u8 nid; /* the page's node; pagesets are per node and zone */
	__u8 zflags; /* PCPT_ZF_*: the zone's flags as a commit read them */
	__u8 pad;
};

/*
 * A run: a CPU's consecutive allocations or frees alike in everything but
 * their time (type, zone, order, migratetype, path, node, the zone's
 * flags), one record in the ring buffer whose payload counts the events
 * after the first (format 1.6, docs/FORMAT.md). Its time is its first
 * event's; it ends at an event unlike it, at any other record of its CPU
 * or a drain of its pageset from another CPU (brk), at PCPTRACE_RUN_MAX
 * events, and PCPTRACE_RUN_MAX_NS after it began, so the time the replay
 * gives its events is at most that far off.
 */
#define PCPTRACE_RUN_MAX 65535u
#define PCPTRACE_RUN_MAX_NS 1000000ull

/* a CPU's run in progress: the trace_runs map's per-CPU value */
struct pcptrace_run {
	struct pcptrace_event ev; /* time_ns 0: none */
	__u32 busy; /* a program of this CPU is updating it */
	__u32 brk; /* the next event starts a new run */
};

/*
 * zflags: what nr_pcp_high() and nr_pcp_alloc() read of zone->flags,
 * read by the commit (6.7+); the recorder writes a zone state when they
 * change, the replay's only source of them
 */
#define PCPT_ZF_BELOW_HIGH 0x01
#define PCPT_ZF_RECLAIM_ACTIVE 0x02
#define PCPT_ZF_VALID 0x80

/*
 * A record of the ring buffer only: the zone an allocation after a
 * direct reclaim tries, read at the reclaim's end, just before its
 * RECLAIM event (the zone of the CPU's last pcp free, where the commit
 * is traced). The recorder writes it as a zone state whose fields are
 * PCPM_ZFIELD_MARK (1.7).
 */
#define PCPT_MARK 31

struct pcptrace_mark {
	struct pcptrace_event ev; /* type PCPT_MARK, zone */
	__u64 free_pages; /* NR_FREE_PAGES */
	__u64 mark; /* compat_zone_order0_mark() */
};

/* pcpmodel_pcp_state's field bits, as far as BPF reads them */
#define PCPT_FIELD_AUTO_HIGH 0x01
#define PCPT_FIELD_FREE_COUNT 0x02
#define PCPT_FIELD_ALLOC_FACTOR 0x04
#define PCPT_FIELD_FLAGS 0x08
#define PCPT_FIELD_FREE_FACTOR 0x10
#define PCPT_FIELD_LISTS 0x20 /* lists[]: entries per pindex */
/* pcp->lists[] read: NR_PCP_LISTS is 12 + 2 THP lists on 6.12 */
#define PCPT_NR_LISTS 16
/* entries a first-free seed walks at most, over all its lists */
#define PCPT_WALK_MAX 65536

/*
 * a pageset as decay_pcp_high() found it, before its DECAY event, or as
 * the first free of the trace on its CPU found it (with its lists)
 */
struct pcptrace_snap {
	struct pcptrace_event ev; /* type PCPT_SNAPSHOT */
	__s32 count;
	__s32 high;
	__s32 high_min;
	__s32 high_max;
	__s32 batch;
	__s32 free_count;
	__u8 alloc_factor;
	__u8 free_factor;
	__u8 flags;
	__u8 fields; /* PCPT_FIELD_* */
	__u32 pad;
	__u32 lists[PCPT_NR_LISTS]; /* with PCPT_FIELD_LISTS */
};

#endif /* PCPTOP_PCPTRACE_H */
