// SPDX-License-Identifier: GPL-2.0-only
/*
 * The program table (src/kernel/progs.c) against the plans: a probe the
 * plan attaches without its program fails here, with its name, before
 * any kernel refuses a load. The table is the real one: progs.c takes
 * only offsets from the skeleton and links without libbpf.
 */
#include <errno.h>
#include <string.h>
#include "plan_fixture.h"
#include "progs.h"
#include "unit.h"

#define MSG_LEN 320

/* every request a command can make of the plan, on every kernel shape */
static const enum probe_mode wants[] = { MODE_AUTO, MODE_FENTRY, MODE_KPROBE,
					 MODE_TRACEPOINT };

/* fentry refused, then kprobes too: each flavour the fallback reaches */
static void plan_refusing(struct probe_state p[NR_PROBES], enum probe_mode want,
			  bool asked, int refused)
{
	struct kernel_facts kf;
	struct plan_rules r;

	kernel_612(&kf);
	plan_rules(&r, want, asked);
	if (asked)
		r.opts |= PROBE_OPT_LATENCY;
	if (refused >= 1) {
		r.allow_fentry = false;
		strcpy(r.fentry_refused, "fentry refused (EPERM)");
	}
	if (refused >= 2) {
		r.allow_kprobe = false;
		strcpy(r.kprobe_refused, "kprobe refused (EPERM)");
	}
	attach_plan(&kf, &r, p);
}

/* one plan against the real table: no message, nothing missing */
static void check_plan(enum probe_mode want, bool asked, int refused, bool raw)
{
	struct probe_state p[NR_PROBES];
	char msg[MSG_LEN] = "";

	plan_refusing(p, want, asked, refused);
	CHECK_EQ_INT(progs_check(probe_progs, p, raw, msg, sizeof(msg)), 0);
	CHECK_EQ_STR(msg, "");
}

/* whatever the plan chooses, progs.c has the programs for it */
static void test_every_plan_has_its_programs(void)
{
	size_t w;
	int asked, refused, raw;

	for (w = 0; w < sizeof(wants) / sizeof(wants[0]); w++)
		for (asked = 0; asked <= 1; asked++)
			for (refused = 0; refused <= 2; refused++)
				for (raw = 0; raw <= 1; raw++)
					check_plan(wants[w], asked, refused,
						   raw);
}

/*
 * The table itself, mode by mode: a function probe has all four function
 * programs, a tracepoint stand-in its program and raw twin, a support
 * probe's second tracepoint both too.
 */
static void test_every_probe_mode_has_its_programs(void)
{
	static const enum probe_mode fn_modes[] = { MODE_FENTRY, MODE_KPROBE };
	struct probe_state p[NR_PROBES];
	char msg[MSG_LEN];
	size_t m;
	int id, raw;

	for (id = 0; id < NR_PROBES; id++) {
		const struct probe_desc *d = &probe_table[id];

		for (raw = 0; raw <= 1; raw++) {
			memset(p, 0, sizeof(p));
			if (d->tp) {
				p[id].mode = MODE_TRACEPOINT;
				CHECK_EQ_INT(progs_check(probe_progs, p, raw,
							 msg, sizeof(msg)),
					     0);
			}
			for (m = 0; d->fns[0] && m < 2; m++) {
				p[id].mode = fn_modes[m];
				CHECK_EQ_INT(progs_check(probe_progs, p, raw,
							 msg, sizeof(msg)),
					     0);
			}
		}
	}
	CHECK(xcheck_progs.at[SLOT_TP] && xcheck_progs.at[SLOT_RAW_TP]);
	CHECK(read_kvar_prog != 0);
}

/* a row without one program: the plan fails, naming probe, mode, program */
static void test_missing_program_is_named(void)
{
	struct probe_progs tab[NR_PROBES];
	struct probe_state p[NR_PROBES];
	char msg[MSG_LEN] = "";

	memcpy(tab, probe_progs, sizeof(tab));
	tab[PROBE_DECAY].at[SLOT_FEXIT] = 0;
	plan_refusing(p, MODE_AUTO, false, 0);
	REQUIRE(p[PROBE_DECAY].mode == MODE_FENTRY);
	CHECK_EQ_INT(progs_check(tab, p, false, msg, sizeof(msg)), -ENOENT);
	CHECK(strstr(msg, "probe decay is planned as fentry"));
	CHECK(strstr(msg, "no fexit program"));
	/* the same kernel refusing fentry plans kprobes: the row has them */
	plan_refusing(p, MODE_AUTO, false, 1);
	CHECK_EQ_INT(progs_check(tab, p, false, msg, sizeof(msg)), 0);

	/* without kernel BTF the raw twin is the one that must be there */
	memcpy(tab, probe_progs, sizeof(tab));
	tab[PROBE_LOCK_WAIT].at[SLOT_RAW_TP_EXIT] = 0;
	plan_refusing(p, MODE_KPROBE, false, 0);
	REQUIRE(p[PROBE_LOCK_WAIT].mode == MODE_TRACEPOINT);
	CHECK_EQ_INT(progs_check(tab, p, false, msg, sizeof(msg)), 0);
	CHECK_EQ_INT(progs_check(tab, p, true, msg, sizeof(msg)), -ENOENT);
	CHECK(strstr(msg, "probe lock_wait is planned as tracepoint"));
	CHECK(strstr(msg, "no raw_tp exit program"));
}

/* which programs a mode runs: the heuristic and none run none */
static void test_prog_need(void)
{
	static const struct {
		int id;
		enum probe_mode m;
		bool raw;
		enum prog_slot entry, exit;
	} cases[] = {
		{ PROBE_BULK_FREE, MODE_TRACEPOINT, false, SLOT_TP, SLOT_NONE },
		{ PROBE_IRQ_TIME, MODE_TRACEPOINT, true, SLOT_RAW_TP,
		  SLOT_RAW_TP_EXIT },
		{ PROBE_REFILL, MODE_KPROBE, true, SLOT_KPROBE,
		  SLOT_KRETPROBE },
		{ PROBE_DECAY, MODE_FENTRY, false, SLOT_FENTRY, SLOT_FEXIT },
		{ PROBE_FREE_HIGH, MODE_HEURISTIC, false, SLOT_NONE,
		  SLOT_NONE },
		/* a compaction starts at its tracepoint (fn_entry_tp) */
		{ PROBE_COMPACT, MODE_FENTRY, false, SLOT_TP, SLOT_FEXIT },
		{ PROBE_COMPACT, MODE_KPROBE, true, SLOT_RAW_TP,
		  SLOT_KRETPROBE },
		{ PROBE_COMPACT, MODE_TRACEPOINT, false, SLOT_TP,
		  SLOT_TP_EXIT },
	};
	struct prog_need n;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		prog_need(cases[i].id, cases[i].m, cases[i].raw, &n);
		CHECK_EQ_INT(n.entry, cases[i].entry);
		CHECK_EQ_INT(n.exit, cases[i].exit);
	}
	CHECK_EQ_STR(prog_slot_name(SLOT_KRETPROBE), "kretprobe");
	CHECK_EQ_STR(prog_slot_name((enum prog_slot)99), "?");
	CHECK(prog_at(NULL, read_kvar_prog) == NULL);
}

const struct unit_test progs_tests[] = {
	TEST(test_every_plan_has_its_programs),
	TEST(test_every_probe_mode_has_its_programs),
	TEST(test_missing_program_is_named),
	TEST(test_prog_need),
	TEST_END,
};
