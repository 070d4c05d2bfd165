/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A kernel's BTF cut to what pcptop reads from it, made in the process
 * (the BTF cache's entries, btf_cache.h) without bpftool:
 *
 * - for CO-RE, every kernel type whose name (less a ___flavour) and kind
 *   a relocation of pcptop's BPF object starts from, whole, with the
 *   types it embeds; pointers in them point to void, since libbpf
 *   matches a pointer field by its kind alone and a dereference starts a
 *   relocation of its own, at a named type that is cut in as a root;
 * - for the attach plan (kernel_facts.c), the probe functions and the
 *   tracepoints' btf_trace_* prototypes, their argument names and count
 *   kept, their types not (pcptop btf-min adds the same).
 */
#ifndef PCPTOP_BTF_CUT_H
#define PCPTOP_BTF_CUT_H

struct btf;

/*
 * The cut of src for the BPF object obj (an ELF image of len bytes): a
 * new BTF, or NULL with errno set.
 */
struct btf *btf_cut(const struct btf *src, const void *obj, unsigned long len);

/*
 * Into dst: src's probe functions and tracepoint prototypes, counted in
 * *funcs and *tps; 0 or -errno.
 */
int btf_cut_add_plan_facts(struct btf *dst, const struct btf *src, int *funcs,
			   int *tps);

#endif /* PCPTOP_BTF_CUT_H */
