/* SPDX-License-Identifier: GPL-2.0-only */
/* The kernel's and libbpf-tools' ARRAY_SIZE, for arrays only */
#ifndef PCPTOP_ARRAYS_H
#define PCPTOP_ARRAYS_H

#define ARRAY_SIZE(x) (sizeof(x) / sizeof((x)[0]))

#endif /* PCPTOP_ARRAYS_H */
