/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * record --trace's BPF side (bpf/trace.bpf.c): load and attach its own
 * object, poll its ring buffer into a caller's sink, read its losses.
 * Nothing of it loads unless record --trace asks for it. No libbpf type
 * leaves this file's pair, so live/ can call it.
 */
#ifndef PCPTOP_KTRACE_H
#define PCPTOP_KTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "probes.h"

#define TRACE_MSG_LEN 320
/* a hidden knob for tests: the ring buffer's bytes (a power of 2 of pages) */
#define TRACE_RINGBUF_ENV "PCPTOP_TRACE_RINGBUF"
/*
 * another, set and not 0: every allocation and free a record of its own
 * (runs of one), to fill a small ring buffer or to measure what runs save
 */
#define TRACE_NO_RUNS_ENV "PCPTOP_TRACE_NO_RUNS"

struct trace_opts {
	enum probe_mode want; /* MODE_AUTO, or the mode --mode asked for */
	const char *btf_path; /* --btf, or NULL */
	uint32_t ringbuf_bytes; /* 0: PCPTRACE_RINGBUF_DEFAULT or the env */
	bool verbose;
};

/* one ring-buffer record as BPF wrote it (bpf/pcptrace.h); 0 or -errno */
typedef int (*trace_sink_fn)(void *ctx, const void *rec, size_t len);

struct trace;

/*
 * Load and attach; 0 or -errno with msg saying what failed and what to do.
 * The function probes go fentry, else kprobe, else none (their events are
 * then missing from the trace: trace_hooks() says which are in it).
 */
int trace_open(struct trace **out, const struct trace_opts *o,
	       trace_sink_fn sink, void *ctx, char *msg, size_t msg_len);
/* hand every record waiting to the sink; their number, or -errno */
int trace_poll(struct trace *t);
/* the programs off their hooks: what they wrote stays to be read */
void trace_detach(struct trace *t);
/*
 * Each CPU's run still in progress to the sink, after trace_detach() and
 * a last trace_poll(): a run goes to the ring buffer only when the next
 * event on its CPU ends it. 0 or -errno.
 */
int trace_flush_runs(struct trace *t);
/* events lost since the load, per CPU (nr entries); 0 or -errno */
int trace_lost(struct trace *t, uint64_t *per_cpu, int nr);
/* PCPT_HOOK_* bits of what is attached, the function probes' mode too */
uint32_t trace_hooks(const struct trace *t);
uint32_t trace_ringbuf_bytes(const struct trace *t);
/* the CPUs trace_lost() has entries for */
int trace_nr_cpus(const struct trace *t);
/* the programs' run time and count (kernel.bpf_stats_enabled) */
void trace_prog_stats(const struct trace *t, uint64_t *run_ns,
		      uint64_t *run_cnt);
void trace_close(struct trace *t);

#endif /* PCPTOP_KTRACE_H */
