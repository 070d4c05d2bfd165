/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * THE table of what pcptop reports. Every counter and histogram the BPF
 * side keeps (bpf/pcptop.h) has a row here with its recording key, and
 * every figure has a row with its name in each output: stat's text and
 * JSON, the live view, Prometheus metrics, recordings, report, diff and
 * the HTML page all loop over fig_table[]. A figure names its source: BPF
 * counters and histograms, or a value sampled each interval from /proc
 * or from pcptop's own programs' statistics (FIG_SAMPLED). Adding a BPF
 * figure is a row here plus its counter; adding a sampled one is a row
 * here and nothing else (CONTRIBUTING.md).
 */
#ifndef PCPTOP_FIGTAB_H
#define PCPTOP_FIGTAB_H

#include <stdbool.h>
#include "pcptop.h"
#include "probes.h"

/* a counter of enum pcptop_counter */
struct counter_desc {
	const char *key; /* recording key, JSON key in report totals */
};

/* the live view's histogram pane shows one group at a time */
enum hist_pane {
	PANE_NONE,
	PANE_BATCH, /* batch sizes (pages) */
	PANE_HOLD, /* zone->lock times, or tracepoint mode's spans (ns) */
	PANE_SYSTEM, /* the sampled figures placed LIVE_PANE */
	NR_PANES,
};

/* modes a figure or histogram is measured in: probe_mode bits, 0 = any */
#define AVAIL_FN (PROBE_MODE_BIT(MODE_FENTRY) | PROBE_MODE_BIT(MODE_KPROBE))
#define AVAIL_TP PROBE_MODE_BIT(MODE_TRACEPOINT)
#define AVAIL_ANY 0u

/* a histogram of enum pcptop_hist */
struct hist_desc {
	const char *key; /* recording key, JSON "hist" key */
	const char *title; /* text and HTML heading */
	const char *unit; /* "pages" or "nsecs" */
	int probe; /* whose mode decides whether it is estimated */
	const char *prom; /* Prometheus histogram metric */
	const char *prom_help;
	enum hist_pane pane;
	bool always_plotted; /* in the HTML even when empty */
	unsigned int avail; /* modes of probe it is measured in */
	/*
	 * slots hold nanoseconds by pages bucket, not counts: recorded for
	 * whatif's pricing, never shown as a histogram
	 */
	bool weighted;
};

enum fig_type {
	FIG_BATCH, /* events, the pages they moved, a size histogram */
	FIG_TIME, /* a time histogram (ns) and its total */
	FIG_CHECK, /* a count beside another figure, to compare with it */
	FIG_COUNT, /* a plain count */
	FIG_SAMPLED, /* read each interval beside the BPF maps: .sample */
	FIG_SPLIT, /* a total cut into parts (.parts), by order, reason, ... */
};

/* where a sampled figure is read, each interval (core/sampler.c) */
enum sample_src {
	SRC_VMSTAT, /* /proc/vmstat: its "field value" line */
	/*
	 * /proc/zoneinfo, per zone: a zone's "field value" line ("min",
	 * "pages_free" for "pages free", ...), or "pcp.count", "pcp.high",
	 * ...: its pagesets' field summed over CPUs
	 */
	SRC_ZONEINFO,
	SRC_BUDDYINFO, /* /proc/buddyinfo: free blocks per zone and order */
	SRC_PROG, /* pcptop's own BPF programs (bpf_prog_info), summed */
	/*
	 * /proc/stat's cpu lines: a state's time ("user", ... "steal") per
	 * CPU, in ms; "online" counts the cpuN lines
	 */
	SRC_STAT,
	/* /proc/pressure/RESOURCE's total=: "cpu.some", "io.full", ... (us) */
	SRC_PSI,
	/* /sys/block/DEV/stat, per device: "reads", "io_ms", ... */
	SRC_BLOCK,
	NR_SAMPLE_SRCS,
};

/* what a reading is */
enum sample_kind {
	SAMPLE_COUNTER, /* a running total: an interval keeps its increase */
	SAMPLE_GAUGE, /* a level: an interval keeps its value at the end */
};

/* what a sampled figure has a value for */
enum sample_scope {
	SCOPE_MACHINE, /* one value */
	SCOPE_ZONE, /* one per zone (summed over nodes), and their sum */
	SCOPE_ZONE_ORDER, /* one per zone and order, summed up to both */
	SCOPE_CPU, /* one per CPU, and their sum */
	SCOPE_DEV, /* one per block device (facts.devs), and their sum */
};

struct sample_desc {
	enum sample_src src;
	const char *field;
	enum sample_kind kind;
	enum sample_scope scope;
	const char *unit; /* "pages", "events", ... */
};

/* where a sampled figure shows in the live view */
enum live_place {
	LIVE_NONE,
	LIVE_HEADER, /* a word on the header's system line */
	LIVE_PANE, /* a line of the system pane, zone by zone */
};

