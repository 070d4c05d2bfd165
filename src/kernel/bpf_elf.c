// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inflating the embedded BPF object: 206 KB on the heap from the open to
 * the end of the load, where load_plan releases it (a refused flavour
 * means another open, and another inflate of about a millisecond), so it
 * is never part of the steady state.
 */
#include <errno.h>
#include <stdlib.h>
#include <zlib.h>
#include "bpf_elf.h"
#include "pcptop.bpf.gz.h"

/* zlib's window bits for "gzip header, not zlib" */
#define GZIP_WINDOW (16 + MAX_WBITS)

static void *elf;

const void *pcptop_bpf_elf_inflate(size_t *sz)
{
	z_stream zs = {};
	int ret;

	*sz = PCPTOP_BPF_ELF_SIZE;
	if (elf)
		return elf;
	elf = malloc(PCPTOP_BPF_ELF_SIZE);
	if (!elf)
		return NULL;
	if (inflateInit2(&zs, GZIP_WINDOW) != Z_OK)
		goto fail;
	zs.next_in = (unsigned char *)pcptop_bpf_elf_gz;
	zs.avail_in = sizeof(pcptop_bpf_elf_gz);
	zs.next_out = elf;
	zs.avail_out = PCPTOP_BPF_ELF_SIZE;
	ret = inflate(&zs, Z_FINISH);
	inflateEnd(&zs);
	if (ret == Z_STREAM_END && zs.total_out == PCPTOP_BPF_ELF_SIZE)
		return elf;
fail:
	pcptop_bpf_elf_release();
	errno = EILSEQ;
	return NULL;
}

void pcptop_bpf_elf_release(void)
{
	free(elf);
	elf = NULL;
}
