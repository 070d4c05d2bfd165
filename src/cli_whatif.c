// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop whatif's options (cli.c holds the other commands'; this one has
 * a file of its own to keep cli.c under the size CONTRIBUTING.md asks).
 * What the values mean is checked where they are used (--scale's list
 * and --rules' name by the model's own parsers, in report/whatif_cmd.c);
 * here, only what can be said without them.
 */
#include <errno.h>
#include <getopt.h>
#include <string.h>
#include "cli.h"

enum {
	OPT_W_RULES = 0x100,
	OPT_W_HTML,
	OPT_W_CHECK,
	OPT_W_SAVE,
};

static const struct option whatif_longopts[] = {
	{ "scale", required_argument, NULL, 's' },
	{ "rules", required_argument, NULL, OPT_W_RULES },
	{ "json", no_argument, NULL, 'j' },
	{ "html", required_argument, NULL, OPT_W_HTML },
	{ "check", no_argument, NULL, OPT_W_CHECK },
	{ "save", required_argument, NULL, OPT_W_SAVE },
	{ "help", no_argument, NULL, 'h' },
	{}
};

static int whatif_bad_option(int c, char **argv)
{
	const char *opt = optind > 0 ? argv[optind - 1] : "?";

	if (c == ':')
		return cli_bad_input(
			"option '%s' needs a value: see 'pcptop whatif --help'",
			opt);
	return cli_bad_input("unknown option '%s': see 'pcptop whatif --help'",
			     opt);
}

static int whatif_check_combos(const struct whatif_cli *o)
{
	if (o->check && (o->scales || o->save || o->html || o->json))
		return cli_bad_input(
			"--check replays the recorded scale and prints its comparisons: it takes no --scale, --save, --html or --json");
	if (o->html && !strcmp(o->html, "-") && o->json)
		return cli_bad_input(
			"--html - and --json cannot both go to stdout");
	if (o->save && (!*o->save || !strcmp(o->save, "-")))
		return cli_bad_input(
			"bad --save '%s': a file to write the prediction to",
			o->save);
	if (o->html && !*o->html)
		return cli_bad_input("bad --html '': a file, or - for stdout");
	return 0;
}

int cli_parse_whatif(int argc, char **argv, struct whatif_cli *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:jh", whatif_longopts, NULL)) !=
	       -1) {
		switch (c) {
		case 's':
			o->scales = optarg;
			break;
		case OPT_W_RULES:
			o->rules = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case OPT_W_HTML:
			o->html = optarg;
			break;
		case OPT_W_CHECK:
			o->check = true;
			break;
		case OPT_W_SAVE:
			o->save = optarg;
			break;
		case 'h':
			o->help = true;
			return 0;
		default:
			return whatif_bad_option(c, argv);
		}
	}
	if (argc - optind > 1)
		return cli_bad_input(
			"whatif takes one recording, not '%s' too: see 'pcptop whatif --help'",
			argv[optind + 1]);
	o->file = optind < argc ? argv[optind] : DEFAULT_RECORDING;
	if (!*o->file)
		return cli_bad_input("whatif: an empty file name");
	return whatif_check_combos(o);
}
