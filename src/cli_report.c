// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop report's and diff's options: they read recordings and attach
 * nothing, so they share none of cli.c's attach options, and a file of
 * their own keeps cli.c under the size CONTRIBUTING.md asks.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

enum {
	OPT_R_CSV = 0x100,
	OPT_R_HTML,
};

static const struct option report_longopts[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "csv", no_argument, NULL, OPT_R_CSV },
	{ "html", required_argument, NULL, OPT_R_HTML },
	{ "no-timeline", no_argument, NULL, 'T' },
	{ "no-hist", no_argument, NULL, 'H' },
	{ "help", no_argument, NULL, 'h' },
	{}
};

/*
 * The options of report or diff in argv[1..argc), and the operands after
 * o->files[o->nr_files]; max caps the operands this call may add. diff
 * calls it once a side, so options may follow the "--" too.
 */
static int report_args(int argc, char **argv, struct report_opts *o, bool diff,
		       int max)
{
	const char *cmd = diff ? "diff" : "report";
	int c, first = o->nr_files;

	/* 0, not 1: glibc then also forgets the last call's state */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, diff ? ":jh" : ":jTHh",
				report_longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			if (o->fmt == FMT_CSV)
				return cli_bad_input(
					"--json and --csv exclude each other");
			o->fmt = FMT_JSON;
			break;
		case OPT_R_CSV:
			if (diff)
				return cli_bad_input(
					"diff has no --csv: use --json");
			if (o->fmt == FMT_JSON)
				return cli_bad_input(
					"--json and --csv exclude each other");
			o->fmt = FMT_CSV;
			break;
		case OPT_R_HTML:
			if (!optarg[0])
				return cli_bad_input("empty --html file name");
			o->html = optarg;
			break;
		case 'T':
			o->timeline = false;
			break;
		case 'H':
			o->hists = false;
			break;
		case 'h':
			o->help = true;
			return 0;
		default:
			return cli_bad_option(c, argv, cmd);
		}
	}
	for (; optind < argc; optind++) {
		if (o->nr_files - first == max)
			return diff ? cli_bad_input(
					      "diff compares at most %d runs a side",
					      max) :
				      cli_bad_input(
					      "unexpected argument '%s': see 'pcptop %s --help'",
					      argv[optind], cmd);
		o->files[o->nr_files++] = argv[optind];
	}
	return 0;
}

/*
 * diff's operands: "A B", or repeats "A1 A2 ... -- B1 B2 ..."; sep is
 * where the "--" is (argc: none). getopt would stop at the "--", so each
 * side is parsed on its own, the "--" standing in for argv[0] on B's.
 */
static int diff_args(int argc, char **argv, int sep, struct report_opts *o)
{
	int err;

	err = report_args(sep, argv, o, true, DIFF_MAX_RUNS);
	if (err || o->help)
		return err;
	if (sep == argc) {
		if (o->nr_files != 2)
			return cli_bad_input(
				"diff needs two recordings: pcptop diff A B, or repeats: pcptop diff A1 A2 -- B1 B2");
		o->nr_a = 1;
		return 0;
	}
	o->nr_a = o->nr_files;
	err = report_args(argc - sep, argv + sep, o, true, DIFF_MAX_RUNS);
	if (err || o->help)
		return err;
	if (!o->nr_a || o->nr_files == o->nr_a)
		return cli_bad_input(
			"diff needs recordings on both sides of '--': pcptop diff A1 A2 -- B1 B2");
	return 0;
}

int cli_parse_report(int argc, char **argv, struct report_opts *o, bool diff)
{
	int i, sep = argc, err;

	memset(o, 0, sizeof(*o));
	o->timeline = o->hists = true;
	for (i = 1; diff && i < argc; i++) {
		if (strcmp(argv[i], "--"))
			continue;
		if (sep != argc)
			return cli_bad_input(
				"diff takes one '--', between the runs of A and those of B");
		sep = i;
	}
	err = diff ? diff_args(argc, argv, sep, o) :
		     report_args(argc, argv, o, false, 1);
	if (err || o->help)
		return err;
	if (!diff && !o->nr_files)
		o->files[o->nr_files++] = DEFAULT_RECORDING;
	if (o->html && !strcmp(o->html, "-") && o->fmt != FMT_TEXT)
		return cli_bad_input(
			"--html - and --%s cannot both go to stdout",
			o->fmt == FMT_JSON ? "json" : "csv");
	return 0;
}
