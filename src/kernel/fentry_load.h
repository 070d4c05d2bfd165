/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fentry and fexit without libbpf parsing the kernel's BTF. libbpf 1.1
 * parses all of /sys/kernel/btf/vmlinux (megabytes of peak RSS and much
 * of a board's start: docs/PERFORMANCE.md, "Start-up and the BTF cache")
 * whenever an object it loads holds a BPF_PROG_TYPE_TRACING program,
 * only to find the target's BTF id, which pcptop's BTF cache already
 * keeps (btf_cache.h). So the programs' sections are "pcptop.fentry/FN"
 * and "pcptop.fexit/FN", which libbpf does not know: a fallback handler
 * registered here opens them as raw tracepoints, and turns each into the
 * tracing program it is, with the kernel's id of its target, as libbpf
 * loads it.
 */
#ifndef PCPTOP_FENTRY_LOAD_H
#define PCPTOP_FENTRY_LOAD_H

#include <stdint.h>

struct bpf_program;

/* the handler, registered once before the first open: 0 or -errno */
int fentry_load_register(void);
/*
 * The function prog attaches to, by name, and its id in the kernel's BTF
 * (0: looked up in the whole BTF at load, once): the section's own name
 * unless set. 0 or -errno.
 */
int fentry_load_target(struct bpf_program *prog, const char *fn,
		       uint32_t btf_id);
/* forget every target, and free what a load read: before a new open, after a load */
void fentry_load_reset(void);
/*
 * fn's id in the kernel's own BTF, parsed whole for it (megabytes: where
 * no cache has it); -ENOENT without kernel BTF or fn
 */
int fentry_load_kernel_btf_id(const char *fn);

#endif /* PCPTOP_FENTRY_LOAD_H */
