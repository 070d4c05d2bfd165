/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What an allocating task waits for: direct reclaim and direct compaction,
 * one histogram sample a stall, booked at the order allocated. Stalls
 * sleep and migrate, so a stall in flight is the task's, not the CPU's.
 *
 * Direct reclaim: vmscan:mm_vmscan_direct_reclaim_begin and _end bracket
 * do_try_to_free_pages() in try_to_free_pages() on every kernel pcptop
 * runs on (6.1 to 6.18), in every mode. The wait in
 * throttle_direct_reclaim() before them is not in it (pgscan_direct_throttle
 * counts those).
 *
 * Direct compaction is try_to_compact_pages(), called once a stall by
 * __alloc_pages_direct_compact(). Beside a function probe a stall starts
 * at compaction:mm_compaction_try_to_compact_pages, which it fires once
 * its gfp mask allows compaction, and ends at its return (fexit,
 * kretprobe); it is booked when the kernel counts compact_stall for what
 * it returned (compat_compact_stalled()). Not at its entry: a stall that
 * finds every zone deferred is far less work than a kprobe's entry adds
 * to it (docs/ACCURACY.md; probe_desc.fn_entry_tp). No tracepoint marks
 * its return:
 * compaction:mm_compaction_try_to_compact_pages fires at its start and
 * mm_compaction_begin/end bracket each zone it compacts (compact_zone(),
 * which kcompactd and proactive compaction run too; cc->direct_compaction
 * tells them apart). So the tracepoint stand-in times a stall from its
 * start to the end of its last zone: each zone's end books the stall
 * again and takes back what the one before booked, so a stall is one
 * sample. A stall that compacted no zone (all deferred or already
 * suitable) is not seen.
 */
#ifndef PCPTOP_STALL_BPF_H
#define PCPTOP_STALL_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "compat.bpf.h"
#include "pcptop.h"
#include "rawtp.bpf.h"
#include "state.bpf.h"

enum stall_kind { STALL_RECLAIM, STALL_COMPACT };

struct stall {
	__u64 start_ns;
	__u64 booked_ns; /* stand-in: time booked so far, counter and hist */
	__u64 sample_ns; /* ... the histogram sample to take back */
	__u32 ep; /* the map copy that sample is in */
	int cpu; /* and whose CPU's copy */
	int order; /* the allocation's */
};

/*
 * By task and kind. LRU: the compaction stand-in never learns that a
 * stall is over, so its last entry stays until the task's next stall
 * replaces it or the map needs the room (the loader sizes it by CPU).
 */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u64);
	__type(value, struct stall);
} stalls SEC(".maps");

static __always_inline __u64 stall_key(int kind)
{
	/* the thread id: a stall belongs to one thread */
	return (bpf_get_current_pid_tgid() & 0xffffffffULL) << 1 | kind;
}

/*
 * The clock is read last at a stall's start and first at its end: the
 * map's work is then outside the time booked. An LRU hash update costs
 * microseconds under TCG, several times a quick compaction's own time
 * (one that finds every zone deferred).
 */
static __always_inline int stall_begin(int kind, int order)
{
	struct stall s = { .order = order }, *p;
	__u64 key = stall_key(kind);

	bpf_map_update_elem(&stalls, &key, &s, BPF_ANY);
	p = bpf_map_lookup_elem(&stalls, &key);
	if (p)
		p->start_ns = bpf_ktime_get_ns();
	return 0;
}

static __always_inline void stall_book(int kind, const struct stall *s,
				       __u32 ep, __u64 sample, __u64 more_ns)
{
	int hist = kind == STALL_RECLAIM ? HIST_RECLAIM_STALL_NS :
					   HIST_COMPACT_STALL_NS;
	int counter = kind == STALL_RECLAIM ? CNT_RECLAIM_STALL_NS :
					      CNT_COMPACT_STALL_NS;

	hist_record(ep, PCPTOP_ZONE_UNKNOWN, hist, sample);
	count_add(ep, PCPTOP_ZONE_UNKNOWN, compat_order_slot(s->order), 0,
		  counter, more_ns);
}

