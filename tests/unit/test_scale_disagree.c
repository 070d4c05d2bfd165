// SPDX-License-Identifier: GPL-2.0-only
/*
 * scale.c where sources disagree, on /proc trees shaped like the patched
 * VM kernel of tests/vm/kernel/ (amd64, CONFIG_PCP_BATCH_SCALE_MAX=5,
 * KALLSYMS_ALL): the four boots of tests/vm/patched.sh, command lines the
 * kernel reads in ways easy to get wrong, a kernel variable that cannot be
 * read, and the inference from observed chunks with its evidence.
 * scale_collect() cannot read the variable from a fixture, so the tests
 * hand scale_set_kvar() what the kernel would hold.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "scale.h"
#include "unit.h"

#define TREE_PATH_LEN 256
#define LINE_LEN 256
#define RELEASE "6.12.117-pcptop"
/* pcp_batch_scale_max in the fixtures' kallsyms (the VM kernel's address) */
#define VM_KVAR_ADDR 0xffffffff81b086d0ULL
#define VM_CONFIG 5
#define VM_BATCH 63
/* (1 << pageblock_order) - 1 on amd64: a THP page taken last */
#define THP_SLACK 511ULL

#define CHECK_HAS(s, sub)                                                    \
	do {                                                                 \
		if (!strstr((s), (sub)))                                     \
			unit_fail(__FILE__, __LINE__, "\"%s\" lacks \"%s\"", \
				  (s), (sub));                               \
	} while (0)

#define CHECK_LACKS(s, sub)                                                \
	do {                                                               \
		if (strstr((s), (sub)))                                    \
			unit_fail(__FILE__, __LINE__, "\"%s\" has \"%s\"", \
				  (s), (sub));                             \
	} while (0)

static int collect(const char *tree, struct scale_info *si)
{
	char rel[TREE_PATH_LEN];

	snprintf(rel, sizeof(rel), "trees/%s", tree);
	return scale_collect(fixture(rel), RELEASE, si);
}

/*
 * What tests/vm/patched.sh asserts of pcptop info, boot by boot: the
 * variable the kernel holds after its own parsing, and the only note
 * (the clamp of 9).
 */
static void test_vm_boots(void)
{
	static const struct {
		const char *tree;
		int kvar; /* what the kernel holds */
		int cmdline; /* -1: no parameter */
		const char *note; /* "" or a part of the note */
	} boots[] = {
		{ "vmpatched-cmdline0", 0, 0, "" },
		{ "vmpatched-cmdline5", 5, 5, "" },
		{ "vmpatched-cmdline9", 6, 6,
		  "cmdline asks 9, kernel variable is 6 (the patch clamps to 6)" },
		{ "vmpatched-none", VM_CONFIG, -1, "" },
	};
	struct scale_info si;
	size_t i;

	for (i = 0; i < sizeof(boots) / sizeof(boots[0]); i++) {
		CHECK_EQ_INT(collect(boots[i].tree, &si), 0);
		CHECK_EQ_INT(si.patch, SCALE_PATCH_PRESENT);
		CHECK_EQ_U64(si.kvar_addr, VM_KVAR_ADDR);
		CHECK(si.have[SCALE_SRC_CONFIG]);
		CHECK_EQ_INT(si.val[SCALE_SRC_CONFIG], VM_CONFIG);
		CHECK_EQ_INT(si.have[SCALE_SRC_CMDLINE], boots[i].cmdline >= 0);
		if (boots[i].cmdline >= 0)
			CHECK_EQ_INT(si.val[SCALE_SRC_CMDLINE],
				     boots[i].cmdline);
		scale_set_kvar(&si, boots[i].kvar);
		CHECK_EQ_INT(si.source, SCALE_SRC_KVAR);
		CHECK_EQ_INT(si.value, boots[i].kvar);
		if (boots[i].note[0])
			CHECK_HAS(si.note, boots[i].note);
		else
			CHECK_EQ_STR(si.note, "");
	}
}

/* the patch took the parameter, yet the variable kept its default */
static void test_cmdline9_kvar_default(void)
{
	struct scale_info si;

	CHECK_EQ_INT(collect("vmpatched-cmdline9", &si), 0);
	scale_set_kvar(&si, VM_CONFIG);
	CHECK_EQ_INT(si.value, VM_CONFIG);
	CHECK_EQ_INT(si.source, SCALE_SRC_KVAR);
	CHECK_EQ_STR(si.note, "cmdline asks 9, kernel variable is 5");
	CHECK_LACKS(si.note, "clamps");
}

/* -1 read as unsigned is huge: the clamp, not a mismatch */
static void test_cmdline_minus1(void)
{
	struct scale_info si;

	CHECK_EQ_INT(collect("vmpatched-minus1", &si), 0);
	CHECK_EQ_STR(si.cmdline_raw, "-1");
	CHECK_EQ_INT(si.val[SCALE_SRC_CMDLINE], 6);
	scale_set_kvar(&si, 6);
	CHECK_EQ_STR(
		si.note,
		"cmdline asks -1, kernel variable is 6 (the patch clamps to 6)");
}

