/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The modes in which a row of the figure table is estimated, as its
 * .est_events and .est_pages say them, for the files that hold the BPF
 * rows (figtab.c, figtab_waits.c) and for no one else
 */
#ifndef PCPTOP_FIGTAB_EST_H
#define PCPTOP_FIGTAB_EST_H

#include "probes.h"

/* estimated in tracepoint mode (event runs) and as a heuristic */
#define EST_RUNS PROBE_MODES_ESTIMATED
#define EST_HEUR PROBE_MODE_BIT(MODE_HEURISTIC)
#define EXACT 0u

#endif /* PCPTOP_FIGTAB_EST_H */
