// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop report and pcptop diff: read recordings back and show totals, a
 * timeline and histograms (report), or two runs side by side with deltas
 * (diff), as text, JSON, CSV or one self-contained HTML page.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "hist.h"
#include "report.h"

#define DEFAULT_INPUT "pcptop.data"
#define PCT_MEDIAN 50.0
#define PCT_TAIL 99.0
#define NSEC_PER_SEC 1e9
#define NSEC_PER_MSEC 1e6
#define PCT 100.0
#define LINE_LEN 512
#define NUM_LEN 32

enum out_fmt { FMT_TEXT, FMT_JSON, FMT_CSV };

struct report_opts {
	const char *files[2];
	int nr_files;
	enum out_fmt fmt;
	const char *html;	/* --html OUT, "-" for stdout */
	bool timeline;
	bool hists;
};

static void report_usage(FILE *f)
{
	fprintf(f,
		"Usage: pcptop report [FILE] [--json | --csv] [--html OUT] [-T] [-H]\n"
		"\n"
		"Reads a recording of 'pcptop record' (default %s) and shows:\n"
		"  - the PCP batch scale and its source, kernel, probe modes, the command,\n"
		"    its exit status and wall time;\n"
		"  - totals: calls, pages, average and largest batch of bulk frees, refills,\n"
		"    free_high flushes, decay trims and drains, zone->lock time percentiles;\n"
		"  - pages per CPU, a timeline of one line per interval, and the log2\n"
		"    histograms of the whole run.\n"
		"A file still being recorded, or cut short by a crash, is read up to its last\n"
		"whole chunk, with a warning.\n"
		"\n"
		"  -j, --json         one JSON document: facts, totals, timeline, histograms\n"
		"      --csv          the timeline as CSV, one row per interval\n"
		"      --html OUT     also write one self-contained HTML page (inline SVG\n"
		"                     plots, nothing fetched from the network); '-' is stdout.\n"
		"                     Without --json/--csv nothing else is printed\n"
		"  -T, --no-timeline  text: leave out the per-interval lines\n"
		"  -H, --no-hist      text: leave out the histograms\n"
		"  -h, --help         this text\n"
		"\n"
		"Figures marked '~' come from tracepoint event runs and are estimates.\n"
		"Exit status: 0 (also for a readable prefix), 2 when FILE is not a readable\n"
		"recording.\n"
		"\n"
		"Examples:\n"
		"  pcptop report                           text report of pcptop.data\n"
		"  pcptop report run.data --json | jq .totals.bulk_free\n"
		"  pcptop report run.data --html run.html  a page to mail or attach\n"
		"  pcptop report run.data --csv > run.csv  the timeline for a spreadsheet\n",
		DEFAULT_INPUT);
}

static void diff_usage(FILE *f)
{
	fprintf(f,
		"Usage: pcptop diff A B [--json] [--html OUT]\n"
		"\n"
		"Two recordings side by side: each one's kernel, scale and its source, probe\n"
		"modes and command; totals with the absolute and relative change from A to\n"
		"B; each histogram's p50, p99 and max. Typically the same benchmark under two\n"
		"PCP batch scales.\n"
		"\n"
		"  -j, --json      one JSON document: both sides and the deltas\n"
		"      --html OUT  also write one self-contained HTML page; '-' is stdout\n"
		"  -h, --help      this text\n"
		"\n"
		"Percentiles are log2 bucket bounds ('<='): they move in powers of two.\n"
		"\n"
		"Example:\n"
		"  pcptop record -o s5.data -- bonnie++ -d /mnt/t -s 2048 -r 1024 -n 0 -u root\n"
		"  (reboot with pcp_batch_scale_max=0)\n"
		"  pcptop record -o s0.data -- bonnie++ -d /mnt/t -s 2048 -r 1024 -n 0 -u root\n"
		"  pcptop diff s5.data s0.data\n");
}

