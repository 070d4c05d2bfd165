/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * --prom FILE: a Prometheus textfile-collector file that node_exporter
 * picks up, rewritten atomically (FILE.tmp, then rename) every interval,
 * so a fleet of boards reports through the node_exporter it already has.
 */
#ifndef PCPTOP_PROM_H
#define PCPTOP_PROM_H

#include <stdbool.h>
#include "attach.h"
#include "figures.h"

struct system_facts;

struct prom_state {
	const char *path;	/* NULL: --prom not given, prom_update() is a no-op */
	char release[65];
	char arch[65];
	char mode[32];
	char scale_source[32];
	int scale;		/* -1 unknown */
	int max_batch;
	bool estimated[NR_PROBES];
	struct figures total;	/* since pcptop started */
	double seconds;
	bool warned;		/* a write failure is said once, not each interval */
};

/* path may be NULL; a and sf give the labels and gauges that do not change */
void prom_init(struct prom_state *ps, const char *path, const struct attach *a,
	       const struct system_facts *sf);
/*
 * Add one interval and rewrite the file. 0 or -errno; the first failure
 * is also said on stderr, and later intervals try again.
 */
int prom_update(struct prom_state *ps, const struct figures *f, double secs);

/* dst += src: counters and slots add up, max is the larger */
void figures_add(struct figures *dst, const struct figures *src);

#endif /* PCPTOP_PROM_H */
