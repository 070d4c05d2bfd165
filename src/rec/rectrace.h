/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A recording's pcp trace (pcptop record --trace): the allocator's pcp
 * traffic as pcpmodel events, streamed from a BPF ring buffer into
 * REC_CHUNK_TRACE chunks, read back as one pcpmodel_stream for the
 * replay (pcptop whatif). The writer half lives beside the recorder, the
 * reader half here; whatif knows only this header.
 */
#ifndef PCPTOP_RECTRACE_H
#define PCPTOP_RECTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pcpmodel.h"

/* a stretch of the trace the ring buffer dropped events in */
struct rec_trace_loss {
	uint64_t t_start_ns; /* the last event before the loss */
	uint64_t t_end_ns; /* the first event after it */
	uint64_t lost; /* events dropped in between */
	uint32_t cpu; /* the CPU whose records were dropped */
};

/* what a replay needs besides the events: the run's own settings */
struct rec_trace_meta {
	int scale; /* the scale in force while recording, -1: unknown */
	char scale_source[64]; /* where that came from (facts' wording) */
	/* the rule set the recorded kernel follows (from its version/BTF) */
	struct pcpmodel_rules rules;
	unsigned int nr_cpus;
	unsigned int nr_zones;
	unsigned int thp_order; /* 0: THPs never reach the pcp lists */
	char kernel_release[65];
	char zone_name[PCPTOP_MAX_ZONES][16];
};

/* the whole trace of one recording, in memory */
struct rec_trace {
	struct rec_trace_meta meta;
	/* events, pcp_states and zone_states: owned, rec_trace_free() */
	struct pcpmodel_stream stream;
	uint64_t lost_events; /* sum of losses[].lost */
	struct rec_trace_loss *losses;
	size_t nr_losses;
	uint64_t first_ns, last_ns; /* time of the first and last event */
	/* added with the reader: */
	uint64_t t0_ns; /* the recording's start (its intervals' 0), same clock */
	uint32_t hooks; /* PCPT_HOOK_* (bpf/pcptrace.h): what was traced */
	uint32_t ringbuf_bytes;
	/*
	 * frees carry the migratetype PCPT_MT_UNKNOWN (0xff) when traced at
	 * kmem:mm_page_free, which has none: the model puts them on the
	 * MOVABLE lists
	 */
	bool free_mt_known;
	/* the file ended inside a chunk (a writer killed): msg said so */
	bool truncated;
};

/*
 * Read every trace chunk of the recording at path. 0; -ENOENT when the
 * recording has no trace (recorded without --trace); -EINVAL for a bad
 * file (msg says what, on what); -ENOMEM.
 */
int rec_trace_load(const char *path, struct rec_trace *t, char *msg,
		   size_t msg_len);
void rec_trace_free(struct rec_trace *t);

/*
 * The rule set a kernel follows, from its release and the scale's facts
 * (CONFIG_PCP_BATCH_SCALE_MAX present on a 6.1/6.6: the capped backport);
 * rules->base and its flags set, with why in how (may be NULL).
 */
struct facts;
void rec_trace_rules_of(const char *release, const struct facts *f,
			struct pcpmodel_rules *rules, char *how,
			size_t how_len);

/* losses[] that overlap [from_ns, to_ns): the replay says so */
uint64_t rec_trace_lost_between(const struct rec_trace *t, uint64_t from_ns,
				uint64_t to_ns);

#endif /* PCPTOP_RECTRACE_H */
