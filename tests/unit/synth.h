/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Synthetic facts, figures and summaries for the output tests: every
 * counter and histogram of figtab holds a distinct non-zero value, so an
 * output that leaves a figure out, or prints the wrong one, is caught.
 */
#ifndef PCPTOP_SYNTH_H
#define PCPTOP_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "facts.h"
#include "figures.h"
#include "samples.h"
#include "compare.h"
#include "recsum.h"

/* a 2-CPU facts set; mode is what every probe attached as */
void synth_facts(struct facts *f, enum probe_mode mode, bool cross_check);
/* counter i = 1000 * (i + 1) + seed, every histogram slot 3..9 filled */
void synth_figures(struct figures *f, unsigned int seed);
/*
 * every sampled figure's cells: cell 0 of figure i (machine-wide) is
 * v = 10000 * (i + 1) + seed; a per-zone figure has zones 0 and 1 at v + 1
 * and v + 2, a per-order one orders 0..2 of them at v + 10 * zone + order;
 * sums in the zones' cells and cell 0. s must be allocated.
 */
void synth_samples(struct samples *s, unsigned int seed);
/* a summary of 3 intervals over synth_facts/figures, with a command */
void synth_summary(struct rec_summary *s, const char *path,
		   enum probe_mode mode, unsigned int seed);
void synth_summary_free(struct rec_summary *s);
/* a compared with b, one run a side (allocated: free() it), NULL on ENOMEM */
struct cmp_result *synth_compare(const struct rec_summary *a,
				 const struct rec_summary *b);

/* what out wrote, as a NUL-terminated string (open_memstream) */
struct capture {
	char *buf;
	size_t len;
	FILE *f;
};

FILE *capture_open(struct capture *c);
/* closes the stream; c->buf stays until capture_free() */
const char *capture_text(struct capture *c);
void capture_free(struct capture *c);

#endif /* PCPTOP_SYNTH_H */
