/* SPDX-License-Identifier: GPL-2.0-only */
/* The sampled figures on report's and diff's HTML page: a table, charts */
#ifndef PCPTOP_SAMPLED_HTML_H
#define PCPTOP_SAMPLED_HTML_H

#include <stdio.h>
#include "recsum.h"

/* every sampled figure of n recordings, a row each, a column a recording */
void html_sampled_table(FILE *f, const struct rec_summary *const *s, int n);
/*
 * A chart per figtab .chart, each its sampled figures' values over the
 * intervals, A's lines then B's (tags name them). 0, or -ENOMEM when a
 * chart's series could not be built.
 */
int html_sampled_charts(FILE *f, const struct rec_summary *const *s,
			const char *const *tags, int n);

#endif /* PCPTOP_SAMPLED_HTML_H */
