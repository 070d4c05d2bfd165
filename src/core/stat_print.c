// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "detail.h"
#include "hist.h"
#include "json.h"
#include "json_facts.h"
#include "stat_print.h"
#include "units.h"

#define SCALE_LINE_LEN 512

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
		if (facts_probe_listed(fa, i))
			fprintf(out, " %s=%s%s", fa->probes[i].name,
				fa->probes[i].mode_name,
				mark(fa->probes[i].estimated));
	fprintf(out,
		"\nTracing PCP batching... Hit Ctrl-C to end. '~' = estimated (docs/ACCURACY.md).\n");
	fflush(out);
}

void fig_print_extras(FILE *out, const struct facts *fa,
		      const struct fig_desc *d, const struct figures *f)
{
	int i, n = 0;

	for (i = 0; i < FIG_MAX_EXTRAS && d->extras[i].key; i++)
		if (facts_extra_shown(fa, d, i))
			fprintf(out, "%s%s %llu", n++ ? ", " : "  (",
				d->extras[i].key,
				(unsigned long long)
					f->cnt[d->extras[i].counter]);
	if (n)
		fputc(')', out);
	fputc('\n', out);
}

void fig_print_events(FILE *out, const struct fig_desc *d,
		      const struct figures *f)
{
	if (d->events >= 0)
		fprintf(out, ", %llu %s", (unsigned long long)fig_events(d, f),
			d->events_key);
}

void fig_print_count(FILE *out, const struct fig_desc *d,
		     const struct figures *f)
{
	if (d->type == FIG_CHECK)
		fprintf(out, "  %s: %llu pages (%s)", d->key,
			(unsigned long long)fig_pages(d, f), d->title);
	else
		fprintf(out, "  %s: %llu (%s)", d->key,
			(unsigned long long)fig_total(d, f), d->title);
}

static void text_fig(FILE *out, const struct fig_desc *d,
		     const struct facts *fa, const struct figures *f,
		     double secs)
{
	switch (d->type) {
	case FIG_BATCH:
		fprintf(out, "  %-13s %10llu%-1s %12llu %9.1f %8.1f %7llu",
			d->key, (unsigned long long)fig_events(d, f),
			mark(facts_events_estimated(fa, d)),
			(unsigned long long)fig_pages(d, f),
			secs > 0 ? (double)fig_events(d, f) / secs : 0.0,
			fig_avg(d, f), (unsigned long long)fig_max(d, f));
		break;
	case FIG_TIME:
		fprintf(out,
			"  %s%s: p50 <= %llu ns, p99 <= %llu ns, max %llu ns",
			d->title, mark(facts_events_estimated(fa, d)),
			(unsigned long long)fig_pct_capped(d, f, PCT_MEDIAN),
			(unsigned long long)fig_pct_capped(d, f, PCT_TAIL),
			(unsigned long long)fig_max(d, f));
		fig_print_events(out, d, f);
		break;
	case FIG_CHECK:
	case FIG_COUNT:
		fig_print_count(out, d, f);
		break;
	}
	fig_print_extras(out, fa, d, f);
}

void stat_print_text(FILE *out, const struct facts *fa, const struct figures *f,
		     double secs, bool hists)
{
	char ts[16], inferred[SCALE_INFERRED_LEN];
	time_t now = time(NULL);
	int i, h;

	strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&now));
	fprintf(out, "\n%s  %.2f s\n", ts, secs);
	fprintf(out, "  %-13s %11s %12s %9s %8s %7s\n", "", "events", "pages",
		"events/s", "avg", "max");
	/* the table first, then the lines of the other kinds */
	for (i = 0; i < nr_figs; i++)
		if (fig_table[i].type == FIG_BATCH &&
		    facts_fig_shown(fa, &fig_table[i]))
			text_fig(out, &fig_table[i], fa, f, secs);
	for (i = 0; i < nr_figs; i++)
		if (fig_table[i].type != FIG_BATCH &&
		    facts_fig_shown(fa, &fig_table[i]))
			text_fig(out, &fig_table[i], fa, f, secs);
	scale_inferred_line(&fa->scale, inferred, sizeof(inferred));
	fprintf(out, "  scale %d (%s); %s\n", fa->scale.value,
		scale_source_name(fa->scale.source), inferred);
	if (fa->scale.note[0])
		fprintf(out, "  note: %s\n", fa->scale.note);
	detail_print_text(out, fa, f, "  ");
	if (hists) {
		for (h = 0; h < NR_PCPTOP_HISTS; h++) {
			if (!f->hist[h].samples ||
			    !strcmp(hist_table[h].unit, "scale"))
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
	json_obj_begin(w, "scale");
	if (s->value >= 0)
		json_int(w, "value", s->value);
	else
		json_null(w, "value");
	json_str(w, "source", scale_source_name(s->source));
	json_scale_inferred(w, s);
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

		if (facts_fig_shown(fa, d))
			json_figure(&w, fa, d, f, secs);
		else
			json_null(&w, d->key);
	}
	json_obj_begin(&w, "hist");
	for (h = 0; h < NR_PCPTOP_HISTS; h++)
		if (facts_hist_shown(fa, h))
			json_hist(&w, h, f);
	detail_json_hists(&w, fa, f);
	json_obj_end(&w);
	detail_json_pcp(&w, f);
	if (fa->self.valid)
		json_self(&w, &fa->self);
	json_obj_end(&w);
	json_end_line(&w);
}

void stat_observe_scale(struct facts *fa, const struct figures *f)
{
	const struct figure_hist *lb = &f->hist[HIST_SCALE_AT_LEAST];
	const struct figure_hist *ex = &f->hist[HIST_SCALE_EXACT];

	scale_observe(&fa->scale, (int)lb->max, lb->samples, (int)ex->max,
		      ex->samples);
}
