/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What batching costs, beside the batch figures of figtab: allocation
 * and free latency by order and path (--latency), refills by
 * migratetype, and the memory parked in pcp lists. stat, report and diff
 * print them through these, as text and JSON.
 */
#ifndef PCPTOP_DETAIL_H
#define PCPTOP_DETAIL_H

#include <stdbool.h>
#include <stdio.h>
#include "facts.h"
#include "figures.h"
#include "json.h"

/* "0".."3", "4+" */
const char *lat_order_name(int order_slot);
/* "pcp" / "refill" for allocations, "pcp" / "flush" for frees */
const char *lat_path_name(int dir, int path);
/* "alloc_ns" / "free_ns" */
const char *lat_hist_key(int dir);
/* "Unmovable", "Movable", "Reclaimable", "CMA", "other" */
const char *mt_slot_name(int mt_slot);

/* whether this run timed allocations or frees (--latency attached) */
bool facts_latency(const struct facts *fa, int dir);

/*
 * Text: a table in the shape of reference 003's (mean and p99 ns per
 * order, allocations served from the list beside those refilled inside
 * the call, frees with and without a flush), then refills by
 * migratetype, then the pcp lists' memory. Lines start with indent.
 */
void detail_print_text(FILE *out, const struct facts *fa,
		       const struct figures *f, const char *indent);
/* the three parts of detail_print_text, for report's own order */
void detail_print_latency(FILE *out, const struct facts *fa,
			  const struct figures *f, const char *ind);
void detail_print_by_mt(FILE *out, const struct facts *fa,
			const struct figures *f, const char *ind);
void detail_print_pcp(FILE *out, const struct figures *f, const char *ind);
/* inside "hist": alloc_ns, free_ns and their *_by_order forms */
void detail_json_hists(struct json_writer *w, const struct facts *fa,
		       const struct figures *f);
/* inside a figure's object: by_migratetype and pageblock_order */
void detail_json_by_mt(struct json_writer *w, const struct facts *fa,
		       const struct fig_desc *d, const struct figures *f);
/* "pcp": {pages, zones: [{zone, count, high, high_min, high_max, ...}]} */
void detail_json_pcp(struct json_writer *w, const struct figures *f);

#endif /* PCPTOP_DETAIL_H */
