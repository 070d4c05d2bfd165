// SPDX-License-Identifier: GPL-2.0-only
/*
 * What a locked call costs: ns = ns_per_call * calls + ns_per_page *
 * pages fitted by least squares on measured calls, and the time the
 * replay's calls would take under that fit, in pcptop's log2 ns slots.
 * A zone->lock hold (and, on one CPU, the interrupts-off time) grows with
 * the pages moved: __free_one_page() or __rmqueue() per entry, plus the
 * lock and the call.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "hist.h"
#include "pcpmodel.h"

/*
 * det / (cc * pp) is the calls-weighted variance of pages per call over
 * its mean square: under about 3 % spread (1e-3) the observations cannot
 * tell a call's cost from its pages', and the fit is noise. A recording
 * whose second interval held the run's last 3 bulk frees (63 pages each,
 * beside 2526 of 63.9) fitted 6764 ns a call and 0 a page at r^2 1.0,
 * and priced scale 5's 2016-page frees as 8191 ns, 6 log2 buckets under
 * the real 524287 (what-if 0 -> 5, 6.12 guest, 2026-12-02); the same
 * run over one interval fell back to the histograms and held 3.
 */
#define FIT_APART_REL 1e-3
#define FIT_MIN_OBS 2

struct sums {
	double cc, cp, pp, cn, pn, n, nn;
};

static int sum_obs(const struct pcpmodel_cost_obs *obs, size_t nr,
		   struct sums *s)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < nr; i++) {
		double c = obs[i].calls, p = obs[i].pages, ns = obs[i].ns;

		if (!isfinite(c) || !isfinite(p) || !isfinite(ns))
			return -EINVAL;
		s->cc += c * c;
		s->cp += c * p;
		s->pp += p * p;
		s->cn += c * ns;
		s->pn += p * ns;
		s->n += ns;
		s->nn += ns * ns;
	}
	return 0;
}

/*
 * Minimise sum (ns_i - a * calls_i - b * pages_i)^2: with calls_i = 1
 * this is the line through (pages, ns) with intercept a.
 */
int pcpmodel_cost_fit(const struct pcpmodel_cost_obs *obs, size_t nr,
		      struct pcpmodel_cost_fit *fit)
{
	double det, a, b, ss_res = 0, ss_tot, mean;
	struct sums s;
	size_t i;
	int err;

	memset(fit, 0, sizeof(*fit));
	if (nr < FIT_MIN_OBS)
		return -EINVAL;
	err = sum_obs(obs, nr, &s);
	if (err)
		return err;
	det = s.cc * s.pp - s.cp * s.cp;
	if (!(fabs(det) > FIT_APART_REL * s.cc * s.pp))
		return -EDOM;
	a = (s.cn * s.pp - s.pn * s.cp) / det;
	b = (s.pn * s.cc - s.cn * s.cp) / det;
	/*
	 * No call costs less than nothing: the best fit with the negative
	 * coefficient held at 0 (non-negative least squares). Unheld, the
	 * bulk frees of an amd64 6.12 guest under TCG fitted -48340 ns a call
	 * + 524 ns a page, and priced every call of 63 pages at 0 ns.
	 */
	if (a < 0 && s.pp > 0) {
		a = 0;
		b = s.pn / s.pp;
	}
	if (b < 0 && s.cc > 0) {
		b = 0;
		a = s.cn / s.cc;
	}
	if (a < 0)
		a = 0;
	for (i = 0; i < nr; i++) {
		double r = obs[i].ns - a * obs[i].calls - b * obs[i].pages;

		ss_res += r * r;
	}
	mean = s.n / nr;
	ss_tot = s.nn - nr * mean * mean;
	fit->ns_per_call = a;
	fit->ns_per_page = b;
	fit->rms_residual_ns = sqrt(ss_res / nr);
	fit->r_squared = ss_tot > 0 ? 1.0 - ss_res / ss_tot : 1.0;
	fit->nr_obs = nr;
	return 0;
}

static void price(const struct pcpmodel_cost_fit *fit, uint64_t calls,
		  double pages, uint64_t slots[PCPTOP_HIST_SLOTS],
		  double *total_ns)
{
	double ns = fit->ns_per_call + fit->ns_per_page * pages;

	if (!calls)
		return;
	if (!(ns > 0))
		ns = 0;
	slots[hist_slot_of((uint64_t)llround(ns))] += calls;
	*total_ns += ns * calls;
}

void pcpmodel_cost_hist(const struct pcpmodel_call_sizes *sizes,
			const struct pcpmodel_cost_fit *fit,
			uint64_t slots[PCPTOP_HIST_SLOTS], double *total_ns)
{
	int i;

	memset(slots, 0, sizeof(uint64_t) * PCPTOP_HIST_SLOTS);
	*total_ns = 0;
	for (i = 0; i < PCPM_CALL_PAGES_EXACT; i++)
		price(fit, sizes->calls_of[i], i, slots, total_ns);
	for (i = 0; i < PCPTOP_HIST_SLOTS; i++)
		if (sizes->over_calls[i])
			price(fit, sizes->over_calls[i],
			      (double)sizes->over_pages[i] /
				      sizes->over_calls[i],
			      slots, total_ns);
}
