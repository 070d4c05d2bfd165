/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pcptop whatif's outputs, one file per format: a table of one column
 * per scale (whatif_text.c), one JSON document under
 * docs/schema/whatif.schema.json (whatif_json.c), and one HTML page with
 * the knee: interrupts-off p99 and max and lock acquisitions against the
 * scale (whatif_html.c). They write to a FILE and touch nothing else.
 */
#ifndef PCPTOP_WHATIF_VIEW_H
#define PCPTOP_WHATIF_VIEW_H

#include <stdbool.h>
#include <stdio.h>

#include "whatif.h"

void whatif_text(FILE *f, const struct whatif *w);
/* --check: each comparison on a line, then the verdict */
void whatif_check_text(FILE *f, const struct whatif *w,
		       const struct whatif_check *c, int n, bool pass);
void whatif_json(FILE *f, const struct whatif *w);
void whatif_html(FILE *f, const struct whatif *w);

#endif /* PCPTOP_WHATIF_VIEW_H */
