// SPDX-License-Identifier: GPL-2.0-only
/*
 * The free_high rule and the flush shape from BTF facts and the release,
 * for the kernels of docs/KERNELS.md as their BTF has them.
 */
#include <errno.h>
#include <string.h>
#include "kshape.h"
#include "pcptop.h"
#include "unit.h"

static struct kshape shape(bool returns, bool free_count)
{
	struct kshape k;

	memset(&k, 0, sizeof(k));
	k.known = true;
	k.commit_in_btf = true;
	k.commit_returns = returns;
	k.pcp_free_count = free_count;
	k.pcp_free_factor = !free_count;
	return k;
}

static void test_kshape_versions(void)
{
	struct kshape k = shape(false, false);

	CHECK_EQ_INT(kshape_decide(&k, "6.1.0-57-amd64"), 0);
	CHECK_EQ_INT(k.free_high_rule, FREE_HIGH_RULE_FREE_FACTOR);
	CHECK(!k.flush_chunked);
	k = shape(false, true);
	kshape_decide(&k, "6.12.117+deb12-amd64");
	CHECK_EQ_INT(k.free_high_rule, FREE_HIGH_RULE_FREE_COUNT);
	/* no evidence: the version, and a warning about backports */
	CHECK(strstr(k.free_high_why, "backports") != NULL);
	k = shape(false, true);
	kshape_decide(&k, "6.16.12+deb13-amd64");
	CHECK_EQ_INT(k.free_high_rule, FREE_HIGH_RULE_HIGH_MIN);
	CHECK(!k.flush_chunked);
	k = shape(false, true);
	kshape_decide(&k, "6.18.15+deb13-amd64");
	CHECK_EQ_INT(k.free_high_rule, FREE_HIGH_RULE_HIGH_MIN);
	CHECK(!k.flush_chunked);
}

static void test_kshape_reachable(void)
{
	/* Debian 7.3.4, 1 GiB, 2 CPUs: 63 + 3464 > 2016 + 7 */
	CHECK_EQ_INT(kshape_free_high_reachable(FREE_HIGH_RULE_HIGH_MIN, 63,
						6928, 5),
		     0);
	/* the instrumented 7.3 (tinyconfig), same memory: 63 + 313 */
	CHECK_EQ_INT(kshape_free_high_reachable(FREE_HIGH_RULE_HIGH_MIN, 63,
						626, 5),
		     1);
	/* the edge: free_count can end 7 past batch << scale */
	CHECK_EQ_INT(kshape_free_high_reachable(FREE_HIGH_RULE_HIGH_MIN, 63,
						2 * (2023 - 63), 5),
		     1);
	CHECK_EQ_INT(kshape_free_high_reachable(FREE_HIGH_RULE_HIGH_MIN, 63,
						2 * (2024 - 63), 5),
		     0);
	CHECK_EQ_INT(kshape_free_high_reachable(FREE_HIGH_RULE_FREE_COUNT, 63,
						626, 5),
		     -EINVAL);
	CHECK_EQ_INT(kshape_free_high_reachable(FREE_HIGH_RULE_HIGH_MIN, 63,
						626, -1),
		     -EINVAL);
}

static void test_kshape_evidence(void)
{
	struct kshape k = shape(true, true);

	/* 7.3: the commit function returns bool */
	kshape_decide(&k, "7.3.4+deb13-amd64");
	CHECK(k.flush_chunked);
	CHECK_EQ_INT(k.free_high_rule, FREE_HIGH_RULE_HIGH_MIN);
	CHECK(strstr(k.free_high_why, "BTF") != NULL);
	/* a "6.12" with the chunked commit: the evidence wins */
	k = shape(true, true);
	kshape_decide(&k, "6.12.200-vendor");
	CHECK(k.flush_chunked);
	CHECK_EQ_INT(k.free_high_rule, FREE_HIGH_RULE_HIGH_MIN);
	/* no commit function in BTF: nothing chunked */
	k = shape(true, true);
	k.commit_in_btf = false;
	kshape_decide(&k, "7.3.4");
	CHECK(!k.flush_chunked);
	CHECK_EQ_INT(kshape_decide(&k, "garbage"), -EINVAL);
	CHECK_EQ_STR(kshape_rule_name(FREE_HIGH_RULE_HIGH_MIN),
		     "free_count >= batch + high_min / 2");
}

const struct unit_test kshape_tests[] = {
	TEST(test_kshape_versions),
	TEST(test_kshape_evidence),
	TEST(test_kshape_reachable),
	TEST_END,
};
