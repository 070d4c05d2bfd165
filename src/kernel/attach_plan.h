/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The attach plan: for every probe of probe_table choose fentry, then
 * kprobe, then its tracepoint stand-in (or the heuristic), then none, and
 * keep the reason for each choice so `pcptop info` can say what is
 * attached and why. Pure: it reads only the facts gathered before, so
 * unit tests plan for kernels this machine is not running.
 */
#ifndef PCPTOP_ATTACH_PLAN_H
#define PCPTOP_ATTACH_PLAN_H

#include <stdbool.h>
#include "kshape.h"
#include "pcptop.h"
#include "probes.h"

#define KERNEL_BTF_SOURCE_LEN 128

/* what the running kernel offers, gathered once before planning */
struct kernel_facts {
	const char *fn[NR_PROBES]; /* the function name this kernel has */
	/* fn's id in the kernel's own BTF, fentry's target; 0: not known */
	unsigned int fn_btf_id[NR_PROBES];
	bool in_btf[NR_PROBES];
	bool in_kallsyms[NR_PROBES];
	bool kprobe_pmu; /* CONFIG_KPROBES */
	int tp_nargs[NR_PROBES]; /* the stand-in's arguments, -errno */
	int tp_exit_nargs[NR_PROBES]; /* a support probe's second one */
	/* per_cpu_pages has free_count (v6.7+): free_high is inferred then */
	bool pcp_free_count;
	/* a minimal fentry program on the bulk free: 0, or how it failed */
	int fentry_err;
	/*
	 * The kernel has BTF of its own (/sys/kernel/btf/vmlinux): fentry and
	 * tp_btf need it; without it (--btf) kprobes and raw tracepoints run.
	 */
	bool kernel_btf;
	char btf_source[KERNEL_BTF_SOURCE_LEN]; /* where the BTF came from */
	/*
	 * libbpf's CO-RE target: --btf's file, or the kernel's cut BTF
	 * (kernel/btf_cache.h); "": the kernel's own, parsed whole.
	 */
	char core_btf[KERNEL_BTF_SOURCE_LEN];
	/* per_cpu_pages has free_factor (6.1): free_high frees it whole */
	bool free_high_uncapped;
	/* the text of the drain callers kallsyms lists (bpf/caller.bpf.h) */
	struct pcptop_caller_range callers[PCPTOP_MAX_CALLER_RANGES];
	int nr_callers;
	/* the flush shape, free_high rule and zone lock, from BTF */
	struct kshape shape;
};

#define PLAN_REFUSED_LEN 96

/* what the user allows and what the kernel already refused */
struct plan_rules {
	bool allow_fentry;
	bool allow_kprobe;
	bool allow_fn_probes; /* false for --mode tracepoint */
	unsigned int opts; /* PROBE_OPT_*: probes asked for beyond the plan */
	char fentry_refused[PLAN_REFUSED_LEN];
	char kprobe_refused[PLAN_REFUSED_LEN];
};

void plan_rules_init(struct plan_rules *r, const struct attach_opts *o);
/* fill probes[] (mode, target, reason, estimated) for every probe */
void attach_plan(const struct kernel_facts *kf, const struct plan_rules *r,
		 struct probe_state probes[NR_PROBES]);

#endif /* PCPTOP_ATTACH_PLAN_H */
