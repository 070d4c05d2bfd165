// SPDX-License-Identifier: GPL-2.0-only
/*
 * -v's account of a start: steps timed on the monotonic clock, and each
 * program's cost to the verifier as the kernel counts it
 * (bpf_prog_info.verified_insns), which tests/live and the board checks
 * hold to a budget.
 */
#include <stdio.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "load_report.h"

static bool report_on;
static struct timespec report_since;

void load_report_set(bool on)
{
	report_on = on;
}

void load_report_mark(const char *step)
{
	struct timespec now;

	if (!report_on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (step)
		fprintf(stderr, "pcptop: took %.1f ms: %s\n",
			(now.tv_sec - report_since.tv_sec) * 1e3 +
				(now.tv_nsec - report_since.tv_nsec) / 1e6,
			step);
	report_since = now;
}

void load_report_verifier(struct bpf_object *obj)
{
	struct bpf_program *prog;
	__u64 total = 0;

	if (!report_on)
		return;
	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		fprintf(stderr,
			"pcptop: verifier: %s: %zu insns, %u verified\n",
			bpf_program__name(prog), bpf_program__insn_cnt(prog),
			info.verified_insns);
		total += info.verified_insns;
	}
	fprintf(stderr, "pcptop: verifier: %llu insns verified in all\n",
		(unsigned long long)total);
	/* the printing is not the next step's time */
	load_report_mark(NULL);
}
