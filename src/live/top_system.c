// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sampled figures in the live view, placed by their figtab row: a
 * LIVE_HEADER figure is a word on the header's system line, a LIVE_PANE
 * figure a line of the system pane, zone by zone. Machine-wide figures
 * have no CPU or zone row of the table to go to; neither have the BPF
 * figures of the whole machine placed there (splits, stalls), which the
 * pane shows over every CPU and zone.
 */
#include <string.h>
#include "budget_text.h"
#include "figures.h"
#include "units.h"
#include "samples.h"
#include "top.h"

#define SYS_KEY_W 24
#define SYS_VAL_W 9
/* "  Normal 1.2M": a zone's share of a pane line */
#define SYS_ZONE_W 8

static bool placed(const struct top_ctx *c, const struct fig_desc *d,
		   enum live_place where)
{
	bool bpf_row = d->type == FIG_SPLIT || d->type == FIG_TIME;

	/* a BPF figure has a pane line, never a word on the header */
	return (d->type == FIG_SAMPLED || (bpf_row && where == LIVE_PANE)) &&
	       d->live == where && facts_fig_shown(c->facts, d);
}

static bool any_placed(const struct top_ctx *c, enum live_place where)
{
	int i;

	for (i = 0; i < nr_figs; i++)
		if (placed(c, &fig_table[i], where))
			return true;
	return false;
}

/* a cell's value for this interval, or "-" before the first */
static void value_text(char *buf, int width, const struct top_data *d,
		       const struct fig_desc *fd, int cell)
{
	const struct sample_cell *sc = samples_cell(&d->snap->smp, fd, cell);

	if (d->secs <= 0 || !sample_present(sc))
		top_fmt_num(buf, width, TOP_NA);
	else
		top_fmt_num(buf, width, (double)sample_value(fd, sc));
}

/*
 * The interval's wall-time budget a second, first on the system line:
 * "busy 7% iowait 88% throttled 34% stalled 0%" of the CPUs' time
 */
static size_t budget_words(char *buf, size_t len, const struct top_ctx *c,
			   const struct top_data *d)
{
	static struct figures all;
	struct time_budget b;

	if (d->secs <= 0)
		return 0;
	figures_compute(d->snap, SNAP_ALL, SNAP_ALL, &all);
	budget_compute(c->facts, &all, &d->snap->smp, d->secs, &b);
	if (!b.have_cpu)
		return 0;
	text_budget_line(buf, len, &b);
	return strlen(buf);
}

void top_system_line(struct top_frame *f, const struct top_ctx *c,
		     const struct top_data *d)
{
	char buf[TOP_LINE_LEN], num[TOP_NUM_LEN];
	size_t n = 0;
	int i;

	if (!any_placed(c, LIVE_HEADER))
		return;
	n = budget_words(buf, sizeof(buf), c, d);
	for (i = 0; i < nr_figs && n < sizeof(buf); i++) {
		const struct fig_desc *fd = &fig_table[i];

		if (!placed(c, fd, LIVE_HEADER))
			continue;
		value_text(num, SYS_VAL_W, d, fd, 0);
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s %s",
			      n ? "  " : "", fd->key, num);
	}
	top_frame_add(f, 0, "system: %s", buf);
}

static bool pane_shown(const struct top_ctx *c, enum hist_pane p)
{
	int i;

	if (p == PANE_SYSTEM)
		return any_placed(c, LIVE_PANE);
	for (i = 0; i < NR_PCPTOP_HISTS; i++)
		if (hist_table[i].pane == p && facts_hist_shown(c->facts, i))
			return true;
	return false;
}

enum hist_pane top_next_pane(const struct top_ctx *c, enum hist_pane p)
{
	int i, next = p;

	for (i = 0; i < NR_PANES; i++) {
		next = next + 1 < NR_PANES ? next + 1 : PANE_BATCH;
		if (pane_shown(c, next))
			return next;
	}
	return p;
}

