// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop record: the bonnie++ workflow. Attach as stat does, then record
 * every interval's raw map values to a file, optionally around a command
 * started after attaching so its whole life is counted. Nothing is
 * derived here: report and diff read the raw counts back, so a newer
 * pcptop can re-read old recordings.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <bpf/libbpf.h>
#include "attach.h"
#include "cli.h"
#include "figures.h"
#include "prom.h"
#include "recfile.h"
#include "runcmd.h"
#include "snapshot.h"
#include "system.h"

#define DEFAULT_OUTPUT "pcptop.data"
#define MAX_INTERVAL_S 86400.0
#define MAX_DURATION_S (366.0 * 86400.0)
#define NSEC_PER_SEC 1000000000LL
/* an interval this much shorter than asked was cut by the end */
#define PARTIAL_SLACK_NS 1000000LL
#define KIB 1024.0

struct record_opts {
	const char *out;
	double interval;
	double duration;	/* 0: until the command exits or a signal */
	const char *prom;
	bool quiet;
	struct attach_opts attach;
	int argc;		/* the command, 0 for none */
	char **argv;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: pcptop record [-o FILE] [-i SECS] [-d SECS] [OPTIONS]\n"
		"                     [--] [COMMAND [ARGS...]]\n"
		"\n"
		"Records, every interval, the raw PCP counts as the BPF maps hold them (per\n"
		"CPU, zone, order and migratetype, and the log2 histograms) with what is\n"
		"needed to read them later: kernel, probe modes, the PCP batch scale and its\n"
		"source, every CPU's pcp count/high/batch. 'pcptop report' and 'pcptop diff'\n"
		"read the file; nothing is derived while recording.\n"
		"\n"
		"With a COMMAND pcptop attaches first, then starts it, records its whole\n"
		"life, keeps its command line, exit status and wall time, and exits with its\n"
		"status (128+N when signal N killed it, 127 when it cannot be run). Without\n"
		"one the whole system is recorded until Ctrl-C or --duration.\n"
		"\n"
		"  -o, --output FILE    where to write (default %s); an existing FILE is\n"
		"                       kept as FILE.old, as perf does\n"
		"  -i, --interval SECS  seconds per interval (default 1)\n"
		"  -d, --duration SECS  stop after SECS; with a COMMAND, send it SIGTERM then\n"
		"                       and record until it exits\n"
		"  -m, --mode MODE      auto (default), fentry, kprobe or tracepoint\n"
		"      --prom FILE      also keep FILE as a Prometheus textfile-collector file\n"
		"                       (pcptop_* metrics), rewritten every interval\n"
		"      --cross-check    also count mm_page_pcpu_drain next to the function probe\n"
		"      --run-gap NS     tracepoint mode: events further apart than NS on one\n"
		"                       CPU start a new estimated call (default %d)\n"
		"  -q, --quiet          no progress lines on stderr\n"
		"  -v, --verbose        libbpf's log on stderr\n"
		"  -h, --help           this text\n"
		"\n"
		"Signals: Ctrl-C, SIGTERM or SIGHUP end a system-wide recording with the file\n"
		"complete. With a COMMAND they are passed on to it (a Ctrl-C typed at the\n"
		"terminal reaches it directly) and recording goes on until it exits, so its\n"
		"clean-up is recorded too; a second signal kills it with SIGKILL.\n"
		"\n"
		"Every interval is a compressed, checksummed chunk synced to disk: a file can\n"
		"be reported while it grows, and a crash loses only the interval in progress.\n"
		"The format is described in docs/FORMAT.md.\n"
		"\n"
		"Examples:\n"
		"  pcptop record -- bonnie++ -d /mnt/t -s 2048 -r 1024 -n 0 -u root\n"
		"  pcptop record -o scale0.data -i 0.5 -- ./bench.sh   two intervals a second\n"
		"  pcptop record -d 60                   the whole system for a minute\n"
		"  pcptop report                         what pcptop.data holds\n"
		"  pcptop diff scale5.data scale0.data   two runs side by side\n",
		DEFAULT_OUTPUT, RUN_GAP_NS_DEFAULT);
}

