/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every attaching command does first: attach, read what the running
 * kernel says about its PCP set-up into struct facts (release, probes,
 * the scale in force with the live kernel variable, pagesets, pageblock
 * order), and cut tracepoint runs at batch << scale.
 */
#ifndef PCPTOP_SYSTEM_H
#define PCPTOP_SYSTEM_H

#include <stdbool.h>
#include "attach.h"
#include "facts.h"
#include "sampler.h"
#include "snapshot.h"

struct system {
	struct attach a;
	struct facts f;
	struct sampler smp; /* the FIG_SAMPLED rows, beside the maps */
	int kvar_err; /* reading pcp_batch_scale_max, 0 if read */
};

/*
 * Attach, say once how auto mode fell back (when say_fallback), fill s->f
 * and start the sampler (with_zoneinfo: the live view reads the pagesets
 * every interval). 0 or -errno after a one-line error on stderr, with nothing left
 * attached: -EIO when /proc could not be read, any other -errno when the
 * kernel cannot be used. system_detach() undoes it.
 */
int system_attach(struct system *s, const struct attach_opts *o,
		  bool say_fallback, bool with_zoneinfo);
void system_detach(struct system *s);

/*
 * One interval into snap: the BPF maps since the last call, the sampled
 * figures, and (when with_zoneinfo was asked) /proc/zoneinfo. 0 or -errno.
 */
int system_sample(struct system *s, struct snapshot *snap);
/* the CPUs the maps are sized for (possible CPUs), at least 1 */
int system_nr_cpus(void);

/*
 * The facts of the live system into f; a may be NULL (then the kernel
 * variable is not read and no probe is listed). 0 or -ENOMEM.
 */
int system_collect(struct facts *f, struct attach *a,
		   const struct attach_opts *o, int *kvar_err);

#endif /* PCPTOP_SYSTEM_H */
