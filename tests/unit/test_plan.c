// SPDX-License-Identifier: GPL-2.0-only
/*
 * attach_plan.c for kernels this machine does not run: what each probe
 * attaches as, and the reason info prints, from the facts alone.
 */
#include <string.h>
#include "attach_plan.h"
#include "unit.h"

/* a 6.12-like kernel: every function in BTF and kallsyms, kprobes built */
static void kernel_612(struct kernel_facts *kf)
{
	int id;

	memset(kf, 0, sizeof(*kf));
	for (id = 0; id < NR_PROBES; id++) {
		kf->fn[id] = probe_table[id].fns[0];
		kf->in_btf[id] = true;
		kf->in_kallsyms[id] = true;
		kf->tp_nargs[id] =
			probe_table[id].tp ? probe_table[id].tp_nargs : -2;
	}
	kf->kprobe_pmu = true;
}

static void test_fentry_everywhere(void)
{
	struct probe_state p[NR_PROBES];
	struct kernel_facts kf;
	struct plan_rules r;
	int id;

	kernel_612(&kf);
	plan_rules_init(&r, MODE_AUTO);
	attach_plan(&kf, &r, p);
	for (id = 0; id < NR_PROBES; id++) {
		CHECK_EQ_INT(p[id].mode, MODE_FENTRY);
		CHECK(!p[id].estimated);
		CHECK(strstr(p[id].reason, "fentry/fexit on"));
	}
}

/* arm64 before 6.4: fentry refused with -524, kprobes take over */
static void test_kprobe_after_fentry_refused(void)
{
	struct probe_state p[NR_PROBES];
	struct kernel_facts kf;
	struct plan_rules r;

	kernel_612(&kf);
	plan_rules_init(&r, MODE_AUTO);
	r.allow_fentry = false;
	strcpy(r.fentry_refused, "fentry refused (ENOTSUPP, -524)");
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_BULK_FREE].mode, MODE_KPROBE);
	CHECK(strstr(p[PROBE_BULK_FREE].reason, "-524"));
	CHECK_EQ_INT(p[PROBE_DECAY].mode, MODE_KPROBE);
}

/* this machine: fentry refused, no kprobes, rmqueue_bulk inlined */
static void test_tracepoints_without_function_probes(void)
{
	struct probe_state p[NR_PROBES];
	struct kernel_facts kf;
	struct plan_rules r;

	kernel_612(&kf);
	kf.kprobe_pmu = false;
	kf.in_btf[PROBE_REFILL] = false;
	plan_rules_init(&r, MODE_AUTO);
	r.allow_fentry = false;
	strcpy(r.fentry_refused, "fentry refused (EPERM)");
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_BULK_FREE].mode, MODE_TRACEPOINT);
	CHECK(p[PROBE_BULK_FREE].estimated);
	CHECK_EQ_STR(p[PROBE_BULK_FREE].target, "kmem:mm_page_pcpu_drain");
	CHECK(strstr(p[PROBE_BULK_FREE].reason, "no kprobes in this kernel"));
	CHECK_EQ_INT(p[PROBE_REFILL].mode, MODE_TRACEPOINT);
	CHECK(strstr(p[PROBE_REFILL].reason, "not in BTF"));
	CHECK_EQ_INT(p[PROBE_DECAY].mode, MODE_NONE);
	CHECK_EQ_INT(p[PROBE_DRAIN].mode, MODE_NONE);
	CHECK_EQ_INT(p[PROBE_FREE_HIGH].mode, MODE_HEURISTIC);
	CHECK_EQ_STR(p[PROBE_FREE_HIGH].target, "kmem:mm_page_pcpu_drain");
}

/* before v5.19 mm_page_alloc_zone_locked had no percpu_refill argument */
static void test_old_zone_locked_tracepoint(void)
{
	struct probe_state p[NR_PROBES];
	struct kernel_facts kf;
	struct plan_rules r;

	kernel_612(&kf);
	kf.tp_nargs[PROBE_REFILL] = 3;
	plan_rules_init(&r, MODE_TRACEPOINT);
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_REFILL].mode, MODE_NONE);
	CHECK(strstr(p[PROBE_REFILL].reason, "--mode tracepoint"));
	CHECK_EQ_INT(p[PROBE_BULK_FREE].mode, MODE_TRACEPOINT);
}

/* no tracepoint to stand in and no bulk probe: free_high is not guessed */
static void test_no_heuristic_without_bulk_free(void)
{
	struct probe_state p[NR_PROBES];
	struct kernel_facts kf;
	struct plan_rules r;

	kernel_612(&kf);
	kf.tp_nargs[PROBE_BULK_FREE] = -2;
	plan_rules_init(&r, MODE_TRACEPOINT);
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_BULK_FREE].mode, MODE_NONE);
	CHECK_EQ_INT(p[PROBE_FREE_HIGH].mode, MODE_NONE);
}

static void test_forced_kprobe_mode(void)
{
	struct probe_state p[NR_PROBES];
	struct kernel_facts kf;
	struct plan_rules r;

	kernel_612(&kf);
	plan_rules_init(&r, MODE_KPROBE);
	CHECK(!r.allow_fentry && r.allow_kprobe && r.allow_fn_probes);
	kf.in_kallsyms[PROBE_DRAIN] = false;
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_BULK_FREE].mode, MODE_KPROBE);
	CHECK_EQ_INT(p[PROBE_DRAIN].mode, MODE_NONE);
	CHECK(strstr(p[PROBE_DRAIN].reason, "no kallsyms entry"));
}

const struct unit_test plan_tests[] = {
	TEST(test_fentry_everywhere),
	TEST(test_kprobe_after_fentry_refused),
	TEST(test_tracepoints_without_function_probes),
	TEST(test_old_zone_locked_tracepoint),
	TEST(test_no_heuristic_without_bulk_free),
	TEST(test_forced_kprobe_mode),
	TEST_END,
};
