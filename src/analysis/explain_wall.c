// SPDX-License-Identifier: GPL-2.0-only
/*
 * The words diff opens with: what happened to elapsed time, and its
 * largest measured part, in one sentence; then the wall-time budget's
 * parts that moved beyond their spread, costliest first, how the waiting
 * time split, and the named waits inside those parts that moved. Every
 * number is a metric of cmp_result (budget_run.h's, the command's time,
 * the block figures); a part that did not move is not named as moved.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "arrays.h"
#include "budget_run.h"
#include "explain.h"

#define PERCENT 100.0
/* the budget's parts that add up: each second of CPU time is in one */
static const int disjoint[] = {
	BM_USER,       BM_SYSTEM,     BM_IRQ,	    BM_STEAL,
	BM_WAIT_DIRTY, BM_WAIT_BLOCK, BM_WAIT_IDLE, BM_WAIT_NONE,
};
/* without the idle split, the waiting time's own parts */
static const int disjoint_unsplit[] = {
	BM_USER, BM_SYSTEM, BM_IRQ, BM_STEAL, BM_IOWAIT, BM_IDLE,
};
/* task and device time inside the parts */
static const int inside[] = {
	BM_DIRTY_SLEEP,
	BM_THROTTLE,
	BM_STALLS,
	BM_BLOCK_BUSY,
};

static const struct cmp_metric *metric(const struct cmp_result *r,
				       const char *key)
{
	int k = cmp_find(r, key);

	return k >= 0 && !isnan(r->m[k].a) && !isnan(r->m[k].b) ? &r->m[k] :
								  NULL;
}

/* the elapsed time both sides have: the command's, else the recording's */
static const struct cmp_metric *elapsed_of(const struct cmp_result *r)
{
	const struct cmp_metric *c = metric(r, "command.wall_s");

	return c ? c : metric(r, "recorded_s");
}

static void secs(char *buf, size_t len, double v)
{
	explain_value(buf, len, v, "s", false);
}

/* "+240.20 s, +40.0 %" */
static void change(char *buf, size_t len, const struct cmp_metric *c)
{
	char d[48];

	secs(d, sizeof(d), c->b - c->a);
	snprintf(buf, len, "%s%s", c->b > c->a ? "+" : "", d);
	if (c->a)
		snprintf(buf + strlen(buf), len - strlen(buf), ", %+.1f %%",
			 (c->b - c->a) / fabs(c->a) * PERCENT);
}

static bool split_of(const struct cmp_result *r)
{
	return metric(r, budget_metric_key(BM_WAIT_NONE)) != NULL;
}

/* the moved disjoint part with the largest change, or NULL */
static const struct cmp_metric *largest_part(const struct cmp_result *r,
					     int *which)
{
	const int *parts = split_of(r) ? disjoint : disjoint_unsplit;
	int n = split_of(r) ? (int)ARRAY_SIZE(disjoint) :
			      (int)ARRAY_SIZE(disjoint_unsplit);
	const struct cmp_metric *best = NULL, *c;
	int i;

	for (i = 0; i < n; i++) {
		c = metric(r, budget_metric_key(parts[i]));
		if (!c || !c->moved)
			continue;
		if (!best || fabs(c->b - c->a) > fabs(best->b - best->a)) {
			best = c;
			*which = parts[i];
		}
	}
	return best;
}

/* CPU seconds of how many CPUs: the parts' unit on SMP */
static double cpus_of(const struct cmp_result *r)
{
	const struct cmp_metric *c = metric(r, "cpus_online.mean");

	return c ? c->b : 0;
}

void explain_headline(const struct cmp_result *r, char *buf, size_t len)
{
	const struct cmp_metric *e = elapsed_of(r), *p;
	char a[48], b[48], ch[64], sp[48];
	int which = -1;

	buf[0] = '\0';
	if (!e) {
		explain_add(buf, len,
			    "Elapsed time: neither side has one to compare.");
		return;
	}
	secs(a, sizeof(a), e->a);
	secs(b, sizeof(b), e->b);
	change(ch, sizeof(ch), e);
	if (isnan(e->spread)) {
		explain_add(
			buf, len,
			"Elapsed time went from %s to %s (%s), with no spread to weigh it against (one run a side: record each at least twice)",
			a, b, ch);
	} else if (!e->moved) {
		secs(sp, sizeof(sp), e->spread);
		explain_add(
			buf, len,
			"Elapsed time did not move beyond %.0f times its spread: %s against %s (%s; spread %s)",
			CMP_SPREADS, a, b, ch, sp);
	} else {
		secs(sp, sizeof(sp), e->spread);
		explain_add(buf, len,
			    "Elapsed time went from %s to %s (%s; spread %s)",
			    a, b, ch, sp);
	}
	p = largest_part(r, &which);
	if (p) {
		change(ch, sizeof(ch), p);
		explain_add(buf, len,
			    "; its largest measured part that moved: %s, %s",
			    budget_metric_name(which), ch);
		if (cpus_of(r) > 1)
			explain_add(buf, len, " (CPU seconds of %.0f CPUs)",
				    cpus_of(r));
	} else if (metric(r, budget_metric_key(BM_BUSY))) {
		explain_add(buf, len, "; none of its measured parts moved");
	}
	explain_add(buf, len, ".");
}

