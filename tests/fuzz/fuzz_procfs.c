// SPDX-License-Identifier: GPL-2.0-only
/*
 * The /proc parsers, on whatever a kernel (or a hostile file put in
 * place of /proc for the tests' fixture trees) could hand them. The first
 * byte picks the parser: zoneinfo, pagetypeinfo, config (gzip or text),
 * cmdline, kallsyms. Seeds: tests/fixtures/trees.
 */
#include "fuzz_common.h"
#include "kallsyms.h"
#include "procfs.h"
#include "sampler.h"

enum { P_ZONEINFO, P_PAGETYPEINFO, P_CONFIG, P_CMDLINE, P_KALLSYMS, NR_P };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const syms[] = { "free_pcppages_bulk",
					    "pcp_batch_scale_max",
					    "rmqueue_bulk" };
	unsigned long long addrs[3];
	const char *path;
	struct zoneinfo zi;
	int64_t zv[SAMPLE_ZONES];
	bool zhave[SAMPLE_ZONES];
	char val[256];
	int a, b;

	if (!size)
		return 0;
	path = fuzz_file(data + 1, size - 1);
	if (!path)
		return 0;
	switch (data[0] % NR_P) {
	case P_ZONEINFO:
		if (!zoneinfo_parse(path, &zi)) {
			sample_zone_values(&zi, "pcp.count", zv, zhave);
			sample_zone_values(&zi, "pages_free", zv, zhave);
			zoneinfo_find(&zi, 0, "Normal");
			zoneinfo_free(&zi);
		}
		break;
	case P_PAGETYPEINFO:
		pagetypeinfo_parse(path, &a, &b);
		break;
	case P_CONFIG:
		kconfig_lookup(path, "CONFIG_PCP_BATCH_SCALE_MAX", val,
			       sizeof(val));
		break;
	case P_CMDLINE:
		cmdline_lookup(path, "pcp_batch_scale_max", val, sizeof(val));
		break;
	case P_KALLSYMS:
		kallsyms_forget();
		kallsyms_lookup_many(path, syms, 3, addrs);
		break;
	}
	return 0;
}
