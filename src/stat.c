// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop stat: like runqlat, each interval the counters and the log2
 * histograms, as text or one JSON object a line.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/libbpf.h>
#include "attach.h"
#include "cli.h"
#include "figures.h"
#include "hist.h"
#include "json.h"
#include "json_facts.h"
#include "prom.h"
#include "snapshot.h"
#include "system.h"

#define MAX_INTERVAL_S 86400.0
#define PCT_MEDIAN 50.0
#define PCT_TAIL 99.0

struct stat_opts {
	double interval;
	long count;		/* 0: until a signal */
	bool json;
	bool hists;
	const char *prom;	/* --prom FILE, or NULL */
	struct attach_opts attach;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: pcptop stat [-i SECS] [-c COUNT] [--mode MODE] [--json] [OPTIONS]\n"
		"\n"
		"Every interval: bulk frees (free_pcppages_bulk), refills (rmqueue_bulk),\n"
		"free_high flushes, decay_pcp_high trims and drain_pages_zone chunks, with\n"
		"calls, pages, average and largest batch, and log2 histograms of batch\n"
		"size and zone->lock time (wait + hold). Counts are summed in the kernel.\n"
		"\n"
		"  -i, --interval SECS  seconds per report (default 1)\n"
		"  -c, --count N        stop after N reports (default: until Ctrl-C)\n"
		"  -m, --mode MODE      auto (default): fentry, else kprobe, else tracepoints;\n"
		"                       or force fentry | kprobe | tracepoint\n"
		"  -j, --json           one JSON object per interval, one per line\n"
		"  -H, --no-hist        counters only, no histograms (text output)\n"
		"      --prom FILE      also keep FILE as a Prometheus textfile-collector\n"
		"                       file (pcptop_* metrics), rewritten every interval\n"
		"      --cross-check    also count pages with kmem:mm_page_pcpu_drain next to\n"
		"                       the function probe (the two must agree)\n"
		"      --run-gap NS     tracepoint mode: events further apart than NS on one\n"
		"                       CPU start a new estimated call (default %d)\n"
		"  -v, --verbose        libbpf's log on stderr\n"
		"  -h, --help           this text\n"
		"\n"
		"Figures marked '~' come from tracepoint event runs and are estimates; in\n"
		"tracepoint mode zones are not known and are shown as '-'.\n"
		"\n"
		"Examples:\n"
		"  pcptop stat -i 1                  text every second\n"
		"  pcptop stat -i 10 -c 1 --json     one object after 10 s\n"
		"  pcptop stat --mode tracepoint     never use fentry/kprobe\n"
		"  pcptop stat -i 15 --prom /var/lib/node_exporter/pcptop.prom >/dev/null\n"
		"                                    feed node_exporter's textfile collector\n",
		RUN_GAP_NS_DEFAULT);
}

static int parse_args(int argc, char **argv, struct stat_opts *o)
{
	enum { OPT_PROM = CLI_OPT_FIRST_FREE };
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "no-hist", no_argument, NULL, 'H' },
		{ "prom", required_argument, NULL, OPT_PROM },
		{ "help", no_argument, NULL, 'h' },
		CLI_ATTACH_LONGOPTS,
		{}
	};
	int c, err;

	o->interval = 1.0;
	o->hists = true;
	cli_attach_defaults(&o->attach);
	optind = 1;
	while ((c = getopt_long(argc, argv, "i:c:m:jHvh", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'i':
			if (cli_parse_seconds(optarg, MAX_INTERVAL_S,
					      &o->interval))
				return cli_error("bad interval '%s': give seconds, e.g. -i 1 or -i 0.5",
						 optarg);
			break;
		case 'c':
			if (cli_parse_count(optarg, &o->count))
				return cli_error("bad count '%s': give a whole number >= 1",
						 optarg);
			break;
		case 'j':
			o->json = true;
			break;
		case 'H':
			o->hists = false;
			break;
		case OPT_PROM:
			o->prom = optarg;
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			err = cli_attach_opt(c, optarg, &o->attach);
			if (err == CLI_OPT_TAKEN)
				break;
			return err ? err : cli_error("see 'pcptop stat --help'");
		}
	}
	if (optind < argc)
		return cli_error("unexpected argument '%s': see 'pcptop stat --help'",
				 argv[optind]);
	return 0;
}

static const char *est_mark(const struct attach *a, int probe)
{
	return a->probes[probe].estimated ? "~" : "";
}

static void print_row(const char *name, const char *mark, uint64_t calls,
		      uint64_t pages, uint64_t max, double secs)
{
	printf("  %-10s %10llu%-1s %12llu %9.1f %8.1f %7llu\n", name,
	       (unsigned long long)calls, mark, (unsigned long long)pages,
	       (double)calls / secs, figures_ratio(pages, calls),
	       (unsigned long long)max);
}

