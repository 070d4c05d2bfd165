/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The sampled figures' reader: each interval, beside the BPF snapshot,
 * every FIG_SAMPLED row of figtab is read from its source (/proc/vmstat,
 * /proc/zoneinfo, or pcptop's own programs' statistics through a function
 * kernel/ hands in), so no figure has a reader of its own. Counters keep
 * the interval's increase, gauges the level at its end. No libbpf: tests
 * point it at fixture trees.
 */
#ifndef PCPTOP_SAMPLER_H
#define PCPTOP_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>
#include "facts.h"
#include "procfs.h"
#include "samples.h"

#define SAMPLER_ROOT_LEN 256

/* a SRC_PROG field ("recursion_misses") of the programs loaded: 0 or -errno */
typedef int (*sample_prog_fn)(void *ctx, const char *field, int64_t *v);

struct sampler {
	char root[SAMPLER_ROOT_LEN]; /* "/" or a fixture tree */
	sample_prog_fn prog; /* NULL: no programs, SRC_PROG rows absent */
	void *prog_ctx;
	/* counters' previous raw reading by cell; have: there is one */
	int64_t *prev;
	bool *have;
	int nr_cells;
	bool want_zoneinfo; /* read it every interval: a row, or a view, needs it */
	/* SRC_BLOCK's devices, as facts.devs names them */
	int nr_devs;
	char devs[SAMPLE_DEVS][BLOCK_NAME_LEN];
	long user_hz; /* /proc/stat's ticks a second */
};

/*
 * Read every source once: counters start counting from here, and
 * fa->sampled[] says which rows this machine has, fa->devs which block
 * devices the per-device rows sample, fa->psi_absent why there is no
 * /proc/pressure (from fa->scale.config_path: collect the scale first). with_zoneinfo keeps
 * /proc/zoneinfo read every interval for views that show the pagesets
 * per CPU (the live view). 0 or -ENOMEM: a source that cannot be read
 * only leaves its rows out.
 */
int sampler_open(struct sampler *s, const char *root, sample_prog_fn prog,
		 void *prog_ctx, bool with_zoneinfo, struct facts *fa);
void sampler_close(struct sampler *s);

/*
 * One interval into out (cleared first): counters' increase since the
 * last call, gauges' level now. When zi is not NULL it gets the
 * /proc/zoneinfo read (zoneinfo_free() the old one first), *zi_err its
 * error. 0 or -ENOMEM.
 */
int sampler_read(struct sampler *s, struct samples *out, struct zoneinfo *zi,
		 int *zi_err);

/*
 * Figure d's value in each zone of zi (summed over nodes, zones by their
 * index in node 0's order), have[z] whether it has one. For tests and for
 * the sampler.
 */
void sample_zone_values(const struct zoneinfo *zi, const char *field,
			int64_t v[SAMPLE_ZONES], bool have[SAMPLE_ZONES]);

#endif /* PCPTOP_SAMPLER_H */
