/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The words diff opens with, built only from the figures that moved
 * beyond their spread (compare.h): what changed, by how much, over how
 * many runs, ranked by what it cost the run; then the trade-off they
 * make between the two sides. No sentence is fixed text: a figure that
 * did not move is not in it, and two runs alike give "nothing moved".
 */
#ifndef PCPTOP_EXPLAIN_H
#define PCPTOP_EXPLAIN_H

#include <stddef.h>
#include "compare.h"

/* the figures of each kind of cost the paragraph gives a sentence (the
 * others are named briefly) */
#define EXPLAIN_PER_COST 3
/* a metric's name in words: its figure's title and its part */
#define EXPLAIN_NAME_LEN 192
/* room for every figure named twice (its change, then the trade-off) */
#define EXPLAIN_LEN 16384

/*
 * The moved metrics the paragraph names: the first-ranked of each figure,
 * at most max; returns how many, their r->m indexes in idx
 */
int explain_leading(const struct cmp_result *r, int *idx, int max);
/* whether moved metric r->rank[i] is one the paragraph names */
bool explain_leads(const struct cmp_result *r, int i);
/* "zone->lock acquisitions", "interrupts off for zone->lock ..., in all" */
void explain_name(const struct cmp_metric *c, char *buf, size_t len);
/* a value in its unit, readable: "1.05 ms", "<= 32.8 us", "2 016 pages" */
void explain_value(char *buf, size_t len, double v, const char *unit,
		   bool bound);
/* append to buf what fmt says, never past len (explain.c, explain_wall.c) */
void explain_add(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* the paragraph, one string */
void explain_paragraph(const struct cmp_result *r, char *buf, size_t len);

/*
 * What diff opens with (explain_wall.c): one sentence, what happened to
 * elapsed time (the command's, else the recording's) and its largest
 * measured part; or that it did not move, before anything else
 */
void explain_headline(const struct cmp_result *r, char *buf, size_t len);
/*
 * That sentence, then the wall-time budget's parts that moved beyond
 * their spread, largest first, how B's waiting split, the named waits
 * inside the parts that moved, and the block requests that moved
 */
void explain_wall(const struct cmp_result *r, char *buf, size_t len);

#endif /* PCPTOP_EXPLAIN_H */
