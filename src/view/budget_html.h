/* SPDX-License-Identifier: GPL-2.0-only */
/* The wall-time budget of report's and diff's HTML page, as stacked bars */
#ifndef PCPTOP_BUDGET_HTML_H
#define PCPTOP_BUDGET_HTML_H

#include <stdio.h>
#include "recsum.h"

/* bars a chart draws: every run of both sides of a diff */
#define BUDGET_CHART_MAX_RUNS 64

/*
 * One bar a run, runs[0 .. na - 1] A's and the nb after them B's (nb 0:
 * a report's one run), tagged by tags; each side's mean elapsed time
 * marked, and the difference. Nothing when a run has no CPU states.
 */
void html_budget_chart(FILE *f, const struct rec_summary *const *runs,
		       const char *const *tags, int na, int nb);

#endif /* PCPTOP_BUDGET_HTML_H */
