// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop whatif: a recording made with --trace, replayed through the pcp
 * policy at every scale asked (whatif/whatif.c), printed as a table, JSON
 * or an HTML page of the knee; --check holds the replay at the recorded
 * scale against the recording's own counts; --save writes one scale's
 * prediction as a recording, for pcptop diff.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "outfile.h"
#include "page_out.h"
#include "whatif_save.h"
#include "whatif_view.h"

#define MSG_LEN 512

void whatif_usage(FILE *f)
{
	fprintf(f,
		"Usage: pcptop whatif [REC] [--scale LIST] [--rules RULES] [--json]\n"
		"                     [--html OUT] [--save OUT]\n"
		"       pcptop whatif [REC] --check\n"
		"\n"
		"What another PCP batch scale would have done with the same workload, from\n"
		"one recording made with 'pcptop record --trace' (default %s). The\n"
		"workload's requests to the pcp lists (each allocation and free, its CPU,\n"
		"zone, order and migratetype; drains, decay ticks, hotplug; the pageset\n"
		"and watermark state) are replayed through a model of mm/page_alloc.c's\n"
		"pcp policy at each scale, and each replay is counted as a recording at\n"
		"that scale would count it:\n"
		"  - bulk frees, refills, free_high flushes, the flushes at count >= high,\n"
		"    decay and drain chunks: calls, pages, p50, p99 and the largest;\n"
		"  - zone->lock acquisitions, and the lock hold and interrupts-off time\n"
		"    (p50, p99, max, total), each call priced by its pages' log2 bucket\n"
		"    at what the recording's own calls of that bucket took (a size it\n"
		"    never saw from the nearest bucket at its ns a page; the buckets are\n"
		"    printed, and the calls so extrapolated);\n"
		"  - the pages parked in the pcp lists over time;\n"
		"  - how much of the trace ran below the high watermark (where the\n"
		"    replay is weakest: it takes that state and the drains as recorded\n"
		"    and, at another scale, adds direct reclaim and its drains and\n"
		"    moves the flags only where the scale's lists move the zone's free\n"
		"    pages across a watermark), the direct reclaims and drains a scale\n"
		"    adds, events lost in the window, and how far the model drifted\n"
		"    from the snapshots;\n"
		"  - of the trace itself: the kernel's mark at its direct reclaims,\n"
		"    over the lowest min read (the boost, which another scale moves\n"
		"    through the buddy's fallbacks, and the free highatomic pages;\n"
		"    the trace carries neither's cause).\n"
		"The recording's own counts sit beside the predictions; '*' marks the\n"
		"recorded scale. Last, which scale: for interrupts-off max, zone->lock\n"
		"time, acquisitions and pages parked, the scale where each is least\n"
		"against the recorded one, beside the error the prediction is known to\n"
		"carry (the suite's cross-scale miss and this trace's own); 'cannot be\n"
		"told apart' where the difference is not larger. A trace that ran in\n"
		"part below the high watermark carries the larger of the misses\n"
		"measured above high and under reclaim.\n"
		"\n"
		"  -s, --scale LIST  scales to predict: 0-6 (default), 0,3,5, 2\n"
		"      --rules RULES the kernel's pcp rules: 6.1 (before 6.1.104), 6.1cap\n"
		"                    (6.1.104+, 6.6.45+), 6.12 (6.7..6.15), 6.16 (6.16..6.18:\n"
		"                    free_high needs batch + high_min / 2), 7.x (chunked\n"
		"                    flushes); default: the recorded kernel's. Another rule\n"
		"                    set asks what that kernel would do with this workload\n"
		"  -j, --json        one JSON document (docs/schema/whatif.schema.json)\n"
		"      --html OUT    also one self-contained HTML page of the knee; '-' is\n"
		"                    stdout. Without --json nothing else is printed\n"
		"      --save OUT    write one scale's prediction (--scale N) as a recording\n"
		"                    that 'pcptop diff' and 'pcptop report' read\n"
		"      --check       replay the recorded scale and compare with what the\n"
		"                    recording counted: bulk-free and refill calls and pages\n"
		"                    within 1 %%, their size histograms within one log2\n"
		"                    bucket for 99 %% of calls, the largest flush exact, no\n"
		"                    events lost, the lock hold total within 10 %% where\n"
		"                    it was timed. Exit 1 when any comparison fails\n"
		"  -h, --help        this text\n"
		"\n"
		"Exit status: 0; 1 when --check fails or writing fails; 2 for bad input (not\n"
		"a recording, no trace in it, a bad option).\n"
		"\n"
		"Examples:\n"
		"  pcptop record --trace -o s5.data -- bonnie++ -d /mnt/t -s 2048 -n 0 -u root\n"
		"  pcptop whatif s5.data                     every scale, as a table\n"
		"  pcptop whatif s5.data --scale 0,5 --html knee.html\n"
		"  pcptop whatif s5.data --rules 6.16        reference 001's threshold\n"
		"  pcptop whatif s5.data --check             does the replay hold at scale 5?\n"
		"  pcptop whatif s5.data --scale 0 --save p0.data\n"
		"  pcptop diff p0.data s0.data               the prediction against a real run\n",
		DEFAULT_RECORDING);
}

