// SPDX-License-Identifier: GPL-2.0-only
/*
 * The live view laid out as lines of plain text: header, table, histogram
 * pane, help. No curses here, so batch mode prints the very same frames;
 * top.c puts them on the terminal and turns TA_* into attributes.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "arrays.h"
#include "hist.h"
#include "probes.h"
#include "snapshot.h"
#include "top.h"

/* the table's first cell is the selection mark */
#define SEL_MARK_W 1
/* lines of the pane: title, the two histogram names, at least two slots */
#define PANE_HEAD_LINES 2
#define PANE_MIN_LINES (PANE_HEAD_LINES + 2)
#define PANE_MAX_LINES 14
/* below this many table rows the pane gives way */
#define TABLE_MIN_ROWS 3
/* a histogram column: "lo -> hi count |bar|" */
#define HIST_NUM_W 7
#define HIST_FIXED_W (HIST_NUM_W * 3 + 4 + 1 + 3)
#define HIST_COL_MAX_W 60
#define HIST_GAP 2
#define TIME_BUF 16
/* enough for the widest bar, HIST_COL_MAX_W - HIST_FIXED_W */
#define BAR_STARS "****************************************"

/* ---- header ---- */

#define PROBES_LEGEND_LONG "  ('~' estimated)"
#define PROBES_LEGEND_SHORT " (~=est)"
#define ZONELESS_NOTE "tracepoint events have no zone: see the all(tp) rows"

static const char *mode_short(enum probe_mode m)
{
	switch (m) {
	case MODE_TRACEPOINT:
		return "tp";
	case MODE_HEURISTIC:
		return "heur";
	default:
		return probe_mode_name(m);
	}
}

static const char *const pane_names[NR_PANES] = {
	[PANE_NONE] = "none",
	[PANE_BATCH] = "batch",
	[PANE_HOLD] = "hold",
	[PANE_SYSTEM] = "system",
};

static void draw_header(struct top_frame *f, const struct top_ctx *c,
			const struct top_view *v, const struct top_data *d)
{
	const struct facts *fa = c->facts;
	char buf[TOP_LINE_LEN], cost[TOP_MSG_LEN], when[TIME_BUF];
	size_t n = 0;
	int i;

	facts_scale_line(fa, buf, sizeof(buf));
	top_frame_add(f, TA_BOLD, "%s", buf);

	if (c->cost_off)
		snprintf(cost, sizeof(cost), "cost n/a (%s)", c->cost_off);
	else if (!d->cost.valid)
		snprintf(cost, sizeof(cost), "cost: -");
	else
		snprintf(cost, sizeof(cost),
			 "cost: %.0f ns/event, %.2f%% CPU (%.0fs in %.0fs)",
			 d->cost.ns_per_event, d->cost.cpu_pct, COST_ON_S,
			 COST_PERIOD_S);
	if (fa->pageblock_order < 0)
		top_frame_add(f, 0, "kernel %s %s  %s  pageblock order ?",
			      fa->release, fa->arch, cost);
	else
		top_frame_add(f, 0, "kernel %s %s  %s  pageblock order %d",
			      fa->release, fa->arch, cost, fa->pageblock_order);

	for (i = 0; i < fa->nr_probes && n < sizeof(buf); i++) {
		if (!facts_probe_listed(fa, i))
			continue;
		n += snprintf(buf + n, sizeof(buf) - n, " %s=%s%s",
			      fa->probes[i].name,
			      mode_short(fa->probes[i].mode),
			      fa->probes[i].estimated ? "~" : "");
	}
	top_frame_add(f, 0, "probes:%s%s", buf,
		      (int)(n + strlen(PROBES_LEGEND_LONG)) < f->cols ?
			      PROBES_LEGEND_LONG :
			      PROBES_LEGEND_SHORT);
	/* why tracepoints, as far as the first ':' of attach's note */
	if (top_has_zoneless(c) && fa->fallback[0])
		top_frame_add(f, 0, "%.*s; %s", (int)strcspn(fa->fallback, ":"),
			      fa->fallback, ZONELESS_NOTE);
	else if (top_has_zoneless(c))
		top_frame_add(f, 0, "%s", ZONELESS_NOTE);
	top_system_line(f, c, d);

	n = 0;
	if (v->paused)
		n += snprintf(buf + n, sizeof(buf) - n, "PAUSED  ");
	/* messages come first so a narrow screen still shows them */
	if (v->msg[0])
		n += snprintf(buf + n, sizeof(buf) - n, "%s  ", v->msg);
	strftime(when, sizeof(when), "%H:%M:%S", localtime(&d->when));
	if (d->secs > 0)
		n += snprintf(buf + n, sizeof(buf) - n, "%s %.2fs", when,
			      d->secs);
	else
		n += snprintf(buf + n, sizeof(buf) - n,
			      "collecting the first %.3gs", v->delay);
	n += snprintf(buf + n, sizeof(buf) - n, "  sort %s  zone %s  rows %s",
		      top_cols[v->sort_col].label,
		      v->zone_filter == ZF_ALL ?
			      "all" :
			      top_zone_label(c, v->zone_filter),
		      v->summed ? "summed" : "per-CPU");
	if (!v->batch)
		n += snprintf(buf + n, sizeof(buf) - n,
			      "  delay %.3gs  pane %s  h help", v->delay,
			      pane_names[v->pane]);
	if (d->snap->zi_err)
		n += snprintf(buf + n, sizeof(buf) - n, "  zoneinfo: %s",
			      strerror(-d->snap->zi_err));
	top_frame_add(f, 0, "%s", buf);
}

