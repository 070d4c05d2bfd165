// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop record: the bonnie++ workflow. Attach as stat does, then record
 * every interval's raw map values to a file, optionally around a command
 * started after attaching so its whole life is counted. Nothing is
 * derived here: report and diff read the raw counts back, so a newer
 * pcptop can re-read old recordings.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "cli.h"
#include "clock.h"
#include "figures.h"
#include "outfile.h"
#include "prom.h"
#include "recfile.h"
#include "record_trace.h"
#include "runcmd.h"
#include "sig.h"
#include "snapshot.h"
#include "snapshot_take.h"
#include "system.h"
#include "units.h"

/* an interval this much shorter than asked was cut by the end */
#define PARTIAL_SLACK_NS NSEC_PER_MSEC
/*
 * Under memory pressure the OOM killer should take the workload, not the
 * observer of it. -500 takes half of RAM off pcptop's badness, so its few
 * MiB are never the pick while a workload holds memory; not -1000, which
 * exempts it: a pcptop that grew without bound must still be killable,
 * or a 1 GiB board would kill everything else and hang.
 */
#define RECORD_OOM_SCORE_ADJ (-500)
/*
 * A decay or drain books itself at its exit, in the epoch then current,
 * while the trace holds it at its entry: one running across the last
 * flip had its rest counted in a copy no one reads, and whatif --check
 * replayed 43 bulk frees where the recording counted 37 (amd64 7.2,
 * docs/ACCURACY.md). So the last interval waits for those in flight, at
 * most RECORD_SETTLE_NS in all (a chunked decay under TCG takes
 * milliseconds), and while one is in flight after its flip all the same,
 * up to RECORD_SETTLE_ROUNDS more intervals take in its rest.
 */
#define RECORD_SETTLE_NS (1000 * NSEC_PER_MSEC)
#define RECORD_SETTLE_POLL_NS NSEC_PER_MSEC
#define RECORD_SETTLE_ROUNDS 3

void record_usage(FILE *f)
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
		"      --sync SECS      fsync FILE at most every SECS seconds (default %g; 0:\n"
		"                       only at the end): a power cut loses at most the last\n"
		"                       SECS seconds and an interval\n"
		"      --cross-check    also count mm_page_pcpu_drain next to the function probe\n"
		"      --trace          also keep the pcp traffic as events (allocations, frees,\n"
		"                       drains, decays, pageset states) for pcptop whatif; a\n"
		"                       BPF ring buffer of its own, its losses recorded and\n"
		"                       reported (cost: pcptop info, docs/PERFORMANCE.md)\n" CLI_PROBE_OPTS_HELP
		"  -q, --quiet          no progress lines on stderr\n"
		"  -v, --verbose        libbpf's log and the verifier's cost on stderr\n"
		"  -h, --help           this text\n"
		"\n"
		"Signals: Ctrl-C, SIGTERM or SIGHUP end a system-wide recording with the file\n"
		"complete. With a COMMAND they are passed on to it (a Ctrl-C typed at the\n"
		"terminal reaches it directly) and recording goes on until it exits, so its\n"
		"clean-up is recorded too; a second signal kills it with SIGKILL. One that\n"
		"comes while pcptop still attaches ends the command as it starts, before it\n"
		"runs.\n"
		"\n"
		"Every interval is a compressed, checksummed chunk written whole: a file can\n"
		"be reported while it grows. If pcptop is killed (kill -9, the OOM killer) the\n"
		"file reads back up to its last whole chunk, without an end chunk: only the\n"
		"interval in progress is lost. A power cut or a kernel crash loses what was\n"
		"not synced yet (--sync). pcptop lowers its own oom_score_adj to %d, not its\n"
		"command's, so that the OOM killer picks the workload first. The format is\n"
		"described in docs/FORMAT.md.\n"
		"\n"
		"Examples:\n"
		"  pcptop record -- bonnie++ -d /mnt/t -s 2048 -r 1024 -n 0 -u root\n"
		"  pcptop record -o scale0.data -i 0.5 -- ./bench.sh   two intervals a second\n"
		"  pcptop record -d 60                   the whole system for a minute\n"
		"  pcptop report                         what pcptop.data holds\n"
		"  pcptop diff scale5.data scale0.data   two runs side by side\n",
		DEFAULT_RECORDING, RECORD_SYNC_DEFAULT_S, RUN_GAP_NS_DEFAULT,
		RECORD_OOM_SCORE_ADJ);
}

