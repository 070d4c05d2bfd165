// SPDX-License-Identifier: GPL-2.0-only
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "synth.h"

#define SYNTH_CPUS 2
#define SYNTH_POINTS 3
#define SLOT_FIRST 3
#define SLOT_LAST 9

void synth_facts(struct facts *f, enum probe_mode mode, bool cross_check)
{
	static const char *const zones[] = { "DMA32", "Normal" };
	int id, z, c;

	facts_init(f);
	snprintf(f->release, sizeof(f->release), "6.12.0-synth");
	snprintf(f->arch, sizeof(f->arch), "x86_64");
	snprintf(f->hostname, sizeof(f->hostname), "synth");
	for (id = 0; id < NR_PROBES; id++) {
		struct fact_probe *p = &f->probes[f->nr_probes++];

		snprintf(p->name, sizeof(p->name), "%s", probe_table[id].name);
		p->mode = mode;
		/* as attach_plan.c has it: tracepoints stand in or nothing does */
		if (mode == MODE_TRACEPOINT &&
		    (!probe_table[id].tp || probe_table[id].support))
			p->mode = MODE_NONE;
		if (mode != MODE_TRACEPOINT && probe_table[id].support)
			p->mode = MODE_TRACEPOINT;
		/* a probe that is its tracepoints is one in every mode */
		if (!probe_table[id].fns[0] && !probe_table[id].support)
			p->mode = MODE_TRACEPOINT;
		snprintf(p->mode_name, sizeof(p->mode_name), "%s",
			 probe_mode_name(p->mode));
		p->estimated = (p->mode == MODE_TRACEPOINT &&
				!probe_table[id].support) ||
			       p->mode == MODE_HEURISTIC;
		snprintf(p->reason, sizeof(p->reason), "synthetic");
	}
	snprintf(f->mode_summary, sizeof(f->mode_summary), "%s",
		 facts_summary_mode(f));
	f->scale.value = 5;
	f->scale.source = SCALE_SRC_CONFIG;
	f->scale.have[SCALE_SRC_CONFIG] = true;
	f->scale.val[SCALE_SRC_CONFIG] = 5;
	f->zones.nr_zones = 2;
	f->zones.zones = calloc(2, sizeof(*f->zones.zones));
	for (z = 0; z < 2; z++) {
		struct zone_pcp *zp = &f->zones.zones[z];

		snprintf(zp->name, sizeof(zp->name), "%s", zones[z]);
		zp->nr_cpus = SYNTH_CPUS;
		zp->cpus = calloc(SYNTH_CPUS, sizeof(*zp->cpus));
		for (c = 0; c < SYNTH_CPUS; c++) {
			zp->cpus[c].cpu = c;
			zp->cpus[c].count = 100 + c;
			zp->cpus[c].high = 378;
			zp->cpus[c].batch = 63;
			zp->cpus[c].high_min = PCP_FIELD_ABSENT;
			zp->cpus[c].high_max = PCP_FIELD_ABSENT;
		}
	}
	f->pageblock_order = 9;
	f->pages_per_block = 512;
	f->pageblock_err = 0;
	f->high_fraction = 0;
	f->high_fraction_err = 0;
	f->run_gap_ns = 5000;
	f->run_cap_pages = facts_chunk_bound(f);
	f->cross_check = cross_check;
	for (id = 0; id < nr_figs && id < FIGTAB_MAX; id++)
		f->sampled[id] = fig_table[id].type == FIG_SAMPLED;
	f->nr_devs = 2;
	snprintf(f->devs[0], sizeof(f->devs[0]), "vda");
	snprintf(f->devs[1], sizeof(f->devs[1]), "vdb");
}

void synth_samples(struct samples *s, unsigned int seed)
{
	int i, z, o;

	samples_clear(s);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];
		int64_t v = 10000LL * (i + 1) + seed;

		if (d->type != FIG_SAMPLED)
			continue;
		if (d->sample.scope == SCOPE_MACHINE)
			samples_set(s, d, -1, v);
		/* zones, CPUs and devices 0 and 1 */
		for (z = 0; (d->sample.scope == SCOPE_ZONE ||
			     d->sample.scope == SCOPE_CPU ||
			     d->sample.scope == SCOPE_DEV) &&
			    z < 2;
		     z++)
			samples_set(s, d, z, v + z + 1);
		/* orders 0..2 of zones 0 and 1 */
		for (z = 0; d->sample.scope == SCOPE_ZONE_ORDER && z < 2; z++)
			for (o = 0; o < 3; o++)
				samples_set_order(s, d, z, o, v + z * 10 + o);
	}
	samples_sum_zones(s);
}