/* ---- table ---- */

/* how many leading columns fit in cols; CPU and ZONE always do */
static int cols_fitting(int cols)
{
	int x = SEL_MARK_W, i;

	for (i = 0; i < top_nr_cols; i++) {
		if (i > COL_ZONE && x + 1 + top_cols[i].width > cols)
			break;
		x += 1 + top_cols[i].width;
	}
	return i;
}

/* text at x in width, aligned; the sort mark goes in the space before */
static int put_cell(char *line, int x, int col, const char *text)
{
	const struct top_col_desc *cd = &top_cols[col];
	int len = (int)strlen(text);

	if (len > cd->width)
		len = cd->width;
	if (cd->align == ALIGN_LEFT)
		memcpy(line + x + 1, text, len);
	else
		memcpy(line + x + 1 + cd->width - len, text, len);
	return x + 1 + cd->width;
}

static void draw_table_header(struct top_frame *f, const struct top_view *v,
			      int ncols)
{
	char line[TOP_LINE_LEN];
	struct top_line *l;
	int x = SEL_MARK_W, col, mark_x = 0;

	memset(line, ' ', sizeof(line));
	for (col = 0; col < ncols; col++) {
		if (col == v->sort_col) {
			mark_x = x;
			line[x] = '*';
		}
		x = put_cell(line, x, col, top_cols[col].label);
	}
	line[x] = '\0';
	l = top_frame_add(f, TA_BOLD, "%s", line);
	if (l && v->sort_col < ncols) {
		l->span_at = mark_x;
		l->span_len = 1 + top_cols[v->sort_col].width;
		l->span_attr = TA_REVERSE | TA_BOLD;
	}
}

static void cell_text(const struct top_ctx *c, const struct top_row *r, int col,
		      char *buf)
{
	const struct top_col_desc *cd = &top_cols[col];
	double x = r->v[col];

	switch (cd->kind) {
	case TC_CPU:
		if (r->cpu == SNAP_ALL)
			snprintf(buf, TOP_NUM_LEN, "all");
		else
			snprintf(buf, TOP_NUM_LEN, "%d", r->cpu);
		return;
	case TC_ZONE:
		snprintf(buf, TOP_NUM_LEN, "%s", top_zone_label(c, r->zone));
		return;
	case TC_FIG:
		if (cd->fig->type != FIG_TIME || cd->stat == TS_EVENTS_RATE)
			break;
		/* "0ns" would read as a measured zero: there were no samples */
		if (x == 0)
			snprintf(buf, TOP_NUM_LEN, "0");
		else
			top_fmt_ns(buf, TOP_NUM_LEN, x);
		return;
	default:
		break;
	}
	top_fmt_num(buf, cd->width, x);
}

static void draw_row(struct top_frame *f, const struct top_ctx *c,
		     const struct top_row *r, int ncols, bool selected)
{
	char line[TOP_LINE_LEN], cell[TOP_NUM_LEN];
	int x = SEL_MARK_W, col;

	memset(line, ' ', sizeof(line));
	/* a mark as well as reverse video: capture-pane and logs see it */
	if (selected)
		line[0] = '>';
	for (col = 0; col < ncols; col++) {
		cell_text(c, r, col, cell);
		x = put_cell(line, x, col, cell);
	}
	line[x] = '\0';
	top_frame_add(f, selected ? TA_REVERSE : 0, "%s", line);
}

/* ---- histogram pane ---- */

/*
 * One histogram as n lines of exactly w characters. When its non-empty
 * range is taller than n, the lowest slots fold into the first line so
 * the tail, the part worth seeing, stays.
 */
