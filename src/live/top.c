// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop top: the live view, and what `pcptop` with no command runs on a
 * board or a server. Attaches like stat, samples an interval every -d
 * seconds, re-reads /proc/zoneinfo with it, and shows a table per CPU and
 * zone with a histogram pane, under curses or (-b) as plain text frames.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "clock.h"
#include "sig.h"
#include "snapshot.h"
#include "system.h"
#include "top.h"

#define LABELS_W 17
#define TIME_COLS_NOTE ": p50, p99 (log2 slot bounds, 'at most'), max"

/* a line per figure with columns, from the figure table */
static void top_usage_columns(FILE *f)
{
	char labels[64];
	int i, k, n;

	for (i = 0; i < nr_figs; i++) {
		const struct fig_desc *d = &fig_table[i];
		const char *cols[] = { d->col_events, d->col_pages, d->col_avg,
				       d->col_p50,    d->col_p99,   d->col_max };

		for (k = 0, n = 0, labels[0] = '\0'; k < 6; k++)
			if (cols[k])
				n += snprintf(labels + n, sizeof(labels) - n,
					      "%s%s", n ? " " : "", cols[k]);
		if (!n)
			continue;
		/* labels too long for their column go on a line of their own */
		if (n > LABELS_W)
			fprintf(f, "  %s\n  %-*s %s%s\n", labels, LABELS_W, "",
				d->title,
				d->type == FIG_TIME ? TIME_COLS_NOTE : "");
		else
			fprintf(f, "  %-*s %s%s\n", LABELS_W, labels, d->title,
				d->type == FIG_TIME ? TIME_COLS_NOTE : "");
	}
}

void top_usage(FILE *f)
{
	fprintf(f,
		"Usage: pcptop [top] [-d SECS] [-n COUNT] [-b] [--mode MODE]\n"
		"\n"
		"The live view: for every CPU and zone, what its per-CPU pageset holds\n"
		"now and how it batched its work over the last interval, refreshed every\n"
		"-d seconds, with a histogram pane for the selected row.\n"
		"\n"
		"  -d, --delay SECS      seconds between refreshes (default 1, at least %.1f)\n"
		"  -n, --iterations N    stop after N refreshes (default: until q)\n"
		"  -b, --batch           plain text frames on stdout, no terminal control\n"
		"                        codes: for logs, pipes and serial captures\n"
		"  -m, --mode MODE       auto (default): fentry, else kprobe, else\n"
		"                        tracepoints; or force fentry | kprobe | tracepoint\n"
		"      --exact-free-high  probe the commit function on every free, for\n"
		"                        exact free_high counts on 6.7+ (costs more: see\n"
		"                        docs/PERFORMANCE.md)\n"
		"      --latency         time every allocation and free (costly)\n"
		"      --page-orders     count every bulk-freed page at its order\n"
		"      --btf FILE        this kernel's BTF, where /sys/kernel/btf is missing\n"
		"  -v, --verbose         libbpf's log and the verifier's cost on stderr\n"
		"  -h, --help            this text\n"
		"\n"
		"Header: the PCP batch scale and where it was read, the kernel, pcptop's\n"
		"own cost (bpf_stats: ns per probe run and %% of one CPU; stats are on only\n"
		"while pcptop runs), pageblock order, and the mode of each probe group\n"
		"(fentry, kprobe, tp = tracepoint, heur = heuristic, none; '~' estimated).\n"
		"\n"
		"Columns, per second over the last interval unless said:\n"
		"  CPU ZONE          the pageset; 'all' in summed rows\n"
		"  COUNT HIGH BATCH  pcp->count, high and batch from /proc/zoneinfo, read\n"
		"                    every refresh (count moves live)\n",
		TOP_MIN_DELAY_S);
	top_usage_columns(f);
	fprintf(f,
		"  '-'               not measured on this row in this probe mode\n"
		"In tracepoint mode the events carry no zone: their figures are on the\n"
		"'all(tp)' row of each CPU, estimated from event runs, with COUNT and\n"
		"HIGH summed over its zones, while each zone's row keeps its pageset.\n"
		"Columns that do not fit the terminal are dropped from the right.\n"
		"\n"
		"Keys: q quit; h or ? help; Up/Down (PgUp PgDn Home End) select a row;\n"
		"s or > next sort column, < previous (marked '*'); z zone filter (all,\n"
		"then each zone); c per-CPU rows or one row per zone summed; H or Tab\n"
		"pane shows batch sizes or zone->lock times (spans in tracepoint mode);\n"
		"space pauses the display\n"
		"(sampling goes on; resuming shows the latest interval); d new delay;\n"
		"Ctrl-L redraw.\n"
		"\n"
		"Examples:\n"
		"  pcptop                        the live view, refreshed every second\n"
		"  pcptop top -d 2               refresh every 2 s\n"
		"  pcptop top -b -n 5 > log.txt  five text frames, one a second\n"
		"  TERM=vt100 pcptop             on a plain serial console\n");
}