/* the header shares zones and argv with sys and o: never rec_header_free() it */
static void fill_header(struct rec_header *h, const struct record_opts *o,
			const struct system *sys, int nr_cpus)
{
	rec_header_init(h, nr_cpus);
	snprintf(h->pcptop_version, sizeof(h->pcptop_version), "%s",
		 PCPTOP_VERSION);
	h->start_realtime_ns = clock_real_ns();
	h->interval_ns = (uint64_t)(o->interval * (double)NSEC_PER_SEC);
	h->f = sys->f;
	h->argc = o->argc;
	h->argv = o->argv;
}

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * NSEC_PER_SEC +
	       (uint64_t)tv->tv_usec * NSEC_PER_USEC;
}

static void fill_end(struct rec_end *e, enum run_end why,
		     const struct run_child *c, bool had_command, uint32_t nr,
		     uint64_t recorded_ns)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->reason, sizeof(e->reason), "%s",
		 why == RUN_CHILD_EXITED ? "command exited" :
		 why == RUN_DURATION	 ? "duration" :
		 why == RUN_SIGNAL	 ? "signal" :
					   "command did not start");
	e->nr_intervals = nr;
	e->recorded_ns = recorded_ns;
	if (!had_command)
		return;
	e->have_command = true;
	e->wait_status = c->status;
	e->exit_code = run_exit_code(c);
	if (WIFSIGNALED(c->status))
		e->term_signal = WTERMSIG(c->status);
	e->wall_ns = c->end_ns - c->start_ns;
	e->utime_ns = tv_ns(&c->ru.ru_utime);
	e->stime_ns = tv_ns(&c->ru.ru_stime);
	e->maxrss_kb = (uint64_t)c->ru.ru_maxrss;
}

/* where the interval loop is */
struct rec_run {
	uint64_t t0;
	uint64_t t_last;
	uint64_t t_synced; /* the last --sync fsync's end */
	uint64_t sync_max_ns; /* the longest of them */
	uint32_t nr;
	uint32_t nr_syncs;
	enum run_end why;
};

/* --sync: fsync when SECS have passed since the last one; 0 or -errno */
static int sync_due(const struct record_opts *o, struct rec_writer *w,
		    struct rec_run *run, uint64_t t)
{
	uint64_t every = (uint64_t)(o->sync * (double)NSEC_PER_SEC), t1;
	int err;

	if (!every || t < run->t_synced + every)
		return 0;
	err = rec_writer_sync(w);
	if (err) {
		cli_warn("syncing %s: %s", o->out, strerror(-err));
		return err;
	}
	/* on a busy SD card one fsync can wait seconds for the journal */
	t1 = clock_mono_ns();
	if (t1 - t > run->sync_max_ns)
		run->sync_max_ns = t1 - t;
	run->t_synced = t1;
	run->nr_syncs++;
	return 0;
}

/*
 * RECORD_OOM_SCORE_ADJ for pcptop alone: called once the command runs,
 * which took the value it had at fork. Only lowers; 0 or -errno (-EACCES
 * without CAP_SYS_RESOURCE).
 */
static int lower_oom_score(void)
{
	char buf[16];
	ssize_t n;
	int fd, err = 0;

	fd = open("/proc/self/oom_score_adj", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		err = -errno;
		goto out;
	}
	buf[n] = '\0';
	if (atoi(buf) <= RECORD_OOM_SCORE_ADJ)
		goto out;
	n = snprintf(buf, sizeof(buf), "%d", RECORD_OOM_SCORE_ADJ);
	if (pwrite(fd, buf, (size_t)n, 0) < 0)
		err = -errno;
out:
	close(fd);
	return err;
}

/*
 * Wait for the next tick; with --trace, polling the ring buffer every
 * RECORD_TRACE_POLL_NS on the way. 0 or -errno with the error said.
 */
