// SPDX-License-Identifier: GPL-2.0-only
/*
 * STUB of rectrace.h for branch whatif, until branch trace's reader
 * (src/rec/rectrace.c) is merged: every recording reads as one without a
 * trace. The merge deletes this file; nothing else refers to it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rectrace.h"

int rec_trace_load(const char *path, struct rec_trace *t, char *msg,
		   size_t msg_len)
{
	memset(t, 0, sizeof(*t));
	snprintf(
		msg, msg_len,
		"%s has no pcp trace: this build reads none yet (record it with 'pcptop record --trace')",
		path);
	return -ENOENT;
}

void rec_trace_free(struct rec_trace *t)
{
	memset(t, 0, sizeof(*t));
}

uint64_t rec_trace_lost_between(const struct rec_trace *t, uint64_t from_ns,
				uint64_t to_ns)
{
	uint64_t lost = 0;
	size_t i;

	for (i = 0; i < t->nr_losses; i++)
		if (t->losses[i].t_end_ns > from_ns &&
		    t->losses[i].t_start_ns < to_ns)
			lost += t->losses[i].lost;
	return lost;
}
