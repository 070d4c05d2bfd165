/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An errno's name for a message ("EPERM", "ENOTSUPP, -524"), whatever
 * its sign: libbpf gives -errno, the kernel's own codes past libc's
 * table (ENOTSUPP) have no libc name at all.
 */
#ifndef PCPTOP_ERRNAME_H
#define PCPTOP_ERRNAME_H

const char *errname(int err);

#endif /* PCPTOP_ERRNAME_H */
