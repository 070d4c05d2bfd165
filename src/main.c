// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop: how the Linux page allocator's per-CPU pagesets batch their work.
 * The command table and what the commands share.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"

#define NSEC_PER_SEC 1000000000.0

volatile sig_atomic_t cli_exiting;

static const struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} cmds[] = {
	{ "info", cmd_info, "what is attached and why, the scale in force, each CPU's pcp count/high/batch" },
	{ "stat", cmd_stat, "counters and histograms every interval (text or --json)" },
	{ "top", cmd_top, "the live view (the default command)" },
	{ "record", cmd_record, "record intervals to a file, optionally around a command" },
	{ "report", cmd_report, "totals, timeline and histograms of a recording" },
	{ "diff", cmd_diff, "two recordings side by side" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"Usage: pcptop [COMMAND] [OPTIONS]\n"
		"\n"
		"Shows how the page allocator's per-CPU pagesets (PCP) batch their work:\n"
		"how many pages each bulk free and refill moves, how often free_high\n"
		"flushes and decay_pcp_high trims, how long zone->lock is held, and the\n"
		"PCP batch scale (CONFIG_PCP_BATCH_SCALE_MAX or pcp_batch_scale_max=)\n"
		"this kernel really runs with.\n"
		"\n"
		"Commands:\n");
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-6s %s\n", cmds[i].name, cmds[i].help);
	fprintf(f,
		"\n"
		"With no command (or only options) pcptop starts the live view, 'top'.\n"
		"'pcptop COMMAND --help' describes each command.\n"
		"\n"
		"Examples:\n"
		"  pcptop                       the live view; h for its keys\n"
		"  pcptop top -b -n 3           three plain-text frames, for logs\n"
		"  pcptop info                  modes, scale and its source, pagesets\n"
		"  pcptop stat -i 1             one report a second until Ctrl-C\n"
		"  pcptop stat -i 5 -c 1 --json one JSON object after 5 seconds\n"
		"\n"
		"Needs root (or CAP_BPF + CAP_PERFMON) and a kernel with BTF.\n"
		"Exit status: 0 ok, 1 runtime failure, 2 bad input or unusable system.\n"
		"See pcptop(8).\n");
}

int cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("pcptop: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

int cli_parse_seconds(const char *s, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno)
		return -EINVAL;
	if (*end == 's')
		end++;
	if (*end || !(v > 0) || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

int cli_parse_count(const char *s, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < 1)
		return -EINVAL;
	*out = v;
	return 0;
}

/* the estimated-call split of tracepoint mode; beyond 10 ms means nothing */
#define RUN_GAP_MAX_NS 10000000ULL

void cli_attach_defaults(struct attach_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->want = MODE_AUTO;
	o->run_gap_ns = RUN_GAP_NS_DEFAULT;
}

int cli_attach_opt(int c, const char *arg, struct attach_opts *o)
{
	unsigned long long ns;
	char *end;

	switch (c) {
	case 'm':
		if (probe_mode_parse(arg, &o->want))
			return cli_error("bad mode '%s': use auto, fentry, kprobe or tracepoint",
					 arg);
		return CLI_OPT_TAKEN;
	case 'v':
		o->verbose = true;
		return CLI_OPT_TAKEN;
	case CLI_OPT_CROSS_CHECK:
		o->cross_check = true;
		return CLI_OPT_TAKEN;
	case CLI_OPT_RUN_GAP:
		errno = 0;
		ns = strtoull(arg, &end, 10);
		if (errno || *end || end == arg || !ns || ns > RUN_GAP_MAX_NS)
			return cli_error("bad --run-gap '%s': nanoseconds, 1..%llu",
					 arg, RUN_GAP_MAX_NS);
		o->run_gap_ns = ns;
		return CLI_OPT_TAKEN;
	}
	return 0;
}

static void on_signal(int sig)
{
	(void)sig;
	cli_exiting = 1;
}

void cli_install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	/* no SA_RESTART: a sleeping loop must wake up and detach */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

void cli_sleep(double secs)
{
	struct timespec ts;

	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * NSEC_PER_SEC);
	while (!cli_exiting && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2)
		return cmd_top(argc, argv);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("pcptop %s\n", PCPTOP_VERSION);
		return EXIT_OK;
	}
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	/* "pcptop -d 2" is the live view with options, as top's are */
	if (argv[1][0] == '-')
		return cmd_top(argc, argv);
	return cli_error("unknown command '%s': try 'pcptop --help'", argv[1]);
}