static int hist_col(const struct figure_hist *fh, int w, int n,
		    char (*out)[TOP_LINE_LEN])
{
	int first, last, i, k, bar_w = w - HIST_FIXED_W;
	uint64_t top = 0, cnt;
	char lo[TOP_NUM_LEN], hi[TOP_NUM_LEN], num[TOP_NUM_LEN];
	bool folded = false;

	if (n <= 0)
		return 0;
	last = hist_last_slot(fh->slots, PCPTOP_HIST_SLOTS);
	if (last < 0) {
		snprintf(out[0], TOP_LINE_LEN, "%-*s", w, "  (no samples)");
		return 1;
	}
	for (first = 0; first < last && !fh->slots[first]; first++)
		;
	if (last - first + 1 > n) {
		first = last - n + 1;
		folded = true;
	}
	for (i = first; i <= last; i++) {
		cnt = i == first ? hist_total(fh->slots, first + 1) :
				   fh->slots[i];
		if (cnt > top)
			top = cnt;
	}
	for (i = first, k = 0; i <= last; i++, k++) {
		int stars;

		cnt = i == first ? hist_total(fh->slots, first + 1) :
				   fh->slots[i];
		stars = top && bar_w > 0 ?
				(int)((cnt * (uint64_t)bar_w + top - 1) / top) :
				0;
		top_fmt_num(lo, HIST_NUM_W,
			    (double)(i == first && folded ? 0 :
							    hist_slot_lo(i)));
		top_fmt_num(hi, HIST_NUM_W, (double)hist_slot_hi(i));
		top_fmt_num(num, HIST_NUM_W, (double)cnt);
		snprintf(out[k], TOP_LINE_LEN, "%*s -> %-*s %*s |%-*.*s|",
			 HIST_NUM_W, lo, HIST_NUM_W, hi, HIST_NUM_W, num,
			 bar_w > 0 ? bar_w : 0, stars, BAR_STARS);
	}
	return k;
}

static void draw_pane(struct top_frame *f, const struct top_ctx *c,
		      const struct top_view *v, const struct top_data *d,
		      int height)
{
	static char left[PCPTOP_HIST_SLOTS][TOP_LINE_LEN];
	static char right[PCPTOP_HIST_SLOTS][TOP_LINE_LEN];
	int h[2] = { -1, -1 }, k = 0;
	struct figures total;
	const struct figures *fig;
	char who[TOP_MSG_LEN];
	int w, n, nl, nr, i, two;

	if (v->pane == PANE_SYSTEM) {
		top_system_pane(f, c, v, d, height);
		return;
	}
	/* the pane's group: its first two histograms this run measures */
	for (i = 0; i < NR_PCPTOP_HISTS && k < 2; i++)
		if (hist_table[i].pane == v->pane &&
		    facts_hist_shown(c->facts, i))
			h[k++] = i;
	if (h[0] < 0)
		return;
	if (v->batch || !d->nr_rows) {
		figures_compute(d->snap, SNAP_ALL, SNAP_ALL, &total);
		fig = &total;
		snprintf(who, sizeof(who), "all CPUs and zones");
	} else {
		const struct top_row *r = &d->rows[v->sel];

		fig = &r->fig;
		if (r->cpu == SNAP_ALL)
			snprintf(who, sizeof(who), "all CPUs, %s",
				 top_zone_label(c, r->zone));
		else
			snprintf(who, sizeof(who), "CPU %d, %s", r->cpu,
				 top_zone_label(c, r->zone));
	}
	w = f->cols;
	two = h[1] >= 0 && w >= 2 * (HIST_FIXED_W + 1) + HIST_GAP;
	if (two)
		w = (w - HIST_GAP) / 2;
	if (w > HIST_COL_MAX_W)
		w = HIST_COL_MAX_W;
	n = height ? height - PANE_HEAD_LINES : PCPTOP_HIST_SLOTS;

	top_frame_add(f, TA_BOLD, "%s of %s%s",
		      v->pane == PANE_BATCH ?
			      "batch sizes (pages)" :
		      hist_table[h[0]].avail == AVAIL_TP ?
			      "event spans (ns)" :
			      "zone->lock hold and interrupts off (ns)",
		      who, v->batch ? "" : "   H/Tab: switch");
	top_frame_add(f, 0, "%-*s%*s%s", w, hist_table[h[0]].title,
		      two ? HIST_GAP : 0, "",
		      two ? hist_table[h[1]].title : "");
	nl = hist_col(&fig->hist[h[0]], w, n, left);
	nr = two ? hist_col(&fig->hist[h[1]], w, n, right) : 0;
	for (i = 0; i < nl || i < nr; i++)
		top_frame_add(f, 0, "%-*s%*s%s", w, i < nl ? left[i] : "",
			      two ? HIST_GAP : 0, "", i < nr ? right[i] : "");
}