/* ---- batch mode ---- */

static int run_batch(struct top_state *s, long count)
{
	long n;
	int err;

	/* SIGPIPE is ignored: a closed pipe fails the write, cleanup runs */
	for (n = 0; !sig_exiting && (!count || n < count); n++) {
		clock_sleep_s(s->view.delay, &sig_exiting);
		if (sig_exiting)
			break;
		err = top_sample(s);
		if (err)
			return err;
		top_frame_reset(&s->frame, TOP_LINE_LEN - 1, 0);
		err = top_draw_main(&s->frame, &s->ctx, &s->view, s->shown);
		if (err)
			return err;
		if (n)
			putchar('\n');
		top_frame_print(&s->frame, stdout);
		/* a reader that has seen enough (| head) is not an error */
		if (fflush(stdout) || ferror(stdout))
			return errno == EPIPE ? 0 : -EIO;
	}
	return 0;
}

/* ---- the command ---- */

static int state_init(struct top_state *s, const struct top_opts *o,
		      struct system *sys)
{
	int nr_cpus = system_nr_cpus();
	int i, err;

	top_cols_init(&sys->f);
	s->sys = sys;
	s->ctx.facts = &sys->f;
	s->ctx.nr_cpus = nr_cpus;
	s->view.pane = PANE_BATCH;
	s->view.delay = o->delay;
	s->view.batch = o->batch;
	s->view.sort_col = COL_CPU;
	s->view.zone_filter = ZF_ALL;
	for (i = 0; i < 2; i++) {
		err = snapshot_alloc(&s->snaps[i], nr_cpus);
		if (!err)
			err = top_data_init(&s->data[i], &s->snaps[i], nr_cpus);
		if (err)
			return err;
	}
	s->shown = &s->data[0];
	s->latest = &s->data[1];
	err = top_frame_init(&s->frame, TOP_LINE_LEN - 1, 0);
	if (err)
		return err;
	/* the first screen already shows the pagesets */
	err = system_sample(sys, s->shown->snap);
	if (err)
		return err;
	s->shown->when = time(NULL);
	top_rows_build(&s->ctx, &s->view, s->shown);
	return 0;
}

static void state_free(struct top_state *s)
{
	int i;

	top_frame_free(&s->frame);
	for (i = 0; i < 2; i++) {
		top_data_free(&s->data[i]);
		snapshot_free(&s->snaps[i]);
	}
}

int cmd_top(int argc, char **argv)
{
	struct top_opts o;
	struct top_state s = { .cost.stats_fd = -1 };
	struct system sys;
	int err;

	err = cli_parse_top(argc, argv, &o);
	if (err || o.help) {
		if (o.help)
			top_usage(stdout);
		return cli_status(err);
	}
	/* before newterm, so curses leaves our SIGINT/SIGTERM handlers be */
	sig_install(NULL, 0);
	/* a terminal that cannot move its cursor gets the text frames */
	if (!o.batch && (!getenv("TERM") || !*getenv("TERM") ||
			 !strcmp(getenv("TERM"), "dumb"))) {
		cli_warn("TERM is %s: plain text frames, as with -b",
			 getenv("TERM") && *getenv("TERM") ? "dumb" :
							     "not set");
		o.batch = true;
	}
	if (!o.batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
		return cli_status(cli_bad_input(
			"not a terminal: use 'pcptop top -b' for text output"));

	/* the interactive view shows the fallback in its header instead */
	err = system_attach(&sys, &o.attach, o.batch, true);
	if (err)
		return cli_status(err);

	err = state_init(&s, &o, &sys);
	if (err) {
		cli_warn("setting up: %s", strerror(-err));
		goto out_state;
	}
	cost_on(&s.cost, &sys.a);
	s.ctx.cost_off = s.cost.off[0] ? s.cost.off : NULL;
	/* the first interval starts now: what the maps hold is older */
	err = system_sample(&sys, s.latest->snap);
	s.last_sample = clock_mono_s();
	if (err) {
		cli_warn("reading BPF maps: %s", strerror(-err));
		goto out_cost;
	}

	if (o.batch) {
		err = run_batch(&s, o.count);
	} else {
		err = top_screen_open(&s);
		if (err) {
			/* even the built-in entries could not be written */
			cli_warn(
				"cannot set up TERM=%s (no terminfo, and no writable TMPDIR, /tmp, /dev/shm or /run for the built-in one): use -b",
				getenv("TERM") ?: "(unset)");
			err = -ENOTTY;
			goto out_cost;
		}
		err = top_screen_run(&s, o.count);
		top_screen_close(&s);
	}
	if (err)
		cli_warn("%s", strerror(-err));
out_cost:
	cost_off(&s.cost);
out_state:
	state_free(&s);
	system_detach(&sys);
	/* a runtime failure here is never bad input */
	return err == -ENOTTY ? EXIT_USAGE : err ? EXIT_RUNTIME : EXIT_OK;
}
