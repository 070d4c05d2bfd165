/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pcptop's cache directories under /var/cache/pcptop (the cut BTF, a
 * boot's kallsyms lines): made if missing, owned by pcptop's user and
 * writable by nobody else, never reached through a symlink; entries read
 * whole and written under a temporary name, then renamed, so that a
 * crash or a power cut leaves the old entry or the new one.
 */
#ifndef PCPTOP_CACHEDIR_H
#define PCPTOP_CACHEDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * The directory dir (absolute), made if missing (its parents too when
 * make_parents), opened without following a symlink in its last two
 * components and trusted only if its owner is pcptop's user and no one
 * else may write it: an fd, or -errno.
 */
int cachedir_open(const char *dir, bool make_parents);

/*
 * The whole regular file name in dfd into a malloc'ed *buf: its length,
 * or -errno (-EBADMSG for one over max bytes or not a regular file).
 */
ssize_t cachedir_read(int dfd, const char *name, size_t max, void **buf);

/* hdr then payload as dfd's entry name, fsync'ed and renamed: 0/-errno */
int cachedir_write(int dfd, const char *name, const void *hdr, size_t hdr_len,
		   const void *payload, size_t payload_len);

#endif /* PCPTOP_CACHEDIR_H */
