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
#include "hist.h"
#include "probes.h"
#include "snapshot.h"
#include "top.h"

#define FRAME_LINES_START 64
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
#define NUM_BUF 32
#define TIME_BUF 16
#define KILO 1000.0
#define NS_PER_US 1e3
#define NS_PER_MS 1e6
#define NS_PER_S 1e9
#define ONE_DECIMAL_BELOW 10.0
/* enough for the widest bar, HIST_COL_MAX_W - HIST_FIXED_W */
#define BAR_STARS "****************************************"

/* ---- frames ---- */

int top_frame_init(struct top_frame *f, int cols, int rows)
{
	memset(f, 0, sizeof(*f));
	f->lines = calloc(FRAME_LINES_START, sizeof(*f->lines));
	if (!f->lines)
		return -ENOMEM;
	f->cap = FRAME_LINES_START;
	top_frame_reset(f, cols, rows);
	return 0;
}

void top_frame_free(struct top_frame *f)
{
	free(f->lines);
	f->lines = NULL;
	f->cap = 0;
}

void top_frame_reset(struct top_frame *f, int cols, int rows)
{
	f->nr = 0;
	f->oom = false;
	f->cols = cols < TOP_LINE_LEN ? cols : TOP_LINE_LEN - 1;
	f->rows = rows;
}

static bool frame_full(const struct top_frame *f)
{
	return f->rows && f->nr >= f->rows;
}

/* a new line, cut to the frame's width; NULL when the screen is full */
static struct top_line *frame_add(struct top_frame *f, unsigned int attr,
				  const char *fmt, ...)
{
	struct top_line *l;
	va_list ap;

	if (frame_full(f) || f->cols <= 0)
		return NULL;
	if (f->nr == f->cap) {
		struct top_line *n = realloc(f->lines, 2 * f->cap * sizeof(*n));

		if (!n) {
			f->oom = true;
			return NULL;
		}
		f->lines = n;
		f->cap *= 2;
	}
	l = &f->lines[f->nr++];
	memset(l, 0, sizeof(*l));
	l->attr = attr;
	va_start(ap, fmt);
	vsnprintf(l->text, (size_t)f->cols + 1, fmt, ap);
	va_end(ap);
	return l;
}

void top_frame_print(const struct top_frame *f, FILE *out)
{
	int i;

	for (i = 0; i < f->nr; i++) {
		const char *t = f->lines[i].text;
		int n = (int)strlen(t);

		while (n > 0 && t[n - 1] == ' ')
			n--;
		fprintf(out, "%.*s\n", n, t);
	}
}

/* ---- numbers ---- */

void top_fmt_num(char *buf, int width, double v)
{
	static const char suffix[] = "kMGT";
	double scaled = v;
	int i;

	if (v < 0) {
		snprintf(buf, NUM_BUF, "-");
		return;
	}
	if (v < ONE_DECIMAL_BELOW && v != (double)(long long)v) {
		snprintf(buf, NUM_BUF, "%.1f", v);
		return;
	}
	if (snprintf(buf, NUM_BUF, "%.0f", v) <= width)
		return;
	for (i = 0; suffix[i]; i++) {
		scaled /= KILO;
		if (scaled < ONE_DECIMAL_BELOW &&
		    snprintf(buf, NUM_BUF, "%.1f%c", scaled, suffix[i]) <=
			    width)
			return;
		if (snprintf(buf, NUM_BUF, "%.0f%c", scaled, suffix[i]) <=
		    width)
			return;
	}
}

void top_fmt_ns(char *buf, size_t len, double ns)
{
	if (ns < 0)
		snprintf(buf, len, "-");
	else if (ns < NS_PER_US)
		snprintf(buf, len, "%.0fns", ns);
	else if (ns < ONE_DECIMAL_BELOW * NS_PER_US)
		snprintf(buf, len, "%.1fus", ns / NS_PER_US);
	else if (ns < NS_PER_MS)
		snprintf(buf, len, "%.0fus", ns / NS_PER_US);
	else if (ns < ONE_DECIMAL_BELOW * NS_PER_MS)
		snprintf(buf, len, "%.1fms", ns / NS_PER_MS);
	else if (ns < NS_PER_S)
		snprintf(buf, len, "%.0fms", ns / NS_PER_MS);
	else
		snprintf(buf, len, "%.1fs", ns / NS_PER_S);
}

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

