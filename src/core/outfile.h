/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The files pcptop writes (recordings, --prom, --html), checked before
 * anything is loaded and opened without trusting the path: pcptop runs as
 * root, so it never writes through a symlink or over anything but a
 * regular file, and it keeps the file it replaces as FILE.old, as perf
 * does with perf.data.
 */
#ifndef PCPTOP_OUTFILE_H
#define PCPTOP_OUTFILE_H

#include <stddef.h>

#define OUTFILE_MSG_LEN 320

/*
 * 0 when path can be written: absent, or a regular file (not a symlink),
 * in an existing directory pcptop may write in. Else -errno and msg says
 * what is wrong with it, in one line.
 */
int outfile_check(const char *path, char *msg, size_t len);
/* an existing path renamed to path.old; 0 when there was none */
int outfile_keep_old(const char *path);
/*
 * A new file at path (after outfile_keep_old: none is there), created
 * with O_EXCL | O_NOFOLLOW so that nothing planted meanwhile is followed:
 * the fd, or -errno.
 */
int outfile_create(const char *path);
/* truncate-or-create for a scratch file (FILE.tmp), never following a link */
int outfile_scratch(const char *path);
/* all n bytes, through short writes and EINTR: 0 or -errno (-EIO: none) */
int outfile_write_all(int fd, const void *p, size_t n);

#endif /* PCPTOP_OUTFILE_H */
