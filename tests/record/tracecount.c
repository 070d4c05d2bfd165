// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a recording's --trace holds, through the reader whatif uses
 * (src/rec/rectrace_read.c), for tests/record/trace.sh to compare with the
 * kernel's own counts.
 *
 * Usage: tracecount FILE [FROM_NS TO_NS]
 * Prints "key value" lines: events of each type, allocations and frees
 * and their pages by zone (CLOCK_MONOTONIC window [FROM_NS, TO_NS) when
 * given), lost records, loss windows, lost records within the window.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "rectrace.h"
#include "rectrace_chunk.h"

int main(int argc, char **argv)
{
	uint64_t from = 0, to = UINT64_MAX, n[NR_PCPM_EV] = { 0 };
	uint64_t pages[2][PCPTOP_MAX_ZONES + 1] = { { 0 } };
	uint64_t events[2][PCPTOP_MAX_ZONES + 1] = { { 0 } };
	struct rec_trace t;
	char msg[320];
	size_t i;
	int err, z;

	if (argc != 2 && argc != 4) {
		fprintf(stderr, "usage: tracecount FILE [FROM_NS TO_NS]\n");
		return 2;
	}
	if (argc == 4) {
		from = strtoull(argv[2], NULL, 10);
		to = strtoull(argv[3], NULL, 10);
	}
	err = rec_trace_load(argv[1], &t, msg, sizeof(msg));
	if (err) {
		fprintf(stderr, "tracecount: %s\n", msg);
		return 1;
	}
	for (i = 0; i < t.stream.nr_events; i++) {
		const struct pcpmodel_event *e = &t.stream.events[i];

		if (e->time_ns < from || e->time_ns >= to)
			continue;
		if (e->type < NR_PCPM_EV)
			n[e->type]++;
		if (e->type > PCPM_EV_FREE)
			continue;
		z = e->zone < PCPTOP_MAX_ZONES ? e->zone : PCPTOP_MAX_ZONES;
		events[e->type][z]++;
		pages[e->type][z] += 1ULL << (e->order & 31);
	}
	for (i = 0; i < NR_PCPM_EV; i++)
		printf("%s %" PRIu64 "\n", rec_trace_type_name(i), n[i]);
	/* the recording's start, its intervals' 0, for a window */
	printf("t0_ns %" PRIu64 "\n", t.t0_ns);
	for (z = 0; z <= PCPTOP_MAX_ZONES; z++) {
		const char *name = z < PCPTOP_MAX_ZONES &&
						   t.meta.zone_name[z][0] ?
					   t.meta.zone_name[z] :
					   "unknown";

		printf("alloc_pages_%s %" PRIu64 "\n", name, pages[0][z]);
		printf("free_pages_%s %" PRIu64 "\n", name, pages[1][z]);
		printf("alloc_events_%s %" PRIu64 "\n", name, events[0][z]);
		printf("free_events_%s %" PRIu64 "\n", name, events[1][z]);
	}
	printf("lost %" PRIu64 "\n", t.lost_events);
	printf("loss_windows %zu\n", t.nr_losses);
	printf("lost_in_window %" PRIu64 "\n",
	       rec_trace_lost_between(&t, from, to));
	printf("first_ns %" PRIu64 "\nlast_ns %" PRIu64 "\n", t.first_ns,
	       t.last_ns);
	printf("hooks 0x%x\nringbuf %u\ntruncated %d\n", t.hooks,
	       t.ringbuf_bytes, t.truncated);
	printf("scale %d %s\nrules %s\nthp_order %u\nnr_cpus %u\n",
	       t.meta.scale, t.meta.scale_source,
	       pcpmodel_rules_name(t.meta.rules.base), t.meta.thp_order,
	       t.meta.nr_cpus);
	rec_trace_free(&t);
	return 0;
}
