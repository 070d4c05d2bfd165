// SPDX-License-Identifier: GPL-2.0-only
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "arrays.h"
#include "explain.h"
#include "units.h"

#define NAME_LEN EXPLAIN_NAME_LEN
#define VALUE_LEN 48
#define NS_PER_US 1e3
#define NS_PER_MS 1e6
#define NS_PER_S 1e9
#define COMMAND_PREFIX "command."
/* below this a change shows two decimals: "+0.01 %", not "+0.0 %" */
#define PCT_FINE 0.1
/* from here a value shows no decimals: "3068526 pages" */
#define WHOLE_FROM 1000

/* what a metric's last part says, before its figure's name */
static const struct {
	const char *part, *words;
} parts[] = {
	{ "total", "" },
	{ "count", "" },
	{ "avg", "the average of " },
	{ "mean", "the mean of " },
	{ "max", "the largest of " },
	{ "peak", "the peak of " },
	{ "last", "at the end, " },
	{ "p50", "the median (a log2 bound) of " },
	{ "p99", "the 99th percentile (a log2 bound) of " },
	{ "pages_per_s", "the pages per second of " },
	{ "per_s", "the rate of " },
	{ "pages", "the pages of " },
	{ "calls", "the calls of " },
	{ "chunks", "" },
	{ "bulk_calls_per_flush", "the bulk calls per flush of " },
	{ "high_before_avg", "the average high before a decay of " },
	{ "high_after_avg", "the average high after a decay of " },
};

/* names of what is not a figtab row */
static const struct {
	const char *key, *name;
} names[] = {
	{ "command.wall_s", "the command's wall time" },
	{ "command.cpu_s", "the command's CPU time (user + system)" },
	{ "command.user_s", "the command's user time" },
	{ "command.sys_s", "the command's system time" },
	{ "zone_lock.pages", "pages moved through zone->lock" },
	{ "zone_lock.takes",
	  "zone->lock acquisitions (bulk frees and refills)" },
	{ "alloc_ns", "allocations' time" },
	{ "free_ns", "frees' time" },
	{ "alloc_ns.pcp", "allocations served from the pcp list" },
	{ "alloc_ns.refill", "allocations that refilled" },
	{ "free_ns.pcp", "frees without a flush" },
	{ "free_ns.flush", "frees that flushed" },
};

/* a figtab title up to its first aside: "free_high flushes (a ...)" */
static void short_title(char *buf, size_t len, const char *title)
{
	size_t n = strcspn(title, ":(,");

	while (n && title[n - 1] == ' ')
		n--;
	snprintf(buf, len, "%.*s", (int)n, title);
}

void explain_name(const struct cmp_metric *c, char *buf, size_t len)
{
	const char *key = c->m.key, *last = strrchr(key, '.');
	char fig[NAME_LEN], stem[NAME_LEN];
	const struct fig_desc *d;
	bool named;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(names[i].key, key)) {
			snprintf(buf, len, "%s", names[i].name);
			return;
		}
	}
	/* "alloc_ns.refill.mean": the part, then the stem's name */
	snprintf(stem, sizeof(stem), "%.*s",
		 last ? (int)(last - key) : (int)strlen(key), key);
	metric_figure(key, fig, sizeof(fig));
	d = fig_find(fig);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(names[i].key, stem))
			break;
	/* "alloc_ns.refill.calls": the calls are the allocations named */
	named = i < ARRAY_SIZE(names);
	if (named && last && !strcmp(last + 1, "calls")) {
		snprintf(buf, len, "%s", names[i].name);
		return;
	}
	if (named)
		snprintf(fig, sizeof(fig), "%s", names[i].name);
	else if (d)
		short_title(fig, sizeof(fig), d->title);
	for (i = 0; last && i < ARRAY_SIZE(parts); i++)
		if (!strcmp(parts[i].part, last + 1))
			break;
	if (!last)
		snprintf(buf, len, "%s", fig);
	else if (i < ARRAY_SIZE(parts))
		snprintf(buf, len, "%s%s", parts[i].words, fig);
	else
		snprintf(buf, len, "%s (%s)", fig, last + 1);
}

