// SPDX-License-Identifier: GPL-2.0-only
/* scale.c: get_option() mimicry, inference and the precedence trees */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "facts.h"
#include "scale.h"
#include "unit.h"

#define TREE_PATH_LEN 256
#define RELEASE "6.1.0-test"
#define PATCHED_KVAR_ADDR 0xffff800081c61a48ULL

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

#define CHECK_HAS(s, sub)                                                    \
	do {                                                                 \
		if (!strstr((s), (sub)))                                     \
			unit_fail(__FILE__, __LINE__, "\"%s\" lacks \"%s\"", \
				  (s), (sub));                               \
	} while (0)

static int collect(const char *tree, struct scale_info *si)
{
	char rel[TREE_PATH_LEN];

	snprintf(rel, sizeof(rel), "trees/%s", tree);
	return scale_collect(fixture(rel), RELEASE, si);
}

static void test_source_names(void)
{
	CHECK_EQ_STR(scale_source_name(SCALE_SRC_KVAR), "kernel-variable");
	CHECK_EQ_STR(scale_source_name(SCALE_SRC_CMDLINE), "cmdline");
	CHECK_EQ_STR(scale_source_name(SCALE_SRC_CONFIG), "config");
	CHECK_EQ_STR(scale_source_name(SCALE_SRC_INFERRED), "inferred");
	CHECK_EQ_STR(scale_source_name(SCALE_SRC_UNKNOWN), "unknown");
	CHECK_EQ_STR(scale_source_name(NR_SCALE_SRC), "unknown");
}

/* value after get_option() and the clamp, or -errno */
static int parse(const char *raw)
{
	int v = -100, err;

	err = scale_parse_cmdline_value(raw, &v);
	return err ? err : v;
}

static void test_parse_cmdline_value(void)
{
	CHECK_EQ_INT(parse("0"), 0);
	CHECK_EQ_INT(parse("5"), 5);
	CHECK_EQ_INT(parse("6"), 6);
	CHECK_EQ_INT(parse("9"), 6);
	/* (unsigned int)-1 is above 6 */
	CHECK_EQ_INT(parse("-1"), 6);
	CHECK_EQ_INT(parse("-0"), 0);
	CHECK_EQ_INT(parse("0x3"), 3);
	CHECK_EQ_INT(parse("0x10"), 6);
	/* base 0: a leading 0 is octal, so 010 is 8 and 08 stops at 0 */
	CHECK_EQ_INT(parse("010"), 6);
	CHECK_EQ_INT(parse("04"), 4);
	CHECK_EQ_INT(parse("08"), 0);
	CHECK_EQ_INT(parse("3,4"), 3);
	CHECK_EQ_INT(parse("2abc"), 2);
	/* 2^32 + 1 truncates to 1 in the unsigned int */
	CHECK_EQ_INT(parse("4294967297"), 1);
	/* get_option() stores simple_strtoull()'s 0 even for no digits */
	CHECK_EQ_INT(parse("abc"), 0);
	CHECK_EQ_INT(parse(" 3"), 0);
	/* an empty value returns before anything is stored */
	CHECK_EQ_INT(parse(""), -EINVAL);
	CHECK_EQ_INT(parse(NULL), -EINVAL);
}

/* a config read and without the option: this kernel has no scale at all */
static void test_tree_noscale(void)
{
	struct scale_info si;
	char line[256];
	struct facts f;

	CHECK_EQ_INT(collect("noscale", &si), 0);
	CHECK(si.config_lacks);
	CHECK_EQ_INT(si.source, SCALE_SRC_NONE);
	CHECK_EQ_INT(si.value, -1);
	CHECK_HAS(si.note, "no scale in this kernel");
	CHECK_EQ_STR(scale_source_name(si.source), "none");
	/* what the probes see changes nothing: there is no scale to infer */
	scale_observe(&si, 6, 10, -1, 0);
	CHECK_EQ_INT(si.source, SCALE_SRC_NONE);
	facts_init(&f);
	f.scale = si;
	facts_scale_line(&f, line, sizeof(line));
	CHECK(!strncmp(line, "scale none (", 12));
}

