// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Prometheus text exposition format for node_exporter's textfile
 * collector. Counters are totals since pcptop started (Prometheus takes
 * rates itself); the time percentiles are gauges over the last interval;
 * every log2 histogram is exported as a Prometheus histogram whose
 * buckets are the BPF slots' upper bounds. estimated="true" marks figures
 * made from tracepoint event runs or guesses (figtab's est_* masks).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "hist.h"
#include "outfile.h"
#include "prom.h"
#include "arrays.h"
#include "units.h"

#define PROM_PATH_MAX 4096

void prom_init(struct prom_state *ps, const char *path,
	       const struct facts *facts)
{
	memset(ps, 0, sizeof(*ps));
	ps->path = path;
	ps->facts = facts;
	/* the file a previous run left is kept, as a recording's is */
	if (path && outfile_keep_old(path) && !ps->warned) {
		fprintf(stderr, "pcptop: --prom %s: cannot keep it as %s.old\n",
			path, path);
		ps->warned = true;
	}
}

/* label values: backslash, double quote and newline are escaped */
static void put_label(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
	}
}

static void head(FILE *f, const char *name, const char *type, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/*
 * Prometheus wants base units: figtab keeps nanoseconds, and a metric
 * named in seconds shows them as seconds.
 */
static bool in_seconds(const char *name)
{
	return strstr(name, "_seconds") != NULL;
}

static double prom_value(const char *name, double v)
{
	return in_seconds(name) ? v / (double)NSEC_PER_SEC : v;
}

static void counter(FILE *f, const char *name, const char *help,
		    unsigned long long v, bool estimated)
{
	if (!name)
		return;
	head(f, name, "counter", help);
	if (in_seconds(name))
		fprintf(f, "%s{estimated=\"%s\"} %.9f\n", name,
			estimated ? "true" : "false", prom_value(name, v));
	else
		fprintf(f, "%s{estimated=\"%s\"} %llu\n", name,
			estimated ? "true" : "false", v);
}

/* a gauge already in its base unit: seconds, a timestamp, pages */
static void gauge_base(FILE *f, const char *name, const char *help, double v)
{
	head(f, name, "gauge", help);
	fprintf(f, "%s %.15g\n", name, v);
}

/* a figtab gauge: its ns go out in seconds when its name says seconds */
static void gauge(FILE *f, const char *name, const char *suffix,
		  const char *help, double v)
{
	char full[128];

	snprintf(full, sizeof(full), "%s%s", name, suffix);
	gauge_base(f, full, help, prom_value(full, v));
}

static void histogram(FILE *f, const struct hist_desc *hd,
		      const struct figure_hist *h, unsigned long long sum)
{
	uint64_t cum = 0;
	int i;

	head(f, hd->prom, "histogram", hd->prom_help);
	for (i = 0; i < PCPTOP_HIST_SLOTS; i++) {
		cum += h->slots[i];
		fprintf(f, "%s_bucket{le=\"%.15g\"} %llu\n", hd->prom,
			prom_value(hd->prom, (double)hist_slot_hi(i)),
			(unsigned long long)cum);
	}
	fprintf(f, "%s_bucket{le=\"+Inf\"} %llu\n", hd->prom,
		(unsigned long long)h->samples);
	fprintf(f, "%s_sum %.15g\n%s_count %llu\n", hd->prom,
		prom_value(hd->prom, (double)sum), hd->prom,
		(unsigned long long)h->samples);
}

static void write_facts(FILE *f, const struct facts *fa)
{
	head(f, "pcptop_info", "gauge",
	     "Always 1; the labels name the kernel and how pcptop attached.");
	fputs("pcptop_info{kernel=\"", f);
	put_label(f, fa->release);
	fputs("\",arch=\"", f);
	put_label(f, fa->arch);
	fputs("\",mode=\"", f);
	put_label(f, facts_summary_mode(fa));
	fputs("\"} 1\n", f);
	head(f, "pcptop_scale", "gauge",
	     "PCP batch scale in force (pcp_batch_scale_max), -1 when unknown; source says where it was read.");
	fputs("pcptop_scale{source=\"", f);
	put_label(f, scale_source_name(fa->scale.source));
	fprintf(f, "\"} %d\n", fa->scale.value);
	gauge_base(
		f, "pcptop_pcp_batch_max",
		"Largest pcp->batch of any zone and CPU at start, 0 when unknown.",
		facts_max_batch(fa));
}

/* the sum a histogram's _sum reports: pages moved, or ns */
static unsigned long long hist_sum(int h, const struct figures *t)
{
	int i;

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (d->hist != h)
			continue;
		return d->type == FIG_TIME ? fig_total(d, t) : fig_pages(d, t);
	}
	return 0;
}