static int wait_tick(const struct record_opts *o, struct rec_tracer *rt,
		     struct run_child *c, struct rec_run *run, uint64_t next,
		     uint64_t stop_at)
{
	uint64_t until;
	int err;

	for (;;) {
		until = next;
		if (rt && clock_mono_ns() + RECORD_TRACE_POLL_NS < next)
			until = clock_mono_ns() + RECORD_TRACE_POLL_NS;
		run->why = run_wait(c, until, stop_at);
		if (run->why != RUN_TICK || until == next)
			return 0;
		err = rec_tracer_poll(rt);
		if (err) {
			cli_warn("--trace: writing %s: %s", o->out,
				 strerror(-err));
			return err;
		}
	}
}

/* until no decay or drain is in flight, or give_up; 0 or -errno */
static int settle_calls(const struct record_opts *o, struct system *sys,
			struct rec_tracer *rt, uint64_t give_up,
			uint64_t *waited)
{
	struct timespec poll = { 0, RECORD_SETTLE_POLL_NS };
	uint64_t t0 = clock_mono_ns();
	int in_flight, err = 0;

	while ((in_flight = snapshot_calls_in_flight(&sys->a)) > 0 &&
	       clock_mono_ns() < give_up) {
		nanosleep(&poll, NULL);
		err = rt ? rec_tracer_poll(rt) : 0;
		if (err) {
			cli_warn("--trace: writing %s: %s", o->out,
				 strerror(-err));
			break;
		}
	}
	/* not fatal: the recording ends as it did before it waited */
	if (in_flight < 0)
		cli_warn("cannot tell the decays and drains in flight: %s;"
			 " not waiting for them",
			 strerror(-in_flight));
	*waited += clock_mono_ns() - t0;
	return err;
}

static void say_settled(const struct record_opts *o,
			const struct snapshot *snap, int settled,
			uint64_t waited)
{
	if (!o->attach.verbose || (!settled && waited < RECORD_SETTLE_POLL_NS))
		return;
	fprintf(stderr,
		"pcptop: the last interval waited %.1f ms for decays and drains"
		" in flight, %d more interval%s%s\n",
		(double)waited / (double)NSEC_PER_MSEC, settled,
		settled == 1 ? "" : "s",
		snap->calls_in_flight ? "; one still was at the flip" : "");
}

/* the interval loop; 0, or -errno with the error already said */
static int record_loop(const struct record_opts *o, struct system *sys,
		       struct snapshot *snap, struct rec_writer *w,
		       struct prom_state *ps, struct run_child *c,
		       struct rec_run *run, struct rec_tracer *rt)
{
	uint64_t ival = (uint64_t)(o->interval * (double)NSEC_PER_SEC);
	uint64_t stop_at = o->duration > 0 ?
				   run->t0 + (uint64_t)(o->duration *
							(double)NSEC_PER_SEC) :
				   0;
	uint64_t prev = run->t0, next = run->t0 + ival, t;
	struct rec_interval iv;
	struct figures f;
	uint64_t give_up = 0, waited = 0;
	int settled = 0, err;