static void test_tree_stock(void)
{
	struct scale_info si;

	CHECK_EQ_INT(collect("stock", &si), 0);
	CHECK_EQ_INT(si.value, 5);
	CHECK_EQ_INT(si.source, SCALE_SRC_CONFIG);
	CHECK_EQ_INT(si.patch, SCALE_PATCH_ABSENT);
	CHECK(!si.have[SCALE_SRC_CMDLINE] && !si.have[SCALE_SRC_KVAR]);
	CHECK_EQ_U64(si.kvar_addr, 0);
	CHECK(ends_with(si.config_path, "trees/stock/proc/config.gz"));
	CHECK_EQ_STR(si.note, "");

	/* chunks above batch << 5 contradict the config */
	scale_set_inferred(&si, 6, 3);
	CHECK_EQ_INT(si.value, 5);
	CHECK_EQ_INT(si.source, SCALE_SRC_CONFIG);
	CHECK_HAS(si.note, "the probes saw scale >= 6");
	/* a lower inference is only a weaker bound */
	scale_set_inferred(&si, 4, 3);
	CHECK_EQ_STR(si.note, "");
}

/* 6.1.y with the backport: config 5, but free_high is not capped */
static void test_free_high_uncapped(void)
{
	struct scale_info si, rec;

	CHECK_EQ_INT(collect("stock", &si), 0);
	scale_set_free_high_uncapped(&si);
	CHECK_EQ_INT(si.value, 5);
	CHECK_HAS(si.note, "a free_high flush frees the whole pageset");
	/* it stays through every later resolve */
	scale_observe(&si, 3, 2, -1, 0);
	CHECK_HAS(si.note, "a free_high flush frees the whole pageset");

	/* a recording's scale: evidence added, what it resolved kept */
	CHECK_EQ_INT(collect("noscale", &rec), 0);
	scale_add_evidence(&rec, 6, 10, 4, 2);
	CHECK_EQ_INT(rec.source, SCALE_SRC_NONE);
	CHECK_HAS(rec.note, "no scale in this kernel");
	CHECK_EQ_INT(rec.val[SCALE_SRC_INFERRED], 4);
	CHECK_EQ_INT(rec.inferred_evidence, 12);
}

static void test_tree_patched_cmdline9(void)
{
	struct scale_info si;

	CHECK_EQ_INT(collect("patched-cmdline9", &si), 0);
	CHECK_EQ_INT(si.patch, SCALE_PATCH_PRESENT);
	CHECK_EQ_U64(si.kvar_addr, PATCHED_KVAR_ADDR);
	CHECK_EQ_STR(si.cmdline_raw, "9");
	CHECK_EQ_INT(si.val[SCALE_SRC_CMDLINE], 6);
	CHECK_EQ_INT(si.value, 6);
	CHECK_EQ_INT(si.source, SCALE_SRC_CMDLINE);
	CHECK_HAS(si.note, "cmdline asks 9, the patch clamps it to 6");
	CHECK_HAS(si.note, "not read");

	scale_set_kvar(&si, 6);
	CHECK_EQ_INT(si.value, 6);
	CHECK_EQ_INT(si.source, SCALE_SRC_KVAR);
	CHECK_EQ_STR(
		si.note,
		"cmdline asks 9, kernel variable is 6 (the patch clamps to 6)");
}

static void test_tree_patched_cmdline0(void)
{
	struct scale_info si;

	CHECK_EQ_INT(collect("patched-cmdline0", &si), 0);
	CHECK_EQ_INT(si.value, 0);
	CHECK_EQ_INT(si.source, SCALE_SRC_CMDLINE);
	CHECK_EQ_INT(si.val[SCALE_SRC_CONFIG], 5);
	CHECK(si.note[0] != '\0');

	scale_set_kvar(&si, 0);
	CHECK_EQ_INT(si.source, SCALE_SRC_KVAR);
	CHECK_EQ_INT(si.value, 0);
	CHECK_EQ_STR(si.note, "");
	/* the variable wins, and the mismatch is said */
	scale_set_kvar(&si, 5);
	CHECK_EQ_INT(si.value, 5);
	CHECK_EQ_STR(si.note, "cmdline asks 0, kernel variable is 5");
	/* a read that cannot be the clamped variable is not believed */
	scale_set_kvar(&si, 1000);
	CHECK_EQ_INT(si.source, SCALE_SRC_CMDLINE);
	CHECK_EQ_INT(si.value, 0);
	CHECK_HAS(si.note, "reads 1000");
}

