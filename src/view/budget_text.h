/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The wall-time budget (core/budget.h) as text: report's and stat's
 * block, and the one line the live view's system line carries.
 */
#ifndef PCPTOP_BUDGET_TEXT_H
#define PCPTOP_BUDGET_TEXT_H

#include <stddef.h>
#include <stdio.h>
#include "budget.h"

/* room for text_budget_line() */
#define BUDGET_LINE_LEN 96

/*
 * The parts that add up (CPU busy by state, waiting split by what was
 * pending), then what lies inside them, then the identity that checks
 * the reading
 */
void text_budget(FILE *out, const struct time_budget *b,
		 const struct facts *fa);
/*
 * "busy 7% iowait 88% throttled 34% stalled 0%": shares of the span's CPU
 * seconds (throttled and stalled are task time: sleeps of several tasks
 * at once can pass 100 %)
 */
void text_budget_line(char *buf, size_t len, const struct time_budget *b);

#endif /* PCPTOP_BUDGET_TEXT_H */
