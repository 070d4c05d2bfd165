/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Terminfo entries carried in the binary, for boards whose busybox
 * rootfs has no terminfo database: linux, vt100 and xterm-256color from
 * Debian's ncurses-base. ncurses reads them from a private directory
 * named by $TERMINFO, made for the one newterm() that needs it.
 */
#ifndef PCPTOP_TOP_TERMINFO_H
#define PCPTOP_TOP_TERMINFO_H

#include <stddef.h>

#define TERMINFO_DIR_LEN 128

/*
 * The name of the built-in entry that stands for TERM: linux for linux*,
 * xterm-256color for xterm-style terminals, else vt100.
 */
const char *terminfo_builtin_name(const char *term);
/*
 * Write that entry as DIR/<first letter>/<TERM> in a new private
 * directory and point $TERMINFO at it; 0 or -errno. dir is for
 * terminfo_builtin_drop() once newterm() has read it.
 */
int terminfo_builtin_use(const char *term, char *dir, size_t len);
/* remove the directory and restore $TERMINFO */
void terminfo_builtin_drop(const char *dir, const char *term);

#endif /* PCPTOP_TOP_TERMINFO_H */
