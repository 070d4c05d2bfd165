// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcptop: how the Linux page allocator's per-CPU pagesets batch their work.
 * The command table and what the commands share.
 */
#include <stdio.h>
#include <string.h>
#include "arrays.h"
#include "cli.h"

static const struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} cmds[] = {
	{ "info", cmd_info,
	  "what is attached and why, the scale in force, each CPU's pcp count/high/batch" },
	{ "stat", cmd_stat,
	  "counters and histograms every interval (text or --json)" },
	{ "top", cmd_top, "the live view (the default command)" },
	{ "record", cmd_record,
	  "record intervals to a file, optionally around a command" },
	{ "report", cmd_report,
	  "totals, timeline and histograms of a recording" },
	{ "diff", cmd_diff, "two recordings side by side" },
	{ "whatif", cmd_whatif,
	  "a --trace recording replayed at every scale: what each would do" },
	{ "btf-min", cmd_btf_min,
	  "a board's BTF cut down to what pcptop needs (a few KB)" },
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
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		fprintf(f, "  %-7s %s\n", cmds[i].name, cmds[i].help);
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
		"  pcptop whatif run.data       every scale predicted from one --trace run\n"
		"  pcptop btf-min vmlinux.btf pcptop.btf\n"
		"                               a board's BTF, for --btf (docs/FIELD.md)\n"
		"\n"
		"Needs root (or CAP_BPF + CAP_PERFMON) and BTF: the kernel's own, or a file\n"
		"given with --btf (btf-min makes one).\n"
		"Exit status: 0 ok, 1 runtime failure, 2 bad input or unusable system.\n"
		"See pcptop(8).\n");
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
	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	/* "pcptop -d 2" is the live view with options, as top's are */
	if (argv[1][0] == '-')
		return cmd_top(argc, argv);
	return cli_status(cli_bad_input(
		"unknown command '%s': try 'pcptop --help'", argv[1]));
}
