/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Derived figures of one interval for one selection of CPUs and zones:
 * what stat prints and the live view's rows show.
 */
#ifndef PCPTOP_FIGURES_H
#define PCPTOP_FIGURES_H

#include <stdint.h>
#include "pcptop.h"

struct snapshot;

struct figure_hist {
	uint64_t slots[PCPTOP_HIST_SLOTS];
	uint64_t max;
	uint64_t samples;
};

struct figures {
	uint64_t cnt[NR_PCPTOP_COUNTERS];
	struct figure_hist hist[NR_PCPTOP_HISTS];
};

/* cpu and zone are indexes or SNAP_ALL */
void figures_compute(const struct snapshot *s, int cpu, int zone,
		     struct figures *f);

/* pages per call, 0 without calls */
double figures_ratio(uint64_t num, uint64_t den);

/* the key and meaning of each histogram in JSON and text output */
const char *figures_hist_key(int hist);
const char *figures_hist_title(int hist);
const char *figures_hist_unit(int hist);

#endif /* PCPTOP_FIGURES_H */