static void print_text(const struct stat_opts *o, const struct attach *a,
		       const struct system_facts *sf, const struct figures *f,
		       double secs)
{
	const struct figure_hist *lock = &f->hist[HIST_LOCK_NS];
	char ts[16], inferred[160];
	time_t now = time(NULL);
	int h;

	strftime(ts, sizeof(ts), "%H:%M:%S", localtime(&now));
	printf("\n%s  %.2f s\n", ts, secs);
	printf("  %-10s %11s %12s %9s %8s %7s\n", "", "calls", "pages",
	       "calls/s", "avg", "max");
	print_row("bulk_free", est_mark(a, PROBE_BULK_FREE),
		  f->cnt[CNT_BULK_FREE_CALLS], f->cnt[CNT_BULK_FREE_PAGES],
		  f->hist[HIST_BULK_FREE_PAGES].max, secs);
	print_row("refill", est_mark(a, PROBE_REFILL), f->cnt[CNT_REFILL_CALLS],
		  f->cnt[CNT_REFILL_PAGES], f->hist[HIST_REFILL_PAGES].max,
		  secs);
	print_row("free_high", est_mark(a, PROBE_FREE_HIGH),
		  f->cnt[CNT_FREE_HIGH_COUNT], f->cnt[CNT_FREE_HIGH_PAGES],
		  f->hist[HIST_FREE_HIGH_PAGES].max, secs);
	print_row("decay", est_mark(a, PROBE_DECAY), f->cnt[CNT_DECAY_CALLS],
		  f->cnt[CNT_DECAY_PAGES], f->hist[HIST_DECAY_PAGES].max, secs);
	print_row("drain", est_mark(a, PROBE_DRAIN), f->cnt[CNT_DRAIN_CALLS],
		  f->cnt[CNT_DRAIN_PAGES], f->hist[HIST_DRAIN_PAGES].max, secs);
	printf("  zone->lock (bulk free)%s: p50 <= %llu ns, p99 <= %llu ns, max %llu ns\n",
	       est_mark(a, PROBE_BULK_FREE),
	       (unsigned long long)hist_percentile(lock->slots,
						   PCPTOP_HIST_SLOTS,
						   PCT_MEDIAN),
	       (unsigned long long)hist_percentile(lock->slots,
						   PCPTOP_HIST_SLOTS, PCT_TAIL),
	       (unsigned long long)lock->max);
	if (a->cross_check)
		printf("  cross-check: mm_page_pcpu_drain saw %llu pages\n",
		       (unsigned long long)f->cnt[CNT_XCHECK_DRAIN_PAGES]);
	scale_inferred_line(&sf->scale, inferred, sizeof(inferred));
	printf("  scale %d (%s); %s\n", sf->scale.value,
	       scale_source_name(sf->scale.source), inferred);
	if (sf->scale.note[0])
		printf("  note: %s\n", sf->scale.note);
	if (!o->hists)
		return;
	for (h = 0; h < NR_PCPTOP_HISTS; h++) {
		if (!f->hist[h].samples)
			continue;
		printf("\n  %s:\n", figures_hist_title(h));
		hist_print(stdout, figures_hist_unit(h), f->hist[h].slots,
			   PCPTOP_HIST_SLOTS);
	}
	fflush(stdout);
}

static void json_calls(struct json_writer *w, const char *key,
		       const char *calls_key, uint64_t calls, uint64_t pages,
		       uint64_t max, bool estimated)
{
	json_obj_begin(w, key);
	json_u64(w, calls_key, calls);
	json_u64(w, "pages", pages);
	json_u64(w, "max", max);
	json_double(w, "avg", figures_ratio(pages, calls));
	json_bool(w, "estimated", estimated);
	json_obj_end(w);
}

