// SPDX-License-Identifier: GPL-2.0-only
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "facts.h"
#include "figures.h"

void facts_init(struct facts *f)
{
	int i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
		f->counted[i] = true;
	for (i = 0; i < NR_PCPTOP_HISTS; i++)
		f->hist_kept[i] = true;
	f->scale.value = -1;
	f->scale.source = SCALE_SRC_UNKNOWN;
	f->pageblock_order = -1;
	f->pages_per_block = -1;
	f->pageblock_err = -ENOENT;
	f->high_fraction = -1;
	f->high_fraction_err = -ENOENT;
}

void facts_free(struct facts *f)
{
	zoneinfo_free(&f->zones);
}

const struct fact_probe *facts_probe(const struct facts *f, const char *name)
{
	int i;

	for (i = 0; i < f->nr_probes; i++)
		if (!strcmp(f->probes[i].name, name))
			return &f->probes[i];
	return NULL;
}

enum probe_mode facts_mode(const struct facts *f, int probe_id)
{
	const struct fact_probe *p;

	if (probe_id < 0 || probe_id >= NR_PROBES)
		return MODE_NONE;
	p = facts_probe(f, probe_table[probe_id].name);
	return p ? p->mode : MODE_NONE;
}

bool facts_estimated(const struct facts *f, int probe_id)
{
	const struct fact_probe *p;

	if (probe_id < 0 || probe_id >= NR_PROBES)
		return false;
	p = facts_probe(f, probe_table[probe_id].name);
	return p && p->estimated;
}

static bool kept(const struct facts *f, int counter)
{
	return counter < 0 ||
	       (counter < NR_PCPTOP_COUNTERS && f->counted[counter]);
}

/* a recording made before a figure's counters were counted lacks it */
static bool fig_kept(const struct facts *f, const struct fig_desc *d)
{
	int k;

	if (!kept(f, d->events) || !kept(f, d->pages) || !kept(f, d->total))
		return false;
	if (d->hist >= 0 && d->hist < NR_PCPTOP_HISTS && !f->hist_kept[d->hist])
		return false;
	for (k = 0; k < fig_nr_parts(d); k++)
		if (!kept(f, d->parts[k].counter))
			return false;
	return true;
}

bool facts_fig_shown(const struct facts *f, const struct fig_desc *d)
{
	if (d->type == FIG_SAMPLED)
		return fig_index(d) < FIGTAB_MAX && f->sampled[fig_index(d)];
	if ((d->flags & FIG_NEEDS_XCHECK) && !f->cross_check)
		return false;
	if (d->beside && probe_mode_fn(facts_mode(f, d->probe)) &&
	    facts_mode(f, d->beside - 1) == MODE_NONE)
		return false;
	return fig_kept(f, d) && fig_measured(d, facts_mode(f, d->probe));
}

bool facts_probe_listed(const struct facts *f, int i)
{
	int id = probe_find(f->probes[i].name);

	/*
	 * Support probes only ride beside function probes; opt-in ones are
	 * noise in the one-line list when not asked for (info lists them)
	 */
	return !(f->probes[i].mode == MODE_NONE && id >= 0 &&
		 (probe_table[id].support || probe_table[id].opt_in));
}

bool facts_hist_shown(const struct facts *f, int hist)
{
	const struct hist_desc *h;

	if (hist < 0 || hist >= NR_PCPTOP_HISTS)
		return false;
	h = &hist_table[hist];
	if (h->weighted)
		return false;
	return f->hist_kept[hist] && hist_measured(h, facts_mode(f, h->probe));
}

bool facts_extra_shown(const struct facts *f, const struct fig_desc *d, int k)
{
	unsigned int avail = d->extras[k].avail;
	enum probe_mode m = facts_mode(f, d->probe);

	return kept(f, d->extras[k].counter) &&
	       (!avail || (avail & PROBE_MODE_BIT(m)));
}

/*
 * A heuristic that is exact on this kernel (free_high on 6.1) says so in
 * its probe's estimated flag: both must agree for a figure to be marked.
 */
bool facts_events_estimated(const struct facts *f, const struct fig_desc *d)
{
	return fig_events_estimated(d, facts_mode(f, d->probe)) &&
	       facts_estimated(f, d->probe);
}