void synth_figures(struct figures *f, unsigned int seed)
{
	int i, s;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < NR_PCPTOP_COUNTERS; i++) {
		f->cnt[i] = 1000ULL * (i + 1) + seed;
		/* a counter's order slots add up to it, none alike */
		for (s = 1; s < PCPTOP_ORDER_SLOTS; s++) {
			f->ord_cnt[s][i] = 10ULL * s + i;
			f->ord_cnt[0][i] -= f->ord_cnt[s][i];
		}
		f->ord_cnt[0][i] += f->cnt[i];
	}
	for (i = 0; i < NR_PCPTOP_HISTS; i++) {
		for (s = SLOT_FIRST; s <= SLOT_LAST; s++) {
			f->hist[i].slots[s] = (uint64_t)(i + s + seed);
			f->hist[i].samples += f->hist[i].slots[s];
		}
		f->hist[i].max = (1ULL << SLOT_LAST) + i;
	}
}

void synth_summary(struct rec_summary *s, const char *path,
		   enum probe_mode mode, unsigned int seed)
{
	static char *argv[] = { "bonnie++", "-d", "/mnt/t", NULL };
	struct figures f;
	struct samples smp;
	int i, c, k;

	memset(s, 0, sizeof(*s));
	s->path = path;
	rec_header_init(&s->h, SYNTH_CPUS);
	snprintf(s->h.pcptop_version, sizeof(s->h.pcptop_version), "test");
	s->h.interval_ns = 1000000000ULL;
	s->h.start_realtime_ns = 1748736000ULL * 1000000000ULL;
	synth_facts(&s->h.f, mode, true);
	s->h.argc = 3;
	s->h.argv = calloc(4, sizeof(char *));
	for (i = 0; i < 3; i++)
		s->h.argv[i] = strdup(argv[i]);
	s->have_end = true;
	snprintf(s->end.reason, sizeof(s->end.reason), "command exited");
	s->end.have_command = true;
	s->end.wall_ns = 3000000000ULL + seed;
	s->end.utime_ns = 1000000000ULL;
	s->end.stime_ns = 500000000ULL;
	s->nr_points = SYNTH_POINTS;
	s->points = calloc(SYNTH_POINTS, sizeof(*s->points));
	s->cpu_cnt = calloc(SYNTH_CPUS, sizeof(*s->cpu_cnt));
	s->sv = calloc((size_t)SYNTH_POINTS * nr_figs, sizeof(*s->sv));
	samples_alloc(&s->total_smp);
	samples_alloc(&smp);
	for (i = 0; i < SYNTH_POINTS; i++) {
		struct rec_point *p = &s->points[i];

		synth_figures(&f, seed + i);
		figures_add(&s->total, &f);
		synth_samples(&smp, seed + i);
		samples_add(&s->total_smp, &smp);
		for (k = 0; k < nr_figs; k++) {
			const struct sample_cell *sc =
				samples_cell(&smp, &fig_table[k], 0);

			s->sv[(size_t)i * nr_figs + k] =
				sample_present(sc) ? sc->last :
						     REC_SAMPLE_ABSENT;
		}
		p->t = i + 1;
		p->secs = 1;
		memcpy(p->cnt, f.cnt, sizeof(p->cnt));
		for (c = 0; c < nr_figs; c++)
			for (k = 0; k < fig_nr_parts(&fig_table[c]); k++)
				if (fig_split_slot(&fig_table[c], k) >= 0)
					p->parts[fig_split_slot(&fig_table[c],
								k)] =
						fig_part(&fig_table[c], k, &f);
		for (c = 0; c < NR_PCPTOP_HISTS; c++) {
			p->hmax[c] = f.hist[c].max;
			p->hp99[c] = f.hist[c].max;
		}
		for (c = 0; c < NR_PCPTOP_COUNTERS; c++) {
			s->cpu_cnt[0][c] += f.cnt[c];
			s->zone_cnt[1][c] += f.cnt[c];
		}
	}
	s->recorded_s = SYNTH_POINTS;
	samples_free(&smp);
}

void synth_summary_free(struct rec_summary *s)
{
	rec_summary_free(s);
}

struct cmp_result *synth_compare(const struct rec_summary *a,
				 const struct rec_summary *b)
{
	struct cmp_result *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->a.n = r->b.n = 1;
	r->a.run[0] = a;
	r->b.run[0] = b;
	if (cmp_build(r)) {
		free(r);
		return NULL;
	}
	return r;
}

FILE *capture_open(struct capture *c)
{
	memset(c, 0, sizeof(*c));
	c->f = open_memstream(&c->buf, &c->len);
	return c->f;
}

const char *capture_text(struct capture *c)
{
	if (c->f) {
		fclose(c->f);
		c->f = NULL;
	}
	return c->buf ? c->buf : "";
}

void capture_free(struct capture *c)
{
	if (c->f)
		fclose(c->f);
	free(c->buf);
	memset(c, 0, sizeof(*c));
}