void explain_value(char *buf, size_t len, double v, const char *unit,
		   bool bound)
{
	const char *le = bound ? "<= " : "";
	double a = fabs(v);

	if (isnan(v))
		snprintf(buf, len, "-");
	else if (!strcmp(unit, "ns") && a >= NS_PER_S)
		snprintf(buf, len, "%s%.2f s", le, v / NS_PER_S);
	else if (!strcmp(unit, "ns") && a >= NS_PER_MS)
		snprintf(buf, len, "%s%.2f ms", le, v / NS_PER_MS);
	else if (!strcmp(unit, "ns") && a >= NS_PER_US)
		snprintf(buf, len, "%s%.1f us", le, v / NS_PER_US);
	else if (!strcmp(unit, "s"))
		snprintf(buf, len, "%s%.2f s", le, v);
	else if (v == (double)(long long)v || a >= WHOLE_FROM)
		snprintf(buf, len, "%s%.0f%s%s", le, v, unit[0] ? " " : "",
			 unit);
	else
		snprintf(buf, len, "%s%.1f%s%s", le, v, unit[0] ? " " : "",
			 unit);
}

/*
 * The figure a metric speaks for, one sentence each: its figtab row, but
 * each of the command's times on its own (system time and CPU time are
 * different answers to "did the run cost more")
 */
static void figure_of(const char *key, char *fig, size_t len)
{
	if (!strncmp(key, COMMAND_PREFIX, strlen(COMMAND_PREFIX)))
		snprintf(fig, len, "%s", key);
	else
		metric_figure(key, fig, len);
}

/*
 * whether moved metric rank[i] is the first in the ranking of its figure
 * and kind of cost
 */
bool explain_leads(const struct cmp_result *r, int i)
{
	char fig[NAME_LEN], other[NAME_LEN];
	int j;

	const char *key = r->m[r->rank[i]].m.key;
	/* a rate repeats its figure's total, whatever the total's cost */
	bool rate = strstr(key, "per_s") != NULL;

	figure_of(key, fig, sizeof(fig));
	for (j = 0; j < i; j++) {
		/* a figure's pages and its calls are two answers */
		if (!rate && r->m[r->rank[j]].m.cost != r->m[r->rank[i]].m.cost)
			continue;
		figure_of(r->m[r->rank[j]].m.key, other, sizeof(other));
		if (!strcmp(fig, other))
			return false;
	}
	return true;
}

int explain_leading(const struct cmp_result *r, int *idx, int max)
{
	int i, n = 0;

	for (i = 0; i < r->nr_moved && n < max; i++)
		if (explain_leads(r, i))
			idx[n++] = r->rank[i];
	return n;
}

