// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inflating the embedded BPF objects: pcptop's (its size: docs/FIELD.md,
 * "What it costs on the board") on the heap from the open to the end of
 * the load, where load_plan releases it (a refused flavour means another
 * open, and another inflate, short beside a load), so it is never part
 * of the steady state; record --trace's likewise around its own load.
 */
#include <errno.h>
#include <stdlib.h>
#include <zlib.h>
#include "bpf_elf.h"
#include "pcptop.bpf.gz.h"
#include "trace.bpf.gz.h"

/* zlib's window bits for "gzip header, not zlib" */
#define GZIP_WINDOW (16 + MAX_WBITS)

static void *elf;
static void *trace_elf;

static void *inflate_gz(const unsigned char *gz, size_t gz_len, size_t size,
			void **keep)
{
	z_stream zs = {};
	int ret;

	if (*keep)
		return *keep;
	*keep = malloc(size);
	if (!*keep)
		return NULL;
	if (inflateInit2(&zs, GZIP_WINDOW) != Z_OK)
		goto fail;
	zs.next_in = (unsigned char *)gz;
	zs.avail_in = gz_len;
	zs.next_out = *keep;
	zs.avail_out = size;
	ret = inflate(&zs, Z_FINISH);
	inflateEnd(&zs);
	if (ret == Z_STREAM_END && zs.total_out == size)
		return *keep;
fail:
	free(*keep);
	*keep = NULL;
	errno = EILSEQ;
	return NULL;
}

const void *pcptop_bpf_elf_inflate(size_t *sz)
{
	*sz = PCPTOP_BPF_ELF_SIZE;
	return inflate_gz(pcptop_bpf_elf_gz, sizeof(pcptop_bpf_elf_gz),
			  PCPTOP_BPF_ELF_SIZE, &elf);
}

void pcptop_bpf_elf_release(void)
{
	free(elf);
	elf = NULL;
}

const void *trace_bpf_elf_inflate(size_t *sz)
{
	*sz = TRACE_BPF_ELF_SIZE;
	return inflate_gz(trace_bpf_elf_gz, sizeof(trace_bpf_elf_gz),
			  TRACE_BPF_ELF_SIZE, &trace_elf);
}

void trace_bpf_elf_release(void)
{
	free(trace_elf);
	trace_elf = NULL;
}
