// SPDX-License-Identifier: GPL-2.0-only
/*
 * attach_plan.c for kernels this machine does not run: what each probe
 * attaches as, and the reason info prints, from the facts alone.
 */
#include <string.h>
#include "attach_plan.h"
#include "plan_fixture.h"
#include "unit.h"

static void test_fentry_everywhere(void)
{
	struct probe_state p[NR_PROBES];
	struct kernel_facts kf;
	struct plan_rules r;
	int id;

	kernel_612(&kf);
	plan_rules(&r, MODE_AUTO, false);
	attach_plan(&kf, &r, p);
	for (id = 0; id < PROBE_FREE_HIGH; id++) {
		CHECK_EQ_INT(p[id].mode, MODE_FENTRY);
		CHECK(!p[id].estimated);
		CHECK(strstr(p[id].reason, "fentry/fexit on"));
	}
	/* free_high from the bulk frees: no hook on every free by default */
	CHECK_EQ_INT(p[PROBE_FREE_HIGH].mode, MODE_HEURISTIC);
	CHECK(p[PROBE_FREE_HIGH].estimated);
	CHECK(strstr(p[PROBE_FREE_HIGH].reason, "--exact-free-high"));
	/* the interrupt and lock clocks come with the function probes */
	CHECK_EQ_INT(p[PROBE_IRQ_TIME].mode, MODE_TRACEPOINT);
	CHECK_EQ_INT(p[PROBE_SOFTIRQ_TIME].mode, MODE_TRACEPOINT);
	CHECK_EQ_INT(p[PROBE_LOCK_WAIT].mode, MODE_TRACEPOINT);
	CHECK(!p[PROBE_LOCK_WAIT].estimated);
}

/* --exact-free-high probes the commit function; 6.1's inference is exact */
static void test_free_high_exact_or_inferred(void)
{
	struct probe_state p[NR_PROBES];
	struct kernel_facts kf;
	struct plan_rules r;

	kernel_612(&kf);
	plan_rules(&r, MODE_AUTO, true);
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_FREE_HIGH].mode, MODE_FENTRY);
	CHECK(!p[PROBE_FREE_HIGH].estimated);
	kf.pcp_free_count = false;
	plan_rules(&r, MODE_AUTO, false);
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_FREE_HIGH].mode, MODE_HEURISTIC);
	CHECK(!p[PROBE_FREE_HIGH].estimated);
	CHECK(strstr(p[PROBE_FREE_HIGH].reason, "exact"));
}

/* a kernel before lock:contention_begin (v5.19): no wait clock, said why */
static void test_support_without_tracepoints(void)
{
	struct probe_state p[NR_PROBES];
	struct kernel_facts kf;
	struct plan_rules r;

	kernel_612(&kf);
	kf.tp_nargs[PROBE_LOCK_WAIT] = -2;
	plan_rules(&r, MODE_AUTO, false);
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_LOCK_WAIT].mode, MODE_NONE);
	CHECK(strstr(p[PROBE_LOCK_WAIT].reason, "no lock:contention_begin"));
	CHECK_EQ_INT(p[PROBE_IRQ_TIME].mode, MODE_TRACEPOINT);
}

/* arm64 before 6.4: fentry refused with -524, kprobes take over */
static void test_kprobe_after_fentry_refused(void)
{
	struct probe_state p[NR_PROBES];
	struct kernel_facts kf;
	struct plan_rules r;

	kernel_612(&kf);
	plan_rules(&r, MODE_AUTO, false);
	r.allow_fentry = false;
	strcpy(r.fentry_refused, "fentry refused (ENOTSUPP, -524)");
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_BULK_FREE].mode, MODE_KPROBE);
	CHECK(strstr(p[PROBE_BULK_FREE].reason, "-524"));
	CHECK_EQ_INT(p[PROBE_DECAY].mode, MODE_KPROBE);
}

/*
 * a host whose policy refuses fentry (EPERM), with no kprobes and
 * rmqueue_bulk inlined: the rules say so, whatever the host running the
 * test allows
 */
