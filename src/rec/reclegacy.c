// SPDX-License-Identifier: GPL-2.0-only
/*
 * Recordings of format 1.0 (pcptop 0.1.0) name neither their counters nor
 * their histograms, and some of their figures meant something else than
 * the names say today. This is everything it takes to read them; the
 * fixture tests/fixtures/rec/host-tp-0.1.0.data keeps it honest.
 */
#include <stdio.h>
#include <string.h>
#include "arrays.h"
#include "figtab.h"
#include "recfile.h"

/*
 * Format 1.0 named nothing: its arrays are in the order of bpf/pcptop.h
 * as pcptop 0.1.0 had it. These lists keep those files readable whatever
 * this build's enums have become.
 */
static const char *const legacy_counters[] = {
	"bulk_free_calls",    "bulk_free_pages",   "refill_calls",
	"refill_req_pages",   "refill_pages",	   "free_high_count",
	"free_high_pages",    "decay_calls",	   "decay_pages",
	"drain_calls",	      "drain_pages",	   "bulk_free_lock_ns",
	"refill_lock_ns",     "decay_high_before", "decay_high_after",
	"xcheck_drain_pages",
};
static const char *const legacy_hists[] = {
	"bulk_free_pages", "refill_pages", "lock_ns",	  "refill_lock_ns",
	"free_high_pages", "decay_pages",  "drain_pages",
};
#define NR_LEGACY_COUNTERS ARRAY_SIZE(legacy_counters)
#define NR_LEGACY_HISTS ARRAY_SIZE(legacy_hists)

/*
 * What 0.1.0 called "zone->lock" time was a call's entry to exit (function
 * probes) or an event run's span (tracepoints), and its free_high in
 * tracepoint mode was any run starting at an order 1-3 list: read them as
 * what they were.
 */
static const char *legacy_rename(const char *name, bool tracepoint)
{
	static const struct {
		const char *old, *fn, *tp;
	} renames[] = {
		{ "bulk_free_lock_ns", "bulk_free_call_ns",
		  "bulk_free_span_ns" },
		{ "refill_lock_ns", "refill_call_ns", "refill_span_ns" },
		{ "lock_ns", "bulk_free_call_ns", "bulk_free_span_ns" },
		{ "free_high_count", "free_high_count", "hi_order_runs" },
		{ "free_high_pages", "free_high_pages", "hi_order_pages" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(renames); i++)
		if (!strcmp(name, renames[i].old))
			return tracepoint ? renames[i].tp : renames[i].fn;
	return name;
}

void rec_legacy_maps(struct rec_header *h)
{
	bool tp = facts_mode(&h->f, PROBE_BULK_FREE) == MODE_TRACEPOINT;
	struct fact_probe *fh =
		(struct fact_probe *)facts_probe(&h->f, "free_high");
	size_t i;

	/* its "free_high" there was no such thing: hi_order_runs now hold it */
	if (tp && fh && fh->mode == MODE_HEURISTIC) {
		fh->mode = MODE_NONE;
		snprintf(fh->mode_name, sizeof(fh->mode_name), "none");
		snprintf(
			fh->reason, sizeof(fh->reason),
			"recorded by 0.1.0 as runs starting at an order 1-3 list: see hi_order_runs");
	}
	for (i = 0; i < REC_MAX_COUNTERS; i++)
		h->cnt_map[i] = i < NR_LEGACY_COUNTERS ?
					counter_find(legacy_rename(
						legacy_counters[i], tp)) :
					-1;
	for (i = 0; i < REC_MAX_DIM; i++)
		h->hist_map[i] =
			i < NR_LEGACY_HISTS ?
				hist_find(legacy_rename(legacy_hists[i], tp)) :
				-1;
}
