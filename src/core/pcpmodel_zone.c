// SPDX-License-Identifier: GPL-2.0-only
/*
 * The zone's free pages as a replay's lists leave them, and what the
 * kernel decides from them: ZONE_BELOW_HIGH (get_page_from_freelist()
 * and free_unref_page_commit(), 6.7+), kswapd's ZONE_RECLAIM_ACTIVE
 * (balance_pgdat()), direct reclaim and its drain_all_pages()
 * (__alloc_pages_direct_reclaim(), done in pcpmodel_reclaim.c, which
 * calls the policy: this file calls no other). Every model works these
 * out; only a
 * model given a reference (the replay at the recorded scale) uses them,
 * and only where its own and the reference's disagree: the record is the
 * truth at the recorded scale, and the scale moves a decision only where
 * the pages its lists hold more or fewer move the zone across a
 * watermark. Why the trace's flags alone fall short: under reclaim the
 * scale's own refills are what wake kswapd and enter direct reclaim
 * (docs/ACCURACY.md, "Reclaim"). The trace's reclaims' drains are
 * pcpmodel_reclaim.c's: a retry fails by a few pages of the kernel's
 * order-0 mark (with its boost and highatomic reserve), and the scale's
 * replay differs from its reference by far more; leaving drains out by
 * that difference missed the other scale's by 60 % and more, and by min
 * alone lost more drains than it spared on 256 MiB guests.
 */
#include <errno.h>

#include "pcpmodel_state.h"

/* the reference's view of the same zone, when both have free pages */
static const struct pcpm_wmark *ref_of(const struct pcpmodel *m,
				       const struct pcpm_zone *z)
{
	const struct pcpm_zone *rz;

	if (!m->ref || !z->w.have_free)
		return NULL;
	rz = &m->ref->zones[z - m->zones];
	return rz->w.have_free ? &rz->w : NULL;
}

static bool watermarks(const struct pcpm_zone *z)
{
	return z->w.have_free && (z->st.fields & PCPM_ZFIELD_WMARK);
}

static int64_t wmark(uint64_t v)
{
	return v > INT64_MAX ? INT64_MAX : (int64_t)v;
}

/* an order-n request needs 2^n - 1 pages beyond the mark */
static int64_t need_of(int order)
{
	return ((int64_t)1 << order) - 1;
}

/* pgdat_balanced(): kswapd goes back to sleep once the zone is over high */
static void kswapd_balanced(struct pcpm_zone *z)
{
	if (z->w.kswapd && z->w.free > wmark(z->st.wmark_high))
		z->w.kswapd = false;
}

void pcpm_zone_event(struct pcpmodel *m, unsigned int zone)
{
	struct pcpm_zone *z = &m->zones[zone];

	/* kswapd sets RECLAIM_ACTIVE once it runs: after its waker's event */
	if (z->w.kswapd_woken) {
		z->w.kswapd = true;
		z->w.kswapd_woken = false;
		kswapd_balanced(z);
	}
	z->w.direct = false;
}

void pcpm_zone_move(struct pcpmodel *m, unsigned int zone, int64_t pages)
{
	struct pcpm_zone *z = &m->zones[zone];

	z->w.free += pages;
	kswapd_balanced(z);
}

static int64_t pcp_pages(const struct pcpmodel *m, unsigned int zone)
{
	int64_t sum = 0;
	unsigned int cpu;

	for (cpu = 0; cpu < m->cfg.nr_cpus; cpu++)
		sum += m->pcps[(size_t)cpu * m->cfg.nr_zones + zone].count;
	return sum;
}

/*
 * get_page_from_freelist() for one allocation, before rmqueue(): under
 * the high watermark it sets BELOW_HIGH; failing low (ALLOC_WMARK_LOW),
 * the slow path wakes kswapd; failing min, it reclaims directly. An
 * order-n request needs 2^n - 1 pages beyond the mark (the free block of
 * that order is taken to exist); no highatomic or CMA reserve is known.
 * Whether this replay reclaims where its reference does not.
 */
bool pcpm_zone_alloc(struct pcpmodel *m, unsigned int zone, int order)
{
	struct pcpm_zone *z = &m->zones[zone];
	const struct pcpm_wmark *r;

	if (!watermarks(z))
		return false;
	if (z->w.free - need_of(order) <= wmark(z->st.wmark_high))
		z->w.below_high = true;
	if (z->w.free - need_of(order) <= wmark(z->st.wmark_low) &&
	    !z->w.kswapd)
		z->w.kswapd_woken = true;
	z->w.direct = pcpm_zone_under_min(m, zone, order);
	r = ref_of(m, z);
	return r && z->w.direct && !r->direct;
}

bool pcpm_zone_under_min(const struct pcpmodel *m, unsigned int zone, int order)
{
	const struct pcpm_zone *z = &m->zones[zone];

	return watermarks(z) &&
	       z->w.free - need_of(order) <= wmark(z->st.wmark_min);
}

void pcpm_zone_flushed(struct pcpmodel *m, unsigned int zone)
{
	struct pcpm_zone *z = &m->zones[zone];

	if (z->w.below_high && watermarks(z) &&
	    z->w.free > wmark(z->st.wmark_high))
		z->w.below_high = false;
}

/* free = NR_FREE_PAGES + the pcp count read with it - the model's count */
void pcpm_zone_read(struct pcpmodel *m, unsigned int zone, uint64_t t)
{
	struct pcpm_zone *z = &m->zones[zone];

	z->w.free = wmark(z->st.free_pages) - pcp_pages(m, zone);
	z->w.read_ns = t;
	z->w.have_free = true;
	kswapd_balanced(z);
}

/*
 * A pageset read at the watermark read's time is the recorder's read of
 * both (/proc/zoneinfo): its count adds to the zone's pages, less what
 * the read itself put on the model's lists (a seed)
 */
void pcpm_zone_snapshot(struct pcpmodel *m, unsigned int zone, uint64_t t,
			int32_t recorded, int32_t grown)
{
	struct pcpm_zone *z = &m->zones[zone];

	if (!z->w.have_free || t != z->w.read_ns)
		return;
	z->w.free += (int64_t)recorded - grown;
	kswapd_balanced(z);
}

/* the record's flag where both replays agree on it, else this one's */
bool pcpm_zone_below_high(const struct pcpmodel *m, const struct pcpm_zone *z)
{
	const struct pcpm_wmark *r = ref_of(m, z);

	if (!r || r->below_high == z->w.below_high)
		return z->st.below_high;
	return z->w.below_high;
}

/*
 * The record's kswapd stays: its reclaim is in the trace as frees, and
 * frees that kswapd made need kswapd awake. This replay adds the time
 * its own zone keeps kswapd awake where the reference's does not.
 */
bool pcpm_zone_reclaim_active(const struct pcpmodel *m,
			      const struct pcpm_zone *z)
{
	const struct pcpm_wmark *r = ref_of(m, z);

	return z->st.reclaim_active || (r && z->w.kswapd && !r->kswapd);
}

int pcpmodel_set_reference(struct pcpmodel *m, const struct pcpmodel *ref)
{
	if (ref && (ref == m || ref->cfg.nr_cpus != m->cfg.nr_cpus ||
		    ref->cfg.nr_zones != m->cfg.nr_zones))
		return -EINVAL;
	m->ref = ref;
	return 0;
}

int pcpmodel_zone_free(const struct pcpmodel *m, unsigned int zone,
		       int64_t *free)
{
	if (zone >= m->cfg.nr_zones)
		return -EINVAL;
	if (!m->zones[zone].w.have_free)
		return -ENODATA;
	*free = m->zones[zone].w.free;
	return 0;
}