/*
 * Base units again (promtool rejects "kibibytes"): a figure /proc gives
 * in KiB (pgpgin, pgpgout) goes out in bytes, sectors in bytes, ms and us
 * (/proc/stat, /sys/block, /proc/pressure) in seconds
 */
static const struct {
	const char *unit;
	double mul;
} base_units[] = {
	{ "KiB", 1024.0 },
	{ "sectors", 512.0 },
	{ "ms", 1e-3 },
	{ "us", 1e-6 },
};

static void put_sampled_value(FILE *f, const struct fig_desc *d,
			      const struct sample_cell *c)
{
	long long v = sample_value(d, c);
	size_t i;

	for (i = 0; d->sample.unit && i < ARRAY_SIZE(base_units); i++) {
		if (strcmp(d->sample.unit, base_units[i].unit))
			continue;
		if (base_units[i].mul >= 1.0)
			fprintf(f, "%lld\n", v * (long long)base_units[i].mul);
		else
			fprintf(f, "%.6f\n", (double)v * base_units[i].mul);
		return;
	}
	fprintf(f, "%lld\n", v);
}

/*
 * One sample of a per-zone figure: zone z (o < 0), or its order o; a
 * per-order figure gives its orders only (a zone's is their sum). A
 * per-CPU or per-device figure's instance z, labelled cpu or device.
 */
static void zone_sample(FILE *f, const struct fig_desc *d,
			const struct facts *fa, const struct samples *s,
			const char *name, int z, int o)
{
	bool counter = d->sample.kind == SAMPLE_COUNTER;
	const struct sample_cell *c;
	char inst[FACTS_STR_LEN];

	if ((o >= 0) != (d->sample.scope == SCOPE_ZONE_ORDER))
		return;
	c = samples_cell(s, d,
			 o < 0 ? sample_zone_cell(z) : sample_order_cell(z, o));
	if (!sample_present(c))
		return;
	facts_instance_name(fa, d->sample.scope, z, inst, sizeof(inst));
	/* node_exporter's convention: cpu="0", not "cpu0" */
	fprintf(f, "%s{%s=\"", name, facts_instance_label(d->sample.scope));
	put_label(f, d->sample.scope == SCOPE_CPU ?
			     inst + strlen(facts_instance_label(SCOPE_CPU)) :
			     inst);
	if (o >= 0)
		fprintf(f, "\",order=\"%d", o);
	fputs(counter ? "\",estimated=\"false\"} " : "\"} ", f);
	put_sampled_value(f, d, c);
}

/*
 * A sampled figure: a counter's total since start (prom_total), or a
 * gauge's last level (prom_gauge), with a zone (cpu, device) label per
 * instance (and an order label per order).
 */
static void write_sampled(FILE *f, const struct fig_desc *d,
			  const struct facts *fa, const struct samples *s)
{
	bool counter = d->sample.kind == SAMPLE_COUNTER;
	const char *name = counter ? d->prom_total : d->prom_gauge;
	const struct sample_cell *c;
	int z, o;

	if (!name)
		return;
	head(f, name, counter ? "counter" : "gauge",
	     counter ? d->prom_total_help : d->prom_gauge_help);
	if (d->sample.scope == SCOPE_MACHINE) {
		c = samples_cell(s, d, 0);
		if (!sample_present(c))
			return;
		fprintf(f, counter ? "%s{estimated=\"false\"} " : "%s ", name);
		put_sampled_value(f, d, c);
		return;
	}
	for (z = 0; z < sample_instances(d->sample.scope); z++)
		for (o = -1; o < SAMPLE_ORDERS; o++)
			zone_sample(f, d, fa, s, name, z, o);
}

