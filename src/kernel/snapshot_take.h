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

#endif /* PCPTOP_SNAPSHOT_TAKE_H */
