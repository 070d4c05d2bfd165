// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which free_high rule a kernel follows. commit c544a952ba61 ("mm: pcp:
 * increase pcp->free_count threshold to trigger free_high"), v6.16,
 * changed one constant and left no mark in BTF: a 6.12 vendor kernel that
 * backports it cannot be told apart by its types. What does tell is code
 * known to be newer: the chunked commit function (its bool return,
 * src/core/kernel_quirks.h QUIRK_CHUNKED_COMMIT) came after v6.16, so a
 * kernel that has it has the new rule whatever its version says.
 */
#include <errno.h>
#include <stdio.h>
#include "kshape.h"
#include "pcptop.h"

const char *kshape_rule_name(int rule)
{
	switch (rule) {
	case FREE_HIGH_RULE_FREE_FACTOR:
		return "free_factor";
	case FREE_HIGH_RULE_FREE_COUNT:
		return "free_count >= batch";
	case FREE_HIGH_RULE_HIGH_MIN:
		return "free_count >= batch + high_min / 2";
	}
	return "unknown";
}

int kshape_decide(struct kshape *k, const char *release)
{
	int major = 0, minor = 0, err = 0;
	bool new_version;

	if (!release || sscanf(release, "%d.%d", &major, &minor) != 2)
		err = -EINVAL;
	new_version = major > 6 || (major == 6 && minor >= 16);
	k->flush_chunked = k->commit_in_btf && k->commit_returns;
	if (k->pcp_free_factor || (k->known && !k->pcp_free_count)) {
		k->free_high_rule = FREE_HIGH_RULE_FREE_FACTOR;
		snprintf(k->free_high_why, sizeof(k->free_high_why),
			 "BTF: per_cpu_pages has free_factor (6.1..6.6)");
	} else if (k->flush_chunked) {
		k->free_high_rule = FREE_HIGH_RULE_HIGH_MIN;
		snprintf(
			k->free_high_why, sizeof(k->free_high_why),
			"BTF: the commit function returns bool (chunked flush, after v6.16), so c544a952ba61 is in");
	} else if (new_version) {
		k->free_high_rule = FREE_HIGH_RULE_HIGH_MIN;
		snprintf(
			k->free_high_why, sizeof(k->free_high_why),
			"version %d.%d >= 6.16 (c544a952ba61); BTF cannot tell",
			major, minor);
	} else {
		k->free_high_rule = FREE_HIGH_RULE_FREE_COUNT;
		snprintf(
			k->free_high_why, sizeof(k->free_high_why),
			"version %d.%d < 6.16; BTF cannot tell: a kernel that backports c544a952ba61 follows batch + high_min / 2 and is misjudged (docs/ACCURACY.md)",
			major, minor);
	}
	return err;
}

/*
 * free_count stops growing once it reaches batch << scale (the commit
 * function adds a page only while below it, so it ends at most
 * (1 << PAGE_ALLOC_COSTLY_ORDER) - 1 past): under the 6.16+ rule a pageset
 * whose batch + high_min / 2 lies beyond that can never flush with
 * free_high. Debian's 7.3.4 at 1 GiB and 2 CPUs: batch 63, high_min 6928,
 * 3527 > 2016 + 7.
 */
int kshape_free_high_reachable(int rule, int batch, int high_min, int scale)
{
	long cap;

	if (rule != FREE_HIGH_RULE_HIGH_MIN || batch <= 0 || high_min < 0 ||
	    scale < 0 || scale > PCPTOP_SCALE_MAX)
		return -EINVAL;
	cap = ((long)batch << scale) + (1 << PCPTOP_PAGE_ALLOC_COSTLY_ORDER) -
	      1;
	return (long)batch + high_min / 2 <= cap;
}