static void draw_header(struct top_frame *f, const struct top_ctx *c,
			const struct top_view *v, const struct top_data *d)
{
	const struct facts *fa = c->facts;
	char buf[TOP_LINE_LEN], cost[TOP_MSG_LEN], when[TIME_BUF];
	size_t n = 0;
	int i;

	facts_scale_line(fa, buf, sizeof(buf));
	frame_add(f, TA_BOLD, "%s", buf);

	if (c->cost_off)
		snprintf(cost, sizeof(cost), "cost n/a (%s)", c->cost_off);
	else if (!d->cost.valid)
		snprintf(cost, sizeof(cost), "cost: -");
	else
		snprintf(cost, sizeof(cost),
			 "cost: %.0f ns/event, %.2f%% CPU (%.0fs in %.0fs)",
			 d->cost.ns_per_event, d->cost.cpu_pct, COST_ON_S,
			 COST_PERIOD_S);
	if (d->snap && d->secs > 0) {
		struct figures all;
		size_t len = strlen(cost);

		/* events the kernel did not let a probe see: say it loudly */
		figures_compute(d->snap, SNAP_ALL, SNAP_ALL, &all);
		if (all.cnt[CNT_RECURSION_MISSES])
			snprintf(cost + len, sizeof(cost) - len,
				 ", %llu probe runs skipped",
				 (unsigned long long)
					 all.cnt[CNT_RECURSION_MISSES]);
	}
	if (fa->pageblock_order < 0)
		frame_add(f, 0, "kernel %s %s  %s  pageblock order ?",
			  fa->release, fa->arch, cost);
	else
		frame_add(f, 0, "kernel %s %s  %s  pageblock order %d",
			  fa->release, fa->arch, cost, fa->pageblock_order);

	for (i = 0; i < fa->nr_probes && n < sizeof(buf); i++) {
		if (!facts_probe_listed(fa, i))
			continue;
		n += snprintf(buf + n, sizeof(buf) - n, " %s=%s%s",
			      fa->probes[i].name,
			      mode_short(fa->probes[i].mode),
			      fa->probes[i].estimated ? "~" : "");
	}
	frame_add(f, 0, "probes:%s%s", buf,
		  (int)(n + strlen(PROBES_LEGEND_LONG)) < f->cols ?
			  PROBES_LEGEND_LONG :
			  PROBES_LEGEND_SHORT);
	/* why tracepoints, as far as the first ':' of attach's note */
	if (top_has_zoneless(c) && fa->fallback[0])
		frame_add(f, 0, "%.*s; %s", (int)strcspn(fa->fallback, ":"),
			  fa->fallback, ZONELESS_NOTE);
	else if (top_has_zoneless(c))
		frame_add(f, 0, "%s", ZONELESS_NOTE);

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
			      "  delay %.3gs  hist %s  h help", v->delay,
			      v->pane == PANE_BATCH ? "batch" : "hold");
	if (d->zi_err)
		n += snprintf(buf + n, sizeof(buf) - n, "  zoneinfo: %s",
			      strerror(-d->zi_err));
	frame_add(f, 0, "%s", buf);
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
	l = frame_add(f, TA_BOLD, "%s", line);
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
			snprintf(buf, NUM_BUF, "all");
		else
			snprintf(buf, NUM_BUF, "%d", r->cpu);
		return;
	case TC_ZONE:
		snprintf(buf, NUM_BUF, "%s", top_zone_label(c, r->zone));
		return;
	case TC_FIG:
		if (cd->fig->type != FIG_TIME || cd->stat == TS_EVENTS_RATE)
			break;
		/* "0ns" would read as a measured zero: there were no samples */
		if (x == 0)
			snprintf(buf, NUM_BUF, "0");
		else
			top_fmt_ns(buf, NUM_BUF, x);
		return;
	default:
		break;
	}
	top_fmt_num(buf, cd->width, x);
}

static void draw_row(struct top_frame *f, const struct top_ctx *c,
		     const struct top_row *r, int ncols, bool selected)
{
	char line[TOP_LINE_LEN], cell[NUM_BUF];
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
	frame_add(f, selected ? TA_REVERSE : 0, "%s", line);
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
	char lo[NUM_BUF], hi[NUM_BUF], num[NUM_BUF];
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

	frame_add(f, TA_BOLD, "%s of %s%s",
		  v->pane == PANE_BATCH ?
			  "batch sizes (pages)" :
		  hist_table[h[0]].avail == AVAIL_TP ?
			  "event spans (ns)" :
			  "zone->lock hold and interrupts off (ns)",
		  who, v->batch ? "" : "   H/Tab: switch");
	frame_add(f, 0, "%-*s%*s%s", w, hist_table[h[0]].title,
		  two ? HIST_GAP : 0, "", two ? hist_table[h[1]].title : "");
	nl = hist_col(&fig->hist[h[0]], w, n, left);
	nr = two ? hist_col(&fig->hist[h[1]], w, n, right) : 0;
	for (i = 0; i < nl || i < nr; i++)
		frame_add(f, 0, "%-*s%*s%s", w, i < nl ? left[i] : "",
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
		frame_add(f, 0, "%s", "");
		draw_pane(f, c, v, d, 0);
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
		frame_add(f, 0, "  (no pagesets and no events yet)");
	for (i = v->scroll; i < d->nr_rows && i < v->scroll + table_h; i++)
		draw_row(f, c, &d->rows[i], ncols, i == v->sel);
	if (!pane_h)
		return f->oom ? -ENOMEM : 0;
	/* the pane sits at the bottom so it does not move with the table */
	while (f->nr < f->rows - pane_h)
		frame_add(f, 0, "%s", "");
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
	"  H Tab        pane: batch sizes, or zone->lock times (spans in",
	"               tracepoint mode)",
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
		frame_add(f, 0, "  %-*s %s", HELP_LABELS_W, labels, d->title);
	}
}

int top_draw_help(struct top_frame *f)
{
	size_t i;

	for (i = 0; i < sizeof(help_keys) / sizeof(help_keys[0]); i++)
		frame_add(f, i ? 0 : TA_BOLD, "%s", help_keys[i]);
	help_columns(f);
	for (i = 0; i < sizeof(help_tail) / sizeof(help_tail[0]); i++)
		frame_add(f, 0, "%s", help_tail[i]);
	return f->oom ? -ENOMEM : 0;
}
