/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * JSON of the facts several commands print the same way (info, stat,
 * report, diff), so one jq filter reads them all.
 */
#ifndef PCPTOP_JSON_FACTS_H
#define PCPTOP_JSON_FACTS_H

#include <stdint.h>
#include "facts.h"
#include "json.h"
#include "procfs.h"
#include "scale.h"

/*
 * The fields of a "scale" object: value (null when unknown), source,
 * sources, patch, config_path, cmdline_raw, note. The caller opens and
 * closes the object, so it can add its own fields.
 */
void json_scale_fields(struct json_writer *w, const struct scale_info *s);
/*
 * What the probes proved about the scale: inferred_at_least (an exact
 * value when one was seen), inferred_evidence (events), inferred_exact
 * (null without a drain chunk cut at batch << scale), inferred (a line).
 */
void json_scale_inferred(struct json_writer *w, const struct scale_info *s);
/* "key": [{node, zone, cpus: [{cpu, count, high, batch, high_min?, high_max?}]}] */
void json_zone_pagesets(struct json_writer *w, const char *key,
			const struct zoneinfo *zi);
/*
 * "self": pcptop's own cost: map_bytes, bpf_stats (whether runs count),
 * programs [{name, runs, run_ns}] since load.
 */
void json_self(struct json_writer *w, const struct self_cost *s);

/*
 * The facts info prints and report repeats: "kernel" {release, arch,
 * hostname, btf[, nr_cpus]}, "mode", "probes", "fallback",
 * "pageblock_order", "pages_per_block", "percpu_pagelist_high_fraction",
 * "run_cap_pages", "zones". nr_cpus < 0 leaves it out. The caller writes
 * "scale" itself: each command adds its own inference fields.
 */
void json_facts(struct json_writer *w, const struct facts *f, int nr_cpus);

/*
 * Where the wall-time figures were read: "block_devices", how many were
 * left unsampled, and why /proc/pressure was not read (null: it was)
 */
void json_wall_sources(struct json_writer *w, const struct facts *f);

#endif /* PCPTOP_JSON_FACTS_H */