/* " CPU busy +1.20 s (spread 0.10 s); ..." for each moved part of list */
static int moved_list(char *buf, size_t len, const struct cmp_result *r,
		      const int *list, int n, const char *lead)
{
	const struct cmp_metric *c[NR_BUDGET_METRICS];
	int idx[NR_BUDGET_METRICS], i, j, m = 0;
	char ch[64], sp[48];

	for (i = 0; i < n; i++) {
		const struct cmp_metric *x =
			metric(r, budget_metric_key(list[i]));

		if (!x || !x->moved)
			continue;
		/* costliest first: by the size of the change */
		for (j = m; j > 0 &&
			    fabs(c[j - 1]->b - c[j - 1]->a) < fabs(x->b - x->a);
		     j--) {
			c[j] = c[j - 1];
			idx[j] = idx[j - 1];
		}
		c[j] = x;
		idx[j] = list[i];
		m++;
	}
	for (i = 0; i < m; i++) {
		change(ch, sizeof(ch), c[i]);
		secs(sp, sizeof(sp), c[i]->spread);
		explain_add(buf, len, "%s%s %s (spread %s)", i ? "; " : lead,
			    budget_metric_name(idx[i]), ch, sp);
	}
	if (m)
		explain_add(buf, len, ".");
	return m;
}

/*
 * "of B's waiting, ... iowait on nothing pcptop names 3.10 s (2.1 % of
 * elapsed)", side B: the rest is what a reader should look at next
 */
static void waiting_split(char *buf, size_t len, const struct cmp_result *r)
{
	const struct cmp_metric *w = metric(r, budget_metric_key(BM_WAITING));
	const struct cmp_metric *d =
		metric(r, budget_metric_key(BM_WAIT_DIRTY));
	const struct cmp_metric *k =
		metric(r, budget_metric_key(BM_WAIT_BLOCK));
	const struct cmp_metric *i = metric(r, budget_metric_key(BM_WAIT_IDLE));
	const struct cmp_metric *n = metric(r, budget_metric_key(BM_WAIT_NONE));
	const struct cmp_metric *e = elapsed_of(r);
	char vw[48], vd[48], vk[48], vi[48], vn[48], va[48];

	if (!w || !d || !k || !i || !n)
		return;
	secs(vw, sizeof(vw), w->b);
	secs(vd, sizeof(vd), d->b);
	secs(vk, sizeof(vk), k->b);
	secs(vi, sizeof(vi), i->b);
	secs(vn, sizeof(vn), n->b);
	secs(va, sizeof(va), n->a);
	explain_add(
		buf, len,
		" Of B's %s of waiting (iowait and idle), a writer throttled on dirty pages covered %s, a block request in flight %s, no task waiting on I/O (idle) %s, and iowait on nothing pcptop names %s",
		vw, vd, vk, vi, vn);
	/* CPU seconds: of elapsed x CPUs */
	if (e && e->b > 0)
		explain_add(buf, len, " (%.1f %% of elapsed%s; A: %s)",
			    n->b / (e->b * (cpus_of(r) > 1 ? cpus_of(r) : 1)) *
				    PERCENT,
			    cpus_of(r) > 1 ? " x CPUs" : "", va);
	explain_add(buf, len, ".");
}

/* "block write requests went from 12000 to 18000" */
static void block_words(char *buf, size_t len, const struct cmp_result *r)
{
	static const struct {
		const char *key, *name, *unit;
	} keys[] = {
		{ "blk_read.requests", "read requests", "" },
		{ "blk_write.requests", "write requests", "" },
		{ "blk_read.avg", "a read request's average size", "sectors" },
		{ "blk_write.avg", "a write request's average size",
		  "sectors" },
		{ "blk_read_ns.total", "read requests' time in flight", "ns" },
		{ "blk_write_ns.total", "write requests' time in flight",
		  "ns" },
	};
	const struct cmp_metric *c;
	char a[48], b[48];
	size_t i;
	int n = 0;

	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		c = metric(r, keys[i].key);
		if (!c || !c->moved)
			continue;
		explain_value(a, sizeof(a), c->a, keys[i].unit, false);
		explain_value(b, sizeof(b), c->b, keys[i].unit, false);
		explain_add(buf, len, "%s%s went from %s to %s",
			    n++ ? "; " : " Block I/O moved: ", keys[i].name, a,
			    b);
	}
	if (n)
		explain_add(buf, len, ".");
}

void explain_wall(const struct cmp_result *r, char *buf, size_t len)
{
	explain_headline(r, buf, len);
	if (!metric(r, budget_metric_key(BM_BUSY)))
		return;
	moved_list(buf, len, r, split_of(r) ? disjoint : disjoint_unsplit,
		   split_of(r) ? (int)ARRAY_SIZE(disjoint) :
				 (int)ARRAY_SIZE(disjoint_unsplit),
		   " Parts that moved beyond their spread, largest first: ");
	waiting_split(buf, len, r);
	moved_list(
		buf, len, r, inside, (int)ARRAY_SIZE(inside),
		" Inside those parts (task or device time, overlapping them), moved: ");
	block_words(buf, len, r);
}
