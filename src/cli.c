// SPDX-License-Identifier: GPL-2.0-only
/*
 * Option parsing for every command, in one place so each command file
 * keeps only what it does, and so the parsers can be tested and fuzzed
 * without libbpf. Options shared by the attaching commands (-m, -v,
 * --cross-check, --run-gap) are parsed once, by attach_opt().
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

enum {
	OPT_CROSS_CHECK = 0x100,
	OPT_RUN_GAP,
	OPT_EXACT_FREE_HIGH,
	OPT_LATENCY,
	OPT_PAGE_ORDERS,
	OPT_BTF,
	OPT_PROM,
	OPT_SYNC,
	OPT_TRACE,
};

/* clang-format off */
#define ATTACH_LONGOPTS							\
	{ "mode", required_argument, NULL, 'm' },			\
	{ "verbose", no_argument, NULL, 'v' },				\
	{ "cross-check", no_argument, NULL, OPT_CROSS_CHECK },		\
	{ "exact-free-high", no_argument, NULL, OPT_EXACT_FREE_HIGH },	\
	{ "latency", no_argument, NULL, OPT_LATENCY },			\
	{ "page-orders", no_argument, NULL, OPT_PAGE_ORDERS },		\
	{ "btf", required_argument, NULL, OPT_BTF },			\
	{ "run-gap", required_argument, NULL, OPT_RUN_GAP }
/* clang-format on */

static void vwarn(const char *fmt, va_list ap)
{
	fputs("pcptop: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

int cli_bad_input(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int cli_status(int err)
{
	switch (err) {
	case 0:
		return EXIT_OK;
	case -ENOMEM:
	case -EIO:
	case -EPIPE:
	case -EFAULT:
		return EXIT_RUNTIME;
	default:
		return EXIT_USAGE;
	}
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

int cli_parse_delay(const char *s, double *out)
{
	double d;

	if (cli_parse_seconds(s, TOP_MAX_DELAY_S, &d) || d < TOP_MIN_DELAY_S)
		return -EINVAL;
	*out = d;
	return 0;
}

static void attach_defaults(struct attach_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->want = MODE_AUTO;
	o->run_gap_ns = RUN_GAP_NS_DEFAULT;
}

/* 1 when c was one of the shared options, 0 when not, -EINVAL when bad */
static int attach_opt(int c, const char *arg, struct attach_opts *o)
{
	unsigned long long ns;
	char *end;

	switch (c) {
	case 'm':
		if (probe_mode_parse(arg, &o->want))
			return cli_bad_input(
				"bad mode '%s': use auto, fentry, kprobe or tracepoint",
				arg);
		return 1;
	case 'v':
		o->verbose = true;
		return 1;
	case OPT_CROSS_CHECK:
		o->cross_check = true;
		return 1;
	case OPT_EXACT_FREE_HIGH:
		o->exact_free_high = true;
		return 1;
	case OPT_LATENCY:
		o->latency = true;
		return 1;
	case OPT_PAGE_ORDERS:
		o->page_orders = true;
		return 1;
	case OPT_BTF:
		if (!*arg)
			return cli_bad_input("bad --btf '': a BTF file");
		o->btf_path = arg;
		return 1;
	case OPT_RUN_GAP:
		errno = 0;
		ns = strtoull(arg, &end, 10);
		if (errno || *end || end == arg || !ns || ns > RUN_GAP_MAX_NS ||
		    arg[0] == '-')
			return cli_bad_input(
				"bad --run-gap '%s': nanoseconds, 1..%llu", arg,
				RUN_GAP_MAX_NS);
		o->run_gap_ns = ns;
		return 1;
	}
	return 0;
}

/* what a command says about an option of another command's, or an extra */
/*
 * getopt's own complaints are off (opterr = 0, ':' leading the short
 * options): one line names the option and where to look
 */
int cli_bad_option(int c, char **argv, const char *cmd)
{
	const char *opt = optind > 0 ? argv[optind - 1] : "?";
	char shortopt[3] = { '-', (char)optopt, '\0' };

	/* an unknown short option in a cluster ("-xq"): name the letter */
	if (c == '?' && optopt && opt[0] == '-' && opt[1] != '-')
		opt = shortopt;
	if (c == ':')
		return cli_bad_input(
			"option '%s' needs a value: see 'pcptop %s --help'",
			opt, cmd);
	return cli_bad_input("unknown option '%s': see 'pcptop %s --help'", opt,
			     cmd);
}

static int other_opt(int c, const char *arg, struct attach_opts *ao,
		     char **argv, const char *cmd)
{
	int err = ao && c != '?' && c != ':' ? attach_opt(c, arg, ao) : 0;

	if (err)
		return err < 0 ? err : 0;
	return cli_bad_option(c, argv, cmd);
}

static int no_extra_args(int argc, char **argv, const char *cmd)
{
	if (optind < argc)
		return cli_bad_input(
			"unexpected argument '%s': see 'pcptop %s --help'",
			argv[optind], cmd);
	return 0;
}

int cli_parse_info(int argc, char **argv, struct info_opts *o)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		ATTACH_LONGOPTS,
		{}
	};
	int c, err;

	memset(o, 0, sizeof(*o));
	attach_defaults(&o->attach);
	/* 0, not 1: glibc then also forgets the last call's state */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jm:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			o->json = true;
			break;
		case 'h':
			o->help = true;
			return 0;
		default:
			err = other_opt(c, optarg, &o->attach, argv, "info");
			if (err)
				return err;
		}
	}
	return no_extra_args(argc, argv, "info");
}

