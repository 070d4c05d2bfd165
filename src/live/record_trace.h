/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record --trace in the recording loop: the trace object's ring buffer
 * polled every few milliseconds into trace chunks, /proc/zoneinfo's
 * pagesets and zones read each interval as snapshots, and every record
 * the ring buffer dropped written down as a loss with its time window.
 */
#ifndef PCPTOP_RECORD_TRACE_H
#define PCPTOP_RECORD_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include "recfile.h"
#include "rectrace_chunk.h"

/* how often the recording loop polls the ring buffer */
#define RECORD_TRACE_POLL_NS (10 * 1000 * 1000ULL)

struct trace;

struct rec_tracer {
	struct trace *kt;
	struct rec_writer *w;
	struct rec_trace_chunk buf;
	int nr_cpus;
	uint64_t *lost_prev; /* per CPU, at the last read */
	uint64_t *lost_now;
	uint64_t t_lost_read; /* CLOCK_MONOTONIC of the last read */
	uint32_t seq; /* the next interval's number */
	int err; /* the first failure of a write, sticky */
	/*
	 * PCPT_ZF_* as each CPU's records last gave them, per zone
	 * (nr_cpus x PCPTOP_MAX_ZONES), 0: none yet
	 */
	uint8_t *zflags;
	/* totals for the closing line */
	uint64_t events, lost, chunks, loss_windows;
};

/* 0 or -errno with the error said; t0 is the recording's start */
int rec_tracer_start(struct rec_tracer *rt, const struct record_opts *o,
		     struct rec_writer *w, uint64_t t0);
/* take what the ring buffer holds, and its losses; 0 or -errno */
int rec_tracer_poll(struct rec_tracer *rt);
/* at an interval's end: poll, the pagesets and zones, a chunk; 0 or -errno */
int rec_tracer_interval(struct rec_tracer *rt, uint32_t next_seq);
/* the last poll and chunk, then detach; 0 or -errno */
int rec_tracer_stop(struct rec_tracer *rt, bool quiet);

#endif /* PCPTOP_RECORD_TRACE_H */