int top_draw_main(struct top_frame *f, const struct top_ctx *c,
		  struct top_view *v, const struct top_data *d)
{
	int ncols = cols_fitting(f->cols);
	int room, table_h, pane_h = 0, i;

	draw_header(f, c, v, d);
	draw_table_header(f, v, ncols);
	if (!f->rows) {
		for (i = 0; i < d->nr_rows; i++)
			draw_row(f, c, &d->rows[i], ncols, false);
		top_frame_add(f, 0, "%s", "");
		draw_pane(f, c, v, d, 0);
		/* a text frame has room for the system pane as well */
		if (v->pane != PANE_SYSTEM &&
		    top_next_pane(c, PANE_HOLD) == PANE_SYSTEM) {
			top_frame_add(f, 0, "%s", "");
			top_system_pane(f, c, v, d, 0);
		}
		return f->oom ? -ENOMEM : 0;
	}

	room = f->rows - f->nr;
	if (room <= 0)
		return 0;
	table_h = d->nr_rows < room - PANE_MIN_LINES ? d->nr_rows :
						       room - PANE_MIN_LINES;
	if (table_h < TABLE_MIN_ROWS)
		table_h = d->nr_rows < room ? d->nr_rows : room;
	if (table_h < 1)
		table_h = 1;
	if (room - table_h >= PANE_MIN_LINES)
		pane_h = room - table_h < PANE_MAX_LINES ? room - table_h :
							   PANE_MAX_LINES;

	if (v->sel < v->scroll)
		v->scroll = v->sel;
	if (v->sel >= v->scroll + table_h)
		v->scroll = v->sel - table_h + 1;
	if (v->scroll > d->nr_rows - table_h)
		v->scroll = d->nr_rows - table_h;
	if (v->scroll < 0)
		v->scroll = 0;

	if (!d->nr_rows)
		top_frame_add(f, 0, "  (no pagesets and no events yet)");
	for (i = v->scroll; i < d->nr_rows && i < v->scroll + table_h; i++)
		draw_row(f, c, &d->rows[i], ncols, i == v->sel);
	if (!pane_h)
		return f->oom ? -ENOMEM : 0;
	/* the pane sits at the bottom so it does not move with the table */
	while (f->nr < f->rows - pane_h)
		top_frame_add(f, 0, "%s", "");
	draw_pane(f, c, v, d, pane_h);
	return f->oom ? -ENOMEM : 0;
}

/* ---- help ---- */

static const char *const help_keys[] = {
	"pcptop top: keys                                   any key returns",
	"  q            quit (Ctrl-C too)",
	"  h ?          this help",
	"  Up Down      select a row (PgUp PgDn Home End); the pane shows it",
	"  s >   <      sort by the next / previous column (marked '*')",
	"  z            zone filter: all, then each zone in turn",
	"  c            rows per CPU, or one per zone summed over CPUs",
	"  H Tab        pane: batch sizes, zone->lock times (spans in",
	"               tracepoint mode), or the system's sampled figures",
	"  space        pause the display; sampling goes on, resume shows",
	"               the latest interval",
	"  d            change the delay between refreshes (seconds)",
	"  Ctrl-L       redraw",
	"Columns, per second over the last interval unless said",
	"  COUNT HIGH BATCH  pcp->count, high, batch, read from /proc/zoneinfo",
};

static const char *const help_tail[] = {
	"  times: p99 and max; percentiles are log2 slot bounds ('at most')",
	"  '-': not measured on this row in this mode. all(tp): tracepoint",
	"  events carry no zone; its COUNT and HIGH are summed over zones.",
};

#define HELP_LABELS_W 17

/* a line per figure with columns in this run, from the figure table */
static void help_columns(struct top_frame *f)
{
	char labels[TOP_LINE_LEN];
	int i, n;

	for (i = 0; i < top_nr_cols; i++) {
		const struct fig_desc *d = top_cols[i].fig;

		if (top_cols[i].kind != TC_FIG ||
		    (i > 0 && top_cols[i - 1].fig == d))
			continue;
		for (n = 0, labels[0] = '\0';
		     i + n < top_nr_cols && top_cols[i + n].fig == d; n++)
			snprintf(labels + strlen(labels),
				 sizeof(labels) - strlen(labels), "%s%s",
				 n ? " " : "", top_cols[i + n].label);
		top_frame_add(f, 0, "  %-*s %s", HELP_LABELS_W, labels,
			      d->title);
	}
}

int top_draw_help(struct top_frame *f)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(help_keys); i++)
		top_frame_add(f, i ? 0 : TA_BOLD, "%s", help_keys[i]);
	help_columns(f);
	for (i = 0; i < ARRAY_SIZE(help_tail); i++)
		top_frame_add(f, 0, "%s", help_tail[i]);
	return f->oom ? -ENOMEM : 0;
}
