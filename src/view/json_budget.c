// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include "json_budget.h"

static const char *const split_keys[NR_BUDGET_WAITS] = {
	[WAIT_ON_DIRTY] = "dirty_throttle",
	[WAIT_ON_BLOCK] = "block",
	[WAIT_ON_NOTHING] = "no_io_waiter",
	[WAIT_ON_NONE] = "none",
};

static void maybe(struct json_writer *w, const char *key, bool have, double v)
{
	if (have && !isnan(v))
		json_double(w, key, v);
	else
		json_null(w, key);
}

void json_budget(struct json_writer *w, const struct time_budget *b)
{
	int k;

	json_obj_begin(w, "budget");
	json_double(w, "elapsed_s", b->elapsed_s);
	maybe(w, "cpus", b->cpus > 0, b->cpus);
	if (b->have_cpu) {
		json_obj_begin(w, "states_s");
		for (k = 0; k < NR_CPU_STATES; k++)
			json_double(w, budget_state_name(k), b->state_s[k]);
		json_obj_end(w);
	} else {
		json_null(w, "states_s");
	}
	maybe(w, "cpu_s", b->have_cpu, b->cpu_s);
	maybe(w, "identity_pct", b->have_cpu, budget_identity_pct(b));
	maybe(w, "busy_s", b->have_cpu, b->busy_s);
	maybe(w, "waiting_s", b->have_cpu, b->waiting_s);
	if (b->have_split) {
		json_obj_begin(w, "waiting_split_s");
		for (k = 0; k < NR_BUDGET_WAITS; k++)
			json_double(w, split_keys[k], b->split_s[k]);
		json_obj_end(w);
	} else {
		json_null(w, "waiting_split_s");
	}
	maybe(w, "split_idle_s", b->have_split, b->split_idle_s);
	json_obj_begin(w, "inside_s");
	maybe(w, "dirty_sleep", b->have_dirty, b->dirty_sleep_s);
	maybe(w, "dirty_sleeps", b->have_dirty, b->dirty_sleeps);
	maybe(w, "reclaim_throttle", b->have_throttle, b->throttle_s);
	maybe(w, "stalls", b->have_stalls, b->stall_s);
	maybe(w, "block_busy", b->have_block, b->block_busy_s);
	maybe(w, "psi_io_some", b->have_psi, b->psi_io_some_s);
	maybe(w, "psi_io_full", b->have_psi, b->psi_io_full_s);
	maybe(w, "psi_memory_some", b->have_psi, b->psi_mem_some_s);
	maybe(w, "psi_memory_full", b->have_psi, b->psi_mem_full_s);
	json_obj_end(w);
	json_obj_end(w);
}
