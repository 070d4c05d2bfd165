// SPDX-License-Identifier: GPL-2.0-only
/*
 * The Prometheus text exposition format for node_exporter's textfile
 * collector. Counters are totals since pcptop started (Prometheus takes
 * rates itself); the lock-time percentiles are gauges over the last
 * interval; four log2 histograms are exported as Prometheus histograms
 * whose buckets are the BPF slots' upper bounds. estimated="true" marks
 * figures made from tracepoint event runs; pages moved by bulk frees and
 * refills are exact in every mode, so they never carry it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "hist.h"
#include "prom.h"
#include "system.h"

#define PROM_PATH_MAX 4096
#define PCT_MEDIAN 50.0
#define PCT_TAIL 99.0

void figures_add(struct figures *dst, const struct figures *src)
{
	int i;

	for (i = 0; i < NR_PCPTOP_COUNTERS; i++)
		dst->cnt[i] += src->cnt[i];
	for (i = 0; i < NR_PCPTOP_HISTS; i++) {
		hist_add(dst->hist[i].slots, src->hist[i].slots,
			 PCPTOP_HIST_SLOTS);
		dst->hist[i].samples += src->hist[i].samples;
		if (src->hist[i].max > dst->hist[i].max)
			dst->hist[i].max = src->hist[i].max;
	}
}

void prom_init(struct prom_state *ps, const char *path, const struct attach *a,
	       const struct system_facts *sf)
{
	int id;

	memset(ps, 0, sizeof(*ps));
	ps->path = path;
	snprintf(ps->release, sizeof(ps->release), "%s", sf->uts.release);
	snprintf(ps->arch, sizeof(ps->arch), "%s", sf->uts.machine);
	snprintf(ps->mode, sizeof(ps->mode), "%s", attach_summary_mode(a));
	snprintf(ps->scale_source, sizeof(ps->scale_source), "%s",
		 scale_source_name(sf->scale.source));
	ps->scale = sf->scale.value;
	ps->max_batch = system_max_batch(sf);
	for (id = 0; id < NR_PROBES; id++)
		ps->estimated[id] = a->probes[id].estimated;
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

static void head(FILE *f, const char *name, const char *type,
		 const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void counter(FILE *f, const char *name, const char *help,
		    unsigned long long v, bool estimated)
{
	head(f, name, "counter", help);
	fprintf(f, "%s{estimated=\"%s\"} %llu\n", name,
		estimated ? "true" : "false", v);
}

static void gauge(FILE *f, const char *name, const char *help, double v)
{
	head(f, name, "gauge", help);
	fprintf(f, "%s %.15g\n", name, v);
}

static void histogram(FILE *f, const char *name, const char *help,
		      const struct figure_hist *h, unsigned long long sum)
{
	uint64_t cum = 0;
	int i;

	head(f, name, "histogram", help);
	for (i = 0; i < PCPTOP_HIST_SLOTS; i++) {
		cum += h->slots[i];
		fprintf(f, "%s_bucket{le=\"%llu\"} %llu\n", name,
			(unsigned long long)hist_slot_hi(i),
			(unsigned long long)cum);
	}
	fprintf(f, "%s_bucket{le=\"+Inf\"} %llu\n", name,
		(unsigned long long)h->samples);
	fprintf(f, "%s_sum %llu\n%s_count %llu\n", name, sum, name,
		(unsigned long long)h->samples);
}

static void write_metrics(FILE *f, const struct prom_state *ps,
			  const struct figures *last, double secs)
{
	const struct figures *t = &ps->total;
	const uint64_t *lock = last->hist[HIST_LOCK_NS].slots;

	head(f, "pcptop_info", "gauge",
	     "Always 1; the labels name the kernel and how pcptop attached.");
	fputs("pcptop_info{kernel=\"", f);
	put_label(f, ps->release);
	fputs("\",arch=\"", f);
	put_label(f, ps->arch);
	fputs("\",mode=\"", f);
	put_label(f, ps->mode);
	fputs("\"} 1\n", f);
	head(f, "pcptop_scale", "gauge",
	     "PCP batch scale in force (pcp_batch_scale_max), -1 when unknown; source says where it was read.");
	fputs("pcptop_scale{source=\"", f);
	put_label(f, ps->scale_source);
	fprintf(f, "\"} %d\n", ps->scale);
	gauge(f, "pcptop_pcp_batch_max",
	      "Largest pcp->batch of any zone and CPU at start, 0 when unknown.",
	      ps->max_batch);

	counter(f, "pcptop_bulk_free_calls_total",
		"free_pcppages_bulk calls (event runs when estimated).",
		t->cnt[CNT_BULK_FREE_CALLS], ps->estimated[PROBE_BULK_FREE]);
	counter(f, "pcptop_bulk_free_pages_total",
		"Pages returned to the buddy allocator by bulk frees.",
		t->cnt[CNT_BULK_FREE_PAGES], false);
	counter(f, "pcptop_refill_calls_total",
		"rmqueue_bulk calls (event runs when estimated).",
		t->cnt[CNT_REFILL_CALLS], ps->estimated[PROBE_REFILL]);
	counter(f, "pcptop_refill_pages_total",
		"Pages taken from the buddy allocator by refills.",
		t->cnt[CNT_REFILL_PAGES], false);
	counter(f, "pcptop_free_high_total", "free_high flushes.",
		t->cnt[CNT_FREE_HIGH_COUNT], ps->estimated[PROBE_FREE_HIGH]);
	counter(f, "pcptop_free_high_pages_total",
		"Pages freed by free_high flushes.",
		t->cnt[CNT_FREE_HIGH_PAGES], ps->estimated[PROBE_FREE_HIGH]);
	counter(f, "pcptop_decay_calls_total", "decay_pcp_high calls.",
		t->cnt[CNT_DECAY_CALLS], ps->estimated[PROBE_DECAY]);
	counter(f, "pcptop_decay_pages_total",
		"Pages freed by decay_pcp_high.", t->cnt[CNT_DECAY_PAGES],
		ps->estimated[PROBE_DECAY]);
	counter(f, "pcptop_drain_calls_total", "drain_pages_zone chunks.",
		t->cnt[CNT_DRAIN_CALLS], ps->estimated[PROBE_DRAIN]);
	counter(f, "pcptop_drain_pages_total",
		"Pages freed by drain_pages_zone.", t->cnt[CNT_DRAIN_PAGES],
		ps->estimated[PROBE_DRAIN]);
	counter(f, "pcptop_lock_ns_total",
		"zone->lock wait + hold on the bulk free path, nanoseconds.",
		t->cnt[CNT_BULK_FREE_NS], ps->estimated[PROBE_BULK_FREE]);
	counter(f, "pcptop_refill_lock_ns_total",
		"zone->lock wait + hold on the refill path, nanoseconds.",
		t->cnt[CNT_REFILL_NS], ps->estimated[PROBE_REFILL]);
	head(f, "pcptop_seconds_total", "counter",
	     "Seconds of counting behind the totals.");
	fprintf(f, "pcptop_seconds_total %.3f\n", ps->seconds);

	gauge(f, "pcptop_lock_ns_p50",
	      "Median zone->lock time of a bulk free in the last interval (log2 bucket bound).",
	      (double)hist_percentile(lock, PCPTOP_HIST_SLOTS, PCT_MEDIAN));
	gauge(f, "pcptop_lock_ns_p99",
	      "99th percentile zone->lock time of a bulk free in the last interval (log2 bucket bound).",
	      (double)hist_percentile(lock, PCPTOP_HIST_SLOTS, PCT_TAIL));
	gauge(f, "pcptop_lock_ns_max",
	      "Longest zone->lock time of a bulk free in the last interval.",
	      (double)last->hist[HIST_LOCK_NS].max);
	gauge(f, "pcptop_bulk_free_pages_max",
	      "Largest bulk free in the last interval, pages.",
	      (double)last->hist[HIST_BULK_FREE_PAGES].max);
	gauge(f, "pcptop_interval_seconds", "Length of the last interval.",
	      secs);
	gauge(f, "pcptop_last_update_timestamp_seconds",
	      "When this file was written.", (double)time(NULL));

	histogram(f, "pcptop_bulk_free_size_pages",
		  "Pages per bulk free since start.",
		  &t->hist[HIST_BULK_FREE_PAGES], t->cnt[CNT_BULK_FREE_PAGES]);
	histogram(f, "pcptop_refill_size_pages",
		  "Pages per refill since start.", &t->hist[HIST_REFILL_PAGES],
		  t->cnt[CNT_REFILL_PAGES]);
	histogram(f, "pcptop_free_high_size_pages",
		  "Pages per free_high flush since start.",
		  &t->hist[HIST_FREE_HIGH_PAGES], t->cnt[CNT_FREE_HIGH_PAGES]);
	histogram(f, "pcptop_lock_ns",
		  "zone->lock time per bulk free since start, nanoseconds.",
		  &t->hist[HIST_LOCK_NS], t->cnt[CNT_BULK_FREE_NS]);
}

int prom_update(struct prom_state *ps, const struct figures *f, double secs)
{
	char tmp[PROM_PATH_MAX];
	FILE *out;
	int err = 0;

	if (!ps->path)
		return 0;
	figures_add(&ps->total, f);
	ps->seconds += secs;
	/* node_exporter reads only *.prom: FILE.tmp is never half-read */
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", ps->path) >= (int)sizeof(tmp)) {
		err = -ENAMETOOLONG;
		goto out;
	}
	out = fopen(tmp, "w");
	if (!out) {
		err = -errno;
		goto out;
	}
	write_metrics(out, ps, f, secs);
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
		fprintf(stderr, "pcptop: --prom %s: %s (will retry each interval)\n",
			ps->path, strerror(-err));
		ps->warned = true;
	}
	return err;
}