	for (;;) {
		err = settled ? 0 : wait_tick(o, rt, c, run, next, stop_at);
		if (!err && run->why != RUN_TICK) {
			/* one budget: a missed exit leaves a call in flight */
			if (!give_up)
				give_up = clock_mono_ns() + RECORD_SETTLE_NS;
			err = settle_calls(o, sys, rt, give_up, &waited);
		}
		if (err)
			return err;
		err = system_sample(sys, snap);
		if (err) {
			cli_warn("reading BPF maps: %s", strerror(-err));
			return err;
		}
		/*
		 * the interval ends where its counters do, at the flip: a
		 * trace event after it is the next interval's, as its count
		 * is (the clock after the maps' and /proc's reading let whatif
		 * replay a decay the recording never counted)
		 */
		t = snap->switch_ns;
		memset(&iv, 0, sizeof(iv));
		iv.seq = run->nr;
		iv.t_start_ns = prev - run->t0;
		iv.t_end_ns = t - run->t0;
		iv.realtime_ns = clock_real_ns();
		if (settled ||
		    (run->why != RUN_TICK && t + PARTIAL_SLACK_NS < next))
			iv.flags |= REC_IV_PARTIAL;
		/* the trace up to here, before the interval it ends with */
		err = rt ? rec_tracer_interval(rt, run->nr + 1) : 0;
		if (err) {
			cli_warn("--trace: writing %s: %s", o->out,
				 strerror(-err));
			return err;
		}
		err = rec_write_interval(w, &iv, snap);
		if (err) {
			cli_warn("writing %s: %s", o->out, strerror(-err));
			return err;
		}
		err = sync_due(o, w, run, t);
		if (err)
			return err;
		figures_compute(snap, SNAP_ALL, SNAP_ALL, &f);
		prom_update(ps, &f, &snap->smp,
			    (double)(t - prev) / (double)NSEC_PER_SEC);
		run->nr++;
		run->t_last = t;
		prev = t;
		if (run->why != RUN_TICK) {
			if (settled == RECORD_SETTLE_ROUNDS ||
			    clock_mono_ns() >= give_up ||
			    !snap->calls_in_flight) {
				say_settled(o, snap, settled, waited);
				return 0;
			}
			settled++;
			continue;
		}
		next += ival;
		/* a late wake-up skips ticks rather than bunching them */
		if (next <= t)
			next = t + ival;
	}
}

static void say_start(const struct record_opts *o, const struct facts *fa)
{
	char scale[512];

	if (o->quiet)
		return;
	facts_scale_line(fa, scale, sizeof(scale));
	fprintf(stderr, "pcptop: recording to %s every %g s (%s mode, %s)%s\n",
		o->out, o->interval, fa->mode_summary, scale,
		o->argc ? "" : "; Ctrl-C to stop");
}

static void say_end(const struct record_opts *o, const struct rec_writer *w,
		    const struct rec_end *e, const struct rec_run *run)
{
	char cmd[256];

	if (o->quiet)
		return;
	fprintf(stderr,
		"pcptop: recorded %u intervals, %.1f s, to %s (%.0f KiB; %u syncs, longest %.3f s)\n",
		run->nr, (double)e->recorded_ns / (double)NSEC_PER_SEC, o->out,
		(double)w->bytes / (double)KIB, run->nr_syncs,
		(double)run->sync_max_ns / (double)NSEC_PER_SEC);
	if (!e->have_command)
		return;
	rec_argv_join(o->argc, o->argv, cmd, sizeof(cmd));
	fprintf(stderr, "pcptop: %s: %s %d after %.2f s\n", cmd,
		e->term_signal ? "killed, exit status" : "exit status",
		e->exit_code, (double)e->wall_ns / (double)NSEC_PER_SEC);
}

/* what was counted while setting up is not part of the run */
static int record_start(const struct record_opts *o, struct system *sys,
			struct snapshot *snap, struct run_child *c,
			struct rec_run *run)
{
	int err;

	err = system_sample(sys, snap);
	if (err) {
		cli_warn("reading BPF maps: %s", strerror(-err));
		return err;
	}
	run->t0 = snap->switch_ns;
	run->t_last = run->t_synced = run->t0;
	if (o->argc) {
		err = run_start(c, o->argv);
		if (err) {
			cli_warn("cannot run '%s': %s", o->argv[0],
				 strerror(-err));
			return err;
		}
	}
	/* not fatal: without the capability pcptop is picked like any process */
	err = lower_oom_score();
	if (err && o->attach.verbose)
		cli_warn("cannot lower the OOM score: %s", strerror(-err));
	return 0;
}

/*
 * Record until the command exits, a signal or --duration; 0 or -errno.
 * *status is the command's exit status when one ran.
 */