struct run {
	struct whatif_cli o;
	struct rec_summary s;
	bool have_s;
	struct rec_trace t;
	bool have_t;
	struct whatif w;
};

static int options(struct run *r, struct whatif_opts *wo)
{
	enum pcpmodel_ruleset base;
	char msg[MSG_LEN];
	int sc, n = 0;

	wo->rules = -1;
	if (r->o.rules) {
		if (pcpmodel_rules_by_name(r->o.rules, &base))
			return cli_bad_input(
				"bad --rules '%s': one of 6.1, 6.1cap, 6.12, 6.16, 7.x",
				r->o.rules);
		wo->rules = base;
	}
	if (whatif_parse_scales(r->o.scales ? r->o.scales : "0-6", wo->scales,
				msg, sizeof(msg)))
		return cli_bad_input("%s", msg);
	for (sc = 0; sc < WHATIF_MAX_COLS; sc++)
		n += wo->scales[sc];
	if (r->o.save && n != 1)
		return cli_bad_input(
			"--save writes one scale's prediction: give --scale N");
	return 0;
}

static int load(struct run *r)
{
	char msg[MSG_LEN];
	int err;

	err = rec_summary_load(r->o.file, &r->s, msg, sizeof(msg));
	if (err) {
		cli_warn("%s", msg);
		return err == -ENOMEM ? err : -EINVAL;
	}
	r->have_s = true;
	err = rec_trace_load(r->o.file, &r->t, msg, sizeof(msg));
	if (err == -ENOENT)
		return cli_bad_input(
			"%s has no pcp trace to replay: record it with 'pcptop record --trace'",
			r->o.file);
	if (err) {
		cli_warn("%s", msg);
		return err == -ENOMEM ? err : -EINVAL;
	}
	r->have_t = true;
	return 0;
}

/* --check replays the recorded scale alone */
static int check_scale(struct run *r, struct whatif_opts *wo)
{
	int sc = r->t.meta.scale >= 0 ? r->t.meta.scale : r->s.h.f.scale.value;

	if (sc < 0 || sc > PCPM_SCALE_MAX)
		return cli_bad_input(
			"--check needs the scale %s was recorded at, and neither its trace nor its header says it",
			r->o.file);
	memset(wo->scales, 0, sizeof(wo->scales));
	wo->scales[sc] = true;
	return 0;
}

static int check(struct run *r)
{
	struct whatif_check c[WHATIF_CHECK_MAX];
	bool pass;
	int n, err;

	err = whatif_check(&r->w, c, &n, &pass);
	if (err)
		return cli_bad_input(
			"--check: %s did not count bulk frees and refills, so there is nothing to hold the replay against",
			r->o.file);
	whatif_check_text(stdout, &r->w, c, n, pass);
	return pass ? 0 : 1;
}

static int whatif_page(FILE *f, const void *w)
{
	whatif_html(f, w);
	return 0;
}

static int check_out(const char *out)
{
	char msg[OUTFILE_MSG_LEN];

	if (out && strcmp(out, "-") && outfile_check(out, msg, sizeof(msg)))
		return cli_bad_input("%s", msg);
	return 0;
}

static int outputs(struct run *r)
{
	char msg[MSG_LEN];
	int err = 0;

	if (r->o.json)
		whatif_json(stdout, &r->w);
	else if (!r->o.html)
		whatif_text(stdout, &r->w);
	fflush(stdout);
	if (r->o.html)
		err = page_out(r->o.html, whatif_page, &r->w);
	if (!err && r->o.save) {
		err = whatif_save(r->o.save, &r->w, &r->w.cols[0], &r->s, msg,
				  sizeof(msg));
		if (err)
			cli_warn("%s", msg);
		else
			fprintf(stderr, "pcptop: wrote %s\n", r->o.save);
	}
	return err;
}

static int run(struct run *r, int argc, char **argv)
{
	struct whatif_opts wo;
	char msg[MSG_LEN];
	int err;

	err = cli_parse_whatif(argc, argv, &r->o);
	if (err || r->o.help) {
		if (r->o.help)
			whatif_usage(stdout);
		return err;
	}
	err = options(r, &wo);
	if (!err)
		err = check_out(r->o.html);
	if (!err)
		err = check_out(r->o.save);
	if (!err)
		err = load(r);
	if (!err && r->o.check)
		err = check_scale(r, &wo);
	if (err)
		return err;
	err = whatif_run(&r->w, r->o.file, &r->t, &r->s, &wo, msg, sizeof(msg));
	if (err) {
		cli_warn("%s: %s", r->o.file, msg);
		return err == -ENOMEM ? err : -EINVAL;
	}
	return r->o.check ? check(r) : outputs(r);
}

int cmd_whatif(int argc, char **argv)
{
	struct run *r = calloc(1, sizeof(*r));
	int err;

	if (!r) {
		cli_warn("out of memory for a what-if");
		return EXIT_RUNTIME;
	}
	err = run(r, argc, argv);
	whatif_free(&r->w);
	if (r->have_t)
		rec_trace_free(&r->t);
	if (r->have_s)
		rec_summary_free(&r->s);
	free(r);
	/* check(): 1 is its verdict, not an errno */
	return err == 1 ? EXIT_RUNTIME : cli_status(err);
}