/* 6 is the limit itself: nothing clamped, nothing to say */
static void test_cmdline6(void)
{
	struct scale_info si;

	CHECK_EQ_INT(collect("vmpatched-cmdline6", &si), 0);
	CHECK_EQ_INT(si.val[SCALE_SRC_CMDLINE], 6);
	scale_set_kvar(&si, 6);
	CHECK_EQ_STR(si.note, "");
}

/*
 * obsolete_checksetup() calls the handler for every occurrence: the last
 * one sets the variable, so it is the one to compare with.
 */
static void test_cmdline_twice(void)
{
	struct scale_info si;

	CHECK_EQ_INT(collect("vmpatched-twice", &si), 0);
	CHECK_EQ_STR(si.cmdline_raw, "4");
	CHECK_EQ_INT(si.val[SCALE_SRC_CMDLINE], 4);
	scale_set_kvar(&si, 4);
	CHECK_EQ_STR(si.note, "");
	scale_set_kvar(&si, 2);
	CHECK_EQ_STR(si.note, "cmdline asks 4, kernel variable is 2");
}

/* parameqn() takes '-' for '_', so the kernel obeys this spelling */
static void test_cmdline_dashes(void)
{
	struct scale_info si;

	CHECK_EQ_INT(collect("vmpatched-dashes", &si), 0);
	CHECK(si.have[SCALE_SRC_CMDLINE]);
	CHECK_EQ_INT(si.val[SCALE_SRC_CMDLINE], 3);
	scale_set_kvar(&si, 3);
	CHECK_EQ_INT(si.value, 3);
	CHECK_EQ_STR(si.note, "");
}

/* after "--" the words are init's: the kernel never saw the parameter */
static void test_cmdline_after_dashdash(void)
{
	struct scale_info si;

	CHECK_EQ_INT(collect("vmpatched-initarg", &si), 0);
	CHECK(!si.have[SCALE_SRC_CMDLINE]);
	CHECK_EQ_STR(si.cmdline_raw, "");
	scale_set_kvar(&si, VM_CONFIG);
	CHECK_EQ_STR(si.note, "");
	/* so a variable of 0 is news, not the parameter at work */
	scale_set_kvar(&si, 0);
	CHECK_EQ_STR(
		si.note,
		"no cmdline value, yet kernel variable is 0 and CONFIG_PCP_BATCH_SCALE_MAX is 5");
}

/* the address is known but the BPF read failed: say why, and what holds */
static void test_kvar_unreadable(void)
{
	struct scale_info si;

	CHECK_EQ_INT(collect("vmpatched-cmdline9", &si), 0);
	scale_set_kvar_error(&si, -EPERM);
	CHECK_EQ_INT(si.source, SCALE_SRC_CMDLINE);
	CHECK_EQ_INT(si.value, 6);
	CHECK_HAS(si.note, "the patch clamps it to 6");
	CHECK_HAS(si.note, "unreadable (Operation not permitted)");
	CHECK_HAS(si.note, "cmdline taken as in force");
	/* a later read clears the error */
	scale_set_kvar(&si, 6);
	CHECK_EQ_INT(si.kvar_err, 0);
	CHECK_LACKS(si.note, "unreadable");

	CHECK_EQ_INT(collect("vmpatched-none", &si), 0);
	CHECK_EQ_STR(si.note, "");
	/* errno's own sign is taken too */
	scale_set_kvar_error(&si, EFAULT);
	CHECK_EQ_INT(si.kvar_err, -EFAULT);
	CHECK_EQ_INT(si.source, SCALE_SRC_CONFIG);
	CHECK_EQ_INT(si.value, VM_CONFIG);
	CHECK_HAS(si.note,
		  "unreadable (Bad address): config taken as in force");
}

/*
 * A lower bound above the scale in force, or a capped chunk showing
 * another value, says the probes and the sources disagree.
 */
static void test_observe_disagrees(void)
{
	struct scale_info si;
	char line[LINE_LEN];

	CHECK_EQ_INT(collect("vmpatched-none", &si), 0);
	scale_set_kvar(&si, VM_CONFIG);
	scale_observe(&si, 6, 3, -1, 0);
	CHECK_EQ_INT(si.val[SCALE_SRC_INFERRED], 6);
	CHECK_EQ_INT(si.inferred_evidence, 3);
	CHECK_EQ_INT(si.source, SCALE_SRC_KVAR);
	CHECK_EQ_INT(si.value, VM_CONFIG);
	CHECK_EQ_STR(
		si.note,
		"the probes saw scale >= 6, not the kernel-variable value 5");
	/* a smaller bound keeps the largest, adds its evidence */
	scale_observe(&si, 2, 2, -1, 0);
	CHECK_EQ_INT(si.val[SCALE_SRC_INFERRED], 6);
	CHECK_EQ_INT(si.inferred_evidence, 5);
	scale_inferred_line(&si, line, sizeof(line));
	CHECK_EQ_STR(
		line,
		"inferred >= 6 from 5 observations (factors, free_count, chunk sizes)");

	/* an exact value below the source: still news */
	CHECK_EQ_INT(collect("vmpatched-none", &si), 0);
	scale_set_kvar(&si, VM_CONFIG);
	scale_observe(&si, 0, 1, 3, 2);
	CHECK_HAS(si.note, "the probes saw scale = 3");
}