static int record_run(const struct record_opts *o, struct system *sys,
		      struct rec_writer *w, const struct rec_header *hdr,
		      int *status)
{
	struct snapshot snap = {};
	struct run_child c = {};
	struct rec_run run = { .why = RUN_TICK };
	struct rec_tracer tracer, *rt = NULL;
	struct prom_state ps;
	struct rec_end end;
	int err, terr;

	err = snapshot_alloc(&snap, (int)hdr->dims.nr_cpus);
	if (err) {
		cli_warn("out of memory for %u CPUs", hdr->dims.nr_cpus);
		return err;
	}
	prom_init(&ps, o->prom, &sys->f);
	if (o->trace) {
		err = rec_tracer_start(&tracer, o, w, clock_mono_ns());
		if (err)
			goto out;
		rt = &tracer;
	}
	say_start(o, &sys->f);
	err = record_start(o, sys, &snap, &c, &run);
	if (rt)
		rt->buf.t0_ns = run.t0;
	if (err && o->argc && c.pid > 0 && !c.running) {
		/* the command could not be run: the file says so */
		fill_end(&end, RUN_TICK, &c, true, 0, 0);
		rec_write_end(w, hdr, &end);
		*status = end.exit_code;
		err = 0;
		goto out;
	}
	if (err)
		goto out;
	err = record_loop(o, sys, &snap, w, &ps, &c, &run, rt);
	if (err) {
		/* the file is whole up to the last interval; let the command finish */
		if (c.running && !o->quiet)
			fprintf(stderr,
				"pcptop: recording stopped; waiting for '%s' to exit\n",
				o->argv[0]);
		run_reap(&c, true);
		goto out;
	}
	fill_end(&end, run.why, &c, o->argc > 0, run.nr, run.t_last - run.t0);
	if (rt) {
		err = rec_tracer_stop(rt, o->quiet);
		rt = NULL;
		if (err) {
			cli_warn("--trace: writing %s: %s", o->out,
				 strerror(-err));
			goto out;
		}
	}
	err = rec_write_end(w, hdr, &end);
	if (err) {
		cli_warn("writing %s: %s", o->out, strerror(-err));
		goto out;
	}
	say_end(o, w, &end, &run);
	*status = o->argc ? end.exit_code : EXIT_OK;
out:
	if (rt) {
		terr = rec_tracer_stop(rt, o->quiet);
		if (terr && !err)
			err = terr;
	}
	snapshot_free(&snap);
	prom_free(&ps);
	return err;
}

static int check_outputs(const struct record_opts *o)
{
	char msg[OUTFILE_MSG_LEN];

	if (outfile_check(o->out, msg, sizeof(msg)) ||
	    (o->prom && outfile_check(o->prom, msg, sizeof(msg))))
		return cli_bad_input("%s", msg);
	return 0;
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o;
	struct rec_writer w = { .fd = -1 };
	struct rec_header hdr;
	struct system sys;
	int err, cerr, status = EXIT_OK, nr_cpus;

	err = cli_parse_record(argc, argv, &o);
	if (err || o.help) {
		if (o.help)
			record_usage(stdout);
		return cli_status(err);
	}
	run_install_signals();
	/* a bad output is bad input, found before anything is loaded */
	err = check_outputs(&o);
	if (err)
		return cli_status(err);
	err = system_attach(&sys, &o.attach, !o.quiet, false);
	if (err)
		return cli_status(err);
	nr_cpus = system_nr_cpus();
	fill_header(&hdr, &o, &sys, nr_cpus > 0 ? nr_cpus : 1);
	/* an output that cannot be written is bad input: exit 2 */
	err = outfile_keep_old(o.out);
	if (err) {
		cli_warn("cannot keep %s as %s.old: %s", o.out, o.out,
			 strerror(-err));
		err = -EINVAL;
		goto out_sys;
	}
	err = rec_writer_open(&w, o.out, &hdr);
	if (err) {
		cli_warn("cannot write %s: %s", o.out, strerror(-err));
		err = -EINVAL;
		goto out_sys;
	}
	err = record_run(&o, &sys, &w, &hdr, &status);
	/* once, at the end: signals end the run through here too */
	cerr = rec_writer_sync(&w);
	if (cerr && !err)
		cli_warn("syncing %s: %s", o.out, strerror(-cerr));
	cerr = rec_writer_close(&w);
	if (cerr && !err) {
		cli_warn("closing %s: %s", o.out, strerror(-cerr));
		err = -EIO;
	}
	if (err && err != -EINVAL)
		err = -EIO;
out_sys:
	system_detach(&sys);
	return err ? cli_status(err) : status;
}
