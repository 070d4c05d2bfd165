/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A recording read into what report and diff show: the header facts, the
 * end chunk, totals over the whole run, per-CPU and per-zone totals and a
 * timeline of one point per interval. Read once, streamed: only one
 * interval's raw arrays are in memory at a time.
 */
#ifndef PCPTOP_RECSUM_H
#define PCPTOP_RECSUM_H

#include <stdbool.h>
#include <stdint.h>
#include "figures.h"
#include "recfile.h"
#include "rectrace_chunk.h"

struct rec_point {
	double t; /* end of the interval, seconds since the start */
	double secs; /* its length */
	uint64_t cnt[NR_PCPTOP_COUNTERS];
	/* each FIG_SPLIT part, by fig_split_slot() */
	uint64_t parts[FIGTAB_MAX_SPLIT_VALUES];
	uint64_t hmax[NR_PCPTOP_HISTS];
	uint64_t hp99[NR_PCPTOP_HISTS]; /* log2 bucket bound */
};

struct rec_summary {
	const char *path;
	struct rec_header h;
	bool have_end;
	struct rec_end end;
	int nr_points;
	struct rec_point *points;
	struct figures total;
	struct samples total_smp; /* the sampled figures over the run */
	/*
	 * [point * nr_figs + figure index]: a sampled figure's value in
	 * that interval (a counter's increase, a gauge's level), or
	 * REC_SAMPLE_ABSENT
	 */
	int64_t *sv;
	uint64_t (*cpu_cnt)[NR_PCPTOP_COUNTERS]; /* [h.dims.nr_cpus] */
	/* by struct zone index; PCPTOP_ZONE_UNKNOWN holds tracepoint events */
	uint64_t zone_cnt[PCPTOP_MAX_ZONES][NR_PCPTOP_COUNTERS];
	double recorded_s;
	uint32_t nr_chunks;
	struct rec_trace_tally trace; /* record --trace's chunks */
	/* why reading stopped before the end of the file, 0 if it did not */
	int stop_err;
	char stop_msg[REC_ERR_LEN];
};

/*
 * 0, or -errno when not even the header is readable (msg says why). A
 * readable prefix is a success: stop_err and stop_msg tell the rest.
 */
int rec_summary_load(const char *path, struct rec_summary *s, char *msg,
		     size_t msglen);
void rec_summary_free(struct rec_summary *s);

/* a sampled figure's value in point i, REC_SAMPLE_ABSENT when it had none */
int64_t rec_point_sample(const struct rec_summary *s, int i,
			 const struct fig_desc *d);
/* whether a figure's events / pages were estimated in this recording */
bool rec_events_estimated(const struct rec_summary *s,
			  const struct fig_desc *d);
/* zone index -> name as node 0 lists them in /proc/zoneinfo, "unknown" */
const char *rec_zone_name(const struct rec_header *h, int zone);
/* whether any figure moved pages or had events in this counter row */
bool rec_cnt_any(const uint64_t cnt[NR_PCPTOP_COUNTERS]);
/* the scale the largest flush/drain/decay chunk proves: 0 or -ENODATA */
int rec_inferred_scale(const struct rec_summary *s, int *scale);
/* "bonnie++ ... exited 0", "... killed by SIGKILL", "(system-wide)" */
void rec_command_line(const struct rec_summary *s, char *buf, size_t len);
void rec_status_line(const struct rec_summary *s, char *buf, size_t len);
/* "2025-05-01 12:00:00 UTC" */
void rec_start_time(const struct rec_header *h, char *buf, size_t len);

#endif /* PCPTOP_RECSUM_H */
