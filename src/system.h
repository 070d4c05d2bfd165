/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the running kernel says about its PCP set-up, gathered once per
 * command: release, the scale in force, per-CPU pagesets, pageblock order.
 * Each figure keeps its error so views can say "unreadable" and why.
 */
#ifndef PCPTOP_SYSTEM_H
#define PCPTOP_SYSTEM_H

#include <sys/utsname.h>
#include "procfs.h"
#include "scale.h"

#include <stdbool.h>

struct attach;
struct attach_opts;

struct system_facts {
	struct utsname uts;
	struct scale_info scale;
	int kvar_err;		/* reading pcp_batch_scale_max, 0 if read */
	struct zoneinfo zones;
	int zones_err;
	int pageblock_order;
	int pages_per_block;
	int pageblock_err;
	long high_fraction;	/* vm.percpu_pagelist_high_fraction */
	int high_fraction_err;
};

/*
 * What every attaching command does first: attach, say once how auto mode
 * fell back (when say_fallback), read the facts, and cut tracepoint runs
 * at batch << scale. 0, or the exit status after a one-line error, with
 * nothing left attached. system_detach() undoes it.
 */
int system_attach(struct attach *a, struct system_facts *sf,
		  const struct attach_opts *o, bool say_fallback);
void system_detach(struct attach *a, struct system_facts *sf);

/* a may be NULL: then the kernel variable is not read */
int system_collect(struct system_facts *sf, struct attach *a);
void system_free(struct system_facts *sf);

/* name of zone index idx (node 0 order, as in /proc/zoneinfo), or "?" */
const char *system_zone_name(const struct system_facts *sf, int idx);
/* largest pcp->batch over every zone and CPU, 0 when unknown */
int system_max_batch(const struct system_facts *sf);

/* batch << scale, the largest chunk any bulk call moves; 0 when unknown */
unsigned long long system_chunk_bound(const struct system_facts *sf);

/*
 * Pages one bulk free can free beyond its request: the last page taken
 * may be of the highest order the pcp lists hold (see scale_infer_slack()).
 */
unsigned long long system_overshoot_slack(const struct system_facts *sf);

/* "scale 5 (config, /proc/config.gz)": the first line of every view */
void system_scale_line(const struct system_facts *sf, char *buf, size_t len);

#endif /* PCPTOP_SYSTEM_H */
