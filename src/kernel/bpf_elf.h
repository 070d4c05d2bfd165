/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The BPF object, carried deflated (scripts/embed-bpf.sh). The Makefile
 * points the generated skeleton here instead of at its own copy, which
 * would hold the object whole, five times its deflated size, in a binary
 * a board's flash pays for (docs/FIELD.md, "What it costs on the board").
 */
#ifndef PCPTOP_BPF_ELF_H
#define PCPTOP_BPF_ELF_H

#include <stddef.h>

/* the object inflated, kept until pcptop_bpf_elf_release(); NULL + errno */
const void *pcptop_bpf_elf_inflate(size_t *sz);
/* libbpf reads it only up to the load: give the memory back then */
void pcptop_bpf_elf_release(void);
/* record --trace's object (bpf/trace.bpf.c), likewise */
const void *trace_bpf_elf_inflate(size_t *sz);
void trace_bpf_elf_release(void);

#endif /* PCPTOP_BPF_ELF_H */
