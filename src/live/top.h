/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pcptop top, shared between its parts: top.c attaches, samples and runs
 * batch mode; top_screen.c drives the terminal and the keys; top_rows.c
 * turns one interval's snapshot and a fresh /proc/zoneinfo into table
 * rows; top_draw.c lays a screen out as lines of plain text that the
 * terminal or the batch output then shows. Keeping the layout free of
 * curses is what lets batch mode print the same frames without a terminal.
 */
#ifndef PCPTOP_TOP_H
#define PCPTOP_TOP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include "cost.h"
#include "facts.h"
#include "figures.h"
#include "procfs.h"
#include "snapshot.h"

struct screen;
struct system;

/* what a column shows: a /proc figure, or a statistic of a figtab row */
enum top_col_kind {
	TC_CPU,
	TC_ZONE,
	TC_COUNT, /* pcp->count, /proc/zoneinfo */
	TC_HIGH,
	TC_BATCH,
	TC_FIG,
};

enum top_stat {
	TS_EVENTS_RATE, /* events per second */
	TS_PAGES_RATE, /* pages per second */
	TS_AVG, /* pages per event */
	TS_MAX, /* largest event, pages or ns */
	TS_P50,
	TS_P99,
};

/* the fixed columns come first, in this order */
#define COL_CPU 0
#define COL_ZONE 1
#define COL_COUNT 2
#define TOP_MAX_COLS 40
#define TOP_LABEL_LEN 12

/* a figure this mode does not measure: drawn as "-", sorted last */
#define TOP_NA (-1.0)

enum top_align { ALIGN_RIGHT, ALIGN_LEFT };

struct top_col_desc {
	char label[TOP_LABEL_LEN];
	int width;
	enum top_align align;
	enum top_col_kind kind;
	const struct fig_desc *fig; /* TC_FIG */
	enum top_stat stat;
};

/*
 * The columns: the fixed ones, then the figtab columns of every figure
 * this run measures (fa NULL: all of them), in table order.
 */
extern struct top_col_desc top_cols[TOP_MAX_COLS];
extern int top_nr_cols;
void top_cols_init(const struct facts *fa);

struct top_row {
	int cpu; /* SNAP_ALL: summed over CPUs */
	int zone; /* zone index; PCPTOP_ZONE_UNKNOWN: tracepoint events */
	double v[TOP_MAX_COLS];
	struct figures fig;
};

/* "all zones" for the zone filter */
#define ZF_ALL (-1)
#define TOP_MSG_LEN 160

/* what the user chose: sort, filters, selection, pause */
struct top_view {
	double delay;
	int sort_col;
	bool summed;
	int zone_filter; /* ZF_ALL or a zone index */
	enum hist_pane pane; /* PANE_BATCH or PANE_HOLD */
	bool paused;
	bool help;
	bool batch;
	/* the selected row, followed by identity across refreshes */
	int sel;
	int sel_cpu;
	int sel_zone;
	bool sel_set;
	int scroll;
	char msg[TOP_MSG_LEN];
	double msg_until; /* monotonic seconds */
};

/* one interval as shown: what was sampled and the rows made from it */
struct top_data {
	struct snapshot *snap; /* with /proc/zoneinfo read right after it */
	double secs; /* length of the interval, 0 before the first */
	time_t when;
	struct cost_sample cost;
	struct top_row *rows;
	int nr_rows;
	int cap_rows;
	/* zones that have rows, for the zone filter, in index order */
	int zones[PCPTOP_MAX_ZONES];
	int nr_zones;
};

/* what stays put for the whole run */
struct top_ctx {
	const struct facts *facts;
	int nr_cpus;
	const char *cost_off; /* why there is no cost figure, or NULL */
};

/* ---- top_rows.c ---- */

int top_data_init(struct top_data *d, struct snapshot *snap, int nr_cpus);
void top_data_free(struct top_data *d);
/* rebuild d->rows from d->snap for the view's choices */
void top_rows_build(const struct top_ctx *c, struct top_view *v,
		    struct top_data *d);
/* keep v->sel on the row it names after a rebuild or a sort */
void top_rows_follow(struct top_view *v, const struct top_data *d);
const char *top_zone_label(const struct top_ctx *c, int zone);
/* is any probe's data only on the zone-less (tracepoint) rows? */
bool top_has_zoneless(const struct top_ctx *c);

/* ---- top_draw.c ---- */

/* attributes of a line or a span, mapped to A_BOLD / A_REVERSE by top.c */
#define TA_BOLD 1u
#define TA_REVERSE 2u
#define TOP_LINE_LEN 512

struct top_line {
	char text[TOP_LINE_LEN];
	unsigned int attr;
	int span_at; /* a part drawn with span_attr, span_len 0: none */
	int span_len;
	unsigned int span_attr;
};

struct top_frame {
	struct top_line *lines;
	int nr;
	int cap;
	int cols; /* width to lay out for */
	int rows; /* height, 0: as long as it takes (batch) */
	bool oom; /* a line could not be added for want of memory */
};

/* ---- top_frame.c ---- */

int top_frame_init(struct top_frame *f, int cols, int rows);
void top_frame_free(struct top_frame *f);
void top_frame_reset(struct top_frame *f, int cols, int rows);
/* a new line, cut to the frame's width; NULL when the screen is full */
struct top_line *top_frame_add(struct top_frame *f, unsigned int attr,
			       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* the main screen; may move v->scroll to keep the selection visible */
int top_draw_main(struct top_frame *f, const struct top_ctx *c,
		  struct top_view *v, const struct top_data *d);
int top_draw_help(struct top_frame *f);

/* ---- top_system.c: the sampled figures placed in the live view ---- */

/* the header's line of LIVE_HEADER figures, when this run has any */
void top_system_line(struct top_frame *f, const struct top_ctx *c,
		     const struct top_data *d);
/* the system pane: each LIVE_PANE figure, zone by zone, in height lines */
void top_system_pane(struct top_frame *f, const struct top_ctx *c,
		     const struct top_view *v, const struct top_data *d,
		     int height);
/* the pane after p that this run can show (H and Tab) */
enum hist_pane top_next_pane(const struct top_ctx *c, enum hist_pane p);
/* the frame as plain text, trailing blanks cut */
void top_frame_print(const struct top_frame *f, FILE *out);

/* what top_fmt_num() and top_fmt_ns() write into */
#define TOP_NUM_LEN 32
/* "12.3k" style into width characters; "-" for TOP_NA */
void top_fmt_num(char *buf, int width, double v);
/* "850ns", "12us", "1.2ms" in at most 5 characters */
void top_fmt_ns(char *buf, size_t len, double ns);

/* ---- top.c and top_sample.c ---- */

struct top_state {
	struct top_ctx ctx;
	struct top_view view;
	struct top_data data[2];
	struct top_data *shown;
	struct top_data *latest;
	bool latest_new; /* latest holds an interval not shown yet */
	struct snapshot snaps[2];
	struct top_frame frame;
	struct system *sys;
	struct cost_src cost;
	double last_sample;
	struct screen *scr; /* curses' SCREEN, NULL in batch mode */
};

void top_set_msg(struct top_view *v, double secs, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* one interval into s->latest; shown at once unless the view is paused */
int top_sample(struct top_state *s);
void top_show_latest(struct top_state *s);

/* ---- top_screen.c ---- */

/* -ENOTTY when stdin/stdout are no terminal or TERM is unknown */
int top_screen_open(struct top_state *s);
void top_screen_close(struct top_state *s);
/* until q, a signal, or count refreshes (0: no limit) */
int top_screen_run(struct top_state *s, long count);

#endif /* PCPTOP_TOP_H */