static int parse_args(int argc, char **argv, struct report_opts *o, bool diff)
{
	enum { OPT_CSV = 256, OPT_HTML };
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "html", required_argument, NULL, OPT_HTML },
		{ "no-timeline", no_argument, NULL, 'T' },
		{ "no-hist", no_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *cmd = diff ? "diff" : "report";
	int c, want = diff ? 2 : 1;

	o->timeline = o->hists = true;
	optind = 1;
	while ((c = getopt_long(argc, argv, diff ? "jh" : "jTHh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'j':
			if (o->fmt == FMT_CSV)
				return cli_error("--json and --csv exclude each other");
			o->fmt = FMT_JSON;
			break;
		case OPT_CSV:
			if (diff)
				return cli_error("diff has no --csv: use --json");
			if (o->fmt == FMT_JSON)
				return cli_error("--json and --csv exclude each other");
			o->fmt = FMT_CSV;
			break;
		case OPT_HTML:
			if (!optarg[0])
				return cli_error("empty --html file name");
			o->html = optarg;
			break;
		case 'T':
			o->timeline = false;
			break;
		case 'H':
			o->hists = false;
			break;
		case 'h':
			if (diff)
				diff_usage(stdout);
			else
				report_usage(stdout);
			return -1;
		default:
			return cli_error("see 'pcptop %s --help'", cmd);
		}
	}
	for (; optind < argc; optind++) {
		if (o->nr_files == want)
			return cli_error("unexpected argument '%s': see 'pcptop %s --help'",
					 argv[optind], cmd);
		o->files[o->nr_files++] = argv[optind];
	}
	if (!diff && !o->nr_files)
		o->files[o->nr_files++] = DEFAULT_INPUT;
	if (o->nr_files != want)
		return cli_error("diff needs two recordings: pcptop diff A B");
	if (o->html && !strcmp(o->html, "-") && o->fmt != FMT_TEXT)
		return cli_error("--html - and --%s cannot both go to stdout",
				 o->fmt == FMT_JSON ? "json" : "csv");
	return 0;
}

double report_delta_pct(double a, double b)
{
	if (isnan(a) || isnan(b) || a == 0)
		return NAN;
	return (b - a) / fabs(a) * PCT;
}

/* load one recording; a readable prefix is fine, with a warning */
static int load(const char *path, struct rec_summary *s)
{
	char msg[REC_ERR_LEN];
	int err;

	err = rec_summary_load(path, s, msg, sizeof(msg));
	if (err)
		return cli_error("%s", msg);
	if (s->stop_err)
		fprintf(stderr, "pcptop: warning: %s: %s; showing the %d whole intervals before it\n",
			path, s->stop_msg, s->nr_points);
	else if (!s->have_end)
		fprintf(stderr, "pcptop: warning: %s has no end chunk: pcptop record is still running or was killed; showing %d intervals\n",
			path, s->nr_points);
	return 0;
}

static const char *mark(const struct rec_summary *s, const char *probe)
{
	return rec_probe_estimated(&s->h, probe) ? "~" : "";
}

static void print_facts(const struct rec_summary *s)
{
	const struct rec_header *h = &s->h;
	const struct rec_end *e = &s->end;
	char line[LINE_LEN];
	int i;

	rec_scale_line(h, line, sizeof(line));
	printf("%s\n", line);
	rec_start_time(h, line, sizeof(line));
	printf("recording  %s: %d intervals, %.1f s from %s, every %g s; pcptop %s, format %u.%u\n",
	       s->path, s->nr_points, s->recorded_s, line,
	       (double)h->interval_ns / NSEC_PER_SEC, h->pcptop_version,
	       h->version_major, h->version_minor);
	printf("kernel     %s %s on %s, %u CPUs; probes:", h->release, h->arch,
	       h->hostname, h->dims.nr_cpus);
	for (i = 0; i < h->nr_probes; i++)
		printf(" %s=%s%s", h->probes[i].name, h->probes[i].mode,
		       h->probes[i].estimated ? "~" : "");
	printf("\n");
	rec_command_line(s, line, sizeof(line));
	printf("command    %s\n", line);
	rec_status_line(s, line, sizeof(line));
	if (s->have_end && e->have_command)
		printf("           %s, wall %.2f s (user %.2f s, sys %.2f s)\n",
		       line, (double)e->wall_ns / NSEC_PER_SEC,
		       (double)e->utime_ns / NSEC_PER_SEC,
		       (double)e->stime_ns / NSEC_PER_SEC);
	else if (s->h.argc || !s->have_end)
		printf("           %s\n", line);
	printf("pagesets   largest batch %d", rec_max_batch(h));
	if (h->pageblock_order >= 0)
		printf(", pageblock order %d", h->pageblock_order);
	if (h->run_cap_pages)
		printf(", run cap %llu pages", (unsigned long long)h->run_cap_pages);
	printf("\n");
}

static void print_row(const struct rec_summary *s, const struct rec_row *r)
{
	const struct figures *t = &s->total;
	double secs = s->recorded_s > 0 ? s->recorded_s : 1;

	printf("  %-10s %12llu%-1s %14llu %9.1f %8.1f %7llu\n", r->key,
	       (unsigned long long)t->cnt[r->calls], mark(s, r->probe),
	       (unsigned long long)t->cnt[r->pages],
	       (double)t->cnt[r->calls] / secs,
	       figures_ratio(t->cnt[r->pages], t->cnt[r->calls]),
	       (unsigned long long)t->hist[r->hist].max);
}

static void print_lock(const struct rec_summary *s, const char *what,
		       int hist, int counter, const char *probe)
{
	const uint64_t *slots = s->total.hist[hist].slots;

	printf("  zone->lock (%s)%s: p50 <= %llu ns, p99 <= %llu ns, max %llu ns, total %.1f ms\n",
	       what, mark(s, probe),
	       (unsigned long long)hist_percentile(slots, PCPTOP_HIST_SLOTS,
						   PCT_MEDIAN),
	       (unsigned long long)hist_percentile(slots, PCPTOP_HIST_SLOTS,
						   PCT_TAIL),
	       (unsigned long long)s->total.hist[hist].max,
	       (double)s->total.cnt[counter] / NSEC_PER_MSEC);
}

static void print_totals(const struct rec_summary *s)
{
	int i, inferred;

	printf("\nTotals over %.1f s ('~' = estimated from tracepoint event runs)\n",
	       s->recorded_s);
	printf("  %-10s %13s %14s %9s %8s %7s\n", "", "calls", "pages",
	       "calls/s", "avg", "max");
	for (i = 0; i < NR_REC_ROWS; i++)
		print_row(s, &rec_rows[i]);
	print_lock(s, "bulk free", HIST_LOCK_NS, CNT_BULK_FREE_NS, "bulk_free");
	print_lock(s, "refill", HIST_REFILL_NS, CNT_REFILL_NS, "refill");
	inferred = rec_inferred_scale(s);
	/* "at least 0" says nothing */
	if (inferred > 0)
		printf("  the largest flush/drain/decay chunk proves scale >= %d\n",
		       inferred);
}

static void print_pages_row(const char *name, const uint64_t *c)
{
	printf("  %-8s %12llu %12llu %10llu %10llu %10llu\n", name,
	       (unsigned long long)c[CNT_BULK_FREE_PAGES],
	       (unsigned long long)c[CNT_REFILL_PAGES],
	       (unsigned long long)c[CNT_FREE_HIGH_PAGES],
	       (unsigned long long)c[CNT_DECAY_PAGES],
	       (unsigned long long)c[CNT_DRAIN_PAGES]);
}

/* pages per CPU and per zone, the rows where anything happened */
static void print_split(const struct rec_summary *s)
{
	char name[16];
	uint32_t cpu;
	int z;

	printf("\nPages per CPU and per zone ('unknown': tracepoints carry no zone)\n");
	printf("  %-8s %12s %12s %10s %10s %10s\n", "", "bulk_free", "refill",
	       "free_high", "decay", "drain");
	for (cpu = 0; cpu < s->h.dims.nr_cpus; cpu++) {
		if (!rec_cnt_any(s->cpu_cnt[cpu]))
			continue;
		snprintf(name, sizeof(name), "cpu %u", cpu);
		print_pages_row(name, s->cpu_cnt[cpu]);
	}
	for (z = 0; z < PCPTOP_MAX_ZONES; z++)
		if (rec_cnt_any(s->zone_cnt[z]))
			print_pages_row(rec_zone_name(&s->h, z), s->zone_cnt[z]);
}

static void print_timeline(const struct rec_summary *s)
{
	int i;

	printf("\nTimeline, one line per interval (pages unless said)\n");
	printf("  %8s %5s  %-22s  %-22s %9s %7s %7s %9s\n", "", "",
	       "------ bulk_free -----", "------- refill -------",
	       "free_high", "decay", "drain", "lock p99");
	printf("  %8s %5s %8s %8s %5s %8s %8s %5s %9s %7s %7s %9s\n", "t(s)",
	       "secs", "calls", "pages", "max", "calls", "pages", "max",
	       "pages", "pages", "pages", "ns");
	for (i = 0; i < s->nr_points; i++) {
		const struct rec_point *p = &s->points[i];

		printf("  %8.1f %5.2f %8llu %8llu %5llu %8llu %8llu %5llu %9llu %7llu %7llu %9llu\n",
		       p->t, p->secs,
		       (unsigned long long)p->cnt[CNT_BULK_FREE_CALLS],
		       (unsigned long long)p->cnt[CNT_BULK_FREE_PAGES],
		       (unsigned long long)p->hmax[HIST_BULK_FREE_PAGES],
		       (unsigned long long)p->cnt[CNT_REFILL_CALLS],
		       (unsigned long long)p->cnt[CNT_REFILL_PAGES],
		       (unsigned long long)p->hmax[HIST_REFILL_PAGES],
		       (unsigned long long)p->cnt[CNT_FREE_HIGH_PAGES],
		       (unsigned long long)p->cnt[CNT_DECAY_PAGES],
		       (unsigned long long)p->cnt[CNT_DRAIN_PAGES],
		       (unsigned long long)p->lock_p99);
	}
}

static void print_hists(const struct rec_summary *s)
{
	int h;

	printf("\nHistograms of the whole recording\n");
	for (h = 0; h < NR_PCPTOP_HISTS; h++) {
		if (!s->total.hist[h].samples)
			continue;
		printf("\n  %s:\n", figures_hist_title(h));
		hist_print(stdout, figures_hist_unit(h), s->total.hist[h].slots,
			   PCPTOP_HIST_SLOTS);
	}
}

/* write an HTML page to OUT, "-" being stdout */
static int write_html(const char *out, const struct rec_summary *a,
		      const struct rec_summary *b)
{
	bool to_stdout = !strcmp(out, "-");
	FILE *f = to_stdout ? stdout : fopen(out, "w");
	int err = 0;

	if (!f)
		return cli_error("cannot write %s: %s", out, strerror(errno));
	if (b)
		diff_html(f, a, b);
	else
		report_html(f, a);
	if (fflush(f) || ferror(f))
		err = -EIO;
	if (!to_stdout && fclose(f) && !err)
		err = -errno;
	if (err) {
		cli_error("writing %s: %s", out, strerror(-err));
		return EXIT_RUNTIME;
	}
	if (!to_stdout)
		fprintf(stderr, "pcptop: wrote %s\n", out);
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = {};
	struct rec_summary s;
	int err;

	err = parse_args(argc, argv, &o, false);
	if (err)
		return err < 0 ? EXIT_OK : err;
	err = load(o.files[0], &s);
	if (err)
		return err;
	if (o.fmt == FMT_JSON) {
		report_json(stdout, &s);
	} else if (o.fmt == FMT_CSV) {
		report_csv(stdout, &s);
	} else if (!o.html) {
		print_facts(&s);
		print_totals(&s);
		print_split(&s);
		if (o.timeline)
			print_timeline(&s);
		if (o.hists)
			print_hists(&s);
	}
	fflush(stdout);
	if (o.html)
		err = write_html(o.html, &s, NULL);
	rec_summary_free(&s);
	return err;
}

static void fmt_num(char *buf, size_t len, double v, bool bound)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fabs(v) < 1e15 && v == (double)(long long)v)
		snprintf(buf, len, "%s%.0f", bound ? "<=" : "", v);
	else
		snprintf(buf, len, "%s%.2f", bound ? "<=" : "", v);
}

