/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The trace chunk (type 6, format 1.4; packed, type 7, 1.5;
 * docs/FORMAT.md): record --trace's events, the pageset and zone states
 * its snapshots point at, and the losses, as the writer buffers them and
 * as the reader gathers them.
 * Libbpf-free: the unit tests write and read it.
 */
#ifndef PCPTOP_RECTRACE_CHUNK_H
#define PCPTOP_RECTRACE_CHUNK_H

#include <stddef.h>
#include <stdint.h>

#include "rectrace.h"

#define REC_TRACE_FIXED_LEN 48
#define REC_TRACE_FIXED_MAX 4096
#define REC_TRACE_EVENT_LEN 24
#define REC_TRACE_PCP_LEN (28 + 4 * PCPM_NR_LISTS_MAX)
#define REC_TRACE_ZONE_LEN 48
#define REC_TRACE_LOSS_LEN 32
/* a writer flushes a chunk at this many events: 6 MiB inflated */
#define REC_TRACE_CHUNK_EVENTS (256u << 10)
/* the recorder's zlib level for them: Z_BEST_SPEED */
#define REC_TRACE_ZLIB_LEVEL 1
/* payload, type, path or zone bytes that say "not known" */
#define REC_TRACE_UNKNOWN 0xff

/* one chunk's contents; the reader's gathers every chunk's */
struct rec_trace_chunk {
	uint32_t seq; /* the interval chunk it comes before */
	uint32_t hooks; /* PCPT_HOOK_* (bpf/pcptrace.h) */
	uint32_t ringbuf_bytes;
	uint64_t t0_ns; /* the recording's start, in the events' clock */
	struct pcpmodel_event *events;
	size_t nr_events, cap_events;
	struct pcpmodel_pcp_state *pcp;
	size_t nr_pcp, cap_pcp;
	struct pcpmodel_zone_state *zones;
	size_t nr_zones, cap_zones;
	struct rec_trace_loss *losses;
	size_t nr_losses, cap_losses;
};

/* 0 or -ENOMEM */
int rec_trace_add_event(struct rec_trace_chunk *c,
			const struct pcpmodel_event *ev);
/* a SNAPSHOT event at t with its state */
int rec_trace_add_pcp(struct rec_trace_chunk *c, uint64_t t, unsigned int cpu,
		      unsigned int zone, const struct pcpmodel_pcp_state *st);
/* a ZONE_STATE event at t with its state */
int rec_trace_add_zone(struct rec_trace_chunk *c, uint64_t t, unsigned int zone,
		       const struct pcpmodel_zone_state *st);
int rec_trace_add_loss(struct rec_trace_chunk *c,
		       const struct rec_trace_loss *l);
/* empty, keeping the memory and the settings */
void rec_trace_chunk_reset(struct rec_trace_chunk *c);
void rec_trace_chunk_free(struct rec_trace_chunk *c);

struct rbuf;
/*
 * type: REC_CHUNK_TRACE_RUNS, what the recorder writes, or
 * REC_CHUNK_TRACE_PACKED (1.5) and REC_CHUNK_TRACE (1.4's 24-byte
 * events), kept for the tests of old files
 */
void rec_trace_encode(struct rbuf *b, const struct rec_trace_chunk *c,
		      uint16_t type);
/*
 * Append one chunk's payload to c (its payload indexes rebased onto c's
 * states, its settings into c's); 0, -EBADMSG (msg says what), -ENOMEM.
 */
int rec_trace_decode(uint16_t type, const unsigned char *p, size_t len,
		     struct rec_trace_chunk *c, char *msg, size_t msg_len);

/* a run's events after its first, at most (bpf/pcptrace.h's RUN_MAX) */
#define REC_TRACE_RUN_MAX 65535u

/* the records that come as runs: allocations and frees */
static inline bool rec_trace_in_runs(unsigned int type)
{
	return type == PCPM_EV_ALLOC || type == PCPM_EV_FREE;
}

/* an event type's name in report --json's trace.events; NULL past them */
static inline const char *rec_trace_type_name(unsigned int type)
{
	static const char *const names[] = {
		"alloc",    "free",	  "decay",     "drain",
		"cpu_dead", "cpu_online", "snapshot",  "zone_state",
		"reclaim",  "isolate",	  "decay_end",
	};

	_Static_assert(sizeof(names) / sizeof(names[0]) == NR_PCPM_EV,
		       "every event type has its name");
	return type < NR_PCPM_EV ? names[type] : NULL;
}

/*
 * The events a decoded record stands for: an allocation's or free's
 * payload is the events of its run after the first (REC_CHUNK_TRACE_RUNS;
 * older chunks read with it 0)
 */

static inline uint64_t rec_trace_event_n(const struct pcpmodel_event *e)
{
	return rec_trace_in_runs(e->type) ? 1 + (uint64_t)e->payload : 1;
}

/* what report says of a trace, added up chunk by chunk without keeping it */
struct rec_trace_tally {
	uint32_t chunks; /* 0: recorded without --trace */
	uint32_t hooks; /* the last chunk's */
	uint32_t ringbuf_bytes;
	uint64_t t0_ns;
	uint64_t events[NR_PCPM_EV];
	uint64_t records; /* as written: a run is one */
	uint64_t lost;
	uint64_t loss_windows;
	/* the earliest start and latest end of a loss, in the events' clock */
	uint64_t loss_first_ns, loss_last_ns;
};

/* b - a in seconds, negative when b is earlier (a loss while attaching) */
static inline double secs_between(uint64_t a, uint64_t b)
{
	return b >= a ? (double)(b - a) / 1e9 : -(double)(a - b) / 1e9;
}

/* one chunk's payload into t; 0 or -EBADMSG */
int rec_trace_tally_add(struct rec_trace_tally *t, uint16_t type,
			const unsigned char *p, size_t len);

#endif /* PCPTOP_RECTRACE_CHUNK_H */
