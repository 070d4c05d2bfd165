/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The JSON form of every figure, shared by the commands that print JSON:
 * stat's intervals and report's and diff's totals use the same keys, so
 * one jq filter reads a live interval and a recording alike.
 */
#ifndef PCPTOP_JSON_FIG_H
#define PCPTOP_JSON_FIG_H

#include <stdint.h>
#include "facts.h"
#include "figures.h"
#include "samples.h"
#include "json.h"

/*
 * Every figtab row as an object under its key, null where this run did
 * not measure it: events, pages, max, avg, per_s (when secs > 0) and
 * ratios for FIG_BATCH; total, p50, p99, max for FIG_TIME; the pages of
 * FIG_CHECK; extras counted in fa's modes; by_migratetype for FIG_BY_MT
 * rows; unit, kind, source, field, value (per_s, or peak and mean) and
 * zones for FIG_SAMPLED. stat writes an interval, report a run.
 */
void json_figures(struct json_writer *w, const struct facts *fa,
		  const struct figures *f, const struct samples *s,
		  double secs);
/* "key": [{lo, hi, count}] up to the last non-empty log2 slot */
void json_log2_hist(struct json_writer *w, const char *key,
		    const uint64_t *slots, int nr);
/*
 * hist_table[h] under its key: unit, samples, total (for a time
 * histogram: the summed ns of its figure), p50, p99 (log2 slot upper
 * bounds), max, and the slots as "buckets".
 */
void json_hist(struct json_writer *w, int h, const struct figures *f);
/* inside "hist": alloc_ns, free_ns and their *_by_order forms (--latency) */
void json_lat_hists(struct json_writer *w, const struct facts *fa,
		    const struct figures *f);

#endif /* PCPTOP_JSON_FIG_H */