void explain_add(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

static const char *spread_from(const struct cmp_result *r)
{
	return r->a.n > 1 || r->b.n > 1 ?
		       "the standard error between runs" :
		       "from the intervals of the one run a side";
}

/* a change in percent, or what stands for one: "+0.02 %", "new in B" */
static void pct_words(char *buf, size_t len, const struct cmp_metric *c,
		      const char *sep)
{
	double p = c->change_pct;

	if (isnan(p))
		return;
	if (isinf(p))
		explain_add(buf, len, "%snew in B", sep);
	else if (c->b == 0 && c->a)
		explain_add(buf, len, "%sgone in B", sep);
	else
		explain_add(buf, len,
			    fabs(p) < PCT_FINE ? "%s%+.2f %%" : "%s%+.1f %%",
			    sep, p);
}

/* "pages moved through zone->lock went from 8 012 to 12 873 (...)" */
static void sentence(char *buf, size_t len, const struct cmp_metric *c)
{
	char name[NAME_LEN], a[VALUE_LEN], b[VALUE_LEN], d[VALUE_LEN],
		s[VALUE_LEN];

	explain_name(c, name, sizeof(name));
	explain_value(a, sizeof(a), c->a, c->m.unit, c->m.bound);
	explain_value(b, sizeof(b), c->b, c->m.unit, c->m.bound);
	explain_value(d, sizeof(d), c->b - c->a, c->m.unit, false);
	explain_value(s, sizeof(s), c->spread, c->m.unit, false);
	explain_add(buf, len, "%s went from %s to %s (%s%s", name, a, b,
		    c->b > c->a ? "+" : "", d);
	pct_words(buf, len, c, ", ");
	explain_add(buf, len, "; spread %s)", s);
}

/* "Also moved: the largest of refills +3100.0 %; ..." */
static void also_moved(char *buf, size_t len, const struct cmp_metric *c,
		       bool first)
{
	char name[NAME_LEN];

	explain_name(c, name, sizeof(name));
	explain_add(buf, len, "%s%s", first ? " Also moved: " : "; ", name);
	pct_words(buf, len, c, " ");
}

/* a moved cost's direction: 1 when B paid more, -1 less, 0 not a cost */
static int cost_dir(const struct cmp_metric *c)
{
	if (c->m.cost > COST_EVENTS)
		return 0;
	return c->b > c->a ? 1 : -1;
}

/*
 * "B paid more than A in ...; less in ...": the trade-off, the moved
 * costs by direction. When they all went one way there is none to weigh,
 * and the list would only repeat the sentences.
 */
static void tradeoff(char *buf, size_t len, const struct cmp_result *r,
		     const int *idx, int n)
{
	int dir, i, k, nr[3] = { 0 };
	char name[NAME_LEN];

	for (i = 0; i < n; i++)
		nr[cost_dir(&r->m[idx[i]]) + 1]++;
	if (!nr[0] || !nr[2]) {
		if (nr[0] + nr[2] > 1)
			explain_add(
				buf, len,
				" B paid %s than A in every cost that moved.",
				nr[2] ? "more" : "less");
		else if (nr[0] + nr[2])
			explain_add(buf, len, " B paid %s than A there.",
				    nr[2] ? "more" : "less");
		return;
	}
	for (dir = 1; dir >= -1; dir -= 2) {
		for (i = 0, k = 0; i < n; i++) {
			const struct cmp_metric *c = &r->m[idx[i]];

			if (cost_dir(c) != dir)
				continue;
			explain_name(c, name, sizeof(name));
			explain_add(buf, len, "%s%s",
				    k++	    ? "; " :
				    dir > 0 ? " B paid more than A in: " :
					      " B paid less than A in: ",
				    name);
		}
		explain_add(buf, len, ".");
	}
}

/* whether a leading figure gets a sentence: the first few of each cost */
static void pick_sentences(const struct cmp_result *r, const int *all, int figs,
			   bool *full)
{
	int i, nr[COST_EVENTS + 1] = { 0 };

	for (i = 0; i < figs; i++) {
		enum metric_cost c = r->m[all[i]].m.cost;

		full[i] = c <= COST_EVENTS && nr[c]++ < EXPLAIN_PER_COST;
	}
}

void explain_paragraph(const struct cmp_result *r, char *buf, size_t len)
{
	int all[REC_MAX_METRICS], n = 0, i, k, figs, unknown = 0;
	bool full[REC_MAX_METRICS];

	buf[0] = '\0';
	figs = explain_leading(r, all, REC_MAX_METRICS);
	pick_sentences(r, all, figs, full);
	for (i = 0; i < figs; i++)
		n += full[i];
	for (i = 0; i < r->n; i++)
		unknown += r->m[i].from == SPREAD_UNKNOWN &&
			   !isnan(r->m[i].a) && !isnan(r->m[i].b) &&
			   r->m[i].a != r->m[i].b &&
			   r->m[i].m.cost != COST_NONE;
	explain_add(buf, len, "Over %d run%s of A and %d of B (spread: %s), ",
		    r->a.n, r->a.n == 1 ? "" : "s", r->b.n, spread_from(r));
	if (!figs) {
		explain_add(buf, len,
			    "nothing moved beyond %.0f times its spread.",
			    CMP_SPREADS);
	} else {
		explain_add(buf, len,
			    "%d figure%s moved beyond %.0f times %s spread",
			    figs, figs == 1 ? "" : "s", CMP_SPREADS,
			    figs == 1 ? "its" : "their");
		explain_add(buf, len, n > 1 ? ", costliest first: " : ": ");
		for (i = 0, k = 0; i < figs; i++) {
			if (!full[i])
				continue;
			if (k++)
				explain_add(buf, len, "; ");
			sentence(buf, len, &r->m[all[i]]);
		}
		if (n)
			explain_add(buf, len, ".");
		/* every moved figure is named: the others briefly */
		for (i = 0, k = 0; i < figs; i++)
			if (!full[i])
				also_moved(buf, len, &r->m[all[i]], !k++);
		if (k)
			explain_add(buf, len, ".");
		tradeoff(buf, len, r, all, figs);
	}
	if (unknown)
		explain_add(
			buf, len,
			" %d more value%s changed with no spread to weigh %s against (a side with one run, and no per-interval values): record each side at least twice.",
			unknown, unknown == 1 ? "" : "s",
			unknown == 1 ? "it" : "them");
}
