// SPDX-License-Identifier: GPL-2.0-only
/* pcptop report and diff (issue 6 replaces this stub) */
#include "cli.h"

int cmd_report(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("report is not built yet");
}

int cmd_diff(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return cli_error("diff is not built yet");
}
