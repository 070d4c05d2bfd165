/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What test_whatif.c and test_whatif_out.c share: a trace written by a
 * "kernel" model (pcpmodel_synth.c) as an in-memory struct rec_trace,
 * and a summary whose totals are what that kernel did, standing for the
 * recording the trace came with.
 */
#ifndef PCPTOP_TEST_WHATIF_H
#define PCPTOP_TEST_WHATIF_H

#include "pcpmodel_synth.h"
#include "whatif.h"

struct tw {
	struct pcpmodel *kernel;
	struct pcpm_synth synth;
	struct rec_trace t; /* borrows synth's stream: no rec_trace_free() */
	struct rec_summary s;
	struct whatif_col kcol; /* the kernel's figures */
	struct whatif w;
};

/* 2 CPUs, 2 zones, THP; the summary's totals are the kernel's: 0 or -errno */
int tw_written(struct tw *x, enum pcpmodel_ruleset rules, int scale,
	       uint64_t seed);
/*
 * the recording timed its calls: each of the kernel's bulk frees (and
 * refills) at a + b * pages ns of lock hold, 100 more of interrupts off
 */
void tw_timed(struct tw *x, double a, double b, bool refill);
/* whatif over x's trace and summary at the scales of a --scale list */
int tw_run(struct tw *x, const char *scales);
void tw_free(struct tw *x);

#endif /* PCPTOP_TEST_WHATIF_H */
