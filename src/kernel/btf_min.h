/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pcptop btf-min: a board's BTF cut down to what pcptop reads from it.
 * The CO-RE part is bpftool gen min_core_btf's (the types and members the
 * BPF programs relocate against); pcptop adds what its attach plan asks a
 * BTF: which probe functions exist (FUNC) and how many arguments each
 * tracepoint passes (btf_trace_* typedefs). Those prototypes keep their
 * argument names and count, not their types: kprobes and raw tracepoints,
 * the modes --btf serves, never read them.
 */
#ifndef PCPTOP_BTF_MIN_H
#define PCPTOP_BTF_MIN_H

#include <stddef.h>

#define BTF_MIN_MSG_LEN 384

struct btf_min_opts {
	const char *src; /* the kernel's BTF: raw, or an ELF vmlinux */
	const char *out;
	const char *object; /* the BPF object to cover; NULL: pcptop's own */
	const char *bpftool; /* NULL: "bpftool" from PATH */
};

struct btf_min_result {
	size_t src_bytes, out_bytes;
	int funcs, tracepoints; /* planner facts added */
};

/* 0, or -errno and msg says what failed in one line */
int btf_min_make(const struct btf_min_opts *o, struct btf_min_result *r,
		 char *msg, size_t len);

#endif /* PCPTOP_BTF_MIN_H */