static int parse_args(int argc, char **argv, struct record_opts *o)
{
	enum { OPT_PROM = CLI_OPT_FIRST_FREE };
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'd' },
		{ "prom", required_argument, NULL, OPT_PROM },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		CLI_ATTACH_LONGOPTS,
		{}
	};
	int c, err;

	o->out = DEFAULT_OUTPUT;
	o->interval = 1.0;
	cli_attach_defaults(&o->attach);
	optind = 1;
	/* "+": the first non-option starts the command and its own options */
	while ((c = getopt_long(argc, argv, "+o:i:d:m:qvh", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'o':
			if (!optarg[0])
				return cli_error("empty --output file name");
			o->out = optarg;
			break;
		case 'i':
			if (cli_parse_seconds(optarg, MAX_INTERVAL_S,
					      &o->interval))
				return cli_error("bad interval '%s': give seconds, e.g. -i 1 or -i 0.5",
						 optarg);
			break;
		case 'd':
			if (cli_parse_seconds(optarg, MAX_DURATION_S,
					      &o->duration))
				return cli_error("bad duration '%s': give seconds, e.g. -d 60",
						 optarg);
			break;
		case OPT_PROM:
			o->prom = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			err = cli_attach_opt(c, optarg, &o->attach);
			if (err == CLI_OPT_TAKEN)
				break;
			return err ? err : cli_error("see 'pcptop record --help'");
		}
	}
	o->argc = argc - optind;
	o->argv = argv + optind;
	return 0;
}

/* the header shares zones and argv with sf and o: never rec_header_free() it */
static void fill_header(struct rec_header *h, const struct record_opts *o,
			const struct attach *a, const struct system_facts *sf,
			int nr_cpus)
{
	int id;

	memset(h, 0, sizeof(*h));
	snprintf(h->pcptop_version, sizeof(h->pcptop_version), "%s",
		 PCPTOP_VERSION);
	h->start_realtime_ns = (uint64_t)run_now_ns(CLOCK_REALTIME);
	h->interval_ns = (uint64_t)(o->interval * NSEC_PER_SEC);
	snprintf(h->release, sizeof(h->release), "%s", sf->uts.release);
	snprintf(h->arch, sizeof(h->arch), "%s", sf->uts.machine);
	snprintf(h->hostname, sizeof(h->hostname), "%s", sf->uts.nodename);
	rec_dims_own(&h->dims, nr_cpus);
	for (id = 0; id < NR_PROBES && id < REC_MAX_PROBES; id++) {
		struct rec_probe *p = &h->probes[h->nr_probes++];

		snprintf(p->name, sizeof(p->name), "%s", probe_name(id));
		snprintf(p->mode, sizeof(p->mode), "%s",
			 probe_mode_name(a->probes[id].mode));
		snprintf(p->target, sizeof(p->target), "%s",
			 a->probes[id].target);
		snprintf(p->reason, sizeof(p->reason), "%s",
			 a->probes[id].reason);
		p->estimated = a->probes[id].estimated;
	}
	snprintf(h->mode_summary, sizeof(h->mode_summary), "%s",
		 attach_summary_mode(a));
	snprintf(h->fallback, sizeof(h->fallback), "%s", a->fallback);
	snprintf(h->btf_source, sizeof(h->btf_source), "%s", a->btf_source);
	h->scale = sf->scale;
	h->zones = sf->zones;
	h->zones_err = sf->zones_err;
	h->pageblock_order = sf->pageblock_err ? -1 : sf->pageblock_order;
	h->pages_per_block = sf->pageblock_err ? -1 : sf->pages_per_block;
	h->high_fraction = sf->high_fraction_err ? -1 : sf->high_fraction;
	h->run_gap_ns = o->attach.run_gap_ns;
	h->run_cap_pages = system_chunk_bound(sf);
	h->cross_check = o->attach.cross_check;
	h->argc = o->argc;
	h->argv = o->argv;
}