static void test_tree_patched_none(void)
{
	struct scale_info si;

	CHECK_EQ_INT(collect("patched-none", &si), 0);
	CHECK_EQ_INT(si.patch, SCALE_PATCH_PRESENT);
	CHECK_EQ_U64(si.kvar_addr, PATCHED_KVAR_ADDR);
	CHECK_EQ_INT(si.value, 5);
	CHECK_EQ_INT(si.source, SCALE_SRC_CONFIG);
	CHECK_EQ_STR(si.note, "");

	scale_set_kvar(&si, 5);
	CHECK_EQ_INT(si.source, SCALE_SRC_KVAR);
	CHECK_EQ_STR(si.note, "");
	scale_set_kvar(&si, 4);
	CHECK_EQ_INT(si.value, 4);
	CHECK_EQ_STR(
		si.note,
		"no cmdline value, yet kernel variable is 4 and CONFIG_PCP_BATCH_SCALE_MAX is 5");
}

static void test_tree_patched_nokallsymsall(void)
{
	struct scale_info si;

	CHECK_EQ_INT(collect("patched-nokallsymsall", &si), 0);
	CHECK_EQ_INT(si.patch, SCALE_PATCH_PRESENT);
	CHECK_EQ_U64(si.kvar_addr, 0);
	CHECK_EQ_INT(si.value, 0);
	CHECK_EQ_INT(si.source, SCALE_SRC_CMDLINE);
	CHECK_HAS(si.note, "CONFIG_KALLSYMS_ALL");
}

static void test_tree_patched_garbage(void)
{
	struct scale_info si;

	CHECK_EQ_INT(collect("patched-garbage", &si), 0);
	CHECK_EQ_STR(si.cmdline_raw, "abc");
	CHECK_EQ_INT(si.value, 0);
	CHECK_EQ_INT(si.source, SCALE_SRC_CMDLINE);
	CHECK_HAS(si.note, "get_option() reads as 0");
	scale_set_kvar(&si, 0);
	CHECK_EQ_INT(si.source, SCALE_SRC_KVAR);
	CHECK_EQ_STR(si.note,
		     "cmdline asks \"abc\", which get_option() reads as 0");
}

static void test_tree_unpatched_cmdline0(void)
{
	struct scale_info si;

	CHECK_EQ_INT(collect("unpatched-cmdline0", &si), 0);
	CHECK_EQ_INT(si.patch, SCALE_PATCH_ABSENT);
	/* seen and kept, but the kernel never looked at it */
	CHECK(si.have[SCALE_SRC_CMDLINE]);
	CHECK_EQ_INT(si.val[SCALE_SRC_CMDLINE], 0);
	CHECK_EQ_INT(si.value, 5);
	CHECK_EQ_INT(si.source, SCALE_SRC_CONFIG);
	CHECK_HAS(si.note, "ignored");
}

static void test_tree_restricted_cmdline0(void)
{
	struct scale_info si;

	CHECK_EQ_INT(collect("restricted-cmdline0", &si), 0);
	CHECK_EQ_INT(si.patch, SCALE_PATCH_UNKNOWN);
	CHECK_EQ_U64(si.kvar_addr, 0);
	/* kallsyms hides whether the patch is there: the config outranks it */
	CHECK_EQ_INT(si.value, 5);
	CHECK_EQ_INT(si.source, SCALE_SRC_CONFIG);
}

static void test_tree_noconfig(void)
{
	struct scale_info si;

	CHECK_EQ_INT(collect("noconfig", &si), 0);
	CHECK_EQ_INT(si.value, -1);
	CHECK_EQ_INT(si.source, SCALE_SRC_UNKNOWN);
	CHECK_EQ_INT(si.patch, SCALE_PATCH_UNKNOWN);
	CHECK_EQ_STR(si.config_path, "");
	CHECK(si.note[0] != '\0');

	scale_set_inferred(&si, 5, 12);
	CHECK_EQ_INT(si.value, 5);
	CHECK_EQ_INT(si.source, SCALE_SRC_INFERRED);
	CHECK_EQ_INT(si.inferred_evidence, 12);
	CHECK_HAS(si.note, "12 observations");
	CHECK_HAS(si.note, "lower bound");
	scale_set_inferred(&si, -1, 0);
	CHECK_EQ_INT(si.source, SCALE_SRC_UNKNOWN);
	CHECK_EQ_INT(si.value, -1);
}