/* the function's return (or the reclaim tracepoint's end): book, forget */
static __always_inline int stall_end(int kind, bool book)
{
	__u64 now = bpf_ktime_get_ns(), key = stall_key(kind), ns;
	struct stall *s = bpf_map_lookup_elem(&stalls, &key);

	if (!s)
		return 0;
	ns = now - s->start_ns;
	if (book && s->start_ns)
		stall_book(kind, s, cur_epoch(), ns, ns);
	bpf_map_delete_elem(&stalls, &key);
	return 0;
}

/* take a sample back out of the CPU's copy it went to */
static __always_inline void stall_unbook(const struct stall *s)
{
	__u32 hkey =
		pcptop_hist_key(PCPTOP_ZONE_UNKNOWN, HIST_COMPACT_STALL_NS) +
		s->ep * PCPTOP_NR_HIST_KEYS;
	struct pcptop_hist_val *h;
	__u32 slot = log2_slot(s->sample_ns);

	if (slot >= PCPTOP_HIST_SLOTS)
		slot = PCPTOP_HIST_SLOTS - 1;
	h = bpf_map_lookup_percpu_elem(&hists, &hkey, s->cpu);
	if (h && h->slots[slot])
		__sync_fetch_and_add(&h->slots[slot], -1);
}

/* the stand-in: a zone of a direct compaction is done */
static __always_inline int on_compaction_end(struct compact_control *cc)
{
	__u64 now = bpf_ktime_get_ns(), key = stall_key(STALL_COMPACT), more;
	__u32 ep = cur_epoch();
	struct stall *s;

	if (!BPF_CORE_READ(cc, direct_compaction))
		return 0;
	s = bpf_map_lookup_elem(&stalls, &key);
	if (!s || !s->start_ns)
		return 0;
	more = now - s->start_ns - s->booked_ns;
	/*
	 * The earlier zones' sample is taken back while its interval is
	 * still being counted; once read, the rest is a sample of its own
	 */
	if (s->sample_ns && s->ep == ep) {
		stall_unbook(s);
		s->sample_ns += more;
	} else {
		s->sample_ns = more;
	}
	stall_book(STALL_COMPACT, s, ep, s->sample_ns, more);
	s->booked_ns += more;
	s->ep = ep;
	s->cpu = bpf_get_smp_processor_id();
	return 0;
}

TP_TWIN(mm_vmscan_direct_reclaim_begin, tp_reclaim_begin,
	stall_begin(STALL_RECLAIM, order), int order, gfp_t gfp_flags)
TP_TWIN(mm_vmscan_direct_reclaim_end, tp_reclaim_end,
	stall_end(STALL_RECLAIM, true), unsigned long nr_reclaimed)
TP_TWIN(mm_compaction_try_to_compact_pages, tp_compact_try,
	stall_begin(STALL_COMPACT, order), int order, gfp_t gfp_mask, int prio)
TP_TWIN(mm_compaction_end, tp_compact_end, on_compaction_end(cc),
	struct compact_control *cc, unsigned long zone_start,
	unsigned long zone_end, bool sync, int status)

SEC("pcptop.fexit/try_to_compact_pages")
int BPF_PROG(fx_compact, gfp_t gfp_mask, unsigned int order,
	     unsigned int alloc_flags, const struct alloc_context *ac,
	     enum compact_priority prio, struct page **capture,
	     enum compact_result ret)
{
	return stall_end(STALL_COMPACT, compat_compact_stalled(ret));
}

SEC("kretprobe/try_to_compact_pages")
int BPF_KRETPROBE(kr_compact, int ret)
{
	return stall_end(STALL_COMPACT, compat_compact_stalled(ret));
}

#endif /* PCPTOP_STALL_BPF_H */