/* figure flags */
#define FIG_TL_EVENTS 0x1 /* report timeline: events per interval */
#define FIG_TL_PAGES 0x2 /* ... pages per interval */
#define FIG_TL_MAX 0x4 /* ... largest of the interval */
#define FIG_TL_P99 0x8 /* ... p99 of the interval (FIG_TIME) */
#define FIG_RATE_DIFF 0x10 /* diff: pages per second as well */
#define FIG_PROM_MAX 0x20 /* Prometheus gauge of the interval's largest */
#define FIG_NEEDS_XCHECK 0x40 /* shown only with --cross-check */
#define FIG_HTML_RATE 0x80 /* HTML timeline: pages per second */
#define FIG_BY_MT 0x100 /* JSON: by_migratetype beside the totals */
#define FIG_TL_VALUE 0x200 /* report timeline: a sampled figure's value */
/*
 * FIG_TIME: its total per second of the run as well: the share of a
 * CPU's time, e.g. interrupts off
 */
#define FIG_PER_S 0x400
/*
 * a wall-time figure (bpf/waits.bpf.h): diff's opening budget speaks for
 * it, not its ranking of the allocator's costs; the sampled rows of
 * /proc/stat, /proc/pressure and /sys/block are such figures too
 */
#define FIG_WALL 0x800

/* an average of two counters a figure also reports, e.g. high before decay */
struct fig_ratio {
	const char *key;
	int num;
	int den;
	const char *unit; /* what the ratio counts: "calls", "pages" */
};

#define FIG_MAX_RATIOS 2

/* a counter a figure also reports as it is, e.g. decay's trims */
struct fig_extra {
	const char *key;
	int counter;
	const char *prom; /* its Prometheus counter, or NULL */
	const char *prom_help;
	unsigned int avail; /* modes of the figure's probe it is counted in */
};

#define FIG_MAX_EXTRAS 3

/*
 * A part of a FIG_SPLIT: a counter, summed over every order slot, or at
 * one of them (FIG_ORDER(slot)), so that the counters' order slots can
 * split a figure without a counter per order
 */
struct fig_part {
	const char *key; /* "0", "thp", "high", "reclaim": JSON, --prom label */
	int counter;
	int order; /* FIG_ORDER(slot), or 0 for every slot */
};

#define FIG_ORDER(slot) ((slot) + 1)
#define FIG_MAX_PARTS 5

struct fig_desc {
	const char *key; /* JSON object, text row, diff key stem */
	const char *title; /* one line: what it counts */
	enum fig_type type;
	int probe; /* enum probe_id feeding it */
	int events; /* counter of calls/flushes, -1 none */
	const char *events_key; /* "calls" or "count" */
	int pages; /* FIG_BATCH, FIG_CHECK: counter of pages */
	const char *pages_key; /* "pages" unless said */
	int hist; /* size (FIG_BATCH) or time (FIG_TIME) */
	int total; /* FIG_TIME: counter of summed ns; FIG_COUNT: the count */
	unsigned int avail; /* modes of probe it is measured in */
	/* modes in which the events, the pages, the times are estimated */
	unsigned int est_events;
	unsigned int est_pages;
	struct fig_ratio ratios[FIG_MAX_RATIOS];
	struct fig_extra extras[FIG_MAX_EXTRAS];
	/*
	 * FIG_SPLIT: its parts, which add up to its total, what they count
	 * ("pages", "calls") and the --prom label naming them ("order")
	 */
	struct fig_part parts[FIG_MAX_PARTS];
	const char *unit;
	const char *part_label;
	/*
	 * BESIDE(id): where .probe is a function probe, measured only with
	 * support probe id attached beside it (an option asked for it)
	 */
	int beside;
	unsigned int flags;
	/* the live view's columns; NULL: not shown there */
	const char *col_events; /* events per second */
	const char *col_pages; /* pages per second */
	const char *col_avg; /* pages per event */
	const char *col_max; /* largest event, pages or ns */
	const char *col_p50;
	const char *col_p99;
	/* Prometheus: counters (totals since start) and their help */
	const char *prom_events, *prom_events_help;
	const char *prom_pages, *prom_pages_help;
	/* FIG_TIME; FIG_SPLIT: a counter a part, labelled part_label */
	const char *prom_total, *prom_total_help;
	const char *prom_gauge; /* stem of _p50/_p99/_max (FIG_TIME) or _max */
	const char *prom_gauge_help;
	/*
	 * FIG_SAMPLED: where it is read and what it is; a counter exports
	 * prom_total, a gauge prom_gauge, each with a zone label per zone
	 */
	struct sample_desc sample;
	enum live_place live;
	const char *chart; /* the HTML chart it is drawn in, NULL: none */
};

/* what a FIG_SAMPLED row sets: no probe, BPF counter or histogram */
#define FIG_NO_BPF \
	.probe = -1, .events = -1, .pages = -1, .hist = -1, .total = -1