static void fill_end(struct rec_end *e, enum run_end why,
		     const struct run_child *c, bool had_command, uint32_t nr,
		     long long recorded_ns)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->reason, sizeof(e->reason), "%s",
		 why == RUN_CHILD_EXITED ? "command exited" :
		 why == RUN_DURATION	 ? "duration" :
		 why == RUN_SIGNAL	 ? "signal" :
					   "command did not start");
	e->nr_intervals = nr;
	e->recorded_ns = (uint64_t)recorded_ns;
	if (!had_command)
		return;
	e->have_command = true;
	e->wait_status = c->status;
	e->exit_code = run_exit_code(c);
	if (WIFSIGNALED(c->status))
		e->term_signal = WTERMSIG(c->status);
	e->wall_ns = (uint64_t)(c->end_ns - c->start_ns);
	e->utime_ns = (uint64_t)c->ru.ru_utime.tv_sec * NSEC_PER_SEC +
		      (uint64_t)c->ru.ru_utime.tv_usec * 1000;
	e->stime_ns = (uint64_t)c->ru.ru_stime.tv_sec * NSEC_PER_SEC +
		      (uint64_t)c->ru.ru_stime.tv_usec * 1000;
	e->maxrss_kb = (uint64_t)c->ru.ru_maxrss;
}

/* the interval loop; 0, or -errno with the error already said */
static int record_loop(const struct record_opts *o, struct attach *a,
		       struct snapshot *snap, struct rec_writer *w,
		       struct prom_state *ps, struct run_child *c,
		       long long t0, uint32_t *nr, long long *t_last,
		       enum run_end *why)
{
	long long ival = (long long)(o->interval * NSEC_PER_SEC);
	long long stop_at = o->duration > 0 ?
				    t0 + (long long)(o->duration * NSEC_PER_SEC) :
				    0;
	long long prev = t0, next = t0 + ival, t;
	struct rec_interval iv;
	struct figures f;
	int err;

	for (;;) {
		*why = run_wait(c, next, stop_at);
		err = snapshot_take(a, snap);
		if (err) {
			cli_error("reading BPF maps: %s", strerror(-err));
			return err;
		}
		t = run_now_ns(CLOCK_MONOTONIC);
		memset(&iv, 0, sizeof(iv));
		iv.seq = *nr;
		iv.t_start_ns = (uint64_t)(prev - t0);
		iv.t_end_ns = (uint64_t)(t - t0);
		iv.realtime_ns = (uint64_t)run_now_ns(CLOCK_REALTIME);
		if (*why != RUN_TICK && t + PARTIAL_SLACK_NS < next)
			iv.flags |= REC_IV_PARTIAL;
		err = rec_write_interval(w, &iv, snap);
		if (err) {
			cli_error("writing %s: %s", o->out, strerror(-err));
			return err;
		}
		figures_compute(snap, SNAP_ALL, SNAP_ALL, &f);
		prom_update(ps, &f, (double)(t - prev) / NSEC_PER_SEC);
		(*nr)++;
		*t_last = t;
		prev = t;
		if (*why != RUN_TICK)
			return 0;
		next += ival;
		/* a late wake-up skips ticks rather than bunching them */
		if (next <= t)
			next = t + ival;
	}
}

static void say_start(const struct record_opts *o, const struct attach *a,
		      const struct system_facts *sf)
{
	char scale[512];

	if (o->quiet)
		return;
	system_scale_line(sf, scale, sizeof(scale));
	fprintf(stderr, "pcptop: recording to %s every %g s (%s mode, %s)%s\n",
		o->out, o->interval, attach_summary_mode(a), scale,
		o->argc ? "" : "; Ctrl-C to stop");
}