static void test_tracepoints_without_function_probes(void)
{
	struct probe_state p[NR_PROBES];
	struct kernel_facts kf;
	struct plan_rules r;

	kernel_612(&kf);
	kf.kprobe_pmu = false;
	kf.in_btf[PROBE_REFILL] = false;
	plan_rules(&r, MODE_AUTO, false);
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
	/* tracepoint events cannot tell free_high: its name says what they show */
	CHECK_EQ_INT(p[PROBE_FREE_HIGH].mode, MODE_NONE);
	CHECK(strstr(p[PROBE_FREE_HIGH].reason, "hi_order_runs"));
	/* no calls to time: no interrupt or lock clocks */
	CHECK_EQ_INT(p[PROBE_IRQ_TIME].mode, MODE_NONE);
}

/* before v5.19 mm_page_alloc_zone_locked had no percpu_refill argument */
static void test_old_zone_locked_tracepoint(void)
{
	struct probe_state p[NR_PROBES];
	struct kernel_facts kf;
	struct plan_rules r;

	kernel_612(&kf);
	kf.tp_nargs[PROBE_REFILL] = 3;
	plan_rules(&r, MODE_TRACEPOINT, false);
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
	plan_rules(&r, MODE_TRACEPOINT, false);
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
	plan_rules(&r, MODE_KPROBE, false);
	CHECK(!r.allow_fentry && r.allow_kprobe && r.allow_fn_probes);
	kf.in_kallsyms[PROBE_DRAIN] = false;
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_BULK_FREE].mode, MODE_KPROBE);
	CHECK_EQ_INT(p[PROBE_DRAIN].mode, MODE_NONE);
	CHECK(strstr(p[PROBE_DRAIN].reason, "no kallsyms entry"));
}

/* --latency's probes: none, with the reason, until asked; then fentry */
static void test_latency_only_when_asked(void)
{
	struct probe_state p[NR_PROBES];
	struct kernel_facts kf;
	struct plan_rules r;

	kernel_612(&kf);
	plan_rules(&r, MODE_AUTO, false);
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_ALLOC].mode, MODE_NONE);
	CHECK_EQ_STR(
		p[PROBE_FREE].reason,
		"free_frozen_pages: latency not asked for (--latency probes it on every call)");
	r.opts |= PROBE_OPT_LATENCY;
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_ALLOC].mode, MODE_FENTRY);
	CHECK_EQ_STR(p[PROBE_FREE].reason, "fentry/fexit on free_frozen_pages");
	/* the free_high heuristic still stands in: it asks for nothing */
	CHECK_EQ_INT(p[PROBE_FREE_HIGH].mode, MODE_HEURISTIC);
}

/*
 * The planner and the loader read these flags, not probe ids: an opt-in
 * probe is one asked for that has no heuristic to stand in, and only a
 * function probe switches a BPF setting on.
 */
static void test_table_flags(void)
{
	int id, t;

	for (id = 0; id < NR_PROBES; id++) {
		const struct probe_desc *d = &probe_table[id];

		CHECK_EQ_INT(d->opt_in, d->opt && d->heuristic_on < 0);
		CHECK(d->knob == KNOB_NONE || d->fns[0]);
		CHECK(d->heuristic_on < 0 || d->opt);
		/* support probes are planned after what they ride beside */
		for (t = 0; d->support && t < NR_PROBES; t++)
			CHECK(!probe_table[t].timed || t < id);
	}
	CHECK(probe_mode_fn(MODE_KPROBE) && !probe_mode_fn(MODE_HEURISTIC));
}

/* the hooks that run per page, which the cost budget is about */
static void test_per_page(void)
{
	CHECK(probe_per_page(PROBE_BULK_FREE, MODE_TRACEPOINT));
	CHECK(probe_per_page(PROBE_REFILL, MODE_TRACEPOINT));
	CHECK(!probe_per_page(PROBE_BULK_FREE, MODE_FENTRY));
	CHECK(!probe_per_page(PROBE_REFILL, MODE_KPROBE));
	CHECK(!probe_per_page(PROBE_DECAY, MODE_FENTRY));
	/* --exact-free-high: the commit function runs on every free */
	CHECK(probe_per_page(PROBE_FREE_HIGH, MODE_FENTRY));
	CHECK(probe_per_page(PROBE_FREE_HIGH, MODE_KPROBE));
	CHECK(!probe_per_page(PROBE_FREE_HIGH, MODE_HEURISTIC));
	CHECK(!probe_per_page(PROBE_IRQ_TIME, MODE_TRACEPOINT));
	CHECK(!probe_per_page(-1, MODE_TRACEPOINT));
}

