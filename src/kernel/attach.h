/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Loading and attaching the BPF programs, the only place (with
 * snapshot_take.c and cost.c) that touches the skeleton. The plan of what
 * to attach is attach_plan.c's; this file carries it out and falls back
 * fentry -> kprobe -> tracepoint when the kernel refuses a flavour.
 */
#ifndef PCPTOP_ATTACH_H
#define PCPTOP_ATTACH_H

#include <stdbool.h>
#include <stdint.h>
#include "attach_plan.h"
#include "facts.h"
#include "probes.h"

#define ATTACH_MSG_LEN 320
#define ATTACH_MAX_LINKS 32

struct pcptop_bpf;
struct bpf_link;

struct attach {
	struct pcptop_bpf *skel;
	struct probe_state probes[NR_PROBES];
	struct bpf_link *links[ATTACH_MAX_LINKS];
	int nr_links;
	bool cross_check;
	/* BTF: per_cpu_pages has no free_count (before v6.7) */
	bool free_high_uncapped;
	/* the pcp code's shape: flush chunks, free_high rule, zone lock */
	struct kshape shape;
	char btf_source[128];
	/*
	 * Tracepoint programs load as raw tracepoints: no kernel BTF, or one
	 * cut to a file and no fentry planned (attach.c's want_raw_tp())
	 */
	bool raw_tp;
	/* set when auto mode had to fall back; said once by the caller */
	char fallback[ATTACH_MSG_LEN];
	/* one line for the user when attach_open() fails */
	char error[ATTACH_MSG_LEN];
};

/*
 * Check privileges and BTF, plan, load and attach. 0 or -errno; on error
 * a->error says what failed and what to do, and nothing stays attached.
 */
int attach_open(struct attach *a, const struct attach_opts *opts);
void attach_close(struct attach *a);

/* tracepoint mode: cut event runs at this many pages (batch << scale) */
void attach_set_run_cap(struct attach *a, unsigned long long pages);

/* value of an int at a kernel address, read by a BPF program */
int attach_read_kernel_int(struct attach *a, unsigned long long addr,
			   int *value);

/* the scale in force for the probes' free_high inference, -1 unknown */
void attach_set_scale(struct attach *a, int scale);

/*
 * pcptop's own cost as the kernel accounts it: bytes its maps lock, and
 * each loaded program's runs and run time (counted only while
 * kernel.bpf_stats_enabled or BPF_ENABLE_STATS is on).
 */
void attach_self_cost(const struct attach *a, struct self_cost *s);

/* what every loaded program's bpf_prog_info says, summed */
struct prog_stats {
	uint64_t run_ns; /* with bpf_stats on */
	uint64_t run_cnt;
	/* runs the kernel skipped: recursion, and kprobes hit inside another */
	uint64_t recursion_misses;
};

void attach_prog_stats(const struct attach *a, struct prog_stats *ps);

/*
 * The sampler's source of SRC_PROG rows (core/sampler.h): a field of
 * struct prog_stats by name ("recursion_misses", "run_cnt", "run_ns");
 * ctx is the struct attach. 0 or -ENOENT.
 */
int attach_sample_prog(void *ctx, const char *field, int64_t *v);

#endif /* PCPTOP_ATTACH_H */
