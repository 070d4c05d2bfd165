// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop top: the live view, and what `pcptop` with no command runs on a
 * board or a server. Attaches like stat, samples an interval every -d
 * seconds, re-reads /proc/zoneinfo with it, and shows a table per CPU and
 * zone with a histogram pane, under curses or (-b) as plain text frames.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "attach.h"
#include "cli.h"
#include "snapshot.h"
#include "system.h"
#include "top.h"
#include "pcptop.skel.h"

#define DEFAULT_DELAY_S 1.0
#define ZONEINFO_PATH "/proc/zoneinfo"
#define BPF_STATS_SYSCTL "/proc/sys/kernel/bpf_stats_enabled"
#define NSEC_PER_SEC 1e9
#define PERCENT 100.0

struct top_opts {
	double delay;
	long count;		/* 0: until q or a signal */
	bool batch;
	struct attach_opts attach;
};

static void usage(FILE *f)
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
		"  -v, --verbose         libbpf's log on stderr\n"
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
		"                    every refresh (count moves live)\n"
		"  REF/s RPG/s       refills (rmqueue_bulk) and the pages they brought\n"
		"  BULK/s BPG/s      bulk frees (free_pcppages_bulk) and the pages freed\n"
		"  AVG MAX           pages per bulk free, average and largest\n"
		"  FHI/s             free_high flushes (pages freed past pcp->high)\n"
		"  DEC/s             decay_pcp_high trims\n"
		"  P50 P99 HMAX      zone->lock wait+hold in bulk frees and refills\n"
		"                    together; percentiles are log2 slot bounds ('at most')\n"
		"  '-'               not measured on this row in this probe mode\n"
		"In tracepoint mode the events carry no zone: their figures are on the\n"
		"'all(tp)' row of each CPU, estimated from event runs, with COUNT and\n"
		"HIGH summed over its zones, while each zone's row keeps its pageset.\n"
		"Columns that do not fit the terminal are dropped from the right.\n"
		"\n"
		"Keys: q quit; h or ? help; Up/Down (PgUp PgDn Home End) select a row;\n"
		"s or > next sort column, < previous (marked '*'); z zone filter (all,\n"
		"then each zone); c per-CPU rows or one row per zone summed; H or Tab\n"
		"pane shows batch sizes or zone->lock times; space pauses the display\n"
		"(sampling goes on; resuming shows the latest interval); d new delay;\n"
		"Ctrl-L redraw.\n"
		"\n"
		"Examples:\n"
		"  pcptop                        the live view, refreshed every second\n"
		"  pcptop top -d 2               refresh every 2 s\n"
		"  pcptop top -b -n 5 > log.txt  five text frames, one a second\n"
		"  TERM=vt100 pcptop             on a plain serial console\n",
		TOP_MIN_DELAY_S);
}

int top_parse_delay(const char *s, double *out)
{
	double d;

	if (cli_parse_seconds(s, TOP_MAX_DELAY_S, &d) || d < TOP_MIN_DELAY_S)
		return -EINVAL;
	*out = d;
	return 0;
}