/*
 * Stalls: direct reclaim is its tracepoints in every mode, exactly;
 * direct compaction is from its tracepoint to try_to_compact_pages's
 * return where a function probe attaches (nothing where the tracepoint
 * is missing), else its tracepoints, estimated, and nothing without
 * mm_compaction_end. The page-order probe rides beside the bulk free's
 * function probe only, when --page-orders asks for it; a drain's caller
 * needs kallsyms, and says so.
 */
static void test_stalls_and_bulk_order(void)
{
	struct probe_state p[NR_PROBES];
	struct kernel_facts kf;
	struct plan_rules r;

	kernel_612(&kf);
	kf.nr_callers = 1;
	plan_rules(&r, MODE_AUTO, false);
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_RECLAIM].mode, MODE_TRACEPOINT);
	CHECK(!p[PROBE_RECLAIM].estimated);
	CHECK(strstr(
		p[PROBE_RECLAIM].reason,
		"mm_vmscan_direct_reclaim_begin and mm_vmscan_direct_reclaim_end"));
	CHECK_EQ_INT(p[PROBE_COMPACT].mode, MODE_FENTRY);
	CHECK(!p[PROBE_COMPACT].estimated);
	CHECK(strstr(
		p[PROBE_COMPACT].reason,
		"fexit on try_to_compact_pages from compaction:mm_compaction_try_to_compact_pages"));
	kf.tp_nargs[PROBE_COMPACT] = -1;
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_COMPACT].mode, MODE_NONE);
	CHECK(strstr(p[PROBE_COMPACT].reason, "where its calls start"));
	kernel_612(&kf);
	kf.nr_callers = 1;
	attach_plan(&kf, &r, p);
	/* a hook on every page: only when asked for */
	CHECK_EQ_INT(p[PROBE_BULK_ORDER].mode, MODE_NONE);
	CHECK(strstr(p[PROBE_BULK_ORDER].reason, "--page-orders"));
	CHECK(!strstr(p[PROBE_DRAIN].reason, "callers unknown"));
	r.opts |= PROBE_OPT_PAGE_ORDERS;
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_BULK_ORDER].mode, MODE_TRACEPOINT);

	plan_rules(&r, MODE_TRACEPOINT, false);
	r.opts |= PROBE_OPT_PAGE_ORDERS;
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_RECLAIM].mode, MODE_TRACEPOINT);
	CHECK_EQ_INT(p[PROBE_COMPACT].mode, MODE_TRACEPOINT);
	CHECK(p[PROBE_COMPACT].estimated);
	CHECK_EQ_INT(p[PROBE_BULK_ORDER].mode, MODE_NONE);
	CHECK(strstr(p[PROBE_BULK_ORDER].reason, "bulk free's function"));

	kf.tp_exit_nargs[PROBE_COMPACT] = -1;
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_COMPACT].mode, MODE_NONE);
	kf.tp_exit_nargs[PROBE_RECLAIM] = -1;
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_RECLAIM].mode, MODE_NONE);
	CHECK(strstr(p[PROBE_RECLAIM].reason, "no vmscan:"));

	/* the bulk free inlined: the refill's probe keeps the clocks only */
	kernel_612(&kf);
	kf.in_btf[PROBE_BULK_FREE] = false;
	plan_rules(&r, MODE_AUTO, false);
	r.opts |= PROBE_OPT_PAGE_ORDERS;
	attach_plan(&kf, &r, p);
	CHECK_EQ_INT(p[PROBE_REFILL].mode, MODE_FENTRY);
	CHECK_EQ_INT(p[PROBE_IRQ_TIME].mode, MODE_TRACEPOINT);
	CHECK_EQ_INT(p[PROBE_BULK_ORDER].mode, MODE_NONE);
	CHECK(strstr(p[PROBE_DRAIN].reason, "callers unknown"));
}

const struct unit_test plan_tests[] = {
	TEST(test_stalls_and_bulk_order),
	TEST(test_fentry_everywhere),
	TEST(test_kprobe_after_fentry_refused),
	TEST(test_tracepoints_without_function_probes),
	TEST(test_old_zone_locked_tracepoint),
	TEST(test_no_heuristic_without_bulk_free),
	TEST(test_forced_kprobe_mode),
	TEST(test_free_high_exact_or_inferred),
	TEST(test_support_without_tracepoints),
	TEST(test_per_page),
	TEST(test_latency_only_when_asked),
	TEST(test_table_flags),
	TEST_END,
};
