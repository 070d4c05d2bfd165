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
	TEST_END,
};