int cli_parse_stat(int argc, char **argv, struct stat_opts *o)
{
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "no-hist", no_argument, NULL, 'H' },
		{ "prom", required_argument, NULL, OPT_PROM },
		{ "help", no_argument, NULL, 'h' },
		ATTACH_LONGOPTS,
		{}
	};
	int c, err;

	memset(o, 0, sizeof(*o));
	o->interval = 1.0;
	o->hists = true;
	attach_defaults(&o->attach);
	/* 0, not 1: glibc then also forgets the last call's state */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:c:m:jHvh", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'i':
			if (cli_parse_seconds(optarg, MAX_INTERVAL_S,
					      &o->interval))
				return cli_bad_input(
					"bad interval '%s': give seconds, e.g. -i 1 or -i 0.5",
					optarg);
			break;
		case 'c':
			if (cli_parse_count(optarg, &o->count))
				return cli_bad_input(
					"bad count '%s': give a whole number >= 1",
					optarg);
			break;
		case 'j':
			o->json = true;
			break;
		case 'H':
			o->hists = false;
			break;
		case OPT_PROM:
			if (!optarg[0])
				return cli_bad_input("empty --prom file name");
			o->prom = optarg;
			break;
		case 'h':
			o->help = true;
			return 0;
		default:
			err = other_opt(c, optarg, &o->attach, argv, "stat");
			if (err)
				return err;
		}
	}
	return no_extra_args(argc, argv, "stat");
}

int cli_parse_top(int argc, char **argv, struct top_opts *o)
{
	static const struct option longopts[] = {
		{ "delay", required_argument, NULL, 'd' },
		{ "iterations", required_argument, NULL, 'n' },
		{ "batch", no_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		ATTACH_LONGOPTS,
		{}
	};
	int c, err;

	memset(o, 0, sizeof(*o));
	o->delay = 1.0;
	attach_defaults(&o->attach);
	/* 0, not 1: glibc then also forgets the last call's state */
	optind = 0;
	/* the live view names the bad option itself: one line */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:n:bm:vh", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'd':
			if (cli_parse_delay(optarg, &o->delay))
				return cli_bad_input(
					"bad delay '%s': seconds from %.1f to %.0f, e.g. -d 1 or -d 0.5",
					optarg, TOP_MIN_DELAY_S,
					TOP_MAX_DELAY_S);
			break;
		case 'n':
			if (cli_parse_count(optarg, &o->count))
				return cli_bad_input(
					"bad count '%s': give a whole number >= 1",
					optarg);
			break;
		case 'b':
			o->batch = true;
			break;
		case 'h':
			o->help = true;
			return 0;
		case ':':
			return cli_bad_option(c, argv, "top");
		default:
			err = attach_opt(c, optarg, &o->attach);
			if (err < 0)
				return err;
			if (!err)
				return cli_bad_option(c, argv, "top");
		}
	}
	return no_extra_args(argc, argv, "top");
}

int cli_parse_record(int argc, char **argv, struct record_opts *o)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "interval", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'd' },
		{ "prom", required_argument, NULL, OPT_PROM },
		{ "sync", required_argument, NULL, OPT_SYNC },
		{ "trace", no_argument, NULL, OPT_TRACE },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		ATTACH_LONGOPTS,
		{}
	};
	int c, err;

	memset(o, 0, sizeof(*o));
	o->out = DEFAULT_RECORDING;
	o->interval = 1.0;
	o->sync = RECORD_SYNC_DEFAULT_S;
	attach_defaults(&o->attach);
	/* 0, not 1: glibc then also forgets the last call's state */
	optind = 0;
	opterr = 0;
	/* "+": the first non-option starts the command and its own options */
	while ((c = getopt_long(argc, argv, "+:o:i:d:m:qvh", longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 'o':
			if (!optarg[0])
				return cli_bad_input(
					"empty --output file name");
			o->out = optarg;
			break;
		case 'i':
			if (cli_parse_seconds(optarg, MAX_INTERVAL_S,
					      &o->interval))
				return cli_bad_input(
					"bad interval '%s': give seconds, e.g. -i 1 or -i 0.5",
					optarg);
			break;
		case 'd':
			if (cli_parse_seconds(optarg, MAX_DURATION_S,
					      &o->duration))
				return cli_bad_input(
					"bad duration '%s': give seconds, e.g. -d 60",
					optarg);
			break;
		case OPT_PROM:
			if (!optarg[0])
				return cli_bad_input("empty --prom file name");
			o->prom = optarg;
			break;
		case OPT_SYNC:
			/* 0: the old way, one fsync when the recording ends */
			if (!strcmp(optarg, "0"))
				o->sync = 0;
			else if (cli_parse_seconds(optarg, MAX_INTERVAL_S,
						   &o->sync))
				return cli_bad_input(
					"bad --sync '%s': give seconds between fsyncs, e.g. --sync 5, or 0 for only at the end",
					optarg);
			break;
		case OPT_TRACE:
			o->trace = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			o->help = true;
			return 0;
		default:
			err = other_opt(c, optarg, &o->attach, argv, "record");
			if (err)
				return err;
		}
	}
	o->argc = argc - optind;
	o->argv = argv + optind;
	return 0;
}

int cli_parse_btf_min(int argc, char **argv, struct btf_min_cli *o)
{
	static const struct option longopts[] = {
		{ "object", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	int c;

	memset(o, 0, sizeof(*o));
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (!*optarg)
				return cli_bad_input(
					"bad --object '': a BPF object file");
			o->object = optarg;
			break;
		case 'h':
			o->help = true;
			return 0;
		default:
			return cli_bad_option(c, argv, "btf-min");
		}
	}
	if (argc - optind != 2)
		return cli_bad_input(
			"btf-min takes two files, the kernel's BTF and the one to write: see 'pcptop btf-min --help'");
	o->src = argv[optind];
	o->out = argv[optind + 1];
	if (!*o->src || !*o->out)
		return cli_bad_input("btf-min: an empty file name");
	return 0;
}