static void print_side(const char *tag, const struct rec_summary *s)
{
	char line[LINE_LEN];

	rec_scale_line(&s->h, line, sizeof(line));
	printf("%s  %s\n", tag, s->path);
	printf("   kernel %s %s on %s, %u CPUs, %s mode\n", s->h.release,
	       s->h.arch, s->h.hostname, s->h.dims.nr_cpus, s->h.mode_summary);
	printf("   %s\n", line);
	rec_command_line(s, line, sizeof(line));
	printf("   command %s\n", line);
	rec_status_line(s, line, sizeof(line));
	printf("   %s\n", line);
}

/* "p50 / p99 / max" of a histogram */
static void pcts(char *buf, size_t len, const struct figure_hist *h)
{
	snprintf(buf, len, "%llu / %llu / %llu",
		 (unsigned long long)hist_percentile(h->slots, PCPTOP_HIST_SLOTS,
						     PCT_MEDIAN),
		 (unsigned long long)hist_percentile(h->slots, PCPTOP_HIST_SLOTS,
						     PCT_TAIL),
		 (unsigned long long)h->max);
}

static void print_diff(const struct rec_summary *a, const struct rec_summary *b)
{
	struct rec_metric ma[REC_MAX_METRICS], mb[REC_MAX_METRICS];
	char va[NUM_LEN], vb[NUM_LEN], vd[NUM_LEN], vp[NUM_LEN];
	int n, i, h;

	print_side("A", a);
	print_side("B", b);
	n = rec_metrics(a, ma, REC_MAX_METRICS);
	rec_metrics(b, mb, REC_MAX_METRICS);
	printf("\n  %-24s %14s %14s %14s %9s\n", "", "A", "B", "B - A", "%");
	for (i = 0; i < n; i++) {
		double pct = report_delta_pct(ma[i].v, mb[i].v);

		fmt_num(va, sizeof(va), ma[i].v, ma[i].bound);
		fmt_num(vb, sizeof(vb), mb[i].v, mb[i].bound);
		fmt_num(vd, sizeof(vd), mb[i].v - ma[i].v, false);
		if (isnan(pct))
			snprintf(vp, sizeof(vp), "-");
		else
			snprintf(vp, sizeof(vp), "%+.1f%%", pct);
		printf("  %-24s %14s %14s %14s %9s\n", ma[i].key, va, vb, vd,
		       vp);
	}
	printf("\nHistograms: p50 / p99 / max (log2 bucket bounds)\n");
	printf("  %-22s %-28s %s\n", "", "A", "B");
	for (h = 0; h < NR_PCPTOP_HISTS; h++) {
		const struct figure_hist *x = &a->total.hist[h];
		const struct figure_hist *y = &b->total.hist[h];
		char ca[LINE_LEN], cb[LINE_LEN];

		if (!x->samples && !y->samples)
			continue;
		pcts(ca, sizeof(ca), x);
		pcts(cb, sizeof(cb), y);
		printf("  %-22s %-28s %-28s %s\n", figures_hist_title(h), ca,
		       cb, figures_hist_unit(h));
	}
}

int cmd_diff(int argc, char **argv)
{
	struct report_opts o = {};
	struct rec_summary a, b;
	int err;

	err = parse_args(argc, argv, &o, true);
	if (err)
		return err < 0 ? EXIT_OK : err;
	err = load(o.files[0], &a);
	if (err)
		return err;
	err = load(o.files[1], &b);
	if (err) {
		rec_summary_free(&a);
		return err;
	}
	if (o.fmt == FMT_JSON)
		diff_json(stdout, &a, &b);
	else if (!o.html)
		print_diff(&a, &b);
	fflush(stdout);
	if (o.html)
		err = write_html(o.html, &a, &b);
	rec_summary_free(&a);
	rec_summary_free(&b);
	return err;
}
