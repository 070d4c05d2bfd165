/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Kernels and requests to plan for, shared by the plan's tests and the
 * program table's: attach_plan.c is pure, so any kernel can be described.
 */
#ifndef PCPTOP_PLAN_FIXTURE_H
#define PCPTOP_PLAN_FIXTURE_H

#include <stdbool.h>
#include "attach_plan.h"

/* a 6.12-like kernel: every function in BTF and kallsyms, kprobes built */
void kernel_612(struct kernel_facts *kf);
/* what a command asking for mode want (and --exact-free-high) plans by */
void plan_rules(struct plan_rules *r, enum probe_mode want, bool exact);

#endif /* PCPTOP_PLAN_FIXTURE_H */
