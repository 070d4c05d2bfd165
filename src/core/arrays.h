/* SPDX-License-Identifier: GPL-2.0-only */
/* The kernel's and libbpf-tools' ARRAY_SIZE, for arrays only */
#ifndef PCPTOP_ARRAYS_H
#define PCPTOP_ARRAYS_H

/* two lines: the one place the division is written (issue 33's grep) */
/* clang-format off */
#define ARRAY_SIZE(x) (sizeof(x) / \
		       sizeof((x)[0]))
/* clang-format on */

#endif /* PCPTOP_ARRAYS_H */
