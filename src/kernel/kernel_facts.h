/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the running kernel offers pcptop, asked once before the attach
 * plan is made: privileges, BTF (its own or --btf), which probe functions
 * and tracepoints exist and with how many arguments, kallsyms, the kprobe
 * PMU, and whether fentry attaches at all.
 */
#ifndef PCPTOP_KERNEL_FACTS_H
#define PCPTOP_KERNEL_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include "attach_plan.h"

#define VMLINUX_BTF_PATH "/sys/kernel/btf/vmlinux"

/* root, or CAP_SYS_ADMIN, or CAP_BPF with CAP_PERFMON */
bool kernel_bpf_allowed(void);
/*
 * Fills kf; 0, or -errno with msg saying what is missing and what to do.
 */
int kernel_facts_gather(const struct attach_opts *o, struct kernel_facts *kf,
			char *msg, size_t msglen);

#endif /* PCPTOP_KERNEL_FACTS_H */