static void test_tree_boot_config(void)
{
	struct scale_info si;

	CHECK_EQ_INT(collect("boot-config-only", &si), 0);
	CHECK_EQ_INT(si.value, 3);
	CHECK_EQ_INT(si.source, SCALE_SRC_CONFIG);
	CHECK(ends_with(si.config_path, "boot/config-" RELEASE));
	CHECK_EQ_STR(si.note, "");

	/* without a release there is no /boot file to look for */
	CHECK_EQ_INT(
		scale_collect(fixture("trees/boot-config-only"), NULL, &si), 0);
	CHECK_EQ_INT(si.source, SCALE_SRC_UNKNOWN);

	/* /proc/config.gz is the running kernel's: it goes first */
	CHECK_EQ_INT(collect("both-configs", &si), 0);
	CHECK_EQ_INT(si.value, 5);
	CHECK(ends_with(si.config_path, "proc/config.gz"));
}

static void test_tree_missing_root(void)
{
	struct scale_info si;

	CHECK_EQ_INT(collect("no-such-tree", &si), 0);
	CHECK_EQ_INT(si.value, -1);
	CHECK_EQ_INT(si.source, SCALE_SRC_UNKNOWN);
	CHECK_EQ_INT(si.patch, SCALE_PATCH_UNKNOWN);
}

/* every source at once: the order of scale.h, nothing else */
static void test_resolve_precedence(void)
{
	struct scale_info si;
	int s;

	memset(&si, 0, sizeof(si));
	si.patch = SCALE_PATCH_PRESENT;
	si.kvar_addr = PATCHED_KVAR_ADDR;
	for (s = SCALE_SRC_KVAR; s < SCALE_SRC_UNKNOWN; s++) {
		si.have[s] = true;
		si.val[s] = s + 1;
	}
	snprintf(si.cmdline_raw, sizeof(si.cmdline_raw), "%d",
		 si.val[SCALE_SRC_CMDLINE]);
	si.inferred_evidence = 1;
	scale_resolve(&si);
	CHECK_EQ_INT(si.source, SCALE_SRC_KVAR);
	CHECK_EQ_INT(si.value, 1);
	si.have[SCALE_SRC_KVAR] = false;
	scale_resolve(&si);
	CHECK_EQ_INT(si.source, SCALE_SRC_CMDLINE);
	CHECK_EQ_INT(si.value, 2);
	/* inferred 4 over cmdline 2: said, but the cmdline still wins */
	CHECK_HAS(si.note, "the probes saw scale >= 4");
	si.patch = SCALE_PATCH_ABSENT;
	scale_resolve(&si);
	CHECK_EQ_INT(si.source, SCALE_SRC_CONFIG);
	CHECK_EQ_INT(si.value, 3);
	si.have[SCALE_SRC_CONFIG] = false;
	scale_resolve(&si);
	CHECK_EQ_INT(si.source, SCALE_SRC_INFERRED);
	CHECK_EQ_INT(si.value, 4);
	si.have[SCALE_SRC_INFERRED] = false;
	scale_resolve(&si);
	CHECK_EQ_INT(si.source, SCALE_SRC_UNKNOWN);
	CHECK_EQ_INT(si.value, -1);
	/* resolving twice changes nothing (the setters resolve again) */
	scale_resolve(&si);
	CHECK_EQ_INT(si.source, SCALE_SRC_UNKNOWN);
	CHECK(strchr(si.note, '\n') == NULL);
}

const struct unit_test scale_tests[] = {
	TEST(test_source_names),
	TEST(test_parse_cmdline_value),
	TEST(test_tree_noscale),
	TEST(test_tree_stock),
	TEST(test_free_high_uncapped),
	TEST(test_tree_patched_cmdline9),
	TEST(test_tree_patched_cmdline0),
	TEST(test_tree_patched_none),
	TEST(test_tree_patched_nokallsymsall),
	TEST(test_tree_patched_garbage),
	TEST(test_tree_unpatched_cmdline0),
	TEST(test_tree_restricted_cmdline0),
	TEST(test_tree_noconfig),
	TEST(test_tree_boot_config),
	TEST(test_tree_missing_root),
	TEST(test_resolve_precedence),
	TEST_END,
};
