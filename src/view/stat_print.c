// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "budget_text.h"
#include "json.h"
#include "json_budget.h"
#include "json_facts.h"
#include "json_fig.h"
#include "stat_print.h"
#include "text.h"
#include "units.h"

#define SCALE_LINE_LEN 512

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
				fa->probes[i].estimated ? "~" : "");
	fprintf(out,
		"\nTracing PCP batching... Hit Ctrl-C to end. '~' = estimated (docs/ACCURACY.md).\n");
	fflush(out);
}

void stat_print_text(FILE *out, const struct facts *fa, const struct figures *f,
		     const struct samples *s, double secs, bool hists)
{
	char ts[16], inferred[SCALE_INFERRED_LEN], wall[BUDGET_LINE_LEN];
	time_t now = time(NULL);
	struct time_budget b;

	strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&now));
	fprintf(out, "\n%s  %.2f s\n", ts, secs);
	text_figures(out, fa, f, secs, TEXT_INTERVAL);
	scale_inferred_line(&fa->scale, inferred, sizeof(inferred));
	fprintf(out, "  scale %d (%s); %s\n", fa->scale.value,
		scale_source_name(fa->scale.source), inferred);
	if (fa->scale.note[0])
		fprintf(out, "  note: %s\n", fa->scale.note);
	text_latency(out, fa, f, "  ");
	text_by_mt(out, fa, f, "  ");
	text_sampled(out, fa, s, secs, TEXT_INTERVAL);
	budget_compute(fa, f, s, secs, &b);
	text_budget_line(wall, sizeof(wall), &b);
	fprintf(out, "  wall time: %s of %.0f CPU%s", wall, b.cpus,
		b.cpus == 1 ? "" : "s");
	if (b.have_split)
		fprintf(out,
			"; waiting on a throttled writer %.2f s, a block request %.2f s, nothing (no iowait) %.2f s, iowait on nothing named %.2f s",
			b.split_s[WAIT_ON_DIRTY], b.split_s[WAIT_ON_BLOCK],
			b.split_s[WAIT_ON_NOTHING], b.split_s[WAIT_ON_NONE]);
	fputc('\n', out);
	if (hists)
		text_hists(out, f);
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
		     const struct samples *s, double secs)
{
	struct time_budget b;
	struct json_writer w;
	int i, h;

	budget_compute(fa, f, s, secs, &b);
	json_init(&w, out);
	json_obj_begin(&w, NULL);
	json_schema(&w);
	json_double(&w, "ts", (double)time(NULL));
	json_double(&w, "interval_s", secs);
	json_str(&w, "mode", fa->mode_summary);
	json_obj_begin(&w, "modes");
	for (i = 0; i < fa->nr_probes; i++)
		json_str(&w, fa->probes[i].name, fa->probes[i].mode_name);
	json_obj_end(&w);
	json_scale(&w, &fa->scale);
	json_figures(&w, fa, f, s, secs);
	json_budget(&w, &b);
	json_obj_begin(&w, "hist");
	for (h = 0; h < NR_PCPTOP_HISTS; h++)
		if (facts_hist_shown(fa, h))
			json_hist(&w, h, f);
	json_lat_hists(&w, fa, f);
	json_obj_end(&w);
	if (fa->self.valid)
		json_self(&w, &fa->self);
	json_obj_end(&w);
	json_end_line(&w);
}