/* inferred_* cover the whole run so far: the scale does not change */
static void json_scale(struct json_writer *w, const struct system_facts *sf)
{
	const struct scale_info *s = &sf->scale;
	char inferred[160];

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

static void print_json(const struct attach *a, const struct system_facts *sf,
		       const struct figures *f, double secs)
{
	struct json_writer w;
	int h, id;

	json_init(&w, stdout);
	json_obj_begin(&w, NULL);
	json_double(&w, "ts", (double)time(NULL));
	json_double(&w, "interval_s", secs);
	json_str(&w, "mode", attach_summary_mode(a));
	json_obj_begin(&w, "modes");
	for (id = 0; id < NR_PROBES; id++)
		json_str(&w, probe_name(id), probe_mode_name(a->probes[id].mode));
	json_obj_end(&w);
	json_scale(&w, sf);
	json_calls(&w, "bulk_free", "calls", f->cnt[CNT_BULK_FREE_CALLS],
		   f->cnt[CNT_BULK_FREE_PAGES],
		   f->hist[HIST_BULK_FREE_PAGES].max,
		   a->probes[PROBE_BULK_FREE].estimated);
	json_calls(&w, "refill", "calls", f->cnt[CNT_REFILL_CALLS],
		   f->cnt[CNT_REFILL_PAGES], f->hist[HIST_REFILL_PAGES].max,
		   a->probes[PROBE_REFILL].estimated);
	json_calls(&w, "free_high", "count", f->cnt[CNT_FREE_HIGH_COUNT],
		   f->cnt[CNT_FREE_HIGH_PAGES],
		   f->hist[HIST_FREE_HIGH_PAGES].max,
		   a->probes[PROBE_FREE_HIGH].estimated);
	json_obj_begin(&w, "decay");
	json_u64(&w, "calls", f->cnt[CNT_DECAY_CALLS]);
	json_u64(&w, "pages", f->cnt[CNT_DECAY_PAGES]);
	json_u64(&w, "max", f->hist[HIST_DECAY_PAGES].max);
	json_double(&w, "high_before_avg",
		    figures_ratio(f->cnt[CNT_DECAY_HIGH_BEFORE],
				  f->cnt[CNT_DECAY_CALLS]));
	json_double(&w, "high_after_avg",
		    figures_ratio(f->cnt[CNT_DECAY_HIGH_AFTER],
				  f->cnt[CNT_DECAY_CALLS]));
	json_obj_end(&w);
	json_calls(&w, "drain", "calls", f->cnt[CNT_DRAIN_CALLS],
		   f->cnt[CNT_DRAIN_PAGES], f->hist[HIST_DRAIN_PAGES].max,
		   false);
	json_obj_begin(&w, "lock_ns");
	json_u64(&w, "total", f->cnt[CNT_BULK_FREE_NS]);
	json_u64(&w, "p50", hist_percentile(f->hist[HIST_LOCK_NS].slots,
					    PCPTOP_HIST_SLOTS, PCT_MEDIAN));
	json_u64(&w, "p99", hist_percentile(f->hist[HIST_LOCK_NS].slots,
					    PCPTOP_HIST_SLOTS, PCT_TAIL));
	json_u64(&w, "max", f->hist[HIST_LOCK_NS].max);
	json_u64(&w, "refill_total", f->cnt[CNT_REFILL_NS]);
	json_bool(&w, "estimated", a->probes[PROBE_BULK_FREE].estimated);
	json_obj_end(&w);
	if (a->cross_check) {
		json_obj_begin(&w, "cross_check");
		json_u64(&w, "drain_tracepoint_pages",
			 f->cnt[CNT_XCHECK_DRAIN_PAGES]);
		json_obj_end(&w);
	}
	json_obj_begin(&w, "hist");
	for (h = 0; h < NR_PCPTOP_HISTS; h++)
		json_log2_hist(&w, figures_hist_key(h), f->hist[h].slots,
			       PCPTOP_HIST_SLOTS);
	json_obj_end(&w);
	json_obj_end(&w);
	json_end_line(&w);
}

static void print_header(const struct attach *a, const struct system_facts *sf)
{
	char line[512];
	int id;

	system_scale_line(sf, line, sizeof(line));
	printf("%s\n", line);
	printf("kernel %s %s; probes:", sf->uts.release, sf->uts.machine);
	for (id = 0; id < NR_PROBES; id++)
		printf(" %s=%s%s", probe_name(id),
		       probe_mode_name(a->probes[id].mode),
		       est_mark(a, id));
	printf("\nTracing PCP batching... Hit Ctrl-C to end. '~' = estimated from tracepoint event runs.\n");
	fflush(stdout);
}

/*
 * Free_high flushes, decay drains and drain chunks are the chunks bounded
 * by batch << scale: they feed one inference over the whole run.
 */
static void observe_chunks(struct system_facts *sf, const struct figures *f)
{
	uint64_t largest = 0, chunks = 0;
	int h;

	for (h = HIST_FREE_HIGH_PAGES; h <= HIST_DRAIN_PAGES; h++) {
		if (f->hist[h].max > largest)
			largest = f->hist[h].max;
		chunks += f->hist[h].samples;
	}
	scale_observe(&sf->scale, largest, system_max_batch(sf), chunks,
		      system_overshoot_slack(sf));
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o = {};
	struct system_facts sf;
	struct snapshot snap = {};
	struct attach a;
	struct figures f;
	struct prom_state ps;
	double start, end;
	long n;
	int err, ret = EXIT_RUNTIME;

	err = parse_args(argc, argv, &o);
	if (err)
		return err < 0 ? EXIT_OK : err;

	cli_install_signals();
	err = system_attach(&a, &sf, &o.attach, true);
	if (err)
		return err;
	prom_init(&ps, o.prom, &a, &sf);
	err = snapshot_alloc(&snap, libbpf_num_possible_cpus());
	if (err) {
		cli_error("out of memory for %d CPUs", snap.nr_cpus);
		goto out_sys;
	}
	if (!o.json)
		print_header(&a, &sf);

	start = now_s();
	for (n = 0; !cli_exiting && (!o.count || n < o.count); n++) {
		cli_sleep(o.interval);
		err = snapshot_take(&a, &snap);
		if (err) {
			cli_error("reading BPF maps: %s", strerror(-err));
			goto out_snap;
		}
		end = now_s();
		figures_compute(&snap, SNAP_ALL, SNAP_ALL, &f);
		observe_chunks(&sf, &f);
		prom_update(&ps, &f, end - start);
		if (o.json)
			print_json(&a, &sf, &f, end - start);
		else
			print_text(&o, &a, &sf, &f, end - start);
		start = end;
	}
	ret = EXIT_OK;
out_snap:
	snapshot_free(&snap);
out_sys:
	system_detach(&a, &sf);
	return ret;
}