/* rows a table may have: facts keep a flag per row */
#define FIGTAB_MAX 128
/* a per-zone sampled figure's zones, by index in node 0's zone order */
#define SAMPLE_ZONES 8
/*
 * A per-CPU one's CPUs by id; a CPU past the last cell is added to it,
 * so that the cells still sum to the machine's figure
 */
#define SAMPLE_CPUS 64
/* a per-device one's devices, as facts.devs lists them; the same fold */
#define SAMPLE_DEVS 8
/* a per-order one's orders: NR_PAGE_ORDERS is 11 with 4k pages, 14 with 64k */
#define SAMPLE_ORDERS 16

/* what tasks wait for beside the allocator (figtab_waits.c) */
extern const struct fig_desc wait_figs[];
extern const int nr_wait_figs;
/* the sampled rows of the built-in table (figtab_sampled.c) */
extern const struct fig_desc sampled_figs[];
extern const int nr_sampled_figs;

extern const struct counter_desc counter_table[NR_PCPTOP_COUNTERS];
extern const struct hist_desc hist_table[NR_PCPTOP_HISTS];
/* the table in use: the built-in one, or a test's */
extern const struct fig_desc *fig_table;
extern int nr_figs;

/* the table pcptop is built with, and its rows */
const struct fig_desc *figtab_builtin(int *n);
/*
 * Use another table (unit tests add a row this way), or the built-in one
 * again with NULL. -E2BIG past FIGTAB_MAX rows, -EINVAL for a sampled
 * row without a field.
 */
int figtab_use(const struct fig_desc *table, int n);
/* the row's index in fig_table */
int fig_index(const struct fig_desc *d);
/*
 * Every FIG_SPLIT part of the table in use, numbered in table order: a
 * recording's timeline keeps each interval's parts in these slots.
 * FIGTAB_MAX_SPLIT_VALUES at most; -1 past them or for no part.
 */
#define FIGTAB_MAX_SPLIT_VALUES 64
int fig_split_slot(const struct fig_desc *d, int k);

/*
 * Sampled values live in one array of cells: a machine-wide figure has
 * one; a per-zone figure 1 + SAMPLE_ZONES (cell 0 their sum, then each
 * zone's); a per-order one adds SAMPLE_ZONES * SAMPLE_ORDERS, each zone's
 * orders, which its zone's cell sums. These give the layout of the table
 * in use.
 */
int sample_cells(const struct fig_desc *d);
/*
 * The instances a scope has cells for (zones, CPUs, devices), 0 for a
 * machine-wide figure; an instance k's cell is sample_zone_cell(k)
 */
int sample_instances(enum sample_scope scope);
/* the cell of zone (or instance) z, and of order o in zone z */
static inline int sample_zone_cell(int z)
{
	return 1 + z;
}

static inline int sample_order_cell(int z, int o)
{
	return 1 + SAMPLE_ZONES + z * SAMPLE_ORDERS + o;
}

int sample_cell_base(const struct fig_desc *d);
int sample_nr_cells(void);
/* "/proc/vmstat", "/proc/zoneinfo", ..., "program statistics" */
const char *sample_src_name(enum sample_src src);
const char *sample_kind_name(enum sample_kind kind);

/* "bulk_free_calls", ... or NULL for an index out of range */
const char *counter_key(int counter);
/* index by recording key, -1 when this build does not know it */
int counter_find(const char *key);
int hist_find(const char *key);
const struct fig_desc *fig_find(const char *key);

/*
 * What a FIG_BATCH figure's pages are ("pages"; "sectors" for block
 * requests: .unit), and its key in JSON and diff (.pages_key, "pages")
 */
const char *fig_batch_unit(const struct fig_desc *d);
const char *fig_pages_key(const struct fig_desc *d);
/* FIG_WALL, or sampled from a wall-time source */
bool fig_is_wall(const struct fig_desc *d);

/* whether a figure or histogram is measured in this probe mode */
bool fig_measured(const struct fig_desc *d, enum probe_mode mode);
bool hist_measured(const struct hist_desc *h, enum probe_mode mode);

/* whether a figure's events / pages are estimated in this probe mode */
bool fig_events_estimated(const struct fig_desc *d, enum probe_mode mode);
bool fig_pages_estimated(const struct fig_desc *d, enum probe_mode mode);

/* the slots' names: "0".."3", "4+" */
const char *lat_order_name(int order_slot);
/* "pcp" / "refill" for allocations, "pcp" / "flush" for frees */
const char *lat_path_name(int dir, int path);
/* "alloc_ns" / "free_ns" */
const char *lat_hist_key(int dir);
/* "Unmovable", "Movable", "Reclaimable", "CMA", "other" */
const char *mt_slot_name(int mt_slot);

#endif /* PCPTOP_FIGTAB_H */