static void say_end(const struct record_opts *o, const struct rec_writer *w,
		    const struct rec_end *e, uint32_t nr)
{
	char cmd[256];

	if (o->quiet)
		return;
	fprintf(stderr, "pcptop: recorded %u intervals, %.1f s, to %s (%.0f KiB)\n",
		nr, (double)e->recorded_ns / NSEC_PER_SEC, o->out,
		(double)w->bytes / KIB);
	if (!e->have_command)
		return;
	rec_argv_join(o->argc, o->argv, cmd, sizeof(cmd));
	fprintf(stderr, "pcptop: %s: %s %d after %.2f s\n", cmd,
		e->term_signal ? "killed, exit status" : "exit status",
		e->exit_code, (double)e->wall_ns / NSEC_PER_SEC);
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o = {};
	struct system_facts sf;
	struct snapshot snap = {};
	struct rec_writer w = { .fd = -1 };
	struct rec_header hdr;
	struct rec_end end;
	struct prom_state ps;
	struct run_child c = {};
	struct attach a;
	enum run_end why = RUN_TICK;
	long long t0, t_last;
	uint32_t nr = 0;
	int err, ret = EXIT_RUNTIME;

	err = parse_args(argc, argv, &o);
	if (err)
		return err < 0 ? EXIT_OK : err;

	run_install_signals();
	err = system_attach(&a, &sf, &o.attach, !o.quiet);
	if (err)
		return err;
	err = snapshot_alloc(&snap, libbpf_num_possible_cpus());
	if (err) {
		cli_error("out of memory for %d CPUs", snap.nr_cpus);
		goto out_sys;
	}
	fill_header(&hdr, &o, &a, &sf, snap.nr_cpus);
	/* an output that cannot be written is bad input: exit 2 */
	err = rec_rotate(o.out);
	if (err) {
		ret = cli_error("cannot keep %s as %s.old: %s", o.out, o.out,
				strerror(-err));
		goto out_snap;
	}
	err = rec_writer_open(&w, o.out, &hdr);
	if (err) {
		ret = cli_error("cannot write %s: %s", o.out, strerror(-err));
		goto out_snap;
	}
	prom_init(&ps, o.prom, &a, &sf);
	say_start(&o, &a, &sf);

	/* what was counted while setting up is not part of the run */
	err = snapshot_take(&a, &snap);
	if (err) {
		cli_error("reading BPF maps: %s", strerror(-err));
		goto out_writer;
	}
	t0 = run_now_ns(CLOCK_MONOTONIC);
	t_last = t0;
	if (o.argc) {
		err = run_start(&c, o.argv);
		if (err) {
			cli_error("cannot run '%s': %s", o.argv[0],
				  strerror(-err));
			fill_end(&end, RUN_TICK, &c, true, 0, 0);
			rec_write_end(&w, &hdr, &end);
			ret = end.exit_code;
			goto out_writer;
		}
	}
	err = record_loop(&o, &a, &snap, &w, &ps, &c, t0, &nr, &t_last, &why);
	if (err) {
		/* the file is whole up to the last interval; let the command finish */
		if (c.running && !o.quiet)
			fprintf(stderr, "pcptop: recording stopped; waiting for '%s' to exit\n",
				o.argv[0]);
		run_reap(&c, true);
		goto out_writer;
	}
	fill_end(&end, why, &c, o.argc > 0, nr, t_last - t0);
	err = rec_write_end(&w, &hdr, &end);
	if (err) {
		cli_error("writing %s: %s", o.out, strerror(-err));
		goto out_writer;
	}
	say_end(&o, &w, &end, nr);
	ret = o.argc ? end.exit_code : EXIT_OK;
out_writer:
	err = rec_writer_close(&w);
	if (err && ret == EXIT_OK) {
		cli_error("closing %s: %s", o.out, strerror(-err));
		ret = EXIT_RUNTIME;
	}
out_snap:
	snapshot_free(&snap);
out_sys:
	system_detach(&a, &sf);
	return ret;
}
