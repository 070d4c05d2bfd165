/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The outputs of pcptop report and pcptop diff, one file per format. All
 * of them write to a FILE and touch nothing else, so the unit tests run
 * them on fixture recordings.
 */
#ifndef PCPTOP_REPORT_VIEW_H
#define PCPTOP_REPORT_VIEW_H

#include <stdbool.h>
#include <stdio.h>
#include "compare.h"
#include "recsum.h"

/* report_text.c */
void report_text(FILE *f, const struct rec_summary *s, bool timeline,
		 bool hists);
/* diff: the runs of both sides, their metrics compared (compare.h) */
void diff_text(FILE *f, const struct cmp_result *r);

/* report_json.c */
void report_json(FILE *f, const struct rec_summary *s);
void report_csv(FILE *f, const struct rec_summary *s);
void diff_json(FILE *f, const struct cmp_result *r);

/* report_html.c: one self-contained page, inline SVG, no network */
/* 0, or -ENOMEM when a chart's series could not be built (the page is
 * then incomplete, and the caller must not call it written) */
int report_html(FILE *f, const struct rec_summary *s);
int diff_html(FILE *f, const struct cmp_result *r);

#endif /* PCPTOP_REPORT_VIEW_H */
