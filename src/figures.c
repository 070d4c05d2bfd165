// SPDX-License-Identifier: GPL-2.0-only
#include <string.h>
#include "figures.h"
#include "hist.h"
#include "snapshot.h"

static const struct {
	const char *key;
	const char *title;
	const char *unit;
} hist_desc[NR_PCPTOP_HISTS] = {
	[HIST_BULK_FREE_PAGES] = { "bulk_free_pages", "bulk free size", "pages" },
	[HIST_REFILL_PAGES] = { "refill_pages", "refill size", "pages" },
	[HIST_LOCK_NS] = { "lock_ns", "zone->lock, bulk free", "nsecs" },
	[HIST_REFILL_NS] = { "refill_lock_ns", "zone->lock, refill", "nsecs" },
	[HIST_FREE_HIGH_PAGES] = { "free_high_pages", "free_high flush size", "pages" },
	[HIST_DECAY_PAGES] = { "decay_pages", "decay drain size", "pages" },
	[HIST_DRAIN_PAGES] = { "drain_pages", "drain chunk size", "pages" },
};

void figures_compute(const struct snapshot *s, int cpu, int zone,
		     struct figures *f)
{
	int i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
		f->cnt[i] = snap_counter(s, cpu, zone, i);
	for (i = 0; i < NR_PCPTOP_HISTS; i++) {
		snap_hist(s, cpu, zone, i, f->hist[i].slots, &f->hist[i].max);
		f->hist[i].samples = hist_total(f->hist[i].slots,
						PCPTOP_HIST_SLOTS);
	}
}

double figures_ratio(uint64_t num, uint64_t den)
{
	return den ? (double)num / (double)den : 0.0;
}

const char *figures_hist_key(int hist)
{
	return hist_desc[hist].key;
}

const char *figures_hist_title(int hist)
{
	return hist_desc[hist].title;
}

const char *figures_hist_unit(int hist)
{
	return hist_desc[hist].unit;
}
