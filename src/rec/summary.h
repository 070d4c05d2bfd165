/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What changed most between two recordings: the largest relative changes
 * in latency, interrupts-off time, zone->lock hold, batch sizes and pcp
 * memory, each with the spread its per-interval values show where the
 * figure has them. pcptop diff opens with it, as text, JSON and HTML.
 */
#ifndef PCPTOP_SUMMARY_H
#define PCPTOP_SUMMARY_H

#include "recsum.h"

/* the changes diff leads with */
#define SUMMARY_MAX 8

struct diff_change {
	char figure[48]; /* a rec_metrics key: "refill.avg" */
	const char *unit;
	double a, b;
	/* (b - a) / a in percent; INFINITY when a is 0 and b is not */
	double change_pct;
	/*
	 * The standard error of the change from the interval-to-interval
	 * spread of both recordings, in percent; NaN where a figure has no
	 * per-interval values (tails and maxima of the whole run).
	 */
	double spread_pct;
	bool bound; /* a log2 bucket bound */
};

/* the largest changes first, at most max of them; returns how many */
int diff_summary(const struct rec_summary *a, const struct rec_summary *b,
		 struct diff_change *out, int max);

/* b - a as a percentage of a (NaN without a) */
double diff_delta_pct(double a, double b);
/* "+514.2 % (spread +/-3.1 %)", "new in B" */
void diff_change_str(char *buf, size_t len, const struct diff_change *c);

#endif /* PCPTOP_SUMMARY_H */
