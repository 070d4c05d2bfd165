/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The root types of a BPF object's CO-RE relocations, read from its
 * .BTF.ext section: the types whose kernel counterparts the cut BTF of
 * the cache must hold (btf_cut.h). Pure, for the unit tests: libbpf 1.1
 * keeps its parsed .BTF.ext private.
 */
#ifndef PCPTOP_BTF_RELO_H
#define PCPTOP_BTF_RELO_H

#include <stddef.h>
#include <stdint.h>

/*
 * The distinct local type ids the CO-RE records of a raw .BTF.ext name,
 * at most max of them, into ids: how many, or -EINVAL when the section is
 * malformed, -E2BIG when there are more than max.
 */
int btf_ext_core_roots(const void *ext, size_t len, uint32_t *ids, int max);

#endif /* PCPTOP_BTF_RELO_H */
