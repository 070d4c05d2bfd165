/* SPDX-License-Identifier: GPL-2.0-only */
/* The wall-time budget (core/budget.h) as a JSON object, "budget" */
#ifndef PCPTOP_JSON_BUDGET_H
#define PCPTOP_JSON_BUDGET_H

#include "budget.h"
#include "json.h"

/*
 * "budget": elapsed, CPUs, the CPU states and what they add up to, the
 * waiting time's split (null where the waits probe did not run), and
 * what lies inside the parts (null where not measured)
 */
void json_budget(struct json_writer *w, const struct time_budget *b);

#endif /* PCPTOP_JSON_BUDGET_H */
