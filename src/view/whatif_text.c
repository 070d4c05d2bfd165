// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop whatif as text: what was replayed and how the time is priced,
 * then one row per figure and one column per scale, the recording's own
 * counts first and the recorded scale's column marked.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "explain.h"
#include "whatif_view.h"

#define LABEL_W 41
#define CELL_W 12
#define LINE_LEN 1024

static void cell(FILE *f, const struct whatif_col *c,
		 const struct whatif_row *row)
{
	char buf[64], est[66];
	double v;

	if (!whatif_value(c, row, &v))
		v = NAN;
	/* "pages" is the row's unit: the cells stay numbers */
	explain_value(buf, sizeof(buf), v, strcmp(row->unit, "ns") ? "" : "ns",
		      (row->flags & WR_BOUND) && !isnan(v));
	if (!isnan(v) && whatif_estimated(c, row)) {
		snprintf(est, sizeof(est), "~%s", buf);
		fprintf(f, " %*s", CELL_W, est);
		return;
	}
	fprintf(f, " %*s", CELL_W, buf);
}

static void header(FILE *f, const struct whatif *w)
{
	char name[32];
	int i;

	fprintf(f, "%-*s", LABEL_W, "figure (unit)");
	if (w->have_measured)
		fprintf(f, " %*s", CELL_W, "recorded");
	for (i = 0; i < w->nr_cols; i++) {
		snprintf(name, sizeof(name), "scale %d%s", w->cols[i].scale,
			 w->cols[i].scale == w->recorded_scale ? "*" : "");
		fprintf(f, " %*s", CELL_W, name);
	}
	fputc('\n', f);
}

static void rows(FILE *f, const struct whatif *w)
{
	char label[LABEL_W + 16];
	int r, i;

	for (r = 0; r < whatif_nr_rows; r++) {
		const struct whatif_row *row = &whatif_rows[r];

		snprintf(label, sizeof(label), "%s%s%s%s", row->title,
			 row->unit[0] && strcmp(row->unit, "ns") ? " (" : "",
			 strcmp(row->unit, "ns") ? row->unit : "",
			 row->unit[0] && strcmp(row->unit, "ns") ? ")" : "");
		fprintf(f, "%-*.*s", LABEL_W, LABEL_W, label);
		if (w->have_measured)
			cell(f, &w->measured, row);
		for (i = 0; i < w->nr_cols; i++)
			cell(f, &w->cols[i], row);
		fputc('\n', f);
	}
}

/* which scale: one line per cost, what the figures carry and no more */
static void picks(FILE *f, const struct whatif *w)
{
	struct whatif_pick p[NR_WHATIF_PICKS];
	char line[LINE_LEN];
	int k;

	whatif_picks(w, p);
	fputs("\nwhich scale (the replays against the one at the recorded scale):\n",
	      f);
	for (k = 0; k < NR_WHATIF_PICKS; k++) {
		whatif_pick_line(line, sizeof(line), w, &p[k]);
		fprintf(f, "  %s\n", line);
	}
}

void whatif_text(FILE *f, const struct whatif *w)
{
	char line[LINE_LEN];

	fprintf(f, "pcptop whatif: %s, rules %s (%s), recorded at ", w->path,
		pcpmodel_rules_name(w->rules.base),
		w->rules_given ? "--rules" : "the recorded kernel's");
	if (w->recorded_scale >= 0)
		fprintf(f, "scale %d\n", w->recorded_scale);
	else
		fprintf(f, "an unknown scale\n");
	whatif_window_line(line, sizeof(line), w);
	fprintf(f, "trace: %s\n", line);
	whatif_below_line(line, sizeof(line), w);
	fprintf(f, "below high: %s\n", line);
	whatif_fit_line(line, sizeof(line), w, &w->hold);
	fprintf(f, "lock hold priced: %s\n", line);
	whatif_fit_line(line, sizeof(line), w, &w->irqs);
	fprintf(f, "interrupts off priced: %s\n", line);
	if (w->rules.base == PCPM_RULES_6_1)
		fprintf(f,
			"6.1 before 6.1.104 has no scale: every column is the same kernel\n");
	fputc('\n', f);
	header(f, w);
	rows(f, w);
	fprintf(f,
		"\n* the recorded scale. '<=' values are log2 bucket bounds; '-' the column has\n"
		"no such figure (the recording did not count it, or only a replay knows it);\n"
		"'~' the recording's estimate (a tracepoint's per-page events grouped into calls).\n"
		"At another scale the zone's watermark flags move, and direct reclaim and its\n"
		"drains are added, where its lists leave the zone's free pages across a watermark\n"
		"the recorded scale's replay does not cross; a traced reclaim's drain moves where\n"
		"its lists' own flushes and refills in the reclaim move its retry across the\n"
		"kernel's mark. kswapd's own reclaim and the traced reclaims stay where the trace\n"
		"has them.\n");
	if (whatif_marks_line(line, sizeof(line), w))
		fputs(line, f);
	picks(f, w);
}

void whatif_check_text(FILE *f, const struct whatif *w,
		       const struct whatif_check *c, int n, bool pass)
{
	char line[LINE_LEN];
	int i;

	whatif_window_line(line, sizeof(line), w);
	fprintf(f,
		"pcptop whatif --check: %s replayed at its recorded scale %d, rules %s\ntrace: %s\n",
		w->path, w->recorded_scale, pcpmodel_rules_name(w->rules.base),
		line);
	for (i = 0; i < n; i++) {
		const struct whatif_check *k = &c[i];

		fprintf(f, "%-4s %-22s ",
			k->kind == CHECK_NOT_HELD ? "--" :
			k->ok			  ? "ok" :
						    "FAIL",
			k->what);
		switch (k->kind) {
		case CHECK_WITHIN_PCT:
			fprintf(f,
				"replay %.0f, recorded %.0f: %+.3f %% (bound %.0f %%)\n",
				k->pred, k->rec,
				k->rec ? (k->pred - k->rec) / k->rec * 100.0 :
					 0.0,
				k->bound);
			break;
		case CHECK_HIST:
			fprintf(f,
				"%.3f %% of calls more than one log2 bucket from the recording's (bound %.0f %%)\n",
				k->pred, k->bound);
			break;
		case CHECK_EXACT:
			fprintf(f, "replay %.0f, recorded %.0f (exact)\n",
				k->pred, k->rec);
			break;
		case CHECK_ZERO:
			fprintf(f, "%.0f (must be 0)\n", k->pred);
			break;
		case CHECK_NOT_HELD:
			if (isnan(k->rec))
				fprintf(f,
					"%.3f %% of calls more than one log2 bucket from the recording's: not held, its calls are estimated\n",
					k->pred);
			else
				fprintf(f,
					"replay %.0f, recorded ~%.0f: not held, the recording estimated them (a tracepoint's pages in runs)\n",
					k->pred, k->rec);
			break;
		}
	}
	fprintf(f, "%s\n",
		pass ? "self-consistent" :
		       "NOT self-consistent: the replay does not give back what the recording counted");
}