/*
 * a split: one counter, a line a part, the part's key its label; a split
 * of nanoseconds named in seconds in seconds
 */
static void write_split(FILE *f, const struct fig_desc *d,
			const struct facts *fa, const struct figures *t)
{
	bool est = facts_pages_estimated(fa, d);
	int k;

	if (!d->prom_total)
		return;
	head(f, d->prom_total, "counter", d->prom_total_help);
	for (k = 0; k < fig_nr_parts(d); k++) {
		fprintf(f, "%s{%s=\"", d->prom_total, d->part_label);
		put_label(f, d->parts[k].key);
		if (in_seconds(d->prom_total))
			fprintf(f, "\",estimated=\"%s\"} %.9f\n",
				est ? "true" : "false",
				prom_value(d->prom_total,
					   (double)fig_part(d, k, t)));
		else
			fprintf(f, "\",estimated=\"%s\"} %llu\n",
				est ? "true" : "false",
				(unsigned long long)fig_part(d, k, t));
	}
}

/*
 * What batching costs, for a fleet: refills by migratetype, and with
 * --latency the mean allocation and free latency by path.
 */
static void write_detail(FILE *f, const struct facts *fa,
			 const struct figures *last, const struct figures *t)
{
	char name_buf[64];
	struct figure_lat l;
	int m, d, p;

	if (facts_mode(fa, PROBE_REFILL) != MODE_NONE) {
		head(f, "pcptop_refill_migratetype_pages_total", "counter",
		     "Pages taken by refills, by migratetype (CMA on its own).");
		for (m = 0; m < PCPTOP_MT_SLOTS; m++)
			fprintf(f,
				"pcptop_refill_migratetype_pages_total{migratetype=\"%s\"} %llu\n",
				mt_slot_name(m),
				(unsigned long long)
					t->mt_cnt[m][CNT_REFILL_PAGES]);
	}
	for (d = 0; d < NR_LAT_DIRS; d++) {
		if (!facts_latency(fa, d))
			continue;
		snprintf(name_buf, sizeof(name_buf), "pcptop_%s_seconds_mean",
			 d == LAT_ALLOC ? "alloc" : "free");
		head(f, name_buf, "gauge",
		     d == LAT_ALLOC ?
			     "Mean allocation latency over the last interval, by path (--latency)." :
			     "Mean pcp free latency over the last interval, by path (--latency).");
		for (p = 0; p < NR_LAT_PATHS; p++) {
			figures_lat(last, d, p, -1, &l);
			fprintf(f, "%s{path=\"%s\"} %.9f\n", name_buf,
				lat_path_name(d, p),
				figure_lat_mean(&l) / (double)NSEC_PER_SEC);
		}
	}
}