bool facts_pages_estimated(const struct facts *f, const struct fig_desc *d)
{
	return fig_pages_estimated(d, facts_mode(f, d->probe)) &&
	       facts_estimated(f, d->probe);
}

const char *facts_summary_mode(const struct facts *f)
{
	enum probe_mode common = MODE_NONE;
	int i;

	for (i = 0; i < f->nr_probes; i++) {
		enum probe_mode m = f->probes[i].mode;

		if (m == MODE_NONE || m == MODE_HEURISTIC)
			continue;
		if (common != MODE_NONE && common != m)
			return "mixed";
		common = m;
	}
	return probe_mode_name(common);
}

const char *facts_zone_name(const struct facts *f, int idx)
{
	int i, n = 0;

	for (i = 0; i < f->zones.nr_zones; i++) {
		if (f->zones.zones[i].node != 0)
			continue;
		if (n++ == idx)
			return f->zones.zones[i].name;
	}
	return "?";
}

void facts_instance_name(const struct facts *f, enum sample_scope scope, int k,
			 char *buf, size_t len)
{
	int last = sample_instances(scope) - 1;

	switch (scope) {
	case SCOPE_CPU:
		snprintf(buf, len, "cpu%d%s", k, k == last ? "+" : "");
		break;
	case SCOPE_DEV:
		snprintf(buf, len, "%s",
			 k >= 0 && k < f->nr_devs && k < SAMPLE_DEVS ?
				 f->devs[k] :
				 "?");
		break;
	default:
		snprintf(buf, len, "%s", facts_zone_name(f, k));
		break;
	}
}

const char *facts_instance_label(enum sample_scope scope)
{
	return scope == SCOPE_CPU ? "cpu" :
	       scope == SCOPE_DEV ? "device" :
				    "zone";
}

int facts_max_batch(const struct facts *f)
{
	int i, c, best = 0;

	for (i = 0; i < f->zones.nr_zones; i++)
		for (c = 0; c < f->zones.zones[i].nr_cpus; c++)
			if (f->zones.zones[i].cpus[c].batch > best)
				best = f->zones.zones[i].cpus[c].batch;
	return best;
}

unsigned long long facts_chunk_bound(const struct facts *f)
{
	int batch = facts_max_batch(f);

	/* an inferred scale is a lower bound: no bound can come from it */
	if (batch <= 0 || f->scale.value < 0 ||
	    f->scale.source == SCALE_SRC_INFERRED)
		return 0;
	return (unsigned long long)batch << f->scale.value;
}

void facts_scale_line(const struct facts *f, char *buf, size_t len)
{
	const struct scale_info *s = &f->scale;
	const char *where = "";

	if (s->source == SCALE_SRC_CONFIG)
		where = s->config_path;
	else if (s->source == SCALE_SRC_CMDLINE)
		where = "/proc/cmdline";
	else if (s->source == SCALE_SRC_KVAR)
		where = "pcp_batch_scale_max";

	if (s->source == SCALE_SRC_NONE)
		snprintf(buf, len, "scale none (%s)", s->note);
	else if (s->value < 0)
		snprintf(
			buf, len,
			"scale unknown (no kernel variable, cmdline or config found)");
	else
		snprintf(buf, len, "scale %d (%s%s%s)%s%s", s->value,
			 scale_source_name(s->source), where[0] ? ", " : "",
			 where, s->note[0] ? "; " : "", s->note);
}

bool facts_latency(const struct facts *fa, int dir)
{
	enum probe_mode m =
		facts_mode(fa, dir == LAT_ALLOC ? PROBE_ALLOC : PROBE_FREE);

	return m == MODE_FENTRY || m == MODE_KPROBE;
}

void facts_observe_scale(struct facts *fa, const struct figures *f)
{
	const struct figure_hist *lb = &f->hist[HIST_SCALE_AT_LEAST];
	const struct figure_hist *ex = &f->hist[HIST_SCALE_EXACT];

	scale_observe(&fa->scale, (int)lb->max, lb->samples, (int)ex->max,
		      ex->samples);
}