/* "pcp_pages  60568 pages  DMA 0  DMA32 0  Normal 60568" */
static void pane_line(struct top_frame *f, const struct top_ctx *c,
		      const struct top_data *d, const struct fig_desc *fd)
{
	char buf[TOP_LINE_LEN], num[TOP_NUM_LEN], name[BLOCK_NAME_LEN];
	int n, z;

	value_text(num, SYS_VAL_W, d, fd, 0);
	n = snprintf(buf, sizeof(buf), "  %-*s %*s %-5s", SYS_KEY_W, fd->key,
		     SYS_VAL_W, num, fd->sample.unit);
	for (z = 0; z < sample_instances(fd->sample.scope); z++) {
		if (!sample_present(samples_cell(&d->snap->smp, fd,
						 sample_zone_cell(z))) ||
		    n >= (int)sizeof(buf))
			continue;
		value_text(num, SYS_ZONE_W, d, fd, sample_zone_cell(z));
		if (fd->sample.scope == SCOPE_CPU ||
		    fd->sample.scope == SCOPE_DEV)
			facts_instance_name(c->facts, fd->sample.scope, z, name,
					    sizeof(name));
		else
			snprintf(name, sizeof(name), "%s",
				 top_zone_label(c, z));
		n += snprintf(buf + n, sizeof(buf) - n, "  %s %s", name, num);
	}
	top_frame_add(f, 0, "%s", buf);
}

/*
 * "bulk_free_by_order  1234 pages  0 1000  1 0 ..." or
 * "reclaim_stall_ns  17 times  p99 <= 1.0ms  max 7.5ms": the interval,
 * every CPU and zone
 */
static void bpf_pane_line(struct top_frame *f, const struct top_data *d,
			  const struct fig_desc *fd, const struct figures *all)
{
	char buf[TOP_LINE_LEN], num[TOP_NUM_LEN], ns[TOP_NUM_LEN];
	int n, k;

	if (fd->type == FIG_TIME) {
		top_fmt_num(num, SYS_VAL_W,
			    d->secs > 0 ? (double)all->hist[fd->hist].samples :
					  TOP_NA);
		n = snprintf(buf, sizeof(buf), "  %-*s %*s %-5s", SYS_KEY_W,
			     fd->key, SYS_VAL_W, num, "times");
		top_fmt_ns(ns, sizeof(ns),
			   (double)fig_pct_capped(fd, all, PCT_TAIL));
		n += snprintf(buf + n, sizeof(buf) - n, "  p99 <= %s", ns);
		top_fmt_ns(ns, sizeof(ns), (double)fig_max(fd, all));
		snprintf(buf + n, sizeof(buf) - n, "  max %s", ns);
		top_frame_add(f, 0, "%s", buf);
		return;
	}
	top_fmt_num(num, SYS_VAL_W,
		    d->secs > 0 ? (double)fig_split_total(fd, all) : TOP_NA);
	n = snprintf(buf, sizeof(buf), "  %-*s %*s %-5s", SYS_KEY_W, fd->key,
		     SYS_VAL_W, num, fd->unit);
	for (k = 0; k < fig_nr_parts(fd) && n < (int)sizeof(buf); k++) {
		top_fmt_num(num, SYS_ZONE_W,
			    d->secs > 0 ? (double)fig_part(fd, k, all) :
					  TOP_NA);
		n += snprintf(buf + n, sizeof(buf) - n, "  %s %s",
			      fd->parts[k].key, num);
	}
	top_frame_add(f, 0, "%s", buf);
}

void top_system_pane(struct top_frame *f, const struct top_ctx *c,
		     const struct top_view *v, const struct top_data *d,
		     int height)
{
	/* large, and one pane is drawn at a time */
	static struct figures all;
	int i, lines = 1;

	figures_compute(d->snap, SNAP_ALL, SNAP_ALL, &all);
	top_frame_add(f, TA_BOLD, "system, sampled each interval (%s)%s",
		      "counters: the interval's increase; levels: at its end",
		      v->batch ? "" : "   H/Tab: switch");
	for (i = 0; i < nr_figs && (!height || lines < height); i++) {
		const struct fig_desc *fd = &fig_table[i];

		if (!placed(c, fd, LIVE_PANE))
			continue;
		if (fd->type == FIG_SAMPLED)
			pane_line(f, c, d, fd);
		else
			bpf_pane_line(f, d, fd, &all);
		lines++;
	}
}
