// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop stat: like runqlat, each interval the counters and the log2
 * histograms, as text or one JSON object a line (core/stat_print.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "clock.h"
#include "figures.h"
#include "outfile.h"
#include "prom.h"
#include "sig.h"
#include "snapshot.h"
#include "stat_print.h"
#include "system.h"

void stat_usage(FILE *f)
{
	fprintf(f,
		"Usage: pcptop stat [-i SECS] [-c COUNT] [--mode MODE] [--json] [OPTIONS]\n"
		"\n"
		"Every interval: bulk frees (free_pcppages_bulk), refills (rmqueue_bulk),\n"
		"free_high flushes, decay_pcp_high calls and drain_pages_zone chunks, with\n"
		"calls, pages, average and largest batch; zone->lock hold and wait and the\n"
		"interrupts-off time around it (function probes), or the span of a run of\n"
		"page events (tracepoint mode); log2 histograms of each. Counts are summed\n"
		"in the kernel. docs/ACCURACY.md says what each figure counts and how well\n"
		"it agrees with the kernel's own count.\n"
		"\n"
		"  -i, --interval SECS  seconds per report (default 1)\n"
		"  -c, --count N        stop after N reports (default: until Ctrl-C)\n"
		"  -m, --mode MODE      auto (default): fentry, else kprobe, else tracepoints;\n"
		"                       or force fentry | kprobe | tracepoint\n"
		"  -j, --json           one JSON object per interval, one per line\n"
		"  -H, --no-hist        counters only, no histograms (text output)\n"
		"      --prom FILE      also keep FILE as a Prometheus textfile-collector\n"
		"                       file (pcptop_* metrics), rewritten every interval\n"
		"                       and removed when a signal stops pcptop\n"
		"      --cross-check    also count pages with kmem:mm_page_pcpu_drain next to\n"
		"                       the function probe (the two must agree)\n" CLI_PROBE_OPTS_HELP
		"  -v, --verbose        libbpf's log and the verifier's cost on stderr\n"
		"  -h, --help           this text\n"
		"\n"
		"Figures marked '~' are estimates: tracepoint event runs, or free_high\n"
		"taken from what a bulk free shows at its entry (without\n"
		"--exact-free-high). In tracepoint mode zones are not known: '-'.\n"
		"\n"
		"Examples:\n"
		"  pcptop stat -i 1                  text every second\n"
		"  pcptop stat -i 10 -c 1 --json     one object after 10 s\n"
		"  pcptop stat --mode tracepoint     never use fentry/kprobe\n"
		"  pcptop stat -i 15 --prom /var/lib/node_exporter/pcptop.prom >/dev/null\n"
		"                                    feed node_exporter's textfile collector\n",
		RUN_GAP_NS_DEFAULT);
}

/* one interval after another until the count or a signal; 0 or -errno */
static int stat_loop(const struct stat_opts *o, struct system *sys,
		     struct snapshot *snap, struct prom_state *ps)
{
	struct figures f;
	double start, end;
	long n;
	int err;

	start = clock_mono_s();
	for (n = 0; !sig_exiting && (!o->count || n < o->count); n++) {
		clock_sleep_s(o->interval, &sig_exiting);
		err = system_sample(sys, snap);
		if (err) {
			cli_warn("reading BPF maps: %s", strerror(-err));
			return err;
		}
		end = clock_mono_s();
		figures_compute(snap, SNAP_ALL, SNAP_ALL, &f);
		facts_observe_scale(&sys->f, &f);
		attach_self_cost(&sys->a, &sys->f.self);
		prom_update(ps, &f, &snap->smp, end - start);
		if (o->json)
			stat_print_json(stdout, &sys->f, &f, &snap->smp,
					end - start);
		else
			stat_print_text(stdout, &sys->f, &f, &snap->smp,
					end - start, o->hists);
		/* a reader that has gone (| head) ends the run, cleanly */
		if (ferror(stdout))
			return errno == EPIPE ? 0 : -EIO;
		start = end;
	}
	return 0;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o;
	struct system sys;
	struct snapshot snap = {};
	char msg[OUTFILE_MSG_LEN];
	struct prom_state ps;
	int err;

	err = cli_parse_stat(argc, argv, &o);
	if (err || o.help) {
		if (o.help)
			stat_usage(stdout);
		return cli_status(err);
	}
	sig_install(NULL, 0);
	/* a bad --prom is bad input, found before anything is loaded */
	if (o.prom && outfile_check(o.prom, msg, sizeof(msg)))
		return cli_status(cli_bad_input("%s", msg));
	err = system_attach(&sys, &o.attach, true, false);
	if (err)
		return cli_status(err);
	prom_init(&ps, o.prom, &sys.f);
	err = snapshot_alloc(&snap, system_nr_cpus());
	if (err) {
		cli_warn("out of memory for %d CPUs", snap.nr_cpus);
		goto out;
	}
	if (!o.json)
		stat_print_header(stdout, &sys.f);
	err = stat_loop(&o, &sys, &snap, &ps);
	/* a count's end leaves the file for its reader; a service stops */
	if (sig_exiting)
		prom_remove(&ps);
out:
	snapshot_free(&snap);
	prom_free(&ps);
	system_detach(&sys);
	return err ? EXIT_RUNTIME : EXIT_OK;
}
