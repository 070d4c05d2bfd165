/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --prom FILE: a Prometheus textfile-collector file that node_exporter
 * picks up, rewritten atomically (FILE.tmp, then rename) every interval,
 * so a fleet of boards reports through the node_exporter it already has.
 * Every metric comes from a row of figtab.
 */
#ifndef PCPTOP_PROM_H
#define PCPTOP_PROM_H

#include <stdbool.h>
#include <stdio.h>
#include "facts.h"
#include "figures.h"
#include "samples.h"

struct prom_state {
	const char *path; /* NULL: --prom not given, prom_update() is a no-op */
	const struct facts *facts; /* labels and gauges that do not change */
	struct figures total; /* since pcptop started */
	struct samples smp; /* likewise: counters' totals, gauges' last level */
	double seconds;
	bool warned; /* a write failure is said once, not each interval */
};

/* path may be NULL; facts must outlive ps */
void prom_init(struct prom_state *ps, const char *path,
	       const struct facts *facts);
/*
 * Add one interval and rewrite the file. 0 or -errno; the first failure
 * is also said on stderr, and later intervals try again.
 */
int prom_update(struct prom_state *ps, const struct figures *f,
		const struct samples *s, double secs);
/* add one interval to the totals without writing; 0 or -ENOMEM */
int prom_add(struct prom_state *ps, const struct figures *f,
	     const struct samples *s, double secs);
void prom_free(struct prom_state *ps);
/*
 * A stop by signal takes the file away: node_exporter would go on serving
 * the last interval's figures as fresh. 0 or -errno (none: 0).
 */
int prom_remove(const struct prom_state *ps);

/*
 * The exposition text: totals since start in ps, gauges of the last
 * interval last (secs long). Unit tests call it on a memory stream.
 */
void prom_write(FILE *out, const struct prom_state *ps,
		const struct figures *last, double secs);

#endif /* PCPTOP_PROM_H */