static int parse_args(int argc, char **argv, struct top_opts *o)
{
	static const struct option longopts[] = {
		{ "delay", required_argument, NULL, 'd' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "batch", no_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		CLI_ATTACH_LONGOPTS,
		{}
	};
	int c, err;

	o->delay = DEFAULT_DELAY_S;
	cli_attach_defaults(&o->attach);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:n:bm:vh", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'd':
			if (top_parse_delay(optarg, &o->delay))
				return cli_error("bad delay '%s': seconds from %.1f to %.0f, e.g. -d 1 or -d 0.5",
						 optarg, TOP_MIN_DELAY_S,
						 TOP_MAX_DELAY_S);
			break;
		case 'n':
			if (cli_parse_count(optarg, &o->count))
				return cli_error("bad count '%s': give a whole number >= 1",
						 optarg);
			break;
		case 'b':
			o->batch = true;
			break;
		case 'h':
			usage(stdout);
			return -1;
		case ':':
			return cli_error("option '%s' needs a value: see 'pcptop top --help'",
					 argv[optind - 1]);
		default:
			err = cli_attach_opt(c, optarg, &o->attach);
			if (err == CLI_OPT_TAKEN)
				break;
			return err ? err :
				     cli_error("unknown option '%s': see 'pcptop top --help'",
					       argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_error("unexpected argument '%s': see 'pcptop top --help'",
				 argv[optind]);
	return 0;
}

double top_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / NSEC_PER_SEC;
}

/* ---- pcptop's own cost ---- */

static int write_long_file(const char *path, long v)
{
	FILE *f = fopen(path, "w");
	int err = 0;

	if (!f)
		return -errno;
	if (fprintf(f, "%ld\n", v) < 0)
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/*
 * BPF_ENABLE_STATS keeps run-time stats on while its fd is open, so they
 * go off however pcptop ends. Kernels before 5.8 only have the sysctl:
 * then the old value is put back on every way out that runs cleanup.
 */
static void cost_on(struct cost_src *cs)
{
	int fd, err;

	cs->stats_fd = -1;
	fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (fd >= 0) {
		cs->stats_fd = fd;
		return;
	}
	err = read_long_file(BPF_STATS_SYSCTL, &cs->sysctl_old);
	if (!err && cs->sysctl_old)
		return;
	if (!err)
		err = write_long_file(BPF_STATS_SYSCTL, 1);
	if (err) {
		snprintf(cs->off, sizeof(cs->off), "bpf_stats: %s",
			 strerror(-err));
		return;
	}
	cs->sysctl_set = true;
}

static void cost_off(struct cost_src *cs)
{
	if (cs->stats_fd >= 0)
		close(cs->stats_fd);
	cs->stats_fd = -1;
	if (cs->sysctl_set)
		write_long_file(BPF_STATS_SYSCTL, cs->sysctl_old);
	cs->sysctl_set = false;
}

/* run time and runs of every loaded program, summed */
static void cost_totals(const struct attach *a, uint64_t *ns, uint64_t *cnt)
{
	struct bpf_program *prog;

	*ns = 0;
	*cnt = 0;
	bpf_object__for_each_program(prog, a->skel->obj) {
		struct bpf_prog_info info = {};
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		*ns += info.run_time_ns;
		*cnt += info.run_cnt;
	}
}

static void cost_sample(struct top_state *s, struct top_data *d)
{
	struct cost_src *cs = &s->cost;
	uint64_t ns, cnt;

	cost_totals(s->ctx.a, &ns, &cnt);
	d->cost_valid = !cs->off[0] && d->secs > 0;
	d->cost_ns_per_event = figures_ratio(ns - cs->run_ns,
					     cnt - cs->run_cnt);
	d->cost_cpu_pct = d->secs > 0 ? (double)(ns - cs->run_ns) * PERCENT /
						(d->secs * NSEC_PER_SEC) :
					0.0;
	cs->run_ns = ns;
	cs->run_cnt = cnt;
}

/* ---- sampling ---- */

void top_set_msg(struct top_view *v, double secs, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v->msg, sizeof(v->msg), fmt, ap);
	va_end(ap);
	v->msg_until = top_now() + secs;
}

void top_show_latest(struct top_state *s)
{
	struct top_data *t = s->shown;

	s->shown = s->latest;
	s->latest = t;
	s->latest_new = false;
	top_rows_build(&s->ctx, &s->view, s->shown);
}

/* one interval into s->latest; shown at once unless the display is paused */
int top_sample(struct top_state *s)
{
	struct top_data *d = s->latest;
	double now;
	int err;

	err = snapshot_take(s->ctx.a, d->snap);
	if (err)
		return err;
	now = top_now();
	d->secs = now - s->last_sample;
	d->when = time(NULL);
	s->last_sample = now;
	zoneinfo_free(&d->zi);
	d->zi_err = zoneinfo_parse(ZONEINFO_PATH, &d->zi);
	cost_sample(s, d);
	s->latest_new = true;
	if (!s->view.paused)
		top_show_latest(s);
	return 0;
}

/* ---- batch mode ---- */

static int run_batch(struct top_state *s, long count)
{
	long n;
	int err;

	/* a closed pipe fails the write instead, so cleanup still runs */
	signal(SIGPIPE, SIG_IGN);
	for (n = 0; !cli_exiting && (!count || n < count); n++) {
		cli_sleep(s->view.delay);
		if (cli_exiting)
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
		      struct attach *a, const struct system_facts *sf)
{
	int nr_cpus = libbpf_num_possible_cpus();
	int i, err;

	if (nr_cpus < 0)
		return nr_cpus;
	s->ctx.a = a;
	s->ctx.sf = sf;
	s->ctx.nr_cpus = nr_cpus;
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
	s->shown->zi_err = zoneinfo_parse(ZONEINFO_PATH, &s->shown->zi);
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
	struct top_opts o = {};
	struct top_state s = { .cost.stats_fd = -1 };
	struct system_facts sf;
	struct attach a;
	int err, ret = EXIT_RUNTIME;

	err = parse_args(argc, argv, &o);
	if (err)
		return err < 0 ? EXIT_OK : err;
	/* before newterm, so curses leaves our SIGINT/SIGTERM handlers be */
	cli_install_signals();
	if (!o.batch && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
		return cli_error("not a terminal: use 'pcptop top -b' for text output");

	/* the interactive view shows the fallback in its header instead */
	err = system_attach(&a, &sf, &o.attach, o.batch);
	if (err)
		return err;

	err = state_init(&s, &o, &a, &sf);
	if (err) {
		cli_error("setting up: %s", strerror(-err));
		goto out_state;
	}
	cost_on(&s.cost);
	s.ctx.cost_off = s.cost.off[0] ? s.cost.off : NULL;
	cost_totals(&a, &s.cost.run_ns, &s.cost.run_cnt);
	/* the first interval starts now: what the maps hold is older */
	err = snapshot_take(&a, s.latest->snap);
	s.last_sample = top_now();
	if (err) {
		cli_error("reading BPF maps: %s", strerror(-err));
		goto out_cost;
	}

	if (o.batch) {
		err = run_batch(&s, o.count);
	} else {
		err = top_screen_open(&s);
		if (err) {
			/* a board's rootfs may carry no terminfo at all */
			cli_error("no terminfo entry for TERM=%s: set TERM=vt100 (or TERMINFO=DIR), or use -b",
				  getenv("TERM") ?: "(unset)");
			ret = EXIT_USAGE;
			goto out_cost;
		}
		err = top_screen_run(&s, o.count);
		top_screen_close(&s);
	}
	if (err)
		cli_error("%s", strerror(-err));
	else
		ret = EXIT_OK;
out_cost:
	cost_off(&s.cost);
out_state:
	state_free(&s);
	system_detach(&a, &sf);
	return ret;
}
