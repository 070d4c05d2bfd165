/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PCPTOP_SNAPSHOT_TAKE_H
#define PCPTOP_SNAPSHOT_TAKE_H

struct attach;
struct snapshot;

/*
 * Flip the epoch the probes write, then read and zero the copy they
 * left: s holds what happened since the previous call. 0 or -errno.
 */
int snapshot_take(struct attach *a, struct snapshot *s);

/*
 * Whether a decay_pcp_high() or drain_pages_zone() the probes saw begin
 * has not ended yet: each books itself at its exit, in the epoch then
 * current. 1 or 0, or -errno when a map cannot be read.
 */
int snapshot_calls_in_flight(struct attach *a);

#endif /* PCPTOP_SNAPSHOT_TAKE_H */