/* at the scale in force or below: a lower bound agrees, no note */
static void test_observe_agrees(void)
{
	struct scale_info si;
	char line[LINE_LEN];

	CHECK_EQ_INT(collect("vmpatched-cmdline0", &si), 0);
	scale_set_kvar(&si, 0);
	scale_observe(&si, 0, 10, -1, 0);
	CHECK_EQ_INT(si.val[SCALE_SRC_INFERRED], 0);
	CHECK_EQ_STR(si.note, "");

	CHECK_EQ_INT(collect("vmpatched-cmdline5", &si), 0);
	scale_set_kvar(&si, 5);
	scale_observe(&si, 3, 40, 5, 2);
	CHECK_EQ_INT(si.val[SCALE_SRC_INFERRED], 5);
	CHECK_EQ_STR(si.note, "");
	scale_inferred_line(&si, line, sizeof(line));
	CHECK_EQ_STR(line,
		     "inferred = 5 from 2 drain chunks cut at batch << scale");
	/* later lower bounds do not move an exact value */
	scale_observe(&si, 1, 4, -1, 0);
	CHECK_EQ_INT(si.val[SCALE_SRC_INFERRED], 5);
	CHECK_EQ_INT(si.inferred_evidence, 46);
}

/* no other source: the inference is the answer, said as what it is */
static void test_observe_only_source(void)
{
	struct scale_info si;
	char line[LINE_LEN];

	CHECK_EQ_INT(collect("noconfig", &si), 0);
	CHECK_EQ_INT(si.source, SCALE_SRC_UNKNOWN);
	scale_inferred_line(&si, line, sizeof(line));
	CHECK_EQ_STR(
		line,
		"inferred: nothing yet (no drain chunk cut at batch << scale, no capped factor seen)");
	scale_observe(&si, 4, 14, -1, 0);
	CHECK_EQ_INT(si.source, SCALE_SRC_INFERRED);
	CHECK_EQ_INT(si.value, 4);
	CHECK_EQ_STR(si.note, "inferred from 14 observations: a lower bound");
	scale_observe(&si, 4, 1, 5, 3);
	CHECK_EQ_INT(si.value, 5);
	CHECK_EQ_STR(si.note,
		     "inferred from 3 drain chunks cut at batch << scale");
}

static void test_inferred_line_edges(void)
{
	struct scale_info si;
	char line[LINE_LEN];

	memset(&si, 0, sizeof(si));
	si.inferred_at_least = si.inferred_exact = -1;
	/* nothing observed: nothing inferred */
	scale_observe(&si, 5, 0, 6, 0);
	CHECK(!si.have[SCALE_SRC_INFERRED]);

	/* set directly (a recording's totals): the short form */
	memset(&si, 0, sizeof(si));
	scale_set_inferred(&si, 3, 7);
	scale_inferred_line(&si, line, sizeof(line));
	CHECK_EQ_STR(
		line,
		"inferred >= 3 from 7 observations (factors, free_count, chunk sizes)");

	/* evidence saturates instead of wrapping */
	memset(&si, 0, sizeof(si));
	scale_observe(&si, 1, ~0ULL, -1, 0);
	CHECK_EQ_INT(si.inferred_evidence, INT_MAX);
	scale_observe(&si, 1, 5, -1, 0);
	CHECK_EQ_INT(si.inferred_evidence, INT_MAX);

	/* a tiny buffer is cut, never overrun */
	line[4] = 'x';
	scale_inferred_line(&si, line, 4);
	CHECK_EQ_INT(strlen(line), 3);
	CHECK(line[4] == 'x');
}

const struct unit_test scale_disagree_tests[] = {
	TEST(test_vm_boots),
	TEST(test_cmdline9_kvar_default),
	TEST(test_cmdline_minus1),
	TEST(test_cmdline6),
	TEST(test_cmdline_twice),
	TEST(test_cmdline_dashes),
	TEST(test_cmdline_after_dashdash),
	TEST(test_kvar_unreadable),
	TEST(test_observe_disagrees),
	TEST(test_observe_agrees),
	TEST(test_observe_only_source),
	TEST(test_inferred_line_edges),
	TEST_END,
};
