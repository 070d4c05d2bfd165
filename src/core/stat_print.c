// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <time.h>
#include "hist.h"
#include "json.h"
#include "json_facts.h"
#include "stat_print.h"
#include "units.h"

#define INFERRED_LEN 160
#define SCALE_LINE_LEN 512

static bool shown(const struct fig_desc *d, const struct facts *fa)
{
	return !(d->flags & FIG_NEEDS_XCHECK) || fa->cross_check;
}

static const char *mark(bool estimated)
{
	return estimated ? "~" : "";
}

void stat_print_header(FILE *out, const struct facts *fa)
{
	char line[SCALE_LINE_LEN];
	int i;

	facts_scale_line(fa, line, sizeof(line));
	fprintf(out, "%s\n", line);
	fprintf(out, "kernel %s %s; probes:", fa->release, fa->arch);
	for (i = 0; i < fa->nr_probes; i++)
		fprintf(out, " %s=%s%s", fa->probes[i].name,
			fa->probes[i].mode_name, mark(fa->probes[i].estimated));
	fprintf(out,
		"\nTracing PCP batching... Hit Ctrl-C to end. '~' = estimated from tracepoint event runs.\n");
	fflush(out);
}

static void text_fig(FILE *out, const struct fig_desc *d,
		     const struct facts *fa, const struct figures *f,
		     double secs)
{
	enum probe_mode m = facts_mode(fa, d->probe);

	switch (d->type) {
	case FIG_BATCH:
		fprintf(out, "  %-10s %10llu%-1s %12llu %9.1f %8.1f %7llu\n",
			d->key, (unsigned long long)fig_events(d, f),
			mark(fig_events_estimated(d, m)),
			(unsigned long long)fig_pages(d, f),
			secs > 0 ? (double)fig_events(d, f) / secs : 0.0,
			fig_avg(d, f), (unsigned long long)fig_max(d, f));
		break;
	case FIG_TIME:
		fprintf(out,
			"  %s%s: p50 <= %llu ns, p99 <= %llu ns, max %llu ns\n",
			d->title, mark(fig_events_estimated(d, m)),
			(unsigned long long)fig_pct(d, f, PCT_MEDIAN),
			(unsigned long long)fig_pct(d, f, PCT_TAIL),
			(unsigned long long)fig_max(d, f));
		break;
	case FIG_CHECK:
		fprintf(out, "  %s: %llu pages (%s)\n", d->key,
			(unsigned long long)fig_pages(d, f), d->title);
		break;
	}
}

void stat_print_text(FILE *out, const struct facts *fa, const struct figures *f,
		     double secs, bool hists)
{
	char ts[16], inferred[INFERRED_LEN];
	time_t now = time(NULL);
	int i, h;

	strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&now));
	fprintf(out, "\n%s  %.2f s\n", ts, secs);
	fprintf(out, "  %-10s %11s %12s %9s %8s %7s\n", "", "calls", "pages",
		"calls/s", "avg", "max");
	/* the table first, then the lines of the other kinds */
	for (i = 0; i < nr_figs; i++)
		if (fig_table[i].type == FIG_BATCH)
			text_fig(out, &fig_table[i], fa, f, secs);
	for (i = 0; i < nr_figs; i++)
		if (fig_table[i].type != FIG_BATCH && shown(&fig_table[i], fa))
			text_fig(out, &fig_table[i], fa, f, secs);
	scale_inferred_line(&fa->scale, inferred, sizeof(inferred));
	fprintf(out, "  scale %d (%s); %s\n", fa->scale.value,
		scale_source_name(fa->scale.source), inferred);
	if (fa->scale.note[0])
		fprintf(out, "  note: %s\n", fa->scale.note);
	if (hists) {
		for (h = 0; h < NR_PCPTOP_HISTS; h++) {
			if (!f->hist[h].samples)
				continue;
			fprintf(out, "\n  %s:\n", hist_table[h].title);
			hist_print(out, hist_table[h].unit, f->hist[h].slots,
				   PCPTOP_HIST_SLOTS);
		}
	}
	fflush(out);
}

/* inferred_* cover the whole run so far: the scale does not change */
static void json_scale(struct json_writer *w, const struct scale_info *s)
{
	char inferred[INFERRED_LEN];

	json_obj_begin(w, "scale");
	json_int(w, "value", s->value);
	json_str(w, "source", scale_source_name(s->source));
	if (s->have[SCALE_SRC_INFERRED])
		json_int(w, "inferred_at_least", s->val[SCALE_SRC_INFERRED]);
	else
		json_null(w, "inferred_at_least");
	json_int(w, "inferred_evidence", s->inferred_evidence);
	json_u64(w, "inferred_largest", s->inferred_largest);
	scale_inferred_line(s, inferred, sizeof(inferred));
	json_str(w, "inferred", inferred);
	json_str(w, "note", s->note);
	json_obj_end(w);
}

void stat_print_json(FILE *out, const struct facts *fa, const struct figures *f,
		     double secs)
{
	struct json_writer w;
	int i, h;

	json_init(&w, out);
	json_obj_begin(&w, NULL);
	json_double(&w, "ts", (double)time(NULL));
	json_double(&w, "interval_s", secs);
	json_str(&w, "mode", fa->mode_summary);
	json_obj_begin(&w, "modes");
	for (i = 0; i < fa->nr_probes; i++)
		json_str(&w, fa->probes[i].name, fa->probes[i].mode_name);
	json_obj_end(&w);
	json_scale(&w, &fa->scale);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (shown(d, fa))
			json_figure(&w, d, f,
				    fig_events_estimated(
					    d, facts_mode(fa, d->probe)),
				    secs);
	}
	json_obj_begin(&w, "hist");
	for (h = 0; h < NR_PCPTOP_HISTS; h++)
		json_log2_hist(&w, hist_table[h].key, f->hist[h].slots,
			       PCPTOP_HIST_SLOTS);
	json_obj_end(&w);
	json_obj_end(&w);
	json_end_line(&w);
}

void stat_observe_chunks(struct facts *fa, const struct figures *f)
{
	uint64_t largest = 0, chunks = 0;
	int i;

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (!(d->flags & FIG_INFER_SCALE))
			continue;
		if (f->hist[d->hist].max > largest)
			largest = f->hist[d->hist].max;
		chunks += f->hist[d->hist].samples;
	}
	scale_observe(&fa->scale, largest, facts_max_batch(fa), chunks,
		      facts_overshoot_slack(fa));
}
