/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pcptop whatif's model: a recording's pcp trace (rectrace.h) replayed
 * through the pcp policy (pcpmodel.h) at each scale asked, each replay
 * summed up as the figures a recording at that scale would count
 * (struct figures, so that every figure reads through figtab as a
 * recording's does), the lock and interrupts-off time priced call by
 * call from what the recording's own calls of each size took, and the
 * recording's own counted figures beside them. Views print it (view/whatif_*.c);
 * whatif_check.c holds a replay at the recorded scale against the
 * recording; whatif_save.c writes a prediction as a recording diff reads.
 */
#ifndef PCPTOP_WHATIF_H
#define PCPTOP_WHATIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "figures.h"
#include "pcpmodel.h"
#include "recsum.h"
#include "rectrace.h"

#define WHATIF_MAX_COLS (PCPM_SCALE_MAX + 1)
/* points of the parked-pages series over the trace's time */
#define WHATIF_SERIES_BINS 48

/* which time a pricing is of */
enum whatif_cost {
	WHATIF_COST_HOLD, /* lock_hold_ns */
	WHATIF_COST_IRQS, /* irqs_off_ns */
	NR_WHATIF_COSTS,
};

/* what a column knows beyond the figures: the replay's own bookkeeping */
struct whatif_extra {
	/* the commit's flushes at count >= high (not free_high's) */
	uint64_t commit_flushes, commit_pages, commit_max;
	/*
	 * the largest bulk free as asked, before the last entry's overshoot:
	 * what batch << scale sets, where bulk_free.max adds whichever entry
	 * the lists' contents put last
	 */
	uint64_t bulk_asked_max;
	/* zone->lock: bulk frees + refills, and the buddy path's calls */
	uint64_t lock_takes, lock_pages, buddy_takes;
	uint64_t pcp_events; /* allocations and frees on the pcp path */
	/* of those, while the zone was below high or reclaiming */
	uint64_t events_below_high;
	/*
	 * direct reclaims and drains the scale's free pages add to the
	 * record's, and the record's reclaims whose drain they spare
	 * (pcpmodel_result: reclaim_added); 0 at the recorded scale
	 */
	uint64_t reclaim_added, drains_added, drains_spared;
	/*
	 * the trace's direct reclaims (format 1.7) and of the order-0 ones
	 * [at or under the mark in this replay][drained in the record]
	 * (pcpmodel_result)
	 */
	uint64_t reclaims_traced, reclaim_decided[2][2];
	uint64_t reclaim_kernel_decided[2][2]; /* the kernel's free pages */
	/* the kernel's marks at them, and their sum over min (pages) */
	uint64_t reclaim_marks_counted, reclaim_mark_over_min_sum;
	bool reclaims_known; /* the trace has them: hooks PCPT_HOOK_RECLAIM */
	uint64_t snapshots, snapshots_drifted;
	uint64_t count_drift_max, high_drift_max;
	double count_drift_mean;
	uint64_t events_rejected, events_unseeded;
	/*
	 * calls priced from a bucket of another size, one the recording
	 * never saw (extrapolated), by enum whatif_cost
	 */
	uint64_t priced_outside[NR_WHATIF_COSTS];
	/* pages in every pcp list: at the end of each bin, its mean, max */
	uint64_t parked[WHATIF_SERIES_BINS];
	double parked_mean;
	uint64_t parked_max;
	bool have_parked;
};

/* one scale's prediction, or (measured) the recording's own figures */
struct whatif_col {
	int scale;
	bool measured;
	struct figures fig;
	/* by fig_table index: the figures this column has */
	bool fig_on[FIGTAB_MAX];
	/*
	 * and those whose events (calls) the recording estimated: a stand-in
	 * tracepoint's per-page events grouped into calls (fig_events_estimated)
	 */
	bool fig_estimated[FIGTAB_MAX];
	struct whatif_extra x;
};

/*
 * The pricing of lock hold or interrupts-off time, stated: the
 * recording's calls by log2 bucket of pages, each with its calls' own
 * time (pcpmodel_cost_table(), whatif_cost.c)
 */
struct whatif_fit {
	int err; /* 0, or why there is none: -ENODATA */
	enum whatif_cost which;
	struct pcpmodel_cost_table table;
	const char *on; /* what it was built from, in words */
	/* refills were timed too (in the table and priced); else bulk frees */
	bool refill;
};

struct whatif_opts {
	bool scales[WHATIF_MAX_COLS];
	/* the rule set; -1: the recording's (its meta.rules) */
	int rules;
};

struct whatif {
	const char *path;
	const struct rec_trace *trace;
	struct pcpmodel_rules rules;
	bool rules_given; /* --rules, else the recording's */
	int recorded_scale; /* -1 unknown */
	uint64_t lost_in_window; /* lost events inside the replayed span */
	/*
	 * The replay ends where the recording's last interval does (end_ns,
	 * 0: the trace's last event, no recording to end at): the trace
	 * is detached after that snapshot, and what it holds past it (the
	 * detach takes long enough for a vmstat decay to land in it:
	 * docs/ACCURACY.md, "The replay's window") is in no figure the
	 * replay is held to.
	 * events_after_end: the events so left out.
	 */
	uint64_t end_ns;
	uint64_t events_after_end;
	/*
	 * and counts from the recording's start (start_ns, its intervals'
	 * 0): the trace attaches before the first snapshot, and what it
	 * holds before (pcptop's own start, such as the bulk free of a
	 * parsed BTF) sets the pagesets' state, no figure.
	 * events_before_start: the events so replayed.
	 */
	uint64_t start_ns;
	uint64_t events_before_start;
	struct whatif_fit hold, irqs;
	int nr_cols;
	struct whatif_col *cols; /* nr_cols */
	bool have_measured;
	struct whatif_col measured;
	/* bin i ends at first_ns + (i + 1) * bin_ns */
	uint64_t bin_ns;
};

/* "0-6", "0,3,5", "2": into o->scales; -EINVAL with msg saying why */
int whatif_parse_scales(const char *list, bool scales[WHATIF_MAX_COLS],
			char *msg, size_t len);

/*
 * Replay t at every scale of o; s (may be NULL) is the same recording's
 * summary, for the cost fits and the measured column. 0, -EINVAL when
 * the trace cannot be replayed (msg says why), -ENOMEM.
 */
int whatif_run(struct whatif *w, const char *path, const struct rec_trace *t,
	       const struct rec_summary *s, const struct whatif_opts *o,
	       char *msg, size_t len);
void whatif_free(struct whatif *w);

/* what a recording of a replay under rules would have counted */
void whatif_figures(const struct pcpmodel_rules *rules,
		    const struct pcpmodel_result *r, struct whatif_col *c);
/* the column of scale sc, NULL when not asked for */
const struct whatif_col *whatif_col_of(const struct whatif *w, int sc);

/* whatif_cost.c: lock hold and interrupts-off pricings from s */
void whatif_fit_costs(struct whatif *w, const struct rec_summary *s);
/* a replay's calls priced: lock_hold_ns and irqs_off_ns of col */
void whatif_price(const struct whatif *w, const struct pcpmodel_result *r,
		  struct whatif_col *col);
/* the recording's own figures into a column */
void whatif_measured(const struct rec_summary *s, struct whatif_col *col);

/* whatif_rows.c: the rows every view prints, one number each */
enum whatif_part {
	WP_EVENTS,
	WP_PAGES,
	WP_P50,
	WP_P99,
	WP_MAX,
	WP_TOTAL,
	WP_EXTRA, /* from struct whatif_extra */
};

struct whatif_row {
	const char *key; /* "bulk_free.calls": diff's metric key where any */
	const char *title;
	const char *unit; /* "", "pages", "ns", "%" */
	const char *fig; /* figtab key, NULL for an extra */
	enum whatif_part part;
	unsigned int flags; /* WR_* */
};

#define WR_BOUND 0x1 /* a log2 bucket's upper bound */
#define WR_REPLAY 0x2 /* only a replay has it: the recording does not */

extern const struct whatif_row whatif_rows[];
extern const int whatif_nr_rows;
/* the row of key, NULL when there is none */
const struct whatif_row *whatif_row_of(const char *key);
/* row's value in col; false when col has none */
bool whatif_value(const struct whatif_col *col, const struct whatif_row *row,
		  double *v);
/*
 * whether col's value of row is the recording's estimate: the calls of a
 * stand-in tracepoint's figure and their sizes (its pages are exact)
 */
bool whatif_estimated(const struct whatif_col *col,
		      const struct whatif_row *row);

/*
 * words every view says: a pricing, stated (with the calls each scale
 * priced past the sizes the recording saw); the trace's window and losses
 */
void whatif_fit_line(char *buf, size_t len, const struct whatif *w,
		     const struct whatif_fit *fit);
void whatif_window_line(char *buf, size_t len, const struct whatif *w);
/* where the replay is weakest: the share below the high watermark */
void whatif_below_line(char *buf, size_t len, const struct whatif *w);
/*
 * the paragraph on the kernel's mark at the trace's direct reclaims, over
 * min, lines ending in newlines; false (buf untouched) where none was read
 */
bool whatif_marks_line(char *buf, size_t len, const struct whatif *w);

/*
 * whatif_pick.c, which scale: per cost, the replayed scale where it is
 * least against the replay at the recorded scale, and the error it is
 * known to carry (the suite's cross-scale error built in, plus this
 * trace's self-replay error); apart where the difference is larger
 */
enum whatif_pick_cost {
	WHATIF_PICK_IRQS_MAX,
	WHATIF_PICK_LOCK_NS,
	WHATIF_PICK_TAKES,
	WHATIF_PICK_PARKED,
	NR_WHATIF_PICKS,
};

/* which of the suite's measured errors a trace's figures carry */
enum whatif_pick_case {
	WHATIF_PICK_ABOVE_HIGH, /* all above high, as the churn suite's */
	WHATIF_PICK_BELOW_HIGH, /* some below: the larger of both suites' */
};

struct whatif_pick {
	const char *key; /* the row: "lock_hold_ns.total" */
	const char *name; /* "zone->lock time" */
	bool ok; /* the recorded scale's column and another have it */
	int least; /* the scale where it is least (ties: the recorded) */
	/* the least scale other than the recorded one, and its value */
	int other;
	double at_other, at_rec;
	double diff_pct; /* at_other against at_rec */
	enum whatif_pick_case cross_case;
	double below_high_pct; /* below_high.pct at the recorded scale; NAN */
	double cross_pct; /* the suite's measured cross-scale error */
	double self_pct; /* replay at the recorded scale vs measured; NAN */
	double error_pct; /* cross_pct + |self_pct| */
	bool apart; /* |diff_pct| > error_pct */
};

void whatif_picks(const struct whatif *w,
		  struct whatif_pick p[NR_WHATIF_PICKS]);
/* "above_high" or "below_high": JSON's cross_scale_case */
const char *whatif_pick_case_name(enum whatif_pick_case c);
/* the line every view says */
void whatif_pick_line(char *buf, size_t len, const struct whatif *w,
		      const struct whatif_pick *p);

/*
 * whatif_check.c: the replay at the recorded scale against the
 * recording's own counts (issue 22's self-consistency): bulk-free and
 * refill calls and pages within 1 %, their size histograms within one
 * log2 bucket for 99 % of calls, the largest flush exact, no events lost;
 * and, where the recording timed zone->lock, the priced lock hold total
 * within 10 % (issue 31).
 */
#define WHATIF_CHECK_MAX 16
#define WHATIF_CHECK_COUNT_PCT 1.0
#define WHATIF_CHECK_HIST_OFF_PCT 1.0
#define WHATIF_CHECK_LOCK_PCT 10.0

enum whatif_check_kind {
	CHECK_WITHIN_PCT, /* |pred - rec| <= bound % of rec */
	CHECK_HIST, /* pred: % of calls more than one bucket off */
	CHECK_EXACT,
	CHECK_ZERO, /* pred must be 0 */
	/*
	 * compared with an estimate (whatif_col.fig_estimated): shown, not
	 * held; ok
	 */
	CHECK_NOT_HELD,
};

struct whatif_check {
	char what[64]; /* "bulk_free.calls" */
	enum whatif_check_kind kind;
	double pred, rec; /* CHECK_HIST: pred is the % off, rec unused */
	double bound;
	bool ok;
};

/*
 * The comparisons, into c (WHATIF_CHECK_MAX); how many. *pass says
 * whether all held. -ENODATA when w has no column at the recorded scale
 * or no measured column; -EINVAL when the recording did not count the
 * figures compared.
 */
int whatif_check(const struct whatif *w, struct whatif_check *c, int *nr,
		 bool *pass);
/* % of calls the quantile pairing of two log2 histograms puts > 1 apart */
double whatif_hist_off_pct(const uint64_t *a, const uint64_t *b);

#endif /* PCPTOP_WHATIF_H */