void prom_write(FILE *f, const struct prom_state *ps,
		const struct figures *last, double secs)
{
	const struct facts *fa = ps->facts;
	const struct figures *t = &ps->total;
	char help[256];
	int i;

	write_facts(f, fa);
	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];
		bool est = facts_events_estimated(fa, d);
		int k;

		if (!facts_fig_shown(fa, d))
			continue;
		if (d->type == FIG_SAMPLED) {
			write_sampled(f, d, fa, &ps->smp);
			continue;
		}
		if (d->type == FIG_SPLIT) {
			write_split(f, d, fa, t);
			continue;
		}
		counter(f, d->prom_events, d->prom_events_help,
			fig_events(d, t), est);
		counter(f, d->prom_pages, d->prom_pages_help, fig_pages(d, t),
			facts_pages_estimated(fa, d));
		counter(f, d->prom_total, d->prom_total_help, fig_total(d, t),
			est);
		for (k = 0; k < FIG_MAX_EXTRAS && d->extras[k].key; k++)
			if (facts_extra_shown(fa, d, k))
				counter(f, d->extras[k].prom,
					d->extras[k].prom_help,
					t->cnt[d->extras[k].counter], est);
	}
	head(f, "pcptop_seconds_total", "counter",
	     "Seconds of counting behind the totals.");
	fprintf(f, "pcptop_seconds_total %.3f\n", ps->seconds);

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];

		if (!d->prom_gauge || d->type == FIG_SAMPLED ||
		    !facts_fig_shown(fa, d))
			continue;
		if (d->type == FIG_TIME) {
			snprintf(help, sizeof(help),
				 "Median %s (log2 bucket bound).",
				 d->prom_gauge_help);
			gauge(f, d->prom_gauge, "_p50", help,
			      (double)fig_pct(d, last, PCT_MEDIAN));
			snprintf(help, sizeof(help),
				 "99th percentile %s (log2 bucket bound).",
				 d->prom_gauge_help);
			gauge(f, d->prom_gauge, "_p99", help,
			      (double)fig_pct(d, last, PCT_TAIL));
			snprintf(help, sizeof(help), "Longest %s.",
				 d->prom_gauge_help);
			gauge(f, d->prom_gauge, "_max", help,
			      (double)fig_max(d, last));
		} else if (d->flags & FIG_PROM_MAX) {
			gauge(f, d->prom_gauge, "_max", d->prom_gauge_help,
			      (double)fig_max(d, last));
		}
	}
	write_detail(f, fa, last, t);
	/* already seconds: not the figtab gauges' ns */
	gauge_base(f, "pcptop_interval_seconds", "Length of the last interval.",
		   secs);
	gauge_base(f, "pcptop_last_update_timestamp_seconds",
		   "When this file was written (Unix time).",
		   (double)time(NULL));

	for (i = 0; i < NR_PCPTOP_HISTS; i++)
		if (facts_hist_shown(fa, i))
			histogram(f, &hist_table[i], &t->hist[i],
				  hist_sum(i, t));
}

int prom_add(struct prom_state *ps, const struct figures *f,
	     const struct samples *s, double secs)
{
	int err;

	if (!ps->smp.c) {
		err = samples_alloc(&ps->smp);
		if (err)
			return err;
	}
	figures_add(&ps->total, f);
	samples_add(&ps->smp, s);
	ps->seconds += secs;
	return 0;
}

void prom_free(struct prom_state *ps)
{
	samples_free(&ps->smp);
}

int prom_remove(const struct prom_state *ps)
{
	int err;

	if (!ps->path || !unlink(ps->path) || errno == ENOENT)
		return 0;
	err = -errno;
	fprintf(stderr, "pcptop: --prom %s: cannot remove it: %s\n", ps->path,
		strerror(-err));
	return err;
}

int prom_update(struct prom_state *ps, const struct figures *f,
		const struct samples *s, double secs)
{
	char tmp[PROM_PATH_MAX];
	FILE *out;
	int err = 0, fd;

	if (!ps->path)
		return 0;
	err = prom_add(ps, f, s, secs);
	if (err)
		goto out;
	/* node_exporter reads only *.prom: FILE.tmp is never half-read */
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", ps->path) >=
	    (int)sizeof(tmp)) {
		err = -ENAMETOOLONG;
		goto out;
	}
	/* FILE.tmp: never through a symlink someone left there */
	fd = outfile_scratch(tmp);
	out = fd < 0 ? NULL : fdopen(fd, "w");
	if (!out) {
		err = fd < 0 ? fd : -errno;
		if (fd >= 0)
			close(fd);
		goto out;
	}
	prom_write(out, ps, f, secs);
	if (ferror(out))
		err = -EIO;
	if (fclose(out) && !err)
		err = -errno;
	if (!err && rename(tmp, ps->path))
		err = -errno;
	if (err)
		remove(tmp);
out:
	if (err && !ps->warned) {
		fprintf(stderr,
			"pcptop: --prom %s: %s (will retry each interval)\n",
			ps->path, strerror(-err));
		ps->warned = true;
	}
	return err;
}
