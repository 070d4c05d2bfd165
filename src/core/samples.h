/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The values of the sampled figures (FIG_SAMPLED rows of figtab): one
 * cell per machine-wide figure, 1 + SAMPLE_ZONES per per-zone figure
 * (cell 0 the sum of its zones). A cell holds one interval's reading, or
 * what many intervals add up to: a counter's increases summed, a gauge's
 * last, highest and mean level. Every view reads sampled figures through
 * this, as it reads BPF figures through struct figures.
 */
#ifndef PCPTOP_SAMPLES_H
#define PCPTOP_SAMPLES_H

#include <stdbool.h>
#include <stdint.h>
#include "figtab.h"

struct sample_cell {
	int64_t last; /* counter: the last interval's increase; gauge: level */
	int64_t total; /* counter: the increases summed */
	int64_t peak; /* gauge: the highest level */
	double sum; /* gauge: the levels summed, for the mean */
	uint32_t n; /* readings behind it; 0: never read (absent) */
};

struct samples {
	int nr;
	struct sample_cell *c;
};

/* cells for the table in use, all absent; 0 or -ENOMEM */
int samples_alloc(struct samples *s);
void samples_free(struct samples *s);
/* every cell absent again */
void samples_clear(struct samples *s);

/*
 * One interval's reading of figure d: machine-wide in cell 0 (zone -1),
 * zone z's (or CPU z's, device z's: the scope's instance z), or zone z's
 * order o (a SCOPE_ZONE_ORDER figure).
 * samples_sum_zones() then sums orders into their zone and zones into
 * cell 0; a reading that does not fit d's scope is dropped.
 */
void samples_set(struct samples *s, const struct fig_desc *d, int zone,
		 int64_t v);
void samples_set_order(struct samples *s, const struct fig_desc *d, int zone,
		       int order, int64_t v);
void samples_sum_zones(struct samples *s);
/*
 * Cell 0 alone, whatever d's scope: what a recording's timeline keeps of
 * an interval (samples_sum_zones() would recompute it from the others)
 */
void samples_set_sum(struct samples *s, const struct fig_desc *d, int64_t v);
/* dst += src: a run's cells from its intervals' */
void samples_add(struct samples *dst, const struct samples *src);

/* figure d's cell: 0 the figure (or its zones' sum), sample_zone_cell(),
 * sample_order_cell() */
const struct sample_cell *samples_cell(const struct samples *s,
				       const struct fig_desc *d, int cell);
/* whether the cell was read at all */
bool sample_present(const struct sample_cell *c);
/*
 * What a cell amounts to: a counter's increases (one interval's, or a
 * run's), a gauge's last level.
 */
int64_t sample_value(const struct fig_desc *d, const struct sample_cell *c);
/* a gauge's mean level over the readings, 0 without any */
double sample_mean(const struct sample_cell *c);

#endif /* PCPTOP_SAMPLES_H */
