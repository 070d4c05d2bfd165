/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The running kernel's BTF, cut to what pcptop reads (btf_cut.h) and kept
 * in /var/cache/pcptop/btf, so that a start after the first reads a few
 * tens of KB instead of parsing megabytes, and libbpf's CO-RE reads the
 * same cut instead of parsing them again.
 *
 * An entry is named by the kernel's build ID and BTF checksum and holds
 * a header with the whole key (btf_cache_key.h) and a CRC32 of its
 * payload: one for another kernel build or another pcptop, or damaged,
 * is cut again and replaced, never used. Entries are written to a
 * temporary file and renamed, in a directory owned by pcptop's user and
 * writable by nobody else, never through a symlink. Where the directory
 * cannot be made or written (a read-only root), the cut is made each
 * time and used all the same.
 *
 * PCPTOP_BTF_CACHE=DIR puts the entries in DIR; set empty, it turns the
 * cache off.
 */
#ifndef PCPTOP_BTF_CACHE_H
#define PCPTOP_BTF_CACHE_H

#include <stdint.h>
#include "probes.h"

#define BTF_CACHE_DIR "/var/cache/pcptop/btf"
#define BTF_CACHE_ENV "PCPTOP_BTF_CACHE"
#define BTF_CACHE_PATH_LEN 32
#define BTF_CACHE_SOURCE_LEN 64

struct btf;

struct btf_cache {
	struct btf *btf; /* the cut, for the attach plan: the caller frees it */
	/* the kernel BTF's id of each probe's function: fentry's targets */
	uint32_t fn_btf_id[NR_PROBES];
	/*
	 * The cut's bytes for libbpf's CO-RE (btf_custom_path takes a path):
	 * a memfd's, open until the next btf_cache_open() or the exit, so
	 * that every load attempt of the attach finds it.
	 */
	char path[BTF_CACHE_PATH_LEN];
	char source[BTF_CACHE_SOURCE_LEN]; /* for info: hit, rebuilt, ... */
};

/*
 * The cut BTF of the kernel whose BTF is at kernel_btf: 0, or -errno when
 * there is none (then the caller reads the whole BTF).
 */
int btf_cache_open(struct btf_cache *c, const char *kernel_btf);

#endif /* PCPTOP_BTF_CACHE_H */
