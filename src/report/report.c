// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop report and pcptop diff: read recordings back and show totals, a
 * timeline and histograms (report), or two runs side by side with deltas
 * (diff), as text, JSON, CSV or one self-contained HTML page.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "outfile.h"
#include "page_out.h"
#include "report_view.h"
#include "units.h"

void report_usage(FILE *f)
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
		DEFAULT_RECORDING);
}

void diff_usage(FILE *f)
{
	fprintf(f,
		"Usage: pcptop diff [--json] [--html OUT] A B\n"
		"       pcptop diff [--json] [--html OUT] A1 A2 ... -- B1 B2 ...\n"
		"\n"
		"Two recordings side by side, or two sets of repeats of one benchmark\n"
		"(typically the same benchmark under two PCP batch scales). It opens with\n"
		"the elapsed time: how the command's wall time changed and the part of its\n"
		"budget that moved most (CPU time by state; waiting on a throttled writer,\n"
		"a block request in flight, or nothing pcptop names), or that elapsed did\n"
		"not move; then the parts and waits that moved. A second paragraph is built\n"
		"only from the allocator's figures that moved beyond twice their\n"
		"spread: what changed, by how much, over how many runs, ranked by what it\n"
		"cost the run (time with interrupts off, holding zone->lock or stalled, CPU\n"
		"time; then pages through zone->lock; then counts; then sizes and tails),\n"
		"and the trade-off between the sides. Then each side's kernel, scale and its\n"
		"source, probe modes and command; every figure's means, change and spread;\n"
		"each histogram's p50, p99 and max. --html opens with the budget as a bar a\n"
		"run, each side's elapsed time marked.\n"
		"\n"
		"The spread of a change is the standard error of B's mean minus A's: from\n"
		"the runs where a side has repeats; with one run a side, from its intervals\n"
		"where a figure has per-interval values; unknown otherwise (maxima, tails).\n"
		"A change inside twice its spread, or without one, is no change. Record each\n"
		"side at least twice, alternating, and give the repeats (at most 32 a side).\n"
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
		"  pcptop diff s5.data s0.data\n"
		"  pcptop diff s0-1.data s0-2.data s0-3.data -- s5-1.data s5-2.data s5-3.data\n");
}

/* load one recording; a readable prefix is fine, with a warning */
static int load(const char *path, struct rec_summary *s)
{
	char msg[REC_ERR_LEN];
	int err;

	err = rec_summary_load(path, s, msg, sizeof(msg));
	if (err) {
		cli_warn("%s", msg);
		/* not a readable recording is bad input, whatever the errno */
		return err == -ENOMEM ? err : -EINVAL;
	}
	if (s->stop_err)
		cli_warn(
			"warning: %s: %s; showing the %d whole intervals before it",
			path, s->stop_msg, s->nr_points);
	else if (!s->have_end)
		cli_warn(
			"warning: %s has no end chunk: pcptop record is still running or was killed; showing %d intervals",
			path, s->nr_points);
	return 0;
}

static int report_page(FILE *f, const void *s)
{
	return report_html(f, s);
}

static int diff_page(FILE *f, const void *r)
{
	return diff_html(f, r);
}

/* --html OUT is checked before the recordings are read */
static int check_html(const struct report_opts *o)
{
	char msg[OUTFILE_MSG_LEN];

	if (o->html && strcmp(o->html, "-") &&
	    outfile_check(o->html, msg, sizeof(msg)))
		return cli_bad_input("%s", msg);
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o;
	struct rec_summary s;
	int err;

	err = cli_parse_report(argc, argv, &o, false);
	if (err || o.help) {
		if (o.help)
			report_usage(stdout);
		return cli_status(err);
	}
	err = check_html(&o);
	if (err)
		return cli_status(err);
	err = load(o.files[0], &s);
	if (err)
		return cli_status(err);
	if (o.fmt == FMT_JSON)
		report_json(stdout, &s);
	else if (o.fmt == FMT_CSV)
		report_csv(stdout, &s);
	else if (!o.html)
		report_text(stdout, &s, o.timeline, o.hists);
	fflush(stdout);
	if (o.html)
		err = page_out(o.html, report_page, &s);
	rec_summary_free(&s);
	return cli_status(err);
}

/* each side's recordings, loaded; the first failure ends it */
static int load_side(const struct report_opts *o, int first, int last,
		     struct rec_summary *runs, struct cmp_side *side)
{
	int err, i;

	for (i = first; i < last; i++) {
		err = load(o->files[i], &runs[i]);
		if (err)
			return err;
		side->run[side->n++] = &runs[i];
	}
	return 0;
}

int cmd_diff(int argc, char **argv)
{
	struct rec_summary *runs = NULL;
	struct cmp_result *r = NULL;
	struct report_opts o;
	int err, i;

	err = cli_parse_report(argc, argv, &o, true);
	if (err || o.help) {
		if (o.help)
			diff_usage(stdout);
		return cli_status(err);
	}
	err = check_html(&o);
	if (err)
		return cli_status(err);
	runs = calloc(o.nr_files, sizeof(*runs));
	r = calloc(1, sizeof(*r));
	if (!runs || !r) {
		err = -ENOMEM;
		cli_warn("out of memory for %d recordings", o.nr_files);
		goto out;
	}
	err = load_side(&o, 0, o.nr_a, runs, &r->a);
	if (!err)
		err = load_side(&o, o.nr_a, o.nr_files, runs, &r->b);
	if (!err)
		err = cmp_build(r);
	if (err)
		goto out;
	if (o.fmt == FMT_JSON)
		diff_json(stdout, r);
	else if (!o.html)
		diff_text(stdout, r);
	fflush(stdout);
	if (o.html)
		err = page_out(o.html, diff_page, r);
out:
	for (i = 0; runs && i < o.nr_files; i++)
		rec_summary_free(&runs[i]);
	free(runs);
	free(r);
	return cli_status(err);
}
